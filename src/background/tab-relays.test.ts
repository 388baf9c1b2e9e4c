import { describe, expect, it, vi } from 'vitest';
import { newTabState, type BackgroundToRelay, type CaptureMode, type RelayToBackground } from '../shared/messages.ts';
import { RelayPort } from './relay-port.ts';
import { SETTLE_TIMEOUT_MS, TabRelays, configOf, pageOf, parentFrameOf } from './tab-relays.ts';
import { useFakeApi, fakePort } from '../../test/helpers/background-fakes.ts';

const TAB = 7;

function relay(frameId: number, origin: string, mode: CaptureMode | null = 'full') {
  const p = fakePort<RelayToBackground, BackgroundToRelay>('capture');
  const r = new RelayPort(p.port, TAB, frameId);
  r.hello(origin, mode);
  return {
    ...p,
    relay: r,
    configs: () => p.sent.flatMap((m) => (m.type === 'config' ? [m.config] : [])),
    flushes: () => p.sent.flatMap((m) => (m.type === 'flush' ? [m.id] : [])),
  };
}

const fake = useFakeApi();

describe('configOf', () => {
  it.each([
    ['full mode', false, 'full', { receiveOnly: false, paused: false }],
    ['receive-only mode', false, 'receive-only', { receiveOnly: true, paused: false }],
    ['a paused tab', true, 'full', { receiveOnly: false, paused: true }],
    ['out of scope', false, null, { receiveOnly: true, paused: true }],
    ['before the hello', false, undefined, { receiveOnly: true, paused: false }],
  ] as const)('%s', (_what, paused, mode, expected) => {
    expect(configOf(newTabState(TAB, { paused }), mode, 2048)).toEqual({ ...expected, maxBytes: 2048 });
  });
});

describe('pageOf: the page a frame is in, as the browser names it', () => {
  it('is the top document above the frame, through nested frames', async () => {
    fake.env.documents.set('ad', { parentFrameId: 3, parentDocumentId: 'embed' });
    fake.env.documents.set('embed', { parentFrameId: 0, parentDocumentId: 'top' });
    expect(await pageOf(TAB, 5, 'ad')).toBe('top');
    expect(await pageOf(TAB, 3, 'embed')).toBe('top');
    expect(await pageOf(TAB, 0, 'top')).toBe('top'); // (the top frame's own, asked of no one)
  });

  it('is its own for the outermost document of a page being prerendered (not frame 0)', async () => {
    fake.env.documents.set('pre', { parentFrameId: -1 });
    fake.env.documents.set('pre-embed', { parentFrameId: 9, parentDocumentId: 'pre' });
    expect(await pageOf(TAB, 9, 'pre')).toBe('pre');
    expect(await pageOf(TAB, 10, 'pre-embed')).toBe('pre');
  });

  it('is unknown where the browser cannot tell: no documentId, a document gone, a lookup that fails', async () => {
    expect(await pageOf(TAB, 3, undefined)).toBeUndefined();
    expect(await pageOf(TAB, 3, 'gone')).toBeUndefined();
    fake.env.documents.set('orphan', { parentFrameId: 4 });
    expect(await pageOf(TAB, 3, 'orphan')).toBeUndefined();
    vi.spyOn(fake.env.api.webNavigation!, 'getFrame').mockRejectedValueOnce(new Error('No frame'));
    fake.env.documents.set('embed', { parentFrameId: 0, parentDocumentId: 'top' });
    expect(await pageOf(TAB, 3, 'embed')).toBeUndefined();
  });
});

describe('tab relays', () => {
  it('every frame gets its config, stamped', () => {
    const relays = new TabRelays();
    const top = relay(0, 'https://host.example');
    const embed = relay(3, 'https://acme.example.com', 'receive-only');
    relays.attach(top.relay);
    relays.attach(embed.relay);
    relays.pushConfig(newTabState(TAB, { paused: true }), 4096);
    expect(top.configs()).toEqual([{ receiveOnly: false, paused: true, maxBytes: 4096 }]);
    expect(embed.configs()).toEqual([{ receiveOnly: true, paused: true, maxBytes: 4096 }]);
    expect(top.sent[0]).toMatchObject({ v: expect.any(Number), type: 'config' });
  });

  it('a port closed before it is attached is not kept; a newer relay of the frame outlives the older one', () => {
    const relays = new TabRelays();
    const gone = relay(3, 'https://acme.example.com');
    gone.relay.closed();
    relays.attach(gone.relay);
    expect(relays.get(3)).toBeUndefined();
    const older = relay(3, 'https://acme.example.com');
    const newer = relay(3, 'https://acme.example.com');
    relays.attach(older.relay);
    relays.attach(newer.relay);
    relays.detach(older.relay);
    expect(relays.get(3)).toBe(newer.relay);
    relays.detach(newer.relay);
    expect(relays.get(3)).toBeUndefined();
  });

  it('a scope change pauses and lets go the frames whose site left it; the others get their new mode', () => {
    const relays = new TabRelays();
    const top = relay(0, 'https://host.example');
    const embed = relay(3, 'https://acme.example.com');
    relays.attach(top.relay);
    relays.attach(embed.relay);
    const modes: Record<string, CaptureMode> = { 'https://host.example': 'receive-only' };
    relays.rescope((o) => (o ? (modes[o] ?? null) : null), newTabState(TAB), 1024);
    expect(embed.configs()).toEqual([{ receiveOnly: true, paused: true, maxBytes: 1024 }]);
    expect(embed.relay.outOfScope).toBe(true);
    expect(relays.get(3)).toBeUndefined();
    expect(top.relay.mode).toBe('receive-only');
    expect(relays.get(0)).toBe(top.relay);
  });

  it('a burst a frame received ended: every other frame in full mode is asked to hand over, once', () => {
    const relays = new TabRelays();
    const frames = {
      receiver: relay(3, 'https://acme.example.com'),
      sender: relay(0, 'https://host.example'),
      otherSender: relay(5, 'https://other.example'),
      receiveOnly: relay(6, 'https://watch.example', 'receive-only'),
    };
    for (const f of Object.values(frames)) {
      relays.attach(f.relay);
    }
    relays.askHandOver(frames.receiver.relay);
    const asked = Object.fromEntries(
      Object.entries(frames).map(([name, f]) => [name, f.sent.filter((m) => m.type === 'hand-over').length]),
    );
    // A receive-only frame holds no posts; the receiver is handing over already.
    expect(asked).toEqual({ receiver: 0, sender: 1, otherSender: 1, receiveOnly: 0 });
    expect(frames.sender.sent.at(-1)).toEqual({ v: expect.any(Number), type: 'hand-over' });
  });

  it('a hand-over is waited for until the frame answers; a frame that cannot be asked is not waited for', async () => {
    const relays = new TabRelays();
    const top = relay(0, 'https://host.example');
    const embed = relay(3, 'https://acme.example.com');
    relays.attach(top.relay);
    relays.attach(embed.relay);
    embed.port.disconnect(); // (its disconnect event has not come yet)
    const answered: string[] = [];
    const [topDone, embedDone] = relays.handOver();
    void topDone.then(() => answered.push('top'));
    await embedDone;
    await Promise.resolve();
    expect(answered).toEqual([]);
    expect(top.flushes()).toHaveLength(1);
    relays.flushed(top.flushes()[0])?.();
    await topDone;
    expect(answered).toEqual(['top']);
    expect(relays.flushed(top.flushes()[0])).toBeUndefined(); // answered once
  });

  it('a frame that never answers the hand-over is waited for SETTLE_TIMEOUT_MS at most, and counts as silent', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const relays = new TabRelays();
    relays.attach(relay(0, 'https://host.example').relay);
    let answers: Array<boolean | null> | null = null;
    void Promise.all(relays.handOver()).then((a) => {
      answers = a;
    });
    await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS - 1);
    expect(answers).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(answers).toEqual([false]);
  });

  // A frame handing over a long burst sends batches for longer than SETTLE_TIMEOUT_MS before it can answer: each
  // batch gives it the time again. Its port closing ends the wait (what it handed over came before).
  it.each([
    ['a batch every SETTLE_TIMEOUT_MS - 1, then the answer', 'answer', [true]],
    ['a batch every SETTLE_TIMEOUT_MS - 1, then the port closes', 'close', [true]],
    ['a batch every SETTLE_TIMEOUT_MS - 1, then nothing', 'nothing', [false]],
  ] as const)('%s', async (_what, end, expected) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const relays = new TabRelays();
    const top = relay(0, 'https://host.example');
    relays.attach(top.relay);
    let answers: Array<boolean | null> | null = null;
    void Promise.all(relays.handOver()).then((a) => {
      answers = a;
    });
    for (let k = 0; k < 5; k++) {
      await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS - 1);
      relays.progress(top.relay);
    }
    expect(answers).toBeNull(); // 5 × SETTLE_TIMEOUT_MS in, still handing over
    if (end === 'answer') {
      const done = relays.flushed(top.flushes()[0]);
      await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS); // the answer's batches on the chain: no time-out meanwhile
      expect(answers).toBeNull();
      done!();
    } else if (end === 'close') {
      relays.detach(top.relay);
    }
    await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS);
    expect(answers).toEqual(expected);
  });

  // The worker stopped while the page was quiet: frames 3 and 5 have no port. Frame 3's relay replies and hands
  // over on a new port, slowly (each batch gives it the time again); frame 5 has no relay of ours (out of scope).
  it('a frame with no port is asked by tabs.sendMessage and waited for on the port it opens; one with no relay is not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const relays = new TabRelays();
    const top = relay(0, 'https://host.example');
    relays.attach(top.relay);
    fake.env.sendMessage.mockImplementation(async (_tab, raw, opts) => {
      if (opts?.frameId !== 3) {
        throw new Error('Could not establish connection. Receiving end does not exist.');
      }
      return { v: (raw as { v: number }).v, type: 'flushing', id: (raw as { id: string }).id };
    });
    let answers: Array<boolean | null> | null = null;
    void Promise.all(relays.handOver({ tabId: TAB, frameIds: [0, 3, 5] })).then((a) => {
      answers = a;
    });
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.env.sendMessage.mock.calls.map((c) => [c[0], c[2], (c[1] as BackgroundToRelay).type])).toEqual([
      [TAB, { frameId: 3 }, 'flush'],
      [TAB, { frameId: 5 }, 'flush'],
    ]);
    relays.flushed(top.flushes()[0])?.();
    const asked = (fake.env.sendMessage.mock.calls[0][1] as { id: string }).id;
    const embed = relay(3, 'https://acme.example.com');
    relays.attach(embed.relay);
    for (let k = 0; k < 3; k++) {
      relays.progress(embed.relay);
      await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS - 1);
    }
    expect(answers).toBeNull(); // 3 × SETTLE_TIMEOUT_MS in, still handing over
    relays.flushed(asked)?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toEqual([true, true, null]);
  });

  it("a subframe's parent is the browser's, else the one known", async () => {
    fake.env.parents.set(3, 0);
    expect(await parentFrameOf(TAB, 3, -1)).toBe(0);
    expect(await parentFrameOf(TAB, 9, 4)).toBe(4);
  });
});
