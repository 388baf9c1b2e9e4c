import { afterAll, describe, expect, it, vi } from 'vitest';
import type { BackgroundToRelay, RelayToBackground, SpilledBatches } from '../shared/messages.ts';
import { stamp } from '../shared/channel.ts';
import type { Runtime } from '../shared/browser-api.ts';
import { Link, MAX_SPILL_CHARS, type LinkOptions, type RuntimeLike } from './link.ts';

vi.useFakeTimers();
afterAll(() => {
  vi.useRealTimers();
});

/** A stand-in for runtime.connect: each connection is a fake Port that keeps what the relay posts. */
function fakeRuntime() {
  const ports: Array<{
    sent: RelayToBackground[];
    deliver: (m: BackgroundToRelay) => void;
    disconnect: () => void;
    closed: boolean;
  }> = [];
  const runtime: RuntimeLike = {
    connect() {
      const onMessage: Array<(m: BackgroundToRelay) => void> = [];
      const onDisconnect: Array<() => void> = [];
      const p = {
        sent: [] as RelayToBackground[],
        closed: false,
        deliver: (m: BackgroundToRelay) =>
          onMessage.forEach((fn) => {
            fn(m);
          }),
        disconnect: () => {
          p.closed = true;
          for (const fn of onDisconnect) {
            fn();
          }
        },
      };
      ports.push(p);
      return {
        name: 'capture',
        postMessage: (m: RelayToBackground) => {
          if (p.closed) {
            throw new Error('Attempting to use a disconnected port object');
          }
          p.sent.push(m);
        },
        disconnect: () => {
          p.closed = true;
        },
        onMessage: { addListener: (fn: (m: BackgroundToRelay) => void) => onMessage.push(fn) },
        onDisconnect: { addListener: (fn: () => void) => onDisconnect.push(fn) },
      } as unknown as Runtime.Port;
    },
  };
  return { runtime, ports };
}
const link = (runtime: RuntimeLike, hooks: Pick<LinkOptions, 'flushed' | 'dropped' | 'store'> = {}) =>
  new Link({
    runtime,
    hello: () => ({ frameUrl: 'https://host.example/', isTop: true, time: 1 }),
    onMessage: () => {},
    ...hooks,
  });
const batches = (sent: RelayToBackground[]) =>
  sent.flatMap((m) => (m.type === 'records' ? [[m.batch, JSON.parse(m.json)] as const] : []));
const ack = (batch: number): BackgroundToRelay => stamp<BackgroundToRelay>({ type: 'ack', batch });

describe('the relay link: batches kept until acknowledged, resent after a reconnection', () => {
  it('says hello first, then sends queued records as one numbered batch', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.start();
    l.push('{"n":1}');
    l.push('{"n":2}', true);
    vi.advanceTimersByTime(0);
    expect(ports[0].sent[0].type).toBe('hello');
    expect(batches(ports[0].sent)).toEqual([[1, [{ n: 1 }, { n: 2 }]]]);
    expect(l.backlog).toBe(1); // not acknowledged yet
    ports[0].deliver(ack(1));
    expect(l.backlog).toBe(0);
  });

  it('says when a flush has left nothing queued (the relay then drops its pagehide listener)', () => {
    const { runtime } = fakeRuntime();
    const queuedAtFlushed: number[] = [];
    const l: Link = link(runtime, { flushed: () => queuedAtFlushed.push(l.queued) });
    l.start();
    l.push('{"n":1}');
    l.push('{"n":2}');
    expect(l.queued).toBe(2);
    expect(queuedAtFlushed).toEqual([]);
    vi.advanceTimersByTime(30);
    expect(queuedAtFlushed).toEqual([0]);
    l.flush(); // nothing queued: said again
    expect(queuedAtFlushed).toEqual([0, 0]);
  });

  it('a batch sent as it reaches its bound says nothing is queued only at the end of the task', () => {
    const { runtime, ports } = fakeRuntime();
    let flushed = 0;
    const l = link(runtime, { flushed: () => flushed++ });
    l.start();
    const big = `"${'x'.repeat(2_000_000)}"`;
    l.push(big);
    l.push(big); // past the bound: sent at once, in the middle of what its caller pushes
    expect(batches(ports[0].sent).length).toBe(1);
    expect(flushed).toBe(0);
    l.push('{"n":3}'); // the caller's last part
    vi.advanceTimersByTime(0);
    expect(flushed).toBe(1);
    expect(batches(ports[0].sent).map(([, recs]) => recs.length)).toEqual([2, 1]);
  });

  it('loses nothing when the port drops (the service worker stopped): reconnects, resends in order', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    ports[0].deliver(ack(1));
    l.push('{"n":2}', true);
    vi.advanceTimersByTime(0);
    l.push('{"n":3}', true);
    vi.advanceTimersByTime(0);
    // Batches 2 and 3 were sent but not acknowledged when the worker stopped.
    ports[0].disconnect();
    l.push('{"n":4}', true);
    vi.advanceTimersByTime(2000);
    expect(ports.length).toBeGreaterThanOrEqual(2);
    const again = ports.slice(1).flatMap((p) => batches(p.sent));
    expect(again.map(([b]) => b)).toEqual([2, 3, 4]);
    expect(again.flatMap(([, recs]) => recs)).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }]);
    ports.at(-1)!.deliver(ack(4));
    expect(l.backlog).toBe(0);
  });

  it('a flush while the port is down resends what it had not acknowledged, at once (the page is going away)', () => {
    const { runtime, ports } = fakeRuntime();
    let dropped = 0;
    let flushed = 0;
    const l = link(runtime, { dropped: () => dropped++, flushed: () => flushed++ });
    l.start();
    ports[0].deliver(ack(0)); // (a worker answers)
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    expect(l.waiting).toBe(0); // sent on an answered port
    // The background closed the port before acknowledging (its storage failed; the worker stopped).
    ports[0].disconnect();
    expect(dropped).toBe(1);
    expect(l.waiting).toBe(1);
    l.flush(); // pagehide: no waiting for the retry timer
    expect(ports.length).toBe(2);
    expect(batches(ports[1].sent)).toEqual([[1, [{ n: 1 }]]]);
    expect(l.waiting).toBe(1); // on a port no worker has answered yet (Chromium drops it if the frame goes first)
    const before = flushed;
    ports[1].deliver(ack(1));
    expect(l.waiting).toBe(0);
    expect(flushed).toBe(before + 1); // (so the relay may let its pagehide listener go)
    ports[1].disconnect(); // nothing held: not said
    expect(dropped).toBe(1);
  });

  it('an acknowledgement covers every batch up to it', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.start();
    for (let n = 1; n <= 3; n++) {
      l.push(`{"n":${n}}`, true);
      vi.advanceTimersByTime(0);
    }
    expect(l.backlog).toBe(3);
    ports[0].deliver(ack(2));
    expect(l.backlog).toBe(1);
  });

  it('an acknowledgement on the new port, after a reconnection, lets the resent batches go', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    ports[0].disconnect();
    vi.advanceTimersByTime(20);
    expect(ports.length).toBe(2);
    expect(ports[1].sent[0].type).toBe('hello');
    expect(batches(ports[1].sent)).toEqual([[1, [{ n: 1 }]]]);
    ports[1].deliver(ack(1));
    expect(l.backlog).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(ports.length).toBe(2);
  });

  it('a flush that reconnects sends its batch once (the reconnection resends it with the others)', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    ports[0].disconnect(); // batch 1 unacknowledged
    l.push('{"n":2}', true);
    vi.advanceTimersByTime(0); // the flush connects before the retry timer does
    expect(ports.length).toBe(2);
    vi.advanceTimersByTime(5000);
    expect(ports.length).toBe(2);
    expect(batches(ports[1].sent).map(([b]) => b)).toEqual([1, 2]);
  });

  it('a reconnection by the retry timer sends the queued records once, after the resent batches', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    ports[0].disconnect();
    l.push('{"n":2}'); // due in 30 ms; the retry comes first, at 20 ms
    vi.advanceTimersByTime(5000);
    expect(ports.length).toBe(2);
    expect(batches(ports[1].sent)).toEqual([
      [1, [{ n: 1 }]],
      [2, [{ n: 2 }]],
    ]);
    ports[1].deliver(ack(2));
    expect(l.backlog).toBe(0);
  });

  it('a batch posted on a port that turns out closed is resent on the next one', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.start();
    ports[0].closed = true; // closed, its disconnect event not delivered yet
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(5000);
    expect(ports.length).toBe(2);
    expect(batches(ports[1].sent)).toEqual([[1, [{ n: 1 }]]]);
  });

  it('a retry connects once a try, its backoff doubling while each new port fails at once', () => {
    const { runtime, ports } = fakeRuntime();
    const failing: RuntimeLike = {
      connect(info) {
        const port = runtime.connect(info);
        if (ports.length > 1) {
          ports.at(-1)!.closed = true; // every new port is already closed (its posts throw)
        }
        return port;
      },
    };
    const l = link(failing);
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    ports[0].disconnect();
    const at = (ms: number) => {
      vi.advanceTimersByTime(ms);
      return ports.length;
    };
    // tries at 20, then 40, 80 ms later: one port each
    expect([at(19), at(1), at(39), at(1), at(79), at(1)]).toEqual([1, 2, 2, 3, 3, 4]);
  });

  it('holds nothing once the extension is gone (its batches cannot leave)', () => {
    let calls = 0;
    const { runtime, ports } = fakeRuntime();
    const l = link({
      connect(info) {
        if (++calls > 1) {
          throw new Error('Extension context invalidated.');
        }
        return runtime.connect(info);
      },
    });
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    ports[0].disconnect();
    expect(l.waiting).toBe(1); // on no open port, until the next try
    l.flush(); // the try: the extension is gone
    expect(l.waiting).toBe(0);
  });

  it('stops quietly when the extension is gone (connect throws)', () => {
    const l = link({
      connect() {
        throw new Error('Extension context invalidated.');
      },
    });
    expect(() => {
      l.start();
      l.push('{"n":1}', true);
      vi.advanceTimersByTime(5000);
    }).not.toThrow();
  });
});

describe('the relay link of a page shown again from the back/forward cache', () => {
  it('opens a new port (the old one was closed without a word), says hello and resends what was not acknowledged', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    ports[0].deliver(ack(1));
    l.push('{"n":2}', true);
    vi.advanceTimersByTime(0); // (sent as the page entered the cache: never acknowledged)
    l.restart();
    expect(ports.length).toBe(2);
    expect(ports[1].sent[0].type).toBe('hello');
    expect(batches(ports[1].sent)).toEqual([[2, [{ n: 2 }]]]);
    l.push('{"n":3}', true);
    vi.advanceTimersByTime(0);
    expect(batches(ports[1].sent).map(([b]) => b)).toEqual([2, 3]);
    expect(batches(ports[0].sent).map(([b]) => b)).toEqual([1, 2]);
  });
});

describe('the relay link of a page being prerendered', () => {
  it('opens no port while held; once shown, says hello and sends what it held, in order', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    l.hold(() => true);
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    l.push('{"n":2}');
    vi.advanceTimersByTime(30);
    l.flush(); // (a hand-over, or the page going: still nothing leaves)
    expect(ports.length).toBe(0);
    expect(l.held).toBe(true);
    l.restart();
    expect(l.held).toBe(false);
    expect(ports.length).toBe(1);
    expect(ports[0].sent[0].type).toBe('hello');
    expect(batches(ports[0].sent)).toEqual([
      [1, [{ n: 1 }]],
      [2, [{ n: 2 }]],
    ]);
  });

  it('holds only while the browser says the page is prerendered, whatever event says otherwise', () => {
    const { runtime, ports } = fakeRuntime();
    const l = link(runtime);
    let prerendering = true;
    l.hold(() => prerendering);
    l.start();
    l.push('{"n":1}', true);
    vi.advanceTimersByTime(0);
    expect(ports.length).toBe(0);
    prerendering = false; // (shown, its prerenderingchange stopped by the page before ours heard it)
    l.push('{"n":2}', true);
    vi.advanceTimersByTime(0);
    expect(ports.length).toBe(1);
    expect(batches(ports[0].sent).map(([b]) => b)).toEqual([1, 2]);
  });
});

describe('the relay link as its frame goes: what no worker answered is also left in storage', () => {
  const spillKey = stamp<BackgroundToRelay>({ type: 'spill-key', key: 'sealed' });
  /** A link whose first port was answered (config, key) and then closed with the worker: it holds `n` records. */
  const afterWorkerStopped = (n: number, part = '{"n":1}') => {
    const { runtime, ports } = fakeRuntime();
    const stored: Array<[string, SpilledBatches]> = [];
    const l = link(runtime, { store: (k, v) => stored.push([k, v]) });
    l.start();
    ports[0].deliver(spillKey);
    ports[0].disconnect(); // (the worker stopped while the frame was quiet)
    for (let i = 0; i < n; i++) {
      l.push(part);
    }
    return { l, ports, stored };
  };

  it('writes what waits on a port opened as it goes, under its document, with the key the background gave', () => {
    const { l, ports, stored } = afterWorkerStopped(2);
    l.flush(); // (the page goes: a new port, which no worker has answered yet)
    l.spill();
    expect(ports).toHaveLength(2);
    expect(stored).toHaveLength(1);
    const [key, value] = stored[0];
    expect(key).toBe(`ei-spill/${l.docId}/1-1`);
    expect(value).toMatchObject({ type: 'spill', key: 'sealed', docId: l.docId });
    expect(value.batches.map((b) => [b.batch, JSON.parse(b.json)])).toEqual([[1, [{ n: 1 }, { n: 1 }]]]);
  });

  it('writes nothing when a worker answered the port, when nothing waits, or without a key', () => {
    const answered = afterWorkerStopped(1);
    answered.l.flush();
    answered.ports[1].deliver(stamp<BackgroundToRelay>({ type: 'config', config: {} as never }));
    answered.l.spill();
    expect(answered.stored).toEqual([]);
    const empty = afterWorkerStopped(0);
    empty.l.flush();
    empty.l.spill();
    expect(empty.stored).toEqual([]);
    const { runtime } = fakeRuntime();
    const stored: unknown[] = [];
    const keyless = link(runtime, { store: (k, v) => stored.push([k, v]) });
    keyless.push('{"n":1}');
    keyless.flush();
    keyless.spill();
    expect(stored).toEqual([]);
  });

  it('says in its hello whether it holds its key (the background seals a document that does not)', () => {
    const { l, ports } = afterWorkerStopped(1);
    l.flush();
    expect(ports[0].sent[0]).not.toHaveProperty('sealed');
    expect(ports[1].sent[0]).toMatchObject({ type: 'hello', sealed: true });
  });

  it('writes at most MAX_SPILL_CHARS, whole batches from the first', () => {
    const big = `"${'x'.repeat(MAX_SPILL_CHARS / 4)}"`;
    const { l, stored } = afterWorkerStopped(0);
    for (let i = 0; i < 6; i++) {
      l.push(big);
      l.flush(); // (one batch each)
    }
    l.spill();
    expect(stored[0][1].batches.map((b) => b.batch)).toEqual([1, 2, 3]);
  });
});
