/**
 * What the integration line judges of the current page (integration.ts), kept as records come, O(1) each: the
 * records `diagnose` needs for the page's embeds and notes (the protocol's `diagnosisSieve`: every navigation and
 * `ready`, the first events of each frame and kind) and the records with issues, by index. So a load of 100,000
 * records is judged from a few dozen of them, once it is in. A whole log taken in at once (a snapshot, a file) and a
 * rewrite of records already held (an update in place, late records) leave them stale: they are made again from the
 * page's records, once, when next read (a large load's first judgement comes after its rows are painted).
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import type { RecordMeta } from './meta.ts';
import { diagnosisSieve } from './protocol.ts';

export interface PageFactsView {
  /** The page's records `diagnose` needs (in order). */
  judged: readonly number[];
  /** The page's records with issues (in order). */
  withIssues: readonly number[];
  /** Whether any svc-embed message came on the page. */
  svcEmbedSeen: boolean;
}

export class PageFacts {
  private sieve = diagnosisSieve();
  private judged: number[] = [];
  private withIssues: number[] = [];
  private stale = false;

  /** A new page starts: its records are added next, from its first. */
  restart(): void {
    this.sieve = diagnosisSieve();
    this.judged = [];
    this.withIssues = [];
    this.stale = false;
  }

  /** Record i, the page's next, and its meta (what the sieve reads of the message is read once, there). */
  add(r: ClassifiedRecord, i: number, m: RecordMeta): void {
    if (this.stale) {
      return;
    }
    if (this.sieve.keepRead(r, m.nav, m.kind, m.svc, m.direction, m.type)) {
      this.judged.push(i);
    }
    if (r.issues.length) {
      this.withIssues.push(i);
    }
  }

  /** Records of the page were rewritten: made again when next read. */
  invalidate(): void {
    this.stale = true;
  }

  /** The page's facts; `records` from index `start` on are the page (record i's meta: `table[ids[i]]`), read again
   * when stale. */
  read(
    records: readonly ClassifiedRecord[],
    start: number,
    metas: { ids: ArrayLike<number>; table: readonly RecordMeta[] },
  ): PageFactsView {
    if (this.stale) {
      this.restart();
      const { ids, table } = metas;
      for (let i = start; i < records.length; i++) {
        this.add(records[i], i, table[ids[i]]);
      }
    }
    return { judged: this.judged, withIssues: this.withIssues, svcEmbedSeen: this.sieve.svcEmbedSeen };
  }
}
