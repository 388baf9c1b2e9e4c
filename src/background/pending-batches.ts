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
import { readBatch, type BatchFrame, type FrameRecord } from './batch.ts';

export const LIVE_DELAY_MS = 20;
export const IDLE_MS = 5000;
const MAX_PENDING_CHARS = 64_000_000;

/** A relay's batch as it came: its frame, its JSON and the lines of the page's world beside it (batch.ts). */
export interface RelayBatch {
  frame: BatchFrame;
  json: string;
  lines?: readonly string[];
}

export class PendingBatches {
  private pending: RelayBatch[] = [];
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
  add(batch: RelayBatch, live: boolean): boolean {
    this.pending.push(batch);
    this.chars += batch.json.length;
    for (const l of batch.lines ?? []) {
      this.chars += l.length;
    }
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
   * The pending batches' records, in the order the batches came (each frame's in its order), each checked and
   * rebuilt (batch.ts), and none pending any more; null when none was pending. An unreadable batch, or entry of one,
   * is left out (it stays stored as it came).
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
        const { records, dropped } = readBatch(b.frame, b.json, b.lines);
        for (const r of records) {
          raws.push(r);
        }
        if (dropped) {
          console.warn(`embed-inspector: ${dropped} entries of a batch from frame ${b.frame.frameId} left out`);
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
