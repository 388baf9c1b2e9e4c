/**
 * MAIN world -> relay: one ordered outbox per frame. Posts and deliveries keep the order in which this frame
 * saw them (a post reserves its place when the page calls postMessage; its JSON is written at the end of the
 * task, before anything later can be flushed), and the records stay in the page, already serialized, until
 * the frame is idle: moving bytes to the background while the page is busy costs the page more than keeping
 * them. They are handed to the isolated relay in private CustomEvents (never a `message` event):
 * - once the frame's traffic has been quiet for QUIET_MS and the frame is idle (requestIdleCallback), or
 *   MAX_WAIT_MS after the oldest record held (a long burst still reaches the panel);
 * - at once past MAX_HELD_CHARS (a bound on what a frame holds);
 * - synchronously when the relay asks (the page is going away: pagehide).
 * A frame receiving a burst is idle between two messages, so idleness alone is no sign that the burst is over:
 * the quiet period is. Under light traffic a record reaches the relay about QUIET_MS after it was made.
 */
import { CHANNEL_PAGE_RECORDS } from '../shared/messages.ts';

/** Bound of one event's detail, UTF-16 units. */
const MAX_EVENT_CHARS = 1_000_000;
/** Bound of what a frame holds before it flushes in the middle of a burst, UTF-16 units (~16 MB). */
export const MAX_HELD_CHARS = 8_000_000;
/** A burst is over once no record was added for this long. */
export const QUIET_MS = 40;
/** The longest a record is held while the traffic goes on. */
export const MAX_WAIT_MS = 3000;
// Captured at document_start, before the page can replace them.
const setTimer = setTimeout;
const clearTimer = clearTimeout;
const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback : undefined;
const cancelIdle = typeof cancelIdleCallback === 'function' ? cancelIdleCallback : undefined;
const CE = CustomEvent;
const perf = performance;
const perfNow = perf.now.bind(perf);

export class Outbox {
  /** Record JSON in the order the frame saw them; `undefined`: a post whose JSON comes at the end of its task. */
  private entries: Array<string | undefined> = [];
  /** Reserved slots not yet written. */
  private reserved = 0;
  /** Entries handed over so far (a slot number minus this is its index in `entries`). */
  private base = 0;
  private chars = 0;
  private idleHandle: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last record was added, and when the oldest held one was (performance.now()). */
  private lastAdd = 0;
  private firstHeld = -1;
  private readonly dispatch: (e: Event) => boolean;

  constructor(doc: Document) {
    this.dispatch = doc.dispatchEvent.bind(doc);
  }

  /** Reserve the place of a post (hot path: one push). Returns the slot to `fill` at the end of the task. */
  reserve(): number {
    this.reserved++;
    return this.base + this.entries.push(undefined) - 1;
  }

  /** Write a reserved post's JSON ('' when it could not be read: the slot is skipped). */
  fill(slot: number, json: string): void {
    this.entries[slot - this.base] = json;
    this.reserved--;
    this.added(json.length);
  }

  /** Queue one delivery's JSON. */
  add(json: string): void {
    this.entries.push(json);
    this.added(json.length);
  }

  private added(n: number) {
    this.chars += n;
    this.lastAdd = perfNow();
    if (this.firstHeld < 0) {
      this.firstHeld = this.lastAdd;
    }
    if (this.chars >= MAX_HELD_CHARS && this.reserved === 0) {
      this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimer(this.onQuiet, QUIET_MS);
    }
  }

  /** The quiet-period timer: traffic went on meanwhile: wait again (unless the oldest record waited enough). */
  private onQuiet = () => {
    this.timer = undefined;
    const t = perfNow();
    const quietFor = t - this.lastAdd;
    if (quietFor < QUIET_MS && t - this.firstHeld < MAX_WAIT_MS) {
      this.timer = setTimer(this.onQuiet, QUIET_MS - quietFor);
      return;
    }
    if (idle && quietFor >= QUIET_MS) {
      this.idleHandle = idle(this.onWake, { timeout: QUIET_MS });
    } else {
      this.onWake();
    }
  };

  private cancel() {
    if (this.timer !== undefined) {
      clearTimer(this.timer);
      this.timer = undefined;
    }
    if (this.idleHandle !== undefined) {
      cancelIdle?.(this.idleHandle);
      this.idleHandle = undefined;
    }
  }

  private onWake = () => {
    this.cancel();
    // A post of this task is still being written: its `fill` schedules the next wake.
    if (this.reserved === 0) {
      this.flush();
    }
  };

  /** Hand everything held to the relay now, in order (chunks of at most MAX_EVENT_CHARS). */
  flush(): void {
    this.cancel();
    const entries = this.entries;
    // A post still reserved (flush in the middle of its task, e.g. pagehide) keeps its place and what follows;
    // its `fill` schedules them.
    const end = this.reserved > 0 ? entries.indexOf(undefined) : entries.length;
    if (end === 0) {
      return;
    }
    const parts: string[] = [];
    let chars = 0;
    for (let i = 0; i < end; i++) {
      const json = entries[i]!;
      if (!json) {
        continue;
      }
      if (chars + json.length > MAX_EVENT_CHARS && parts.length) {
        this.dispatch(new CE(CHANNEL_PAGE_RECORDS, { detail: parts.join(',') }));
        parts.length = 0;
        chars = 0;
      }
      parts.push(json);
      chars += json.length;
    }
    this.entries = end === entries.length ? [] : entries.slice(end);
    this.base += end;
    this.chars = 0;
    for (const e of this.entries) {
      if (e) {
        this.chars += e.length;
      }
    }
    this.firstHeld = this.entries.length ? perfNow() : -1;
    if (parts.length) {
      this.dispatch(new CE(CHANNEL_PAGE_RECORDS, { detail: parts.join(',') }));
    }
  }
}
