import { describe, expect, it } from 'vitest';
import { FOREIGN_MAX_BYTES } from './observe.ts';
import {
  type Delivery,
  DELIVERY_CHARS,
  deliveryChars,
  deliveryJson,
  deliveryReader,
  fromReader,
  HELD_CHARS,
  hrefOf,
  installDeliveries,
} from './deliveries.ts';

describe('hrefOf: location.href from document.URL', () => {
  it.each([
    ['http://127.0.0.1:4100/a?q=1#h', 'http://127.0.0.1:4100/a?q=1#h'],
    ['http://user:secret@127.0.0.1:4100/a', 'http://127.0.0.1:4100/a'],
    ['https://user@host.test/', 'https://host.test/'],
    ['https://:pw@host.test/x', 'https://host.test/x'],
    ['https://host.test/path@with-at?mail=a@b.test', 'https://host.test/path@with-at?mail=a@b.test'],
    ['about:blank', 'about:blank'],
    ['about:srcdoc', 'about:srcdoc'],
    ['not a url @ all', 'not a url @ all'],
  ])('%s -> %s', (docUrl, href) => {
    expect(hrefOf(docUrl)).toBe(href);
  });
});

describe('a delivery is read at once, its record written from the parts at the hand-over', () => {
  const config = { receiveOnly: true, paused: false, maxBytes: 1_000_000 };
  /** A window stand-in: an EventTarget with the document the recorder reads. */
  const setup = (eager: boolean) => {
    const win = new EventTarget() as unknown as Window & { document: { URL: string } };
    (win as { document: unknown }).document = { URL: 'http://user:pw@host.test/p', createTextNode: () => ({}) };
    const held: Delivery[] = [];
    installDeliveries(win, {
      now: () => 1000.5,
      config: () => config,
      relationTo: () => 'other',
      eager,
      hold: (d) => held.push(d),
      channel: null,
    });
    return { win, held };
  };
  const ports = () => {
    const c = new MessageChannel();
    c.port2.close();
    return c.port1;
  };
  const long = 'x'.repeat(70_000);
  // (data, source, ports) delivered -> the record's fields besides time, kind and frameUrl
  it.each([
    ['an envelope', { source: 'svc-embed', type: 'svc:event:ready' }, false, 0, {}],
    ['a string', 'hello', false, 0, {}],
    ['a number', 0, false, 0, {}],
    ['from a window, with two ports', { a: [1, 2] }, true, 2, { from: 'other', transfer: 2 }],
    ['a foreign message over its cap', { text: long }, false, 0, { originalSize: expect.any(Number) }],
    ['an envelope over the foreign cap', { source: 'svc-embed', text: long }, false, 0, {}],
    ['a tagged value', { n: Number.NaN }, false, 0, {}],
  ])('%s', (_name, data, withSource, portCount, extra) => {
    for (const eager of [false, true]) {
      const { win, held } = setup(eager);
      const transfer = Array.from({ length: portCount }, ports);
      const source = withSource ? ports() : null;
      win.dispatchEvent(new MessageEvent('message', { data, origin: 'http://o.test', source, ports: transfer }));
      expect(held).toHaveLength(1);
      const [d] = held;
      expect(d.event).toBeNull();
      expect(deliveryChars(d)).toBeGreaterThanOrEqual(d.data.length);
      if (data && typeof data === 'object') {
        (data as Record<string, unknown>).later = 'a page listener changed it';
      }
      const record = JSON.parse(deliveryJson(d, config.maxBytes) as string);
      const { later: _later, ...sent } = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
      if (data && typeof data === 'object') {
        delete (data as Record<string, unknown>).later;
      }
      expect(record).toMatchObject({
        time: 1000.5,
        kind: 'receive',
        frameUrl: 'http://host.test/p',
        origin: 'http://o.test',
        ...extra,
      });
      expect(Object.keys(record).sort()).toEqual(
        ['time', 'kind', 'frameUrl', 'origin', 'data', ...Object.keys(extra)].sort(),
      );
      if ('originalSize' in extra) {
        expect(record.originalSize).toBeGreaterThan(FOREIGN_MAX_BYTES);
        expect(record.data).toMatchObject({ $ei: 'Truncated' });
      } else if (data && typeof data === 'object' && !('n' in data)) {
        expect(record.data).toEqual(sent);
      } else if (!(data && typeof data === 'object')) {
        expect(record.data).toEqual(data);
      } else {
        expect(record.data.n).toMatchObject({ $ei: 'Number' });
      }
      expect(deliveryJson(d, config.maxBytes), 'written once').toBe(JSON.stringify(record));
      for (const p of transfer) {
        p.close();
      }
      (source as MessagePort | null)?.close();
    }
  });
});

describe("the MAIN world's reader: one call reads a delivery, or declines it", () => {
  const origin = 'http://o.test';
  const port = () => {
    const c = new MessageChannel();
    c.port2.close();
    return c.port1;
  };
  const long = 'x'.repeat(70_000);
  // data, ports delivered -> read (the data's JSON, as the relay would write it) or declined ('')
  it.each([
    ['an envelope', { source: 'svc-embed', type: 'svc:event:ready', payload: { a: [1, { b: 'c' }] } }, 0, true],
    ['a string', 'hello', 0, true],
    ['a number', 7, 0, true],
    ['null', null, 0, true],
    ['with two ports', { a: [1, 2] }, 2, true],
    ['an envelope over the foreign cap', { source: 'svc-embed', text: long }, 0, true],
    [
      'a 10 KB envelope',
      { source: 'svc-embed', type: 'svc:event:data', payload: { text: long.slice(0, 10_000) } },
      0,
      true,
    ],
    ['a 2 KB foreign message', { text: long.slice(0, 2_100), list: [1, 2] }, 0, true],
    ['a foreign message over its cap (truncated by the relay)', { text: long }, 0, false],
    ['a string over the foreign cap', long, 0, false],
    ['a tagged value', { n: Number.NaN }, 0, false],
    ['a Date', { d: new Date(5) }, 0, false],
    // biome-ignore lint/suspicious/noSparseArray: a hole is what the case is about
    ['a sparse array', [1, , 3], 0, false],
    ['a $ei key', { $ei: 'x' }, 0, false],
  ])('%s', (_name, data, portCount, read) => {
    const reader = deliveryReader(() => 1234.5)!;
    const ports = Array.from({ length: portCount }, port);
    const r = reader(new MessageEvent('message', { data, origin, ports }), 1_000_000);
    if (!read) {
      expect(r).toBe('');
    } else {
      const d = fromReader(r, 3, 'http://host.test/p');
      expect(d).toMatchObject({ i: 3, time: 1234.5, origin, transfer: portCount, docUrl: 'http://host.test/p' });
      const text = JSON.stringify(data);
      // long data is held as a copy, its text written when the relay asks, once
      expect(d.slot !== undefined).toBe(text.length >= HELD_CHARS);
      if (d.slot) {
        expect(d.data).toBe('');
        expect(Math.abs(deliveryChars(d) - DELIVERY_CHARS + 200 - text.length)).toBeLessThan(text.length / 50);
        expect(reader(null, d.slot.n)).toBe(text);
        expect(reader(null, d.slot.n)).toBe('');
      } else {
        expect(d.data).toBe(text);
        expect(deliveryChars(d)).toBeGreaterThanOrEqual(d.data.length);
      }
    }
    for (const p of ports) {
      p.close();
    }
  });

  it('says when the source changes, so that the relay finds a relation only then', () => {
    const reader = deliveryReader(() => 0)!;
    const [a, b] = [port(), port()];
    const changed = (source: MessagePort | null) =>
      reader(new MessageEvent('message', { data: 1, origin, source }), 100)[0];
    expect([a, a, b, b, null, null, a].map(changed)).toEqual(['1', '0', '1', '0', '1', '0', '1']);
    a.close();
    b.close();
  });

  it("declines data a page prototype's toJSON would write, without running it", () => {
    const reader = deliveryReader(() => 0)!;
    let ran = 0;
    Object.defineProperty(Object.prototype, 'toJSON', {
      configurable: true,
      get() {
        ran++;
        return undefined;
      },
    });
    try {
      expect(reader(new MessageEvent('message', { data: { a: 1 }, origin }), 100)).toBe('');
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON;
    }
    expect(ran).toBe(0);
  });
});
