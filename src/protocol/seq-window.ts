/**
 * The newest record seqs a session checker has seen, at most `max` of them, kept sorted in one typed array, each with
 * an optional note (a first half still waiting for the partner it names). A log copies its checker at every
 * checkpoint: a copy here is a few memory copies, where a Set of 8,192 seqs is rebuilt entry by entry (~0.9 ms in
 * Node 20; the typed array's copy takes microseconds). Seqs come in increasing order as a rule (the stream is in log
 * order); one that comes out of order is inserted in its place. When full, the lower half (the oldest) is forgotten,
 * and `add` returns the notes forgotten with it.
 */
export class SeqWindow<T> {
  private seqs: Float64Array;
  private notes: Array<T | undefined>;
  private n = 0;
  private noted = 0;

  constructor(
    private readonly max: number,
    from?: SeqWindow<T>,
  ) {
    this.seqs = from ? new Float64Array(from.seqs.subarray(0, from.n)) : new Float64Array(Math.min(64, max));
    this.notes = from ? (from.noted ? from.notes.slice(0, from.n) : []) : [];
    this.n = from ? from.n : 0;
    this.noted = from ? from.noted : 0;
  }

  get size(): number {
    return this.n;
  }

  /** A window with the same seqs and notes, independent of this one. */
  copy(): SeqWindow<T> {
    return new SeqWindow(this.max, this);
  }

  has(seq: number): boolean {
    const i = this.lowerBound(seq);
    return i < this.n && this.seqs[i] === seq;
  }

  /** Takes the note of `seq` off (undefined when it has none, or is not here). */
  takeNote(seq: number): T | undefined {
    if (!this.noted) {
      return undefined;
    }
    const i = this.lowerBound(seq);
    const note = i < this.n && this.seqs[i] === seq ? this.notes[i] : undefined;
    if (note !== undefined) {
      this.notes[i] = undefined;
      this.noted--;
    }
    return note;
  }

  /** Notes `seq`, added before. */
  note(seq: number, note: T): void {
    const i = this.lowerBound(seq);
    if (i >= this.n || this.seqs[i] !== seq) {
      return;
    }
    while (this.notes.length < i) {
      this.notes.push(undefined);
    }
    if (this.notes[i] === undefined) {
      this.noted++;
    }
    this.notes[i] = note;
  }

  /** Every note still held, oldest seq first. */
  allNotes(): T[] {
    const out: T[] = [];
    for (let i = 0; this.noted && i < this.n; i++) {
      const note = this.notes[i];
      if (note !== undefined) {
        out.push(note);
      }
    }
    return out;
  }

  /** Adds `seq`; returns the notes forgotten to make room, or null. */
  add(seq: number): T[] | null {
    if (Number.isNaN(seq)) {
      return null; // (unordered: it would break the search, and no record can name it)
    }
    const n = this.n;
    const last = n ? this.seqs[n - 1] : -Infinity;
    const at = seq > last ? n : this.lowerBound(seq);
    if (at < n && this.seqs[at] === seq) {
      return null;
    }
    const forgotten = n >= this.max ? this.forgetOldestHalf() : null;
    this.insert(seq > last ? this.n : this.lowerBound(seq), seq);
    return forgotten;
  }

  private insert(at: number, seq: number): void {
    const n = this.n;
    if (n === this.seqs.length) {
      const bigger = new Float64Array(Math.min(this.max, Math.max(64, n * 2)));
      bigger.set(this.seqs.subarray(0, n));
      this.seqs = bigger;
    }
    if (at < n) {
      this.seqs.copyWithin(at + 1, at, n);
      if (this.noted) {
        this.notes.splice(at, 0, undefined);
      }
    }
    this.seqs[at] = seq;
    this.n = n + 1;
  }

  private forgetOldestHalf(): T[] | null {
    const drop = this.n >> 1 || this.n;
    let forgotten: T[] | null = null;
    if (this.noted) {
      forgotten = this.notes.splice(0, drop).filter((x): x is T => x !== undefined);
      this.noted -= forgotten.length;
    }
    this.seqs.copyWithin(0, drop, this.n);
    this.n -= drop;
    return forgotten?.length ? forgotten : null;
  }

  /**
   * The first index whose seq is not below `seq`. (Written out, not sorted.ts's search through a callback: it runs
   * for every record checked, and the callback made the checker ~20% slower.)
   */
  private lowerBound(seq: number): number {
    const seqs = this.seqs;
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seqs[mid] < seq) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
