// The panel's port to the background (link/transports.ts): a port the browser connected but the worker never
// answers (a worker stopping as the panel woke it) is given up after the handshake time and opened again, so the
// panel does not stay "connecting"; a port that answers in time is kept.
import { describe, expect, it } from 'vitest';
import { createRuntimeTransport, emptyState } from '../../src/panel/link/transports.ts';
import { stamp, type Body, type Wall } from '../../src/shared/channel.ts';
import type { BackgroundToPanel } from '../../src/shared/messages.ts';

/** A runtime port whose background answers `subscribe` with a snapshot after `answerMs`, or never (null). */
function port(answerMs: number | null) {
  const listeners = new Set<(msg: unknown) => void>();
  const state = { disconnected: false, subscribed: 0 };
  const p: Wall & { disconnect(): void; onDisconnect: { addListener(fn: () => void): void } } = {
    postMessage: (msg: unknown) => {
      if ((msg as { type?: string }).type !== 'subscribe') {
        return;
      }
      state.subscribed++;
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
    onDisconnect: { addListener: () => {} },
  };
  return { p, state };
}

const until = async (pred: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!pred() && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5));
  }
  return pred();
};

describe('the panel’s port to the background', () => {
  it('gives up a port that never answers and connects again', async () => {
    const silent = port(null);
    const answering = port(10);
    const ports = [silent, answering];
    const statuses: string[] = [];
    const snapshots: unknown[] = [];
    const t = createRuntimeTransport(7, () => (ports.shift() ?? answering).p, 100);
    const stop = t.connect(
      (m) => m.type === 'snapshot' && snapshots.push(m),
      (s) => statuses.push(s),
    );
    expect(await until(() => statuses.includes('connected'))).toBe(true);
    expect(silent.state).toEqual({ disconnected: true, subscribed: 1 });
    expect(answering.state).toEqual({ disconnected: false, subscribed: 1 });
    expect(statuses).toEqual(['connecting', 'disconnected', 'connecting', 'connected']);
    expect(snapshots).toHaveLength(1);
    stop();
  });

  it('keeps a port that answers within the handshake time', async () => {
    const slow = port(60);
    const statuses: string[] = [];
    const t = createRuntimeTransport(7, () => slow.p, 200);
    const stop = t.connect(
      () => {},
      (s) => statuses.push(s),
    );
    expect(await until(() => statuses.includes('connected'))).toBe(true);
    await new Promise((r) => setTimeout(r, 300)); // past the handshake time: still the same port
    expect(slow.state).toEqual({ disconnected: false, subscribed: 1 });
    expect(statuses).toEqual(['connecting', 'connected']);
    stop();
  });
});
