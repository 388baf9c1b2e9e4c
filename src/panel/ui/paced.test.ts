import { describe, expect, it } from 'vitest';
import { paced } from './paced.ts';

/** A clock and timers under the test's control; the work advances the clock by what it costs. */
function harness(costs: number[], minGapMs = 300, share = 0.2) {
  let t = 0;
  const timers: { at: number; fn: () => void }[] = [];
  const runs: number[] = [];
  const p = paced(
    () => {
      runs.push(t);
      t += costs[Math.min(runs.length - 1, costs.length - 1)];
    },
    {
      minGapMs,
      share,
      now: () => t,
      setTimer: (fn, ms) => {
        const timer = { at: t + ms, fn };
        timers.push(timer);
        return timer;
      },
      clearTimer: (x) => {
        const k = timers.indexOf(x as (typeof timers)[number]);
        if (k >= 0) timers.splice(k, 1);
      },
    },
  );
  /** Moves the clock to `to`, firing the timers it passes. */
  const advance = (to: number) => {
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const due = timers[0];
      if (!due || due.at > to) break;
      timers.shift();
      t = Math.max(t, due.at);
      due.fn();
    }
    t = Math.max(t, to);
  };
  /** A request every `every` ms until `until`. */
  const stream = (every: number, until: number) => {
    while (t < until) {
      p.request();
      advance(t + every);
    }
  };
  return { p, runs, stream, advance, time: () => t };
}

describe('paced work', () => {
  it.each([
    // cost of a run (ms), the gap before the next (ms): the minimum while cheap, 4× the cost at a share of 0.2
    [1, 300],
    [50, 300],
    [75, 300],
    [100, 400],
    [400, 1600],
  ])('a run of %i ms is followed by the next %i ms after it ends', (cost, gap) => {
    const h = harness([cost]);
    h.stream(1, 10_000);
    expect(h.runs.length).toBeGreaterThan(2);
    for (let k = 1; k < h.runs.length; k++) {
      expect(h.runs[k] - (h.runs[k - 1] + cost)).toBe(gap);
    }
  });

  it('takes at most its share of the time however costly a run grows', () => {
    const costs = [5, 20, 80, 200, 350, 500, 500, 500, 500];
    const h = harness(costs);
    h.stream(7, 20_000);
    const busy = h.runs.reduce((sum, _, k) => sum + costs[Math.min(k, costs.length - 1)], 0);
    expect(busy / h.time()).toBeLessThanOrEqual(0.2 + 500 / 20_000);
  });

  it('serves every request: the last change is always judged', () => {
    const h = harness([30]);
    h.p.request();
    h.p.request();
    h.advance(1_000); // two requests at t=0: one run, minGapMs later (a load's first frame comes first)
    expect(h.runs).toEqual([300]);
    h.stream(50, 2_000);
    const last = h.runs[h.runs.length - 1];
    h.p.request();
    h.advance(5_000);
    expect(h.runs[h.runs.length - 1]).toBeGreaterThan(last);
  });

  it('run() serves a pending request; dispose() drops it', () => {
    const h = harness([10]);
    h.p.run();
    h.p.request(); // due 300 ms after the run
    h.p.run(); // now: the request is served
    h.advance(1_000);
    expect(h.runs).toEqual([0, 10]);
    h.p.request();
    h.p.dispose();
    h.advance(5_000);
    expect(h.runs).toEqual([0, 10]);
  });
});
