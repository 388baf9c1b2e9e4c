/**
 * One frame's order, rebuilt in the relay from its two recorders: the deliveries it recorded itself
 * (deliveries.ts), numbered from 0 in the order the frame saw them, and the posts the MAIN world hands over
 * (page.ts), each with the number of deliveries that frame had seen when the page posted (`after`). A post made
 * in a message handler therefore follows that message's delivery, and one made before a delivery precedes it.
 *
 * page -> relay detail (CHANNEL_PAGE_RECORDS): lines `<after>\t<post facts JSON>`, joined by `\n`. That JSON never
 * holds a raw newline or tab (JSON.stringify escapes control characters, and writer.ts adds none), so the relay
 * splits without parsing. What the page's world wrote never enters the relay's own JSON: it travels beside it, as a
 * line of the batch (`Untrusted`), and the background reads each line on its own (background/batch.ts).
 */

/** Bound of one page -> relay detail, UTF-16 units. */
export const MAX_DETAIL_CHARS = 1_000_000;
/**
 * Record characters `Drain` writes per task at most (and one record more), beside its count of deliveries: a slice
 * of posts only, or of 10 KB records, is no longer than a slice of small deliveries (about one batch of link.ts).
 */
export const SLICE_CHARS = 4_000_000;

export interface PagePost {
  /** Deliveries the frame had seen when the page posted. */
  after: number;
  json: string;
  /** The frame's address when the relay took the post (before any later same-document navigation: relay.ts). */
  url: string;
}

export const postLine = (after: number, json: string): string => `${after}\t${json}`;

/**
 * An entry of a batch made of the relay's own JSON (`entry`, which says `"line":true`) and a line of text the page's
 * world wrote (`line`), which travels beside the batch's JSON, never inside it.
 */
interface Untrusted {
  entry: string;
  line: string;
}
/** An entry of a batch: a record the relay wrote, or one with a line from the page's world. */
export type BatchEntry = string | Untrusted;

const sizeOf = (e: BatchEntry): number => (typeof e === 'string' ? e.length : e.entry.length + e.line.length);

/**
 * `entries` in parts of at most about `max` characters (a longer entry goes alone), in order: each part's JSON (the
 * entries joined by commas) and the lines of its untrusted entries, in order.
 */
export function joinEntries(
  entries: readonly BatchEntry[],
  max: number,
  emit: (json: string, lines: string[]) => void,
): void {
  let texts: string[] = [];
  let lines: string[] = [];
  let chars = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const n = sizeOf(e) + 1;
    if (chars + n > max && texts.length) {
      emit(texts.join(','), lines);
      texts = [];
      lines = [];
      chars = 0;
    }
    if (typeof e === 'string') {
      texts.push(e);
    } else {
      texts.push(e.entry);
      lines.push(e.line);
    }
    chars += n;
  }
  if (texts.length) {
    emit(texts.join(','), lines);
  }
}

/** The posts of one detail, taken at address `url`; a line that does not parse is dropped (never thrown). */
export function parsePosts(detail: string, into: PagePost[], url: string): void {
  const lines = detail.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const tab = line.indexOf('\t');
    const after = tab > 0 ? Number(line.slice(0, tab)) : Number.NaN;
    if (after >= 0 && tab + 1 < line.length) {
      into.push({ after, json: line.slice(tab + 1), url });
    }
  }
}

/**
 * The frame's hand-overs in its order, written in slices of at most `slice` deliveries and about `sliceChars`
 * characters per task (a record that would pass it ends the slice): a frame that held a long burst (up to the
 * outbox's bound) does not stop its page for the whole burst's serialization at once, and holds at most one
 * slice's record text. Deliveries and posts are queued in the order they are handed over; a
 * post waits in the queue until the deliveries it follows are written (posts handed over later were made after
 * every delivery already queued): each post goes before the first queued delivery it had not seen, so the slices
 * together are the frame's records in its order. `json` writes a delivery's record ('' leaves it out).
 * `drain` writes everything still queued at once (the page is going away, or the background asks).
 */
export class Drain<D extends { i: number }, E = string> {
  private deliveries: D[] = [];
  private next = 0;
  private posts: PagePost[] = [];
  private nextPost = 0;
  private scheduled = false;

  /**
   * `json`: a delivery's entry ('' skips it); `emit`: the entries of one slice, in order, never empty;
   * `defer`: runs a function in a later task; `post`: a post's entry; `size`: an entry's characters.
   */
  constructor(
    private readonly json: (d: D) => E | '',
    private readonly emit: (records: E[]) => void,
    private readonly slice: number,
    private readonly defer: (fn: () => void) => void,
    private readonly sliceChars = SLICE_CHARS,
    private readonly post: (p: PagePost) => E = (p) => p.json as E,
    private readonly size: (e: E) => number = (e) => (e as string).length,
  ) {}

  /** Queue deliveries (ascending `i`, after every one queued before) and posts (made after those queued before). */
  add(deliveries: readonly D[], posts: readonly PagePost[]): void {
    for (let k = 0; k < deliveries.length; k++) {
      this.deliveries.push(deliveries[k]);
    }
    for (let k = 0; k < posts.length; k++) {
      this.posts.push(posts[k]);
    }
    if (!this.scheduled && this.queued) {
      this.scheduled = true;
      // The first slice in this task: a short burst leaves as it did before slicing.
      this.step();
    }
  }

  /** Deliveries and posts queued, not yet written. */
  get queued(): number {
    return this.deliveries.length - this.next + this.posts.length - this.nextPost;
  }

  /** Write everything queued now. */
  drain(): void {
    while (this.queued) {
      this.write(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
    }
  }

  private step = () => {
    this.write(this.slice, this.sliceChars);
    if (this.queued) {
      this.defer(this.step);
    } else {
      this.scheduled = false;
    }
  };

  /**
   * Write the next slice: at most `max` deliveries, and records until `maxChars` characters are reached. A post goes
   * before the first queued delivery it had not seen; posts after the last queued delivery go once it is written
   * (posts handed over later were made after it).
   */
  private write(max: number, maxChars: number) {
    const { deliveries, posts } = this;
    const records: E[] = [];
    let chars = 0;
    let d = this.next;
    let p = this.nextPost;
    const dEnd = Math.min(deliveries.length, d + max);
    while (chars < maxChars) {
      if (p < posts.length && (d === deliveries.length || posts[p].after <= deliveries[d].i)) {
        const j = this.post(posts[p++]);
        records.push(j);
        chars += this.size(j);
      } else if (d < dEnd) {
        const j = this.json(deliveries[d++]);
        if (j !== '') {
          records.push(j);
          chars += this.size(j);
        }
      } else {
        break;
      }
    }
    this.next = d;
    this.nextPost = p;
    // Written entries are let go (a queue that never empties drops them once they are half of it).
    if (this.next === this.deliveries.length || (this.next > 4096 && this.next * 2 > this.deliveries.length)) {
      this.deliveries = this.deliveries.slice(this.next);
      this.next = 0;
    }
    if (this.nextPost === this.posts.length || (this.nextPost > 4096 && this.nextPost * 2 > this.posts.length)) {
      this.posts = this.posts.slice(this.nextPost);
      this.nextPost = 0;
    }
    if (records.length) {
      this.emit(records);
    }
  }
}
