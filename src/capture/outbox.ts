/**
 * MAIN world -> relay: one ordered outbox per frame. Posts and deliveries keep the order in which this frame
 * saw them (a post reserves its place when the page calls postMessage; its JSON is written at the end of the
 * task), and the records stay in the page, already serialized, while traffic flows: moving bytes to the
 * background costs CPU in this renderer, the browser and the service worker, which a burst on a machine with
 * few cores pays for in its own throughput. They are handed to the isolated relay in private CustomEvents
 * (never a `message` event):
 * - after a quiet period: QUIET_MS without a new record, longer for a frame that holds posts (each post is
 *   work for its receiver, still in progress when the posting task ends): PER_POST_MS per post and
 *   PER_POST_CHAR_MS per character of post JSON, at most MAX_QUIET_MS;
 * - when a steady light stream never goes quiet: once the oldest record is LIGHT_WAIT_MS old while the frame
 *   holds less than LIGHT_CHARS;
 * - when the oldest record is MAX_WAIT_MS old, whatever the traffic;
 * - at once past MAX_HELD_CHARS (the bound of what a frame holds);
 * - synchronously when the relay asks (the page is going away: pagehide).
 * The background orders records of all frames by capture time, so when a frame hands over does not change
 * the order of the log. A post still being written (reserved) holds back what follows it.
 */
import { CHANNEL_PAGE_RECORDS } from '../shared/messages.ts';

/** Bound of one event's detail, UTF-16 units. */
const MAX_EVENT_CHARS = 1_000_000;
/** Bound of what a frame holds before it hands over in the middle of a burst, UTF-16 units. */
export const MAX_HELD_CHARS = 64_000_000;
/** Quiet period of a frame that holds no post. */
export const QUIET_MS = 50;
/** Added to the quiet period per post held, and per character of post JSON held. */
export const PER_POST_MS = 0.15;
export const PER_POST_CHAR_MS = 0.00005;
/** The longest quiet period. */
export const MAX_QUIET_MS = 4000;
/** A light stream (under LIGHT_CHARS held: ~650,000 characters a second) leaves once its oldest record is this old. */
export const LIGHT_WAIT_MS = 50;
export const LIGHT_CHARS = 32_768;
/** The longest a record waits. */
export const MAX_WAIT_MS = 5000;
// Captured at document_start, before the page can replace them.
const setTimer = setTimeout;
const clearTimer = clearTimeout;
const CE = CustomEvent;

export class Outbox {
  /** Record JSON in the order the frame saw them; `undefined`: a post whose JSON comes at the end of its task. */
  private entries: Array<string | undefined> = [];
  /** Reserved slots not yet written. */
  private reserved = 0;
  /** Entries handed over so far (a slot number minus this is its index in `entries`). */
  private base = 0;
  private chars = 0;
  /** Posts held, and their characters (they lengthen the quiet period). */
  private posts = 0;
  private postChars = 0;
  /** When the oldest held record and the last one came (clock ms). */
  private first = 0;
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly dispatch: (e: Event) => boolean;

  /** `now`: the clock of the times given to `add` (the capture's own clock, in the page). */
  constructor(
    doc: Document,
    private readonly now: () => number,
  ) {
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
    this.posts++;
    this.postChars += json.length;
    this.added(json.length);
  }

  /** Queue one delivery's JSON; `t`: when it came, on this outbox's clock, if the caller has read it already. */
  add(json: string, t?: number): void {
    this.entries.push(json);
    this.added(json.length, t);
  }

  private added(n: number, t = this.now()) {
    if (this.chars === 0) {
      this.first = t;
    }
    this.last = t;
    this.chars += n;
    if (this.chars >= MAX_HELD_CHARS && this.reserved === 0) {
      this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimer(this.onTick, QUIET_MS);
    }
  }

  /** Whether what is held should leave now. */
  private due(t: number): boolean {
    const age = t - this.first;
    if (age >= MAX_WAIT_MS || (this.chars < LIGHT_CHARS && age >= LIGHT_WAIT_MS)) {
      return true;
    }
    const quiet = Math.min(MAX_QUIET_MS, QUIET_MS + this.posts * PER_POST_MS + this.postChars * PER_POST_CHAR_MS);
    return t - this.last >= quiet;
  }

  private onTick = () => {
    this.timer = undefined;
    // A post of this task is still being written: its `fill` arms the timer again.
    if (this.reserved === 0 && this.due(this.now())) {
      this.flush();
    } else if (this.chars > 0 || this.reserved > 0) {
      this.timer = setTimer(this.onTick, QUIET_MS);
    }
  };

  /** Hand everything held to the relay now, in order (chunks of at most MAX_EVENT_CHARS). */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimer(this.timer);
      this.timer = undefined;
    }
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
    // What stays (after a reserved post) counts as new: its posts are counted again when filled.
    this.chars = 0;
    this.posts = 0;
    this.postChars = 0;
    for (const e of this.entries) {
      if (e) {
        this.chars += e.length;
      }
    }
    if (this.chars > 0) {
      this.first = this.last = this.now();
    }
    if (parts.length) {
      this.dispatch(new CE(CHANNEL_PAGE_RECORDS, { detail: parts.join(',') }));
    }
  }
}
