/**
 * The record log: every record the panel holds, in the background's order, with what belongs to the records —
 * their facts (`RecordMeta`, shared through the log's own `MetaCache`), counts by verdict, frames, the first
 * `ready` and `dashboard-loaded`, the tab state, and the caches built from the records (search text, sizes,
 * compaction, counts by origin and type). Its methods are the only writers of this state; everything else reads
 * it through the accessors and learns of changes from its typed events (`LogEvents`). Plain TypeScript,
 * framework-free (unit-tested in node).
 *
 * Performance model (100,000 records): per-record facts are computed once at ingestion, O(1) each; live records
 * are queued and applied once per animation frame (`schedule`), one `batch` event for the lot; the lower-cased
 * search text is built lazily, in idle time (`indexText`) or on the first plain-text search, and kept as one
 * string per 1,024 records (few long-lived objects: the major GC's pause grows with their number); the counts by
 * origin and type (only the filter menus show them) likewise (`countSome`), not on arrival.
 */
import { newTabState, type ClassifiedRecord, type TabState } from '../../shared/messages.ts';
import { countsAsMessage, countsAsMessageRead, findSorted } from './protocol.ts';
import { Emitter } from './emitter.ts';
import { SearchText } from './searchtext.ts';
import { Compactor } from './compact.ts';
import { encodedLength } from './size.ts';
import { MetaCache, type RecordMeta } from './meta.ts';
import { OriginTypeCounts } from './counts.ts';
import { FramesSeen, type FrameSeen } from './frames-seen.ts';
import { PageFacts, type PageFactsView } from './page-facts.ts';

export interface FrameInfo {
  readonly url: string;
  readonly count: number;
  readonly surface: string;
}
type MutableFrame = { -readonly [K in keyof FrameInfo]: FrameInfo[K] };
/** Messages by verdict: a post and its delivery count once (protocol/pairs.ts). */
export interface VerdictCounts {
  valid: number;
  invalid: number;
  foreign: number;
}

/** What the log tells its readers. Every event is sent after the log's state is consistent again. */
export interface LogEvents {
  /** Live records were applied (one event per scheduled batch): records [from, from + count) were appended, and
   * the records at `updated` (ascending indices below `from`, or within the appended ones) replaced in place. */
  batch: { from: number; count: number; updated: readonly number[] };
  /** Records came late and were placed by capture time: the records from index `from` on were rewritten in the new
   * order (more may follow, appended). `previous`: the records that held [from, from + previous.length) before. */
  reordered: { from: number; previous: readonly ClassifiedRecord[] };
  /** The log holds other records (a snapshot, a load, a trim, a clear): every index may have changed, and so may
   * the tab state (a snapshot brings its own: no `state` event follows it). */
  replaced: Record<string, never>;
  /** The log holds the same records again, read anew from its source (the background's snapshot after a service
   * worker restart, a re-classification, a new bound): every index may have changed, as with `replaced`, and so may
   * the records' verdicts and the tab state, but they are the same messages, so readers keep what the user opened
   * on them (the details, Settings, the selection by its seq). */
  synced: Record<string, never>;
  /** The user cleared the log (after its `replaced`; the REST calls follow the same rule). */
  cleared: Record<string, never>;
  /** The tab state changed (tenant origin, options, bounds, dropped counts). */
  state: Record<string, never>;
}

export interface LogOptions {
  /** How live batches are scheduled (default: next animation frame, with a timer fallback when hidden). */
  schedule?: (fn: () => void) => void;
}

/** The issue list of every record without issues (frozen: shared). */
const NO_ISSUES: ClassifiedRecord['issues'] = Object.freeze([]) as unknown as ClassifiedRecord['issues'];
/** Most records have no issue: one shared empty list instead of one array each (fewer objects for the GC; folded in
 * idle time with the rest of a record's copies, `compactSome`, and on an update). */
const shareEmptyIssues = (r: ClassifiedRecord) => {
  if (r.issues.length === 0 && r.issues !== NO_ISSUES) {
    r.issues = NO_ISSUES;
  }
};
/** The log trims in steps (a trim re-builds the view): up to this many records over the bound, at most a tenth of it. */
const TRIM_SLACK = 2_000;
const NONE: Record<string, never> = Object.freeze({}) as Record<string, never>;
const NO_INDICES: readonly number[] = Object.freeze([]) as readonly number[];

const defaultSchedule = (fn: () => void) => {
  let done = false;
  const run = () => {
    if (!done) {
      done = true;
      fn();
    }
  };
  if (typeof requestAnimationFrame === 'function') {
    requestAnimationFrame(run);
  }
  setTimeout(run, 100); // rAF does not fire in a hidden panel; keep the log current anyway
};

export class RecordLog {
  private records: ClassifiedRecord[] = [];
  /** Record i's meta, as its number in the cache's table (meta.ts); the array may be longer than the log. */
  private metaIds = new Uint32Array(0);
  private metaCache = new MetaCache();
  private tabState: TabState = newTabState(-1);
  private verdicts: VerdictCounts = { valid: 0, invalid: 0, foreign: 0 };
  private frameMap = new Map<string, MutableFrame>();
  private ready = -1;
  private loaded = -1;
  /** Index of the current page's first record (the last top-level navigation's, else 0). */
  private page = 0;
  /** Bumped when the log is given records (`load`, `sync`, `clear`), not when it rewrites its own (trim, reorder). */
  private gen = 0;
  /** What the integration line judges of the current page, kept as records come (page-facts.ts). */
  private facts = new PageFacts();
  /** The user cleared the log since the current page began: the page's first records are gone. */
  private clearedPage = false;
  private events = new Emitter<LogEvents>();

  /** Seqs increase in record order (the normal case: looked up by binary search over `records`), else by a map. */
  private seqSorted = true;
  /** Whether `reset` is taking in a whole log (the page's facts are then made when first read). */
  private bulk = false;
  /** The seq of the record before the one `ingest` takes in (whether the records are in seq order). */
  private lastSeq = 0;
  private seqMap: Map<number, number> | null = null;
  private lastFrame: MutableFrame | undefined;
  private otherFrame: MutableFrame | undefined;
  private text = new SearchText(() => this.records);
  /** Folds repeated strings and a pair's two copies of one message into shared values (compact.ts). */
  private compact = new Compactor();
  /** Records [0, compacted) went through `compact.record`. */
  private compacted = 0;
  /** Records by origin and type, counted lazily (counts.ts). */
  private byOriginType = new OriginTypeCounts();
  /** Frames posting, receiving or posted to, scanned on demand (frames-seen.ts). */
  private seen = new FramesSeen();
  /** Encoded sizes, worked out as rows show them: size + 1 by record index, 0 when not yet known (a typed array:
   * rows ask in any order, and a plain array written at scattered indices turns into a dictionary). */
  private sizes = new Float64Array(0);
  private pending: ClassifiedRecord[] = [];
  private pendingUpdate: boolean[] = [];
  private scheduled = false;
  private schedule: (fn: () => void) => void;
  /** Seqs the background let go that this log may still hold (dropped at the next trim). */
  private gone = new Set<number>();

  constructor(opts: LogOptions = {}) {
    this.schedule = opts.schedule ?? defaultSchedule;
  }

  on<K extends keyof LogEvents>(type: K, fn: (e: LogEvents[K]) => void): () => void {
    return this.events.on(type, fn);
  }

  // ---------------------------------------------------------------------------------------- reading
  /** How many records the log holds. */
  get count(): number {
    return this.records.length;
  }
  /** Record i (0 = the oldest held). */
  at(i: number): ClassifiedRecord {
    return this.records[i];
  }
  /** Record i's facts (shared, read-only). */
  metaAt(i: number): RecordMeta {
    return this.metaCache.table[this.metaIds[i]];
  }
  /** Every record, in order: read-only, and changed by the log's next change (appended to, or replaced): copy it
   * to keep it. */
  all(): readonly ClassifiedRecord[] {
    return this.records;
  }
  /** Every record's facts: record i's is `table[ids[i]]` (read-only, and changed by the log's next change like `all`;
   * `ids` may be longer than the log). A meta's number is the same for every record that shares it. */
  allMetas(): { ids: Uint32Array; table: readonly RecordMeta[] } {
    return { ids: this.metaIds, table: this.metaCache.table };
  }
  get state(): Readonly<TabState> {
    return this.tabState;
  }
  get counts(): Readonly<VerdictCounts> {
    return this.verdicts;
  }
  /** Frames by URL: their record count and surface. */
  frames(): ReadonlyMap<string, FrameInfo> {
    return this.frameMap;
  }
  /** Frames that posted, received or were posted to, with their latest record's time, most recent first. */
  framesSeen(): FrameSeen[] {
    return this.seen.of(this.records);
  }
  /** Index of the first `ready` record, -1 when none. */
  get readyIndex(): number {
    return this.ready;
  }
  /** Index of the first `dashboard-loaded` record, -1 when none. */
  get loadedIndex(): number {
    return this.loaded;
  }
  /** Index of the current page's first record: the last top-level navigation's (preserve log), else 0. */
  get pageStart(): number {
    return this.page;
  }
  /**
   * The log was cleared since the current page began (until a top-level navigation starts the next page): what is
   * held is the page's tail, and what the page did before is not known (so not judged as a whole page).
   */
  get clearedOnPage(): boolean {
    return this.clearedPage;
  }
  /** Changes each time the log is given records (a snapshot, a sync, a load, a clear); a trim or a reorder of its own
   * records keeps it. */
  get generation(): number {
    return this.gen;
  }
  /** The current page's records the integration line judges, and those with issues (page-facts.ts); null when the
   * seqs do not increase (then it judges the whole page). */
  pageFacts(): PageFactsView | null {
    return this.seqSorted ? this.facts.read(this.records, this.page, this.allMetas()) : null;
  }
  /** Records by sender origin (counted when first asked for, or in idle time: see `countSome`). */
  origins(): ReadonlyMap<string, number> {
    this.countSome(Infinity);
    return this.byOriginType.origins;
  }
  /** Records by message type (likewise). */
  types(): ReadonlyMap<string, number> {
    this.countSome(Infinity);
    return this.byOriginType.types;
  }

  indexOfSeq(seq: number): number {
    if (!this.seqSorted) {
      if (!this.seqMap) {
        const map = new Map<number, number>();
        for (const [i, r] of this.records.entries()) {
          map.set(r.seq, i);
        }
        this.seqMap = map;
      }
      return this.seqMap.get(seq) ?? -1;
    }
    const a = this.records;
    return findSorted(a.length, (i) => a[i].seq, seq);
  }
  bySeq(seq: number | null): ClassifiedRecord | undefined {
    if (seq === null) {
      return undefined;
    }
    const i = this.indexOfSeq(seq);
    return i < 0 ? undefined : this.records[i];
  }

  /** The lower-cased search text of record i (see `searchTextOf` and searchtext.ts). */
  textAt(i: number): string {
    return this.text.at(i);
  }
  /** How many records (from the first) have their search text. */
  get textIndexed(): number {
    return this.text.indexed;
  }
  /** Record i's encoded size (size.ts), measured on first use. */
  sizeAt(i: number): number {
    if (i >= this.sizes.length) {
      const grown = new Float64Array(Math.max(this.records.length, this.sizes.length * 2, 1024));
      grown.set(this.sizes);
      this.sizes = grown;
    }
    const known = this.sizes[i];
    if (known > 0) {
      return known - 1;
    }
    const r = this.records[i];
    const s = typeof r.originalSize === 'number' ? r.originalSize : encodedLength(r.data);
    this.sizes[i] = s + 1;
    return s;
  }

  // ---------------------------------------------------------------------------------------- idle work
  /** Build search text in the background, for at most about `budgetMs`; returns true when every record has it. */
  indexText(budgetMs = 8, now: () => number = () => performance.now()): boolean {
    return this.text.indexSome(budgetMs, now);
  }

  /**
   * Fold repeated strings and the second copy of a pair's message into shared values (compact.ts), from where
   * that stopped, for at most `budgetMs`; true when every record is done. Not part of ingestion (it would
   * double its cost): done in idle time, before the other idle work, so that the heap is small before the
   * user scrolls.
   */
  compactSome(budgetMs = 8, now: () => number = () => performance.now()): boolean {
    const records = this.records;
    const n = records.length;
    let i = this.compacted;
    if (i >= n) {
      return true;
    }
    const end = budgetMs === Infinity ? Infinity : now() + budgetMs;
    for (; i < n; i++) {
      const r = records[i];
      shareEmptyIssues(r);
      this.compact.record(r, this.pairedBefore(r, i));
      // (a record costs at most MAX_COMPARED steps: 32 of them stay within a slice's margin)
      if ((i & 31) === 31 && now() > end) {
        i++;
        break;
      }
    }
    this.compacted = i;
    return i >= n;
  }

  /**
   * Count records by origin and type, from where counting stopped, for at most `budgetMs`; true when all are
   * counted. Not part of ingestion (the first frame does not show these counts): done on first use or when idle.
   */
  countSome(budgetMs = 8, now: () => number = () => performance.now()): boolean {
    return this.byOriginType.countSome(this.records, (i) => this.metaAt(i).type, budgetMs, now);
  }

  // ---------------------------------------------------------------------------------------- writing
  /** A snapshot of another source (a new tab, an imported file): this tab state and these records, nothing queued. */
  load(state: TabState, records: ClassifiedRecord[]): void {
    this.gone.clear();
    this.pending = [];
    this.pendingUpdate = [];
    this.tabState = state;
    this.gen++;
    this.clearedPage = false;
    this.replace(records); // its `replaced` stands for the new state too: readers of the state update once
  }

  /**
   * A snapshot of the source shown, again: the same log when it holds any record held here (seqs are never reused
   * within a tab), and then told as `synced`; else (a Clear or a new page while the link was down) as `replaced`. A
   * log that held nothing is synced too: there was nothing to replace.
   */
  sync(state: TabState, records: ClassifiedRecord[]): void {
    const same = this.records.length === 0 || records.some((r) => this.indexOfSeq(r.seq) >= 0);
    if (!same) {
      this.load(state, records);
      return;
    }
    this.gone.clear();
    this.pending = [];
    this.pendingUpdate = [];
    this.tabState = state;
    this.gen++;
    this.reset(records, false);
    this.events.emit('synced', NONE);
  }

  /** The tab state changed; a lower bound trims the log at once. */
  setState(state: TabState): void {
    const before = this.tabState.maxRecords;
    this.tabState = state;
    if (state.maxRecords < before) {
      this.trim();
    }
    this.events.emit('state', NONE);
  }

  /** The background let these records go: the next trim drops them first. */
  forget(seqs: readonly number[]): void {
    for (const seq of seqs) {
      this.gone.add(seq);
    }
  }

  /** The user cleared the log: it empties at once. */
  clear(): void {
    this.gen++;
    this.clearedPage = true;
    this.replace([]);
    this.events.emit('cleared', NONE);
  }

  /** Queue live records (or updates of records already sent); applied together at the next scheduled tick. */
  enqueue(records: readonly ClassifiedRecord[], update = false): void {
    for (const r of records) {
      this.pending.push(r);
      this.pendingUpdate.push(update);
    }
    if (this.scheduled) {
      return;
    }
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Apply queued live records now. */
  flush(): void {
    this.scheduled = false;
    if (!this.pending.length) {
      return;
    }
    const batch = this.pending,
      isUpdate = this.pendingUpdate;
    this.pending = [];
    this.pendingUpdate = [];
    const from = this.records.length;
    let updated: number[] | null = null;
    for (let k = 0; k < batch.length; k++) {
      if (!isUpdate[k]) {
        this.add(batch[k]);
        continue;
      }
      const i = this.indexOfSeq(batch[k].seq);
      if (i >= 0) {
        this.updateAt(i, batch[k]);
        (updated ??= []).push(i);
      }
    }
    if (this.overBound()) {
      this.trim();
      return;
    }
    if (updated && updated.length > 1) {
      updated.sort((a, b) => a - b);
    }
    this.events.emit('batch', { from, count: this.records.length - from, updated: updated ?? NO_INDICES });
  }

  /** Hold these records instead (copied: the caller's list is left alone, unless `owned` says it is the log's to keep). */
  replace(records: ClassifiedRecord[], owned = false): void {
    this.reset(records, owned);
    this.events.emit('replaced', NONE);
  }

  /**
   * Records came late and were placed by capture time: `incoming` (in seq order) replaces every held record from
   * seq `fromSeq` on. Usually a short tail: it is rewritten in place and the rest appended.
   */
  reorder(fromSeq: number, incoming: ClassifiedRecord[]): void {
    const records = this.records;
    const n = records.length;
    if (!this.seqSorted) {
      this.replace(records.filter((r) => r.seq < fromSeq).concat(incoming), true);
      return;
    }
    let lo = 0,
      hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (records[mid].seq < fromSeq) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    const j0 = lo;
    const oldLen = n - j0;
    if (incoming.length < oldLen) {
      this.replace(records.slice(0, j0).concat(incoming), true);
      return;
    }
    const previous = records.slice(j0);
    this.byOriginType.rewritten(j0);
    this.compacted = Math.min(this.compacted, j0);
    for (let k = 0; k < oldLen; k++) {
      const i = j0 + k;
      const was = this.frameMap.get(records[i].frameUrl);
      if (was) {
        was.count--;
      }
      const r = incoming[k];
      let f = this.frameMap.get(r.frameUrl);
      if (!f) {
        f = { url: r.frameUrl, count: 0, surface: '' };
        this.frameMap.set(r.frameUrl, f);
      }
      f.count++;
      this.updateAt(i, r);
    }
    for (let k = oldLen; k < incoming.length; k++) {
      this.add(incoming[k]);
    }
    // The first ready / dashboard-loaded, from j0 on.
    const metaAt = (i: number) => this.metaAt(i);
    if (this.ready >= j0) {
      this.ready = -1;
    }
    if (this.loaded >= j0) {
      this.loaded = -1;
    }
    if (this.page >= j0) {
      let p = j0 - 1;
      while (p > 0 && !(metaAt(p).nav && this.records[p].frameId === 0)) {
        p--;
      }
      this.page = Math.max(0, p);
      this.facts.invalidate();
    }
    for (let i = j0; i < this.records.length; i++) {
      const type = metaAt(i).type;
      if (metaAt(i).nav && this.records[i].frameId === 0) {
        // A new page (preserve log): its session's ready and dashboard-loaded are the ones that count.
        this.ready = -1;
        this.loaded = -1;
        if (this.page !== i) {
          this.page = i;
          this.facts.invalidate();
        }
      } else if (this.ready < 0 && type === 'svc:event:ready') {
        this.ready = i;
      } else if (this.loaded < 0 && type === 'svc:event:dashboard-loaded') {
        this.loaded = i;
      }
    }
    this.seen.reset(); // (records from j0 on were rewritten)
    this.events.emit('reordered', { from: j0, previous });
    if (this.overBound()) {
      this.trim();
    }
  }

  // ---------------------------------------------------------------------------------------- internals
  /** Hold these records and what is computed from them, nothing else (`replace` and `sync` tell it). */
  private reset(records: ClassifiedRecord[], owned: boolean): void {
    this.metaIds = new Uint32Array(records.length);
    this.metaCache.reset();
    this.sizes = new Float64Array(0);
    this.text.reset();
    this.compact.reset();
    this.compacted = 0;
    this.seqSorted = true;
    this.seqMap = null;
    this.lastFrame = undefined;
    this.otherFrame = undefined;
    this.frameMap.clear();
    this.byOriginType.reset();
    this.seen.reset();
    this.verdicts = { valid: 0, invalid: 0, foreign: 0 };
    this.ready = -1;
    this.loaded = -1;
    this.page = 0;
    this.facts.restart();
    const n = records.length;
    this.records = owned ? records : records.slice();
    // The page's facts are made when first read (the integration line's judgement), not record by record here.
    this.bulk = true;
    for (let i = 0; i < n; i++) {
      this.ingest(i);
    }
    this.bulk = false;
    this.facts.invalidate();
  }

  private overBound(): boolean {
    const max = this.tabState.maxRecords;
    return this.records.length > max + Math.min(TRIM_SLACK, Math.ceil(max / 10));
  }

  /**
   * Keep at most `state.maxRecords` records, like the background's log: the records it let go first (it keeps
   * what tells most: background/eviction.ts), then the oldest.
   */
  private trim(): void {
    const max = Math.max(0, this.tabState.maxRecords);
    if (this.records.length <= max) {
      return;
    }
    const records = this.records;
    const gone = this.gone;
    this.gone = new Set();
    // The records kept, and where each was (the search index carries their texts over).
    const at: number[] = [];
    for (let i = 0; i < records.length; i++) {
      if (!gone.has(records[i].seq)) {
        at.push(i);
      }
    }
    const from = Math.max(0, at.length - max);
    const oldIndex = Int32Array.from(at.slice(from));
    const kept = Array.from(oldIndex, (i) => records[i]);
    const before = this.text;
    this.text = new SearchText(() => this.records);
    this.reset(kept, true);
    this.text.carry(before, oldIndex);
    this.events.emit('replaced', NONE);
  }

  /** Put `r` at index i in place of the record there (paired, marked dropped, re-classified). */
  private updateAt(i: number, r: ClassifiedRecord): void {
    const old = this.records[i];
    const oldMeta = this.metaAt(i);
    if (i >= this.page) {
      this.facts.invalidate();
    }
    shareEmptyIssues(r);
    this.compact.record(r, old);
    const id = this.metaCache.idOf(r);
    const m = this.metaCache.table[id];
    this.records[i] = r;
    this.metaIds[i] = id;
    if (i < this.sizes.length) {
      this.sizes[i] = 0;
    }
    this.text.updated(i);
    if (countsAsMessage(old)) {
      this.tally(old.verdict, -1);
    }
    if (countsAsMessage(r)) {
      this.tally(r.verdict, 1);
    }
    this.byOriginType.retyped(i, oldMeta.type, m.type);
    const f = this.frameMap.get(r.frameUrl);
    if (f) {
      r.frameUrl = f.url; // one string per frame URL, as in `ingest`
    }
    if (f && m.surface && r.kind === 'post' && m.direction === 'event') {
      f.surface = m.surface;
    }
  }

  private add(r: ClassifiedRecord): void {
    const n = this.records.length;
    if (n > 0) {
      this.lastSeq = this.records[n - 1].seq; // (the records before may have been rewritten since the last ingest)
    }
    this.records.push(r);
    this.ingest(this.records.length - 1);
  }

  /** Take in record i (already in `records`): its meta, counts, frame, first ready / dashboard-loaded. */
  private ingest(i: number): void {
    const records = this.records;
    const r = records[i];
    const id = this.metaCache.idOf(r);
    const m = this.metaCache.table[id];
    const seq = r.seq;
    if (i > 0 && seq <= this.lastSeq) {
      this.seqSorted = false;
    }
    this.lastSeq = seq;
    if (i >= this.metaIds.length) {
      const grown = new Uint32Array(Math.max(1024, this.metaIds.length * 2));
      grown.set(this.metaIds);
      this.metaIds = grown;
    }
    this.metaIds[i] = id;
    if (!this.seqSorted) {
      this.seqMap?.set(seq, i);
    }
    const kind = m.kind;
    if (countsAsMessageRead(m.nav, kind, r)) {
      this.tally(m.verdict as ClassifiedRecord['verdict'], 1);
    }
    // The last two frames are tried first (a post and its delivery alternate between two frames): records copied
    // by the transport each bring their own URL string, which a map lookup would hash every time.
    let f = this.lastFrame;
    const url = r.frameUrl;
    if (f === undefined || f.url !== url) {
      const other = this.otherFrame;
      if (other !== undefined && other.url === url) {
        f = other;
      } else {
        f = this.frameMap.get(url);
        if (!f) {
          f = { url, count: 0, surface: '' };
          this.frameMap.set(url, f);
        }
      }
      this.otherFrame = this.lastFrame;
      this.lastFrame = f;
    }
    r.frameUrl = f.url; // one string per frame URL (see compact.ts)
    f.count++;
    // A frame's surface: the surface of the events it posts.
    if (m.surface && kind === 'post' && m.direction === 'event') {
      f.surface = m.surface;
    }
    const type = m.type;
    if (m.nav && r.frameId === 0) {
      // A new page (preserve log): its session's ready and dashboard-loaded are the ones that count.
      this.ready = -1;
      this.loaded = -1;
      this.page = i;
      this.clearedPage = false;
      if (!this.bulk) {
        this.facts.restart();
      }
    } else if (type) {
      if (this.ready < 0 && type === 'svc:event:ready') {
        this.ready = i;
      } else if (this.loaded < 0 && type === 'svc:event:dashboard-loaded') {
        this.loaded = i;
      }
    }
    if (!this.bulk) {
      this.facts.add(r, i, m);
    }
  }

  /** Counts by verdict, without a keyed access by the record's own string (which V8 would look up in its string table). */
  private tally(verdict: ClassifiedRecord['verdict'], by: number): void {
    const c = this.verdicts;
    if (verdict === 'valid') {
      c.valid += by;
    } else if (verdict === 'invalid') {
      c.invalid += by;
    } else if (verdict === 'foreign') {
      c.foreign += by;
    } else {
      (c as unknown as Record<string, number>)[verdict] = ((c as unknown as Record<string, number>)[verdict] ?? 0) + by;
    }
  }

  /** The record paired with record i when it comes before it (usually just before), else undefined. */
  private pairedBefore(r: ClassifiedRecord, i: number): ClassifiedRecord | undefined {
    const seq = r.pairedWith;
    if (seq === undefined || i === 0) {
      return undefined;
    }
    const records = this.records;
    for (let k = i - 1; k >= 0 && k >= i - 4; k--) {
      if (records[k].seq === seq) {
        return records[k];
      }
    }
    const j = this.seqSorted ? this.indexOfSeq(seq) : -1;
    return j >= 0 && j < i ? records[j] : undefined;
  }
}
