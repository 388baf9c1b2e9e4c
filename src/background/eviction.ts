/**
 * Which records the log's bound lets go, least telling first. Pure (no browser API).
 *
 * Every record is filed once, when it is classified, under one kind:
 * - `foreign`: not svc-embed traffic (it may also take at most FOREIGN_SHARE of the bound);
 * - `kept`: a record with an error or a warning, or a session's `ready`, while such records hold less than
 *   KEEP_SHARE of the bound (the first ones are kept: the start of a problem says most about it);
 * - `repeats`: a valid record whose type was already seen from the same frame (the first one stays `other`);
 * - `other`: everything else (first records of their type and frame, navigations, issues past the reserve).
 * Past the bound, the oldest `foreign` record goes first, then the oldest of `repeats` (but not the newest
 * arrivals, RECENT_SHARE of the bound: the log's tail keeps showing the live stream), of `other`, and last of
 * `kept`. The dropped counts say how many of each kind went.
 */
import type { ClassifiedRecord, DroppedByKind } from '../shared/messages.ts';

/** Foreign records may take at most this share of the bound. */
const FOREIGN_SHARE = 0.1;
/** Records with an error or a warning, and each session's ready, are kept up to this share of the bound. */
const KEEP_SHARE = 0.25;
/** Repeats among the newest arrivals, this share of the bound, stay until they are older. */
const RECENT_SHARE = 0.1;

type Kind = 'foreign' | 'kept' | 'repeats' | 'other';
/** The order in which kinds go past the bound. */
const ORDER: readonly Kind[] = ['foreign', 'repeats', 'other', 'kept'];
const dropKind = { foreign: 'foreign', kept: 'issues', repeats: 'repeats', other: 'other' } as const;

/** First-in, first-out list of seqs (an array and a head index: a shift costs O(1)). */
class Fifo {
  private items: number[] = [];
  private head = 0;
  push(seq: number): void {
    this.items.push(seq);
  }
  peek(): number | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }
  shift(): number | undefined {
    if (this.head >= this.items.length) {
      return undefined;
    }
    const seq = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return seq;
  }
}

const MAX_KEYS = 10_000;

export const noneDropped = (): DroppedByKind => ({ foreign: 0, repeats: 0, other: 0, issues: 0 });

export class Eviction {
  private queues: Record<Kind, Fifo> = {
    foreign: new Fifo(),
    kept: new Fifo(),
    repeats: new Fifo(),
    other: new Fifo(),
  };
  /** Kind of every held record, by seq. */
  private kinds = new Map<number, Kind>();
  private keptCount = 0;
  /** Foreign records held. */
  foreignCount = 0;
  /** Type and frame of the valid records seen (a later one of the same is a repeat). */
  private seen = new Set<string>();
  /** The newest seq filed. */
  private newest = 0;

  /** File a classified record under its kind. */
  add(r: ClassifiedRecord, max: number): void {
    const kind = this.kindOf(r, max);
    this.newest = Math.max(this.newest, r.seq);
    this.kinds.set(r.seq, kind);
    this.queues[kind].push(r.seq);
    if (kind === 'kept') {
      this.keptCount++;
    } else if (kind === 'foreign') {
      this.foreignCount++;
    }
  }

  /** Start again from these records (held, in log order): after a re-classification, or a restore. */
  rebuild(records: Iterable<ClassifiedRecord>, max: number): void {
    this.clear();
    for (const r of records) {
      this.add(r, max);
    }
  }

  /**
   * The held records from seq `cut` on were placed again (renumbered, in log order: `records`): they are filed anew,
   * in time that grows with their number, not with the log's (a rebuild, on every late delivery of a long log, took
   * most of the worker's time). Their old filings stay in the queues and are skipped there (`take`: a seq filed
   * again under another kind, or gone). What was seen of each type and frame is kept: a record of the tail that had
   * been the first of its type from its frame may be filed as a repeat.
   */
  refileFrom(cut: number, records: Iterable<ClassifiedRecord>, max: number): void {
    for (let s = cut; s <= this.newest; s++) {
      const kind = this.kinds.get(s);
      if (kind === undefined) {
        continue;
      }
      this.kinds.delete(s);
      if (kind === 'kept') {
        this.keptCount--;
      } else if (kind === 'foreign') {
        this.foreignCount--;
      }
    }
    this.newest = Math.min(this.newest, cut - 1);
    for (const r of records) {
      this.add(r, max);
    }
  }

  clear(): void {
    this.queues = { foreign: new Fifo(), kept: new Fifo(), repeats: new Fifo(), other: new Fifo() };
    this.kinds.clear();
    this.keptCount = 0;
    this.foreignCount = 0;
    this.newest = 0;
    this.seen.clear();
  }

  /**
   * Records to let go so that `size` records fit in `max` and foreign ones in their share, each with the kind
   * it is counted under. `size`: records held now. Removes them from this index (the caller deletes them).
   */
  evict(size: number, max: number): Array<[number, keyof DroppedByKind]> {
    const out: Array<[number, keyof DroppedByKind]> = [];
    const foreignCap = Math.max(1, Math.floor(max * FOREIGN_SHARE));
    while (this.foreignCount > foreignCap) {
      const seq = this.take('foreign');
      if (seq === undefined) {
        break;
      }
      out.push([seq, 'foreign']);
      size--;
    }
    while (size > max) {
      let seq: number | undefined;
      let kind: Kind | undefined;
      for (kind of ORDER) {
        seq = this.take(kind, kind === 'repeats' ? this.newest - Math.floor(max * RECENT_SHARE) : Infinity);
        if (seq !== undefined) {
          break;
        }
      }
      if (seq === undefined || kind === undefined) {
        break;
      }
      out.push([seq, dropKind[kind]]);
      size--;
    }
    return out;
  }

  /** The oldest record still filed under this kind, up to seq `upTo` (taken out of the index), undefined when none. */
  private take(kind: Kind, upTo = Infinity): number | undefined {
    const q = this.queues[kind];
    for (;;) {
      const seq = q.peek();
      if (seq === undefined) {
        return undefined;
      }
      if (this.kinds.get(seq) !== kind) {
        q.shift(); // evicted already, or filed again under another kind
        continue;
      }
      if (seq > upTo) {
        return undefined;
      }
      q.shift();
      this.kinds.delete(seq);
      if (kind === 'kept') {
        this.keptCount--;
      } else if (kind === 'foreign') {
        this.foreignCount--;
      }
      return seq;
    }
  }

  private kindOf(r: ClassifiedRecord, max: number): Kind {
    if (r.navigation) {
      return 'other';
    }
    if (r.verdict === 'foreign') {
      return 'foreign';
    }
    const type = (r.data as { type?: unknown } | null)?.type;
    const telling = type === 'svc:event:ready' || r.issues.some((i) => i.severity !== 'info');
    if (telling) {
      return this.keptCount < Math.max(1, Math.floor(max * KEEP_SHARE)) ? 'kept' : 'other';
    }
    const key = `${String(type)}\n${r.kind}\n${r.frameUrl}`;
    if (this.seen.has(key)) {
      return 'repeats';
    }
    if (this.seen.size >= MAX_KEYS) {
      this.seen.clear();
    }
    this.seen.add(key);
    return 'other';
  }
}
