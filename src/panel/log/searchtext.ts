/**
 * The panel's plain-text search index: each record's lower-cased search text (`searchTextOf`), built lazily — in
 * idle time (`indexSome`) or on the first plain-text search — and kept as one string per TEXT_CHUNK records with
 * the records' offsets: few large long-lived strings (which a compacting GC does not move) instead of one small
 * string per record, since the major GC's pause grows with the number of long-lived objects and lands in scroll
 * frames.
 * Live records (the last, partial chunk) and records updated after their chunk was built are held one by one
 * ("loose") until their chunk is (re)built.
 * A chunk is lower-cased as a whole (one call instead of one per record), unless that changes its length (a few
 * characters, such as U+0130, lower-case to two): then text by text. Lower-casing is idempotent, so texts already
 * lower-cased may be part of it; and a record's text is the same either way, since the only context-dependent
 * mapping (final sigma) cannot see past the line break each text ends with.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';

const TEXT_SHIFT = 10;
const TEXT_CHUNK = 1 << TEXT_SHIFT;
const TEXT_MASK = TEXT_CHUNK - 1;

export class SearchText {
  /** Chunk c: the search texts of records [c * TEXT_CHUNK, (c + 1) * TEXT_CHUNK), concatenated; undefined until built. */
  private textChunks: Array<string | undefined> = [];
  /** Chunk c's offsets: record c * TEXT_CHUNK + k's text is [offsets[k], offsets[k + 1]). */
  private textOffsets: Array<Int32Array | undefined> = [];
  /**
   * Texts held one by one: records of the last, partial chunk (live records) or of a chunk not built yet, and
   * updated records whose chunk is built (null: to be made from the record again). Folded into their chunk when
   * it is built or rebuilt.
   */
  private looseText = new Map<number, string | null>();
  /** Built chunks with a record updated since (their entries in `looseText` override them). */
  private dirtyChunks = new Set<number>();
  /** Records [0, textDone) have their search text (in a clean chunk, or in `looseText`, or in `raw`). */
  private textDone = 0;
  /** Texts not lower-cased yet, made by `indexSome` for the chunk `rawChunk` it is building (by position in it). */
  private raw: Array<string | undefined> = [];
  private rawChunk = -1;

  /** `records`: the log's records, read when a text is needed (the array may be replaced). */
  constructor(private readonly recordsOf: () => ClassifiedRecord[]) {}

  private get records(): ClassifiedRecord[] {
    return this.recordsOf();
  }

  /** Forget everything (a new log). */
  reset(): void {
    this.textChunks = [];
    this.textOffsets = [];
    this.looseText = new Map();
    this.dirtyChunks = new Set();
    this.textDone = 0;
    this.raw = [];
    this.rawChunk = -1;
  }

  /**
   * The lower-cased text of record i if it is made already (in a built chunk that is not dirty, or held alone), else
   * undefined; never makes one.
   */
  private known(i: number): string | undefined {
    const c = i >> TEXT_SHIFT;
    const s = this.textChunks[c];
    if (s !== undefined && !this.dirtyChunks.has(c)) {
      const off = this.textOffsets[c]!,
        k = i & TEXT_MASK;
      return s.slice(off[k], off[k + 1]);
    }
    return this.looseText.get(i) ?? undefined;
  }

  /**
   * The log now holds some of the records `before` indexed (a trim): record i was `oldIndex[i]` there. The texts
   * `before` had made are taken over, chunk by chunk from the first, as far as every text of a chunk is known (a
   * trim of a log at its bound keeps its index: a search after it is not cold, and idle time does not make every
   * text again). The rest is indexed as after a reset. Call after `reset`.
   */
  carry(before: SearchText, oldIndex: Int32Array): void {
    const full = oldIndex.length >> TEXT_SHIFT;
    let c = 0;
    for (; c < full; c++) {
      const parts = new Array<string>(TEXT_CHUNK);
      const off = new Int32Array(TEXT_CHUNK + 1);
      let pos = 0;
      let k = 0;
      for (; k < TEXT_CHUNK; k++) {
        const t = before.known(oldIndex[(c << TEXT_SHIFT) + k]);
        if (t === undefined) {
          break;
        }
        parts[k] = t;
        off[k] = pos;
        pos += t.length;
      }
      if (k < TEXT_CHUNK) {
        break;
      }
      off[TEXT_CHUNK] = pos;
      this.textChunks[c] = parts.join('');
      this.textOffsets[c] = off;
    }
    this.textDone = c << TEXT_SHIFT;
  }

  /** Record i changed: its text is made again when next needed. */
  updated(i: number): void {
    const c = i >> TEXT_SHIFT;
    if (c === this.rawChunk) {
      this.raw[i & TEXT_MASK] = undefined;
    }
    if (this.textChunks[c] !== undefined) {
      this.looseText.set(i, null);
      this.dirtyChunks.add(c);
    } else if (this.looseText.has(i)) {
      this.looseText.set(i, null);
    }
    if (i < this.textDone) {
      this.textDone = c << TEXT_SHIFT;
    }
  }

  /** The lower-cased search text of record i (see `searchTextOf`); a slice of its chunk, made on demand. */
  at(i: number): string {
    const c = i >> TEXT_SHIFT;
    let s = this.textChunks[c];
    const dirty = this.dirtyChunks;
    if (s === undefined || (dirty.size && dirty.has(c))) {
      const t = this.looseText.get(i);
      if (t !== undefined) {
        return t ?? this.looseTextAt(i);
      }
      if (s === undefined) {
        // The last chunk, not full yet: text by text. A full chunk: built whole (a search reads most of it).
        if ((c + 1) << TEXT_SHIFT > this.records.length) {
          return this.looseTextAt(i);
        }
        s = this.buildTextChunk(c);
      }
    }
    const off = this.textOffsets[c]!,
      k = i & TEXT_MASK;
    return s.slice(off[k], off[k + 1]);
  }
  private looseTextAt(i: number): string {
    const t = searchTextOf(this.records[i]);
    this.looseText.set(i, t);
    return t;
  }
  /** Build (or rebuild, after updates) chunk c, which must be full; its records leave `looseText`. */
  private buildTextChunk(c: number): string {
    const loose = this.looseText,
      records = this.records;
    const old = this.textChunks[c],
      oldOff = this.textOffsets[c];
    const start = c << TEXT_SHIFT;
    const raw = this.rawChunk === c ? this.raw : undefined;
    const parts = new Array<string>(TEXT_CHUNK);
    const off = new Int32Array(TEXT_CHUNK + 1);
    let pos = 0;
    for (let k = 0; k < TEXT_CHUNK; k++) {
      const i = start + k;
      const l = loose.size ? loose.get(i) : undefined;
      let t: string;
      if (l !== undefined) {
        loose.delete(i);
        t = l ?? rawSearchTextOf(records[i]);
      } else {
        t = old !== undefined ? old.slice(oldOff![k], oldOff![k + 1]) : (raw?.[k] ?? rawSearchTextOf(records[i]));
      }
      parts[k] = t;
      off[k] = pos;
      pos += t.length;
    }
    off[TEXT_CHUNK] = pos;
    if (raw) {
      this.raw = [];
      this.rawChunk = -1;
    }
    let s = parts.join('').toLowerCase();
    if (s.length !== pos) {
      // a character whose lower case is longer: text by text, with their own offsets
      pos = 0;
      for (let k = 0; k < TEXT_CHUNK; k++) {
        const t = parts[k].toLowerCase();
        parts[k] = t;
        off[k] = pos;
        pos += t.length;
      }
      off[TEXT_CHUNK] = pos;
      s = parts.join('');
    }
    this.textChunks[c] = s;
    this.textOffsets[c] = off;
    this.dirtyChunks.delete(c);
    return s;
  }
  /** How many records (from the first) have their search text. */
  get indexed(): number {
    return this.textDone;
  }
  /** Build search text in the background, for at most about `budgetMs`; returns true when every record has it. */
  indexSome(budgetMs = 8, now: () => number = () => performance.now()): boolean {
    const end = now() + budgetMs;
    const n = this.records.length;
    const chunks = this.textChunks,
      loose = this.looseText;
    let i = this.textDone;
    while (i < n) {
      const c = i >> TEXT_SHIFT,
        chunkEnd = (c + 1) << TEXT_SHIFT;
      const built = chunks[c] !== undefined;
      if (built && !this.dirtyChunks.has(c)) {
        i = chunkEnd;
        continue;
      }
      // Text by text (within the budget), then the chunk from them once it is complete. A full chunk not built yet
      // gets its texts as they are (`raw`), lower-cased with the chunk; updated records of a built chunk and the
      // records of the last chunk get theirs lower-cased.
      const t = loose.get(i);
      if (built) {
        if (t === null) {
          loose.set(i, searchTextOf(this.records[i]));
        }
      } else if (chunkEnd > n) {
        if (t == null) {
          loose.set(i, searchTextOf(this.records[i]));
        }
      } // the last chunk, not full: searched text by text
      else if (t == null) {
        if (this.rawChunk !== c) {
          this.raw = [];
          this.rawChunk = c;
        }
        this.raw[i & TEXT_MASK] = rawSearchTextOf(this.records[i]);
      }
      i++;
      if (i === chunkEnd) {
        this.buildTextChunk(c);
      }
      if ((i & 63) === 0 && now() > end) {
        break;
      }
    }
    this.textDone = i;
    return i >= n;
  }
}

/** The text the plain-text search looks in: the message JSON, frame URL, origins, each on a line; lower-cased. */
export function searchTextOf(r: ClassifiedRecord): string {
  return rawSearchTextOf(r).toLowerCase();
}
/**
 * `searchTextOf` before lower-casing (the search index lower-cases a thousand of them at once: searchtext.ts). It
 * ends with a line break, so that a text lower-cases the same alone and followed by another: the one mapping that
 * depends on what follows (Σ at a word's end) stops at a line break.
 */
function rawSearchTextOf(r: ClassifiedRecord): string {
  let json: string;
  try {
    json = JSON.stringify(r.data) ?? '';
  } catch {
    json = '';
  }
  return `${json}\n${r.frameUrl}\n${r.origin}\n${r.targetOrigin ?? ''}\n`;
}
