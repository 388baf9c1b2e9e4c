import { describe, expect, it } from 'vitest';
import { actionSnippet, listenerSnippet } from './copy-as-code.ts';
import { redactCapture, redactString, REDACTED } from '../../../protocol/redact.ts';
import { Replayer, stepsFrom, type Clock } from './replay.ts';
import { envelope, formFields, payloadFromForm, timeZoneSuggestions } from './composer.ts';
import { classify } from '../../../protocol/classify.ts';
import { ACTION_TYPES, EVENT_TYPES } from '../../../protocol/catalog.ts';
import { encode } from '../../../protocol/encoding.ts';

const TENANT = 'http://localhost:4101';

describe('copy as code', () => {
  it('an action snippet posts the captured action to the iframe with the tenant origin, never *', () => {
    const data = encode({
      source: 'svc-embed',
      direction: 'action',
      type: 'svc:action:set-theme',
      payload: { primaryColor: '#fff', when: new Date(0) },
      timestamp: 1,
    }).value;
    const code = actionSnippet(data, { tenantOrigin: TENANT });
    expect(code).toContain(`const TENANT_ORIGIN = "${TENANT}";`);
    expect(code).toContain('iframe.contentWindow.postMessage(');
    expect(code).toContain('type: "svc:action:set-theme"');
    expect(code).toContain('when: new Date("1970-01-01T00:00:00.000Z")');
    expect(code).not.toMatch(/postMessage\([^)]*'\*'/);
    // The snippet runs: evaluate it against a fake iframe and check what it posts.
    const posted: unknown[] = [];
    const document = {
      querySelector: () => ({ contentWindow: { postMessage: (m: unknown, o: string) => posted.push([m, o]) } }),
    };
    new Function('document', code)(document);
    const [m, origin] = posted[0] as [any, string];
    expect(origin).toBe(TENANT);
    expect(
      classify(
        { kind: 'post', origin: 'http://127.0.0.1:4100', targetOrigin: origin, data: m },
        { tenantOrigin: TENANT },
      ).verdict,
    ).toBe('valid');
  });

  it('an action snippet posts a payload key named __proto__ as an own key, not as a prototype', () => {
    const data = JSON.parse(
      '{"source":"svc-embed","direction":"action","type":"svc:action:set-filter","payload":{"__proto__":{"x":1},"y":2}}',
    );
    const code = actionSnippet(data, { tenantOrigin: TENANT });
    const posted: unknown[] = [];
    const document = {
      querySelector: () => ({ contentWindow: { postMessage: (m: unknown) => posted.push(m) } }),
    };
    new Function('document', code)(document);
    const payload = (posted[0] as any).payload;
    expect(Object.hasOwn(payload, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
    expect(JSON.stringify(payload)).toBe('{"__proto__":{"x":1},"y":2}');
  });

  it('a listener snippet follows the three receiving rules', () => {
    const code = listenerSnippet('svc:event:download', { tenantOrigin: TENANT });
    const seen: unknown[] = [];
    let handler: (e: unknown) => void = () => {};
    const window = {
      addEventListener: (_t: string, h: (e: unknown) => void) => {
        handler = h;
      },
    };
    const console = { log: (...a: unknown[]) => seen.push(a) };
    new Function('window', 'console', code)(window, console);
    const ok = {
      source: 'svc-embed',
      direction: 'event',
      type: 'svc:event:download',
      surface: 'dashboard',
      payload: { format: 'csv', target: 'dashboard' },
    };
    handler({ origin: 'http://evil.example', data: ok });
    handler({ origin: TENANT, data: { ...ok, source: 'other' } });
    handler({ origin: TENANT, data: { ...ok, direction: 'action' } });
    expect(seen).toHaveLength(0);
    handler({ origin: TENANT, data: ok });
    expect(seen).toHaveLength(1);
    expect(code).toContain("format: 'csv' | 'xlsx' | 'png' | 'pdf'");
  });
});

describe('redaction', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
  it.each([
    [
      'session URL parameter',
      'http://localhost:4101/embed/dashboard/d1?session=abc123secret&allowExport=true',
      'http://localhost:4101/embed/dashboard/d1?session=[redacted]&allowExport=true',
    ],
    ['bearer token', 'Authorization: Bearer tok_live_12345', `Authorization: Bearer ${REDACTED}`],
    ['JWT anywhere', `token is ${jwt} ok`, `token is ${REDACTED} ok`],
    ['ordinary text untouched', 'f_orders.status="shipped"', 'f_orders.status="shipped"'],
  ])('%s', (_n, input, out) => expect(redactString(input)).toBe(out));

  it('a whole capture: URLs, data and secret-named fields; nothing secret remains', () => {
    const file = {
      format: 'embed-inspector-capture' as const,
      version: 1 as const,
      tenantOrigin: TENANT,
      meta: { pageUrl: 'http://127.0.0.1:4100/?session=s3cr3t-session' },
      messages: [
        {
          seq: 1,
          time: 1,
          kind: 'receive' as const,
          frameUrl: `${TENANT}/embed/dashboard/x?session=s3cr3t-session`,
          origin: TENANT,
          data: { source: 'svc-embed', payload: { token: 'raw-token-value', nested: [`Bearer ${jwt}`] } },
        },
      ],
    };
    const out = JSON.stringify(redactCapture(file));
    for (const secret of ['s3cr3t-session', 'raw-token-value', jwt]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('"redacted":true');
    expect(file.messages[0].frameUrl).toContain('s3cr3t'); // input untouched
  });
});

describe('replay', () => {
  function fakeClock() {
    let now = 0;
    const timers: Array<{ at: number; fn: () => void; id: number }> = [];
    let id = 0;
    const clock: Clock = {
      now: () => now,
      setTimeout: (fn, ms) => {
        timers.push({ at: now + ms, fn, id: ++id });
        return id;
      },
      clearTimeout: (h) => {
        const i = timers.findIndex((t) => t.id === h);
        if (i >= 0) {
          timers.splice(i, 1);
        }
      },
    };
    const advance = async (ms: number) => {
      const until = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const t = timers[0];
        if (!t || t.at > until) {
          break;
        }
        timers.shift();
        now = t.at;
        t.fn();
        await Promise.resolve();
        await Promise.resolve();
      }
      now = until;
    };
    return {
      clock,
      advance,
      get now() {
        return now;
      },
    };
  }
  const items = [
    { time: 1000, n: 'a' },
    { time: 1500, n: 'b' },
    { time: 3500, n: 'c' },
  ];

  it('plays with the original timing', async () => {
    const c = fakeClock();
    const sent: Array<[string, number]> = [];
    const r = new Replayer(
      stepsFrom(items),
      (i) => {
        sent.push([i.n, c.now]);
      },
      { clock: c.clock },
    );
    r.play();
    await c.advance(10_000);
    expect(sent).toEqual([
      ['a', 0],
      ['b', 500],
      ['c', 2500],
    ]);
    expect(r.state).toMatchObject({ done: true, playing: false });
  });
  it('plays faster', async () => {
    const c = fakeClock();
    const sent: Array<[string, number]> = [];
    const r = new Replayer(
      stepsFrom(items),
      (i) => {
        sent.push([i.n, c.now]);
      },
      { clock: c.clock, speed: 4 },
    );
    r.play();
    await c.advance(10_000);
    expect(sent.map((s) => s[1])).toEqual([0, 125, 625]);
  });
  it("keeps the recorded gaps from each send's start, however long its answer takes", async () => {
    const c = fakeClock();
    const sent: Array<[string, number]> = [];
    const r = new Replayer(
      stepsFrom(items),
      (i) =>
        new Promise<void>((done) => {
          sent.push([i.n, c.now]);
          c.clock.setTimeout(done, 100); // (the panel, the worker and the frame answer 100 ms later)
        }),
      { clock: c.clock },
    );
    r.play();
    await c.advance(10_000);
    expect(sent).toEqual([
      ['a', 0],
      ['b', 500],
      ['c', 2500],
    ]);
  });
  it('pauses, steps and resumes', async () => {
    const c = fakeClock();
    const sent: string[] = [];
    const r = new Replayer(
      stepsFrom(items),
      (i) => {
        sent.push(i.n);
      },
      { clock: c.clock },
    );
    r.play();
    await c.advance(0);
    r.pause();
    await c.advance(5000);
    expect(sent).toEqual(['a']);
    await r.step();
    expect(sent).toEqual(['a', 'b']);
    r.play();
    await c.advance(5000);
    expect(sent).toEqual(['a', 'b', 'c']);
  });
});

describe('composer model', () => {
  it.each([...ACTION_TYPES, ...EVENT_TYPES])('%s: the form covers every payload field of the catalog', (type) => {
    const fields = formFields(type);
    expect(fields.length).toBeGreaterThanOrEqual(type === 'svc:action:refresh' ? 0 : 1);
    for (const f of fields) {
      if (f.options) {
        expect(f.input).toBe('select');
      }
    }
  });
  it('special inputs for time zone, locale and filter', () => {
    expect(formFields('svc:action:set-timezone')[0].input).toBe('timezone');
    expect(formFields('svc:action:set-locale')[0].input).toBe('locale');
    expect(formFields('svc:action:set-filter')[0].input).toBe('filter');
    expect(timeZoneSuggestions()).toContain('Europe/Berlin');
  });
  it('builds envelopes the classifier accepts, and parses typed values', () => {
    const { payload, errors } = payloadFromForm('svc:event:dashboard-loaded', {
      widgetCount: '4',
      loadDurationMs: 'x',
    });
    expect(payload).toEqual({ widgetCount: 4 });
    expect(errors).toEqual({ loadDurationMs: 'not a number' });
    const ready = envelope(
      'svc:event:ready',
      payloadFromForm('svc:event:ready', {
        embedTenant: 'null',
        deploymentId: '3',
        mode: 'signed',
        surface: 'dashboard',
      }).payload,
    );
    expect(classify({ data: ready }).verdict).toBe('valid');
    expect(envelope('svc:event:drilldown', { member: 'm' }).surface).toBe('dashboard');
    expect('surface' in envelope('svc:action:refresh', {})).toBe(false);
  });
});
