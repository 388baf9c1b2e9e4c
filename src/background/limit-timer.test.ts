import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LimitTimer } from './limit-timer.ts';

let now = 0;
beforeEach(() => {
  now = 10_000;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Time passes on the fake timers and on the timer's clock alike. */
const pass = (ms: number) => {
  now += ms;
  vi.advanceTimersByTime(ms);
};

describe('limit timer', () => {
  it('is due once the watched limit has run out, not before', () => {
    const due = vi.fn();
    const t = new LimitTimer(due, () => now);
    t.watch(now + 1000);
    pass(999);
    expect(due).not.toHaveBeenCalled();
    pass(10);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('watches one limit: a new one replaces it, none stops it', () => {
    const due = vi.fn();
    const t = new LimitTimer(due, () => now);
    t.watch(now + 1000);
    t.watch(now + 5000);
    pass(2000);
    expect(due).not.toHaveBeenCalled();
    t.watch(null);
    pass(10_000);
    expect(due).not.toHaveBeenCalled();
  });

  it('a limit already past is due at once', () => {
    const due = vi.fn();
    const t = new LimitTimer(due, () => now);
    t.watch(now - 60_000);
    pass(10);
    expect(due).toHaveBeenCalledTimes(1);
  });

  it('watches nothing once closed', () => {
    const due = vi.fn();
    const t = new LimitTimer(due, () => now);
    t.watch(now + 1000);
    t.close();
    t.watch(now + 2000);
    pass(5000);
    expect(due).not.toHaveBeenCalled();
  });
});
