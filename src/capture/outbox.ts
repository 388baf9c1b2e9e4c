/**
 * One ordered outbox per frame and per world: what the frame recorded stays in the frame while traffic flows
 * (moving bytes to the background costs CPU in this renderer, the browser and the service worker, which a
 * burst on a machine with few cores pays for in its own throughput), in the order the frame saw it, and is
 * handed over (`handOver`, see page.ts and relay.ts):
 * - after a quiet period: QUIET_MS without a new entry, longer by PER_POST_CHAR_MS per character of post JSON
 *   held and by PER_POST_MS per post held, at most MAX_QUIET_MS: a frame that posted a burst would otherwise write
 *   and send it while its receivers still take the posts, on the same cores (BENCHMARKS.md, issue 30). A receiver
 *   takes a message more slowly than the sender posts it, so the wait grows with the posts held, and with their
 *   length. Where the receiving frame is captured, its burst's end asks the sender sooner (relay.ts, `received`);
 * - when a steady light stream never goes quiet: once the oldest entry is LIGHT_WAIT_MS old while the frame
 *   holds less than LIGHT_CHARS;
 * - when the oldest entry is MAX_WAIT_MS old, whatever the traffic;
 * - past MAX_HELD_CHARS or MAX_HELD_ENTRIES (the bounds of what a frame holds): in tasks of their own, at most
 *   HAND_OVER_CHARS a task, until nothing is held (entries that come meanwhile follow in later tasks). Not in the
 *   task that crossed the bound: that is the page's posting task (or a delivery's), and the page's own loop would
 *   pay for writing and sending what it holds (up to the whole burst of one task) before it could go on. A page
 *   that never lets a task run (it posts from a chain of microtasks, or each of its tasks adds more than a
 *   slice) reaches twice a bound while a hand-over waits: then everything held leaves at once, in that task, so
 *   what a frame holds stays under twice its bounds plus the posts of one task;
 * - synchronously on `flush` (the page is going away: pagehide; or the other world asks).
 * The timer runs out when the earliest of these is due if nothing more comes (a new entry only moves the quiet
 * period's end, checked when the timer runs out), so a frame hands over at the time its rule says, not up to a
 * period later.
 * The background orders records of all frames by capture time, so when a frame hands over does not change
 * the order of the log. A post still being written (reserved) holds back what follows it.
 */
/**
 * Bound of what a frame holds before it hands over in the middle of a burst, UTF-16 units (as `add` counts). Above a
 * burst of 20,000 posts of 10 KB (~206M characters of record JSON; the page's own messages of that burst, in flight
 * to their receiver, are as large): a frame that hands over while its receiver still takes the burst makes each of
 * its messages cost more (BENCHMARKS.md, issue 30). A longer burst hands over in its middle.
 */
export const MAX_HELD_CHARS = 256_000_000;
/**
 * Bound of the entries a frame holds (a held delivery keeps its message until it is serialized). Above the longest
 * burst the capture is measured at (100,000 messages, bench/page-overhead.mjs): a hand-over in the middle of a
 * burst writes and sends records while the burst's messages still wait for the same main thread and cores, so
 * each message of a longer burst would cost more. A held burst is no larger than the messages the page had waiting
 * for it as the burst began.
 */
export const MAX_HELD_ENTRIES = 150_000;
/**
 * What one hand-over past a bound carries at most, characters (about one batch of the relay's link, link.ts): a
 * task of the page's main thread writes and sends no more than this, so the page's own tasks run between them.
 */
export const HAND_OVER_CHARS = 4_000_000;
/** Quiet period: no new entry for this long, and the frame hands over. */
export const QUIET_MS = 50;
/** Added to the quiet period per character of post JSON held. */
export const PER_POST_CHAR_MS = 0.00005;
/**
 * Added to the quiet period per post held: about what a receiver here takes per small message beyond what its sender
 * took to post it (a 200 B envelope is delivered in 45–120 µs on these machines).
 */
export const PER_POST_MS = 0.1;
/** The longest quiet period. */
export const MAX_QUIET_MS = 4000;
/**
 * A light stream (under LIGHT_CHARS held: ~1.3M characters a second, e.g. 2,500 small envelopes a second) leaves
 * once its oldest record is this old, so that a live panel sees it while it lasts. A burst in one task on a quiet
 * machine (~20,000 messages a second) is several times heavier and is held until it ends.
 */
export const LIGHT_WAIT_MS = 50;
export const LIGHT_CHARS = 65_536;
/** The longest a record waits. */
export const MAX_WAIT_MS = 5000;
// Captured at document_start, before the page can replace them.
const setTimer = setTimeout;
const clearTimer = clearTimeout;

/** A reserved place not yet written, and a written place with nothing to hand over (an unreadable post). */
const RESERVED = undefined;
const SKIP = null;

export class Outbox<T> {
  /**
   * Entries in the order the frame saw them, from `head` on (those before it have left); RESERVED: a post whose
   * JSON comes at the end of its task.
   */
  private entries: Array<T | typeof RESERVED | typeof SKIP> = [];
  /** What each entry counts for (parallel to `entries`). */
  private sizes: number[] = [];
  private head = 0;
  /** Reserved slots not yet written. */
  private reserved = 0;
  /** The slot number of `entries[0]` (a slot number minus this is its index in `entries`). */
  private base = 0;
  private chars = 0;
  /** Characters of post JSON held, and posts held (they lengthen the quiet period). */
  private postChars = 0;
  private posts = 0;
  /** When the oldest held record and the last one came (clock ms). */
  private first = 0;
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Past a bound: what is held leaves in slices, one a task, until nothing is held. */
  private due = false;

  /**
   * `now`: the clock of the times given to `add` (the capture's own clock). `handOver`: receives the entries
   * that leave, in order, never empty, at most about `part` characters a call (one entry at least); `burstEnd` is
   * true when a burst ended: the frame went quiet (its quiet period passed without a new entry) holding LIGHT_CHARS
   * or more; false when they leave by another rule (a light stream, the longest wait, a bound), on `flush`, or after
   * a few entries. What has not left yet is still held during a call: a `flush` from inside `handOver` hands it over
   * next, in order.
   */
  constructor(
    private readonly now: () => number,
    private readonly handOver: (entries: T[], burstEnd: boolean) => void,
    private readonly part = Number.POSITIVE_INFINITY,
  ) {}

  /** Reserve the place of a post (hot path: one push). Returns the slot to `fill` at the end of the task. */
  reserve(): number {
    this.reserved++;
    this.sizes.push(0);
    return this.base + this.entries.push(RESERVED) - 1;
  }

  /**
   * Write a reserved post of `chars` characters (`null` when it could not be read: the slot is skipped); `t`: when,
   * on this outbox's clock, if the caller has read it (a batch of posts is written at one time).
   */
  fill(slot: number, entry: T | null, chars: number, t?: number): void {
    this.entries[slot - this.base] = entry;
    this.sizes[slot - this.base] = entry === SKIP ? 0 : chars;
    this.reserved--;
    if (entry !== SKIP) {
      this.postChars += chars;
      this.posts++;
    }
    this.added(entry === SKIP ? 0 : chars, t);
  }

  /** Queue one entry that counts for `chars`; `t`: when it came, on this outbox's clock, if the caller has read it. */
  add(entry: T, chars: number, t?: number): void {
    this.entries.push(entry);
    this.sizes.push(chars);
    this.added(chars, t);
  }

  /** Entries held, reserved ones included. */
  get size(): number {
    return this.entries.length - this.head;
  }

  private added(n: number, t = this.now()) {
    if (this.chars === 0) {
      this.first = t;
    }
    this.last = t;
    this.chars += n;
    if (this.reserved === 0 && this.over(1)) {
      if (!this.due) {
        this.due = true;
        this.arm(0);
      } else if (this.over(2)) {
        // No task ran since the bound was crossed: memory, not the page's time, decides.
        this.flush();
      }
    } else if (this.timer === undefined) {
      this.arm(QUIET_MS);
    }
  }

  /** Whether the frame holds `k` times a bound or more. */
  private over(k: number): boolean {
    return this.chars >= k * MAX_HELD_CHARS || this.size >= k * MAX_HELD_ENTRIES;
  }

  private arm(ms: number) {
    if (this.timer !== undefined) {
      clearTimer(this.timer);
    }
    this.timer = setTimer(this.onTick, ms);
  }

  /** The quiet period: no new entry for this long, and what is held leaves. */
  private quiet(): number {
    return Math.min(MAX_QUIET_MS, QUIET_MS + this.postChars * PER_POST_CHAR_MS + this.posts * PER_POST_MS);
  }

  /** How long until what is held should leave (0: now). */
  private wait(t: number): number {
    const age = t - this.first;
    let ms = Math.min(MAX_WAIT_MS - age, this.quiet() - (t - this.last));
    if (this.chars < LIGHT_CHARS) {
      ms = Math.min(ms, LIGHT_WAIT_MS - age);
    }
    return Math.max(0, ms);
  }

  private onTick = () => {
    this.timer = undefined;
    if (this.due) {
      this.take(HAND_OVER_CHARS);
      if (this.size > this.reserved) {
        this.arm(0);
      } else {
        this.due = false;
      }
      return;
    }
    // A post of this task is still being written: its `fill` arms the timer again.
    const t = this.now();
    const ms = this.reserved === 0 ? this.wait(t) : QUIET_MS;
    if (ms === 0) {
      this.take(Number.POSITIVE_INFINITY, this.chars >= LIGHT_CHARS && t - this.last >= this.quiet());
    } else if (this.chars > 0 || this.reserved > 0) {
      // Checked again when it would be due if nothing more came.
      this.arm(Math.ceil(ms));
    }
  };

  /** Hand everything held over now, in order (up to a post still reserved). */
  flush(): void {
    this.due = false;
    this.take(Number.POSITIVE_INFINITY);
  }

  /**
   * Hand over what is held, in order, up to a post still reserved, about `max` characters at most (one entry at
   * least), in parts of about `part` characters; `burstEnd`: a burst ended (`handOver`).
   */
  private take(max: number, burstEnd = false): void {
    if (this.timer !== undefined) {
      clearTimer(this.timer);
      this.timer = undefined;
    }
    for (let taken = 0; taken < max; ) {
      const entries = this.entries;
      const sizes = this.sizes;
      // A post still reserved (flush in the middle of its task, e.g. pagehide) keeps its place and what follows;
      // its `fill` schedules them.
      const stop = this.reserved > 0 ? entries.indexOf(RESERVED, this.head) : entries.length;
      const from = this.head;
      let end = from;
      let n = 0;
      while (end < stop && n < this.part && taken + n < max) {
        n += sizes[end++];
      }
      if (end === from) {
        return;
      }
      const out: T[] = [];
      for (let i = from; i < end; i++) {
        const e = entries[i];
        if (e !== SKIP && e !== RESERVED) {
          out.push(e);
        }
      }
      taken += n;
      // Left before the part is handed over: a flush from inside `handOver` starts after it.
      this.head = end;
      this.chars -= n;
      this.postChars = Math.min(this.postChars, this.chars);
      this.posts = Math.min(this.posts, this.size);
      if (end === entries.length) {
        this.entries = [];
        this.sizes = [];
        this.base += end;
        this.head = 0;
      } else if (end > 4096 && end * 2 > entries.length) {
        this.entries = entries.slice(end);
        this.sizes = sizes.slice(end);
        this.base += end;
        this.head = 0;
      }
      // What stays counts from now.
      if (this.chars > 0) {
        this.first = this.last = this.now();
      }
      if (out.length) {
        this.handOver(out, burstEnd);
      }
    }
  }
}
