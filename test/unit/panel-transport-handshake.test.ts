// The panel's port to the background (link/transports.ts): a port the browser connected but the worker never
// answers (a worker stopping as the panel woke it) is given up after the handshake time and opened again, so the
// panel does not stay "connecting"; a port that answers in time is kept.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntimeTransport, emptyState, type Handshake } from '../../src/panel/link/transports.ts';
import { stamp, type Body, type Wall } from '../../src/shared/channel.ts';
import type { BackgroundToPanel } from '../../src/shared/messages.ts';

/** A runtime port whose background answers `subscribe` with a snapshot after `answerMs`, or never (null). */
function port(answerMs: number | null, ackMs: number | null = null) {
  const listeners = new Set<(msg: unknown) => void>();
  const state = { disconnected: false, subscribed: 0 };
  const lost = new Set<() => void>();
  const p: Wall & { disconnect(): void; onDisconnect: { addListener(fn: () => void): void } } = {
    postMessage: (msg: unknown) => {
      if ((msg as { type?: string }).type !== 'subscribe') {
        return;
      }
      state.subscribed++;
      if (ackMs !== null) {
        setTimeout(() => {
          for (const fn of listeners) {
            fn(stamp<BackgroundToPanel>({ type: 'subscribed', tabId: 7 }));
          }
        }, ackMs);
      }
      if (answerMs !== null) {
        setTimeout(() => {
          const snap: Body<BackgroundToPanel> = { type: 'snapshot', state: emptyState(7), records: [] };
          for (const fn of listeners) {
            fn(stamp<BackgroundToPanel>(snap));
          }
        }, answerMs);
      }
    },
    onMessage: { addListener: (fn) => listeners.add(fn), removeListener: (fn) => listeners.delete(fn) },
    disconnect: () => {
      state.disconnected = true;
    },
    onDisconnect: { addListener: (fn) => lost.add(fn) },
  };
  /** The background end goes away (the worker stopped): the panel's end hears onDisconnect. */
  const drop = () => {
    for (const fn of lost) {
      fn();
    }
  };
  return { p, state, drop };
}

const until = async (pred: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!pred() && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5));
  }
  return pred();
};

type FakePort = ReturnType<typeof port>;

/** A transport over `ports` in turn (the last one again after), connected: what it reported (statuses, messages). */
function connected(ports: FakePort[], timing: Partial<Handshake>) {
  const queue = [...ports];
  const last = ports[ports.length - 1];
  const statuses: string[] = [];
  const messages: string[] = [];
  const t = createRuntimeTransport(7, () => (queue.shift() ?? last).p, timing);
  const stop = t.connect(
    (m) => messages.push(m.type),
    (s) => statuses.push(s),
  );
  return { statuses, messages, stop };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the panel’s port to the background', () => {
  it('gives up a port that never answers and connects again', async () => {
    const silent = port(null);
    const answering = port(10);
    const c = connected([silent, answering], { ackMs: 100, snapshotMs: 100 });
    expect(await until(() => c.statuses.includes('connected'))).toBe(true);
    expect(silent.state).toEqual({ disconnected: true, subscribed: 1 });
    expect(answering.state).toEqual({ disconnected: false, subscribed: 1 });
    expect(c.statuses).toEqual(['connecting', 'disconnected', 'connecting', 'connected']);
    expect(c.messages).toEqual(['snapshot']);
    c.stop();
  });

  it('keeps a port that answers within the handshake time', async () => {
    const slow = port(60);
    const c = connected([slow], { ackMs: 200, snapshotMs: 200 });
    expect(await until(() => c.statuses.includes('connected'))).toBe(true);
    await new Promise((r) => setTimeout(r, 300)); // past the handshake time: still the same port
    expect(slow.state).toEqual({ disconnected: false, subscribed: 1 });
    expect(c.statuses).toEqual(['connecting', 'connected']);
    c.stop();
  });

  it('after the worker stopped, a port that never answers waits the handshake time once, not doubled', async () => {
    // The first port answers; the worker stops (its port closes, as Chrome closes it); the port that wakes the next
    // worker is never answered (a worker stopping as it was woken). A disconnect is not an unanswered port: the
    // silent one is given up after one handshake time, not twice that.
    vi.useFakeTimers();
    const first = port(5);
    const silent = port(null);
    const c = connected([first, silent, port(5)], { ackMs: 300, snapshotMs: 1_000 });
    await vi.advanceTimersByTimeAsync(10);
    expect(c.statuses).toEqual(['connecting', 'connected']);
    first.drop();
    // 100 ms before the next port, 300 ms of handshake, 200 ms before the next (the backoff of two drops), 5 ms to
    // its answer: 605 ms. (A handshake doubled by the stop's disconnect: 905 ms.)
    await vi.advanceTimersByTimeAsync(620);
    expect(silent.state).toEqual({ disconnected: true, subscribed: 1 });
    expect(c.statuses).toEqual([
      'connecting',
      'connected',
      'disconnected',
      'connecting',
      'disconnected',
      'connecting',
      'connected',
    ]);
    c.stop();
  });

  it('keeps a port the worker acknowledged while its log is slow to come; gives up one acknowledged but never answered', async () => {
    vi.useFakeTimers();
    const slow = port(900, 10); // heard at once, its snapshot 900 ms later (a large log)
    const c = connected([slow], { ackMs: 300, snapshotMs: 1_000 });
    await vi.advanceTimersByTimeAsync(950);
    expect(c.statuses).toEqual(['connecting', 'connected']);
    expect(slow.state).toEqual({ disconnected: false, subscribed: 1 });
    expect(c.messages).toEqual(['snapshot']); // (the acknowledgement is the transport's own)
    c.stop();

    const stuck = port(null, 10); // heard, and then nothing
    const again = connected([stuck, port(5, 1)], { ackMs: 300, snapshotMs: 1_000 });
    await vi.advanceTimersByTimeAsync(900);
    expect(again.statuses).toEqual(['connecting']);
    await vi.advanceTimersByTimeAsync(300); // past 10 + 1,000 ms: given up, opened again after 100 ms
    expect(stuck.state).toEqual({ disconnected: true, subscribed: 1 });
    expect(again.statuses).toEqual(['connecting', 'disconnected', 'connecting', 'connected']);
    again.stop();
  });
});
