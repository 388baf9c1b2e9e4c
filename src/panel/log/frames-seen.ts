/**
 * The frames a log's records name — the frame that posted or received each record and the frame a post targeted —
 * with their record count and the time of their latest record. A send picks its embed frame from them (the most
 * recent frame of the tenant origin). Built on demand from the records not yet scanned, so a live log pays for each
 * record once and only when someone asks; the log starts it over when it rewrites records it had (a snapshot, a
 * trim, a reorder).
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import { originOf } from './protocol.ts';

export interface FrameSeen {
  url: string;
  origin: string;
  /** The capture time of its latest record. */
  last: number;
  count: number;
}

export class FramesSeen {
  private frames = new Map<string, FrameSeen>();
  /** Records [0, scanned) are counted. */
  private scanned = 0;

  reset(): void {
    this.frames.clear();
    this.scanned = 0;
  }

  /** The frames of `records` (the log's list, appended to since the last call), most recent first. */
  of(records: readonly ClassifiedRecord[]): FrameSeen[] {
    for (let i = this.scanned; i < records.length; i++) {
      const r = records[i];
      this.see(r.frameUrl, r.time);
      if (r.targetUrl) {
        this.see(r.targetUrl, r.time);
      }
    }
    this.scanned = records.length;
    return [...this.frames.values()].sort((a, b) => b.last - a.last);
  }

  private see(url: string | undefined, time: number): void {
    if (!url) {
      return;
    }
    let f = this.frames.get(url);
    if (!f) {
      f = { url, origin: originOf(url) ?? url, last: time, count: 0 };
      this.frames.set(url, f);
    }
    f.count++;
    if (time > f.last) {
      f.last = time;
    }
  }
}
