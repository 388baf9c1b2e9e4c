/**
 * Records by sender origin and by message type (only the filter menus show them): counted lazily, on first use or
 * in idle time, from where counting stopped — not on arrival, so that a load's first frame does not pay for them.
 * Owned by the record log, which tells it what changed.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';

export class OriginTypeCounts {
  private originCounts = new Map<string, number>();
  private typeCounts = new Map<string, number>();
  /** Records [0, counted) are in `originCounts` and `typeCounts`; the rest are counted on demand. */
  private counted = 0;

  /** Counts of records [0, counted) (see `countSome`). */
  get origins(): ReadonlyMap<string, number> {
    return this.originCounts;
  }
  get types(): ReadonlyMap<string, number> {
    return this.typeCounts;
  }

  /** Forget every count (a new log). */
  reset(): void {
    this.originCounts = new Map();
    this.typeCounts = new Map();
    this.counted = 0;
  }
  /** The records from index `from` on were rewritten: counted ones are counted again, from the first. */
  rewritten(from: number): void {
    if (this.counted > from) {
      this.reset();
    }
  }
  /** Record i's type changed from `was` to `now` (an update). */
  retyped(i: number, was: string, now: string): void {
    if (was === now || i >= this.counted) {
      return;
    }
    const types = this.typeCounts;
    if (was) {
      types.set(was, (types.get(was) ?? 1) - 1);
    }
    if (now) {
      types.set(now, (types.get(now) ?? 0) + 1);
    }
  }

  /** Count records from where counting stopped, for at most `budgetMs`; true when all are counted. */
  countSome(
    records: readonly ClassifiedRecord[],
    typeAt: (i: number) => string,
    budgetMs: number,
    now: () => number,
  ): boolean {
    const n = records.length;
    let i = this.counted;
    if (i >= n) {
      return true;
    }
    const origins = this.originCounts,
      types = this.typeCounts;
    const end = budgetMs === Infinity ? Infinity : now() + budgetMs;
    // Runs of equal values (a post and its delivery, a burst from one frame) are counted with one map update.
    let origin = records[i].origin,
      originRun = 0,
      type = typeAt(i),
      typeRun = 0;
    for (; i < n; i++) {
      const o = records[i].origin,
        t = typeAt(i);
      if (o === origin) {
        originRun++;
      } else {
        origins.set(origin, (origins.get(origin) ?? 0) + originRun);
        origin = o;
        originRun = 1;
      }
      if (t === type) {
        typeRun++;
      } else {
        if (type) {
          types.set(type, (types.get(type) ?? 0) + typeRun);
        }
        type = t;
        typeRun = 1;
      }
      if ((i & 1023) === 1023 && now() > end) {
        i++;
        break;
      }
    }
    origins.set(origin, (origins.get(origin) ?? 0) + originRun);
    if (type) {
      types.set(type, (types.get(type) ?? 0) + typeRun);
    }
    this.counted = i;
    return i >= n;
  }
}
