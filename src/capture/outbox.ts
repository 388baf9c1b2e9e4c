/**
 * MAIN world -> relay: one ordered outbox per frame. Posts and deliveries keep the order in which this frame
 * saw them (a post reserves its place when the page calls postMessage; its JSON is written at the end of the
 * task, before anything later can be flushed), and the records stay in the page, already serialized, until
 * the frame is idle: moving bytes to the background while the page is busy costs the page more than keeping
 * them. They are handed to the isolated relay in private CustomEvents (never a `message` event):
 * - at the end of a task that posted (the posts and every record before them), so that a post reaches the
 *   background before the answers other frames record;
 * - when the frame is idle (requestIdleCallback), or after MAX_WAIT_MS without an idle period (deliveries);
 * - at once past MAX_HELD_CHARS (a bound on what a frame holds);
 * - synchronously when the relay asks (the page is going away: pagehide).
 * Under light traffic a record reaches the relay within a few milliseconds of the frame going idle.
 */
import { CHANNEL_PAGE_RECORDS } from '../shared/messages.ts';

/** Bound of one event's detail, UTF-16 units. */
const MAX_EVENT_CHARS = 1_000_000;
/** Bound of what a frame holds before it flushes in the middle of a burst, UTF-16 units (~8 MB). */
export const MAX_HELD_CHARS = 4_000_000;
/** The longest a record waits for an idle period. */
export const MAX_WAIT_MS = 1000;
// Captured at document_start, before the page can replace them.
const setTimer = setTimeout;
const clearTimer = clearTimeout;
const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback : undefined;
const cancelIdle = typeof cancelIdleCallback === 'function' ? cancelIdleCallback : undefined;
const CE = CustomEvent;

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
    this.chars += json.length;
    // A post goes at the end of its task, with every record before it: the session rules need an action
    // before the events that answer it, which other frames record.
    if (this.reserved === 0) {
      this.flush();
    }
  }

  /** Queue one delivery's JSON. */
  add(json: string): void {
    this.entries.push(json);
    this.added(json.length);
  }

  private added(n: number) {
    this.chars += n;
    if (this.chars >= MAX_HELD_CHARS && this.reserved === 0) {
      this.flush();
    } else {
      this.schedule();
    }
  }

  private schedule() {
    if (this.timer !== undefined) {
      return;
    }
    this.timer = setTimer(this.onWake, MAX_WAIT_MS);
    if (idle) {
      this.idleHandle = idle(this.onWake);
    }
  }

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
    if (parts.length) {
      this.dispatch(new CE(CHANNEL_PAGE_RECORDS, { detail: parts.join(',') }));
    }
  }
}
