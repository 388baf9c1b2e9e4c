/**
 * Work redone as its inputs change, paced by what it costs: after a run that took `d` ms the next starts no sooner
 * than `max(minGapMs, d × (1 / share − 1))` later, so it takes at most `share` of the panel's thread however long it
 * grows (the integration line judges the whole page: ~1 ms for a small log, a few hundred for 100,000 records,
 * which at a fixed 300 ms would hold the thread most of the time while records come). A run is never sooner than
 * `minGapMs` after the request either: a load's first frame is painted before the work that follows it. Requests
 * while a run is due are one run.
 */
export interface Paced {
  /** Run `minGapMs` from now, or once the gap since the last run has passed if that is later. */
  request(): void;
  /** Run now (a pending request is served by it). */
  run(): void;
  dispose(): void;
}

export interface PacedOptions {
  minGapMs: number;
  /** The largest share of the thread the work may take, 0 < share ≤ 1. */
  share: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

export function paced(work: () => void, opts: PacedOptions): Paced {
  const now = opts.now ?? (() => performance.now());
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  let timer: unknown;
  let lastEnd = Number.NEGATIVE_INFINITY;
  let gap = opts.minGapMs;
  const run = () => {
    if (timer !== undefined) {
      clearTimer(timer);
      timer = undefined;
    }
    const start = now();
    try {
      work();
    } finally {
      lastEnd = now();
      gap = Math.max(opts.minGapMs, (lastEnd - start) * (1 / opts.share - 1));
    }
  };
  return {
    request() {
      if (timer === undefined) {
        timer = setTimer(run, Math.max(opts.minGapMs, lastEnd + gap - now()));
      }
    },
    run,
    dispose() {
      if (timer !== undefined) {
        clearTimer(timer);
        timer = undefined;
      }
    },
  };
}
