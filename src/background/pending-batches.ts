/**
 * Deferred processing. A batch from a relay is stored as it came (durable) and acknowledged at once; it is
 * parsed, classified, paired and published later:
 * - within LIVE_DELAY_MS while a panel watches the tab;
 * - else once the tab's stream pauses for IDLE_MS (a page flooded with messages runs no timers, so its relay
 *   sends only when a batch is full, seconds apart: a short pause is no sign of the end of a burst);
 * - past MAX_PENDING_CHARS of pending text (memory bound);
 * - as soon as anything reads the log: every operation but ingestion processes what is pending first.
 * A burst of page messages then competes with nothing but the storage of its batches (the worker shares the
 * machine's cores with the page).
 *
 * This part holds the batches stored but not yet in the log and the timer that says when they are due; the tab's
 * session adds them to its log (`take`).
 */
import type { RawRecord } from '../shared/messages.ts';

export const LIVE_DELAY_MS = 20;
export const IDLE_MS = 5000;
export const MAX_PENDING_CHARS = 64_000_000;

export type FrameRecord = RawRecord & { frameId?: number };

/** Parse one frame's batch (JSON text of raw records), each record marked with the frame. Throws on unreadable JSON. */
export function parseBatch(frameId: number, json: string): FrameRecord[] {
  const raws = JSON.parse(json) as FrameRecord[];
  for (const r of raws) {
    r.frameId = frameId;
  }
  return raws;
}

export class PendingBatches {
  private pending: Array<{ frameId: number; json: string }> = [];
  /** Size of the pending text, in UTF-16 units. */
  private chars = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  /** `due`: the timer ran out (the session then processes them, on its chain). */
  constructor(private readonly due: () => void) {}

  /**
   * A stored batch waits for processing; `live`: a panel watches the tab. True when the pending text is past
   * MAX_PENDING_CHARS: the caller processes them now.
   */
  add(frameId: number, json: string, live: boolean): boolean {
    this.pending.push({ frameId, json });
    this.chars += json.length;
    if (this.chars >= MAX_PENDING_CHARS) {
      return true;
    }
    if (this.timer !== null) {
      if (live) {
        return false; // due within LIVE_DELAY_MS already
      }
      clearTimeout(this.timer); // idle: wait for a pause in the stream
    }
    if (!this.closed) {
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.due();
        },
        live ? LIVE_DELAY_MS : IDLE_MS,
      );
    }
    return false;
  }

  /**
   * The pending batches' records, in the order the batches came (each frame's in its order), and none pending
   * any more; null when none was pending. An unreadable batch is left out (it stays stored as it came).
   */
  take(): FrameRecord[] | null {
    this.stopTimer();
    if (!this.pending.length) {
      return null;
    }
    const batches = this.pending;
    this.pending = [];
    this.chars = 0;
    const raws: FrameRecord[] = [];
    for (const b of batches) {
      try {
        for (const r of parseBatch(b.frameId, b.json)) {
          raws.push(r);
        }
      } catch (e) {
        console.warn('embed-inspector: unreadable batch', e);
      }
    }
    return raws;
  }

  /** The tab is gone: no timer any more. */
  close(): void {
    this.closed = true;
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }
}
