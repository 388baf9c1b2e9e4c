import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RawRecord } from '../shared/messages.ts';
import { IDLE_MS, LIVE_DELAY_MS, PendingBatches } from './pending-batches.ts';

const raw = (n: number): RawRecord => ({
  time: n,
  kind: 'receive',
  frameUrl: 'https://host.example/',
  origin: 'https://host.example',
  data: { n },
});
const batch = (...ns: number[]) => JSON.stringify(ns.map(raw));
const at = (frameId: number, json: string) => ({ frame: { frameId, origin: 'https://host.example' }, json });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('pending batches', () => {
  it('are due within LIVE_DELAY_MS while a panel watches', () => {
    const due = vi.fn();
    const p = new PendingBatches(due);
    expect(p.add(at(0, batch(1)), true)).toBe(false);
    vi.advanceTimersByTime(LIVE_DELAY_MS - 1);
    p.add(at(0, batch(2)), true); // does not push the deadline back
    expect(due).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('are due once the stream pauses for IDLE_MS when no panel watches', () => {
    const due = vi.fn();
    const p = new PendingBatches(due);
    p.add(at(0, batch(1)), false);
    vi.advanceTimersByTime(IDLE_MS - 1);
    p.add(at(0, batch(2)), false); // the stream goes on: wait for the next pause
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(due).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('hand over their records in arrival order, each marked with its frame, and are then empty', () => {
    const due = vi.fn();
    const p = new PendingBatches(due);
    p.add(at(3, batch(1, 2)), true);
    p.add(at(0, batch(3)), true);
    expect(p.take()?.map((r) => [r.frameId, r.time])).toEqual([
      [3, 1],
      [3, 2],
      [0, 3],
    ]);
    expect(p.take()).toBeNull();
    vi.advanceTimersByTime(IDLE_MS);
    expect(due).not.toHaveBeenCalled(); // taken: nothing is due any more
  });

  it('leave an unreadable batch out, with a warning, and keep the others', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const p = new PendingBatches(() => {});
    p.add(at(0, batch(1)), false);
    p.add(at(0, '[{"time": 2,'), false);
    p.add(at(0, batch(3)), false);
    expect(p.take()?.map((r) => r.time)).toEqual([1, 3]);
    expect(warn).toHaveBeenCalledWith('embed-inspector: unreadable batch', expect.any(SyntaxError));
  });

  it('run no timer once the tab is closed', () => {
    const due = vi.fn();
    const p = new PendingBatches(due);
    p.add(at(0, batch(1)), true);
    p.close();
    p.add(at(0, batch(2)), true);
    vi.advanceTimersByTime(IDLE_MS);
    expect(due).not.toHaveBeenCalled();
    expect(p.take()).toHaveLength(2);
  });
});
