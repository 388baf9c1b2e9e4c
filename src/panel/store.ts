/**
 * The panel's state: every record of the log, the filtered view, counts, frames, selection, session facts.
 * Plain TypeScript, framework-free (unit-tested in node on the in-memory transport); the Solid UI reads it
 * through `onChange` notifications and a version signal.
 *
 * Performance model (100,000 records): per-record facts (`RecordMeta`) are computed once at ingestion, O(1)
 * each; live records are queued and applied once per animation frame (`schedule`), filtered incrementally
 * (O(batch)), never by re-scanning the log; a filter change re-scans the log once with a compiled predicate;
 * the lower-cased search text is built lazily, in idle time (`indexText`) or on the first plain-text search,
 * and kept as one string per 1,024 records (few long-lived objects: the major GC's pause grows with their number);
 * the counts by origin and type (only the filter menus show them) likewise (`countSome`), not on arrival.
 */
import type { BackgroundToPanel, CaptureScopeView, ClassifiedRecord, TabSite, TabState } from '../shared/messages.ts';
import { countsAsMessage } from '../protocol/pairs.ts';
import { SearchText } from './searchtext.ts';
import { Compactor } from './compact.ts';
import { encodedLength } from './size.ts';
import {
  compileFilter,
  defaultFilters,
  metaOf,
  parseFilters,
  serializeFilters,
  type FilterState,
  type Predicate,
  type RecordMeta,
  type TimeBase,
} from './filters.ts';
import { emptyState, type ConnectionStatus, type PanelCommand, type PanelTransport } from './transport.ts';

export interface FrameInfo {
  url: string;
  count: number;
  surface: string;
}
export interface Change {
  records?: boolean;
  appended?: number;
  view?: boolean;
  state?: boolean;
  selection?: boolean;
  status?: boolean;
  filters?: boolean;
  capture?: boolean;
  /** The user cleared the log (the REST calls follow the same rule). */
  cleared?: boolean;
}
/** The capture scope and the inspected tab's sites, as the background last said (live tab only). */
export interface CaptureInfo {
  scope: CaptureScopeView;
  sites: TabSite[];
}
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}
export interface SendResult {
  id: string;
  ok: boolean;
  error?: string;
}

export interface StoreOptions {
  /** How live batches are scheduled (default: next animation frame, with a timer fallback when hidden). */
  schedule?: (fn: () => void) => void;
  /** Where filter state persists (default: none). */
  storage?: KeyValueStorage | null;
  /** The storage key; a per-tab key is derived from it when a tab id is known. */
  storageKey?: string;
  tabId?: number | null;
}

/** Records within this window after an action count as "the events that followed it". */
export const FOLLOW_WINDOW_MS = 10_000;
/** The issue list of every record without issues (frozen: shared). */
const NO_ISSUES: ClassifiedRecord['issues'] = Object.freeze([]) as unknown as ClassifiedRecord['issues'];
/** Most records have no issue: one shared empty list instead of one array each (fewer objects for the GC). */
const shareEmptyIssues = (r: ClassifiedRecord) => {
  if (r.issues.length === 0 && r.issues !== NO_ISSUES) {
    r.issues = NO_ISSUES;
  }
};
/** The store trims in steps (a trim re-builds the view): up to this many records over the bound, at most a tenth of it. */
const TRIM_SLACK = 2_000;

export const defaultSchedule = (fn: () => void) => {
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
  setTimeout(run, 100); // rAF does not fire in a hidden panel; keep the store current anyway
};

export class PanelStore {
  records: ClassifiedRecord[] = [];
  meta: RecordMeta[] = [];
  /** Indices into `records` of the records passing the filters, ascending. */
  view: number[] = [];
  state: TabState = emptyState();
  filters: FilterState;
  status: ConnectionStatus = 'connecting';
  selectedSeq: number | null = null;
  timeBase: TimeBase = 'ready';
  /** Messages by verdict: a post and its delivery count once (protocol/pairs.ts). */
  counts = { valid: 0, invalid: 0, foreign: 0 };
  frames = new Map<string, FrameInfo>();
  /** Records by sender origin (counted when first asked for, or in idle time: see `countSome`). */
  get origins(): Map<string, number> {
    this.countSome(Infinity);
    return this.originCounts;
  }
  /** Records by message type (likewise). */
  get types(): Map<string, number> {
    this.countSome(Infinity);
    return this.typeCounts;
  }
  /** Index of the first `ready` record, -1 when none. */
  readyIndex = -1;
  /** Index of the first `dashboard-loaded` record, -1 when none. */
  loadedIndex = -1;
  lastSendResult: SendResult | null = null;
  /** The capture scope and the tab's sites (null until the background says, and for a capture file). */
  capture: CaptureInfo | null = null;
  /** The last scope change asked for from this panel and its outcome (error: a sentence for the user). */
  captureResult: { id: string; ok: boolean; error?: string } | null = null;
  /** A note about a scope change that takes effect on the next load of the page (the mode of its sites). */
  captureNote: string | null = null;

  /** Seqs increase in record order (the normal case: looked up by binary search over `records`), else by a map. */
  private seqSorted = true;
  private seqMap: Map<number, number> | null = null;
  private lastFrame: FrameInfo | undefined;
  private otherFrame: FrameInfo | undefined;
  private text = new SearchText(() => this.records);
  /** Folds repeated strings and a pair's two copies of one message into shared values (compact.ts). */
  private compact = new Compactor();
  private originCounts = new Map<string, number>();
  private typeCounts = new Map<string, number>();
  /** Records [0, counted) are in `originCounts` and `typeCounts`; the rest are counted on demand. */
  private counted = 0;
  /** Encoded sizes, worked out as rows show them: size + 1 by record index, 0 when not yet known (a typed array:
   * rows ask in any order, and a plain array written at scattered indices turns into a dictionary). */
  private sizes = new Float64Array(0);
  private predicate: Predicate;
  private pending: ClassifiedRecord[] = [];
  private pendingUpdate: boolean[] = [];
  private scheduled = false;
  private listeners = new Set<(c: Change) => void>();
  private schedule: (fn: () => void) => void;
  private storage: KeyValueStorage | null;
  private keys: string[];
  private transport: PanelTransport | null = null;

  constructor(opts: StoreOptions = {}) {
    this.schedule = opts.schedule ?? defaultSchedule;
    this.storage = opts.storage ?? null;
    const base = opts.storageKey ?? 'embed-inspector:panel:v1';
    this.keys = opts.tabId != null ? [`${base}:tab:${opts.tabId}`, base] : [base];
    let saved: { filters?: unknown; timeBase?: unknown } = {};
    for (const key of this.keys) {
      const raw = this.safeGet(key);
      if (raw) {
        try {
          saved = JSON.parse(raw);
        } catch {
          /* ignore */
        }
        break;
      }
    }
    this.filters = saved.filters ? parseFilters(JSON.stringify(saved.filters)) : defaultFilters();
    if (saved.timeBase === 'first' || saved.timeBase === 'ready') {
      this.timeBase = saved.timeBase;
    }
    this.predicate = compileFilter(this.filters);
  }

  // ---------------------------------------------------------------------------------------- wiring
  onChange(fn: (c: Change) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  private emit(c: Change) {
    for (const fn of this.listeners) {
      fn(c);
    }
  }

  /** Connect to a transport; returns the disconnect function. */
  attach(transport: PanelTransport): () => void {
    this.transport = transport;
    const stop = transport.connect(
      (m) => this.handle(m),
      (s) => {
        this.status = s;
        this.emit({ status: true });
      },
    );
    return () => {
      stop();
      if (this.transport === transport) {
        this.transport = null;
      }
    };
  }
  get transportInfo() {
    return this.transport;
  }

  command(cmd: PanelCommand) {
    this.transport?.send(cmd);
  }

  /** Clear: the background empties the log (the embed session goes on); the view empties at once. */
  clearLog() {
    this.command({ type: 'clear' });
    this.replace([]);
    this.emit({ cleared: true });
  }

  handle(msg: BackgroundToPanel) {
    switch (msg.type) {
      case 'snapshot':
        this.gone.clear();
        this.pending = [];
        this.pendingUpdate = [];
        this.state = msg.state;
        this.replace(msg.records);
        if (this.captureNote && msg.records.length === 0) {
          this.captureNote = null;
          this.emit({ capture: true });
        } // a new log: the page reloaded
        this.emit({ state: true });
        break;
      case 'records':
        this.enqueue(msg.records);
        break;
      case 'update':
        this.enqueue(msg.records, true);
        break;
      case 'reorder':
        this.flush(); // what came before it, first
        this.reorder(msg.fromSeq, msg.records);
        break;
      case 'removed':
        for (const seq of msg.seqs) {
          this.gone.add(seq);
        }
        break;
      case 'state': {
        const before = this.state.maxRecords;
        this.state = msg.state;
        if (msg.state.maxRecords < before) {
          this.trim();
        }
        this.emit({ state: true });
        break;
      }
      case 'send-result':
        this.lastSendResult = { id: msg.id, ok: msg.ok, error: msg.error };
        this.emit({ state: true });
        break;
      case 'capture':
        this.capture = { scope: msg.scope, sites: msg.sites };
        this.emit({ capture: true });
        break;
      case 'capture-result':
        this.captureResult = { id: msg.id, ok: msg.ok, error: msg.error };
        this.emit({ capture: true });
        break;
    }
  }

  /** Set the note shown about a scope change (null clears it). */
  noteCapture(note: string | null) {
    this.captureNote = note;
    this.emit({ capture: true });
  }

  /** Queue live records (or updates of records already sent); applied together at the next scheduled tick. */
  enqueue(records: ClassifiedRecord[], update = false) {
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
  flush() {
    this.scheduled = false;
    if (!this.pending.length) {
      return;
    }
    const batch = this.pending,
      isUpdate = this.pendingUpdate;
    this.pending = [];
    this.pendingUpdate = [];
    const before = this.view.length;
    let refilter = false,
      updated = false;
    for (let k = 0; k < batch.length; k++) {
      if (!isUpdate[k]) {
        this.add(batch[k]);
        continue;
      }
      const res = this.updateOne(batch[k]);
      updated ||= res !== 'none';
      refilter ||= res === 'membership';
    }
    if (this.records.length > this.state.maxRecords + Math.min(TRIM_SLACK, Math.ceil(this.state.maxRecords / 10))) {
      this.trim();
      return;
    }
    if (refilter) {
      this.refilter();
      this.emit({ view: true, state: true, selection: true });
      return;
    }
    this.emit(
      updated ? { appended: this.view.length - before, selection: true } : { appended: this.view.length - before },
    );
  }

  /** Replace a record already held (paired, marked dropped, re-classified). */
  private updateOne(r: ClassifiedRecord): 'none' | 'changed' | 'membership' {
    const i = this.indexOfSeq(r.seq);
    if (i < 0) {
      return 'none';
    }
    return this.updateAt(i, r);
  }

  /** Put `r` at index i in place of the record there. */
  private updateAt(i: number, r: ClassifiedRecord): 'changed' | 'membership' {
    const old = this.records[i];
    const oldMeta = this.meta[i];
    const was = this.viewPos(i) >= 0;
    shareEmptyIssues(r);
    this.compact.record(r, old);
    const m = metaOf(r);
    this.records[i] = r;
    this.meta[i] = m;
    if (i < this.sizes.length) {
      this.sizes[i] = 0;
    }
    this.text.updated(i);
    if (countsAsMessage(old)) {
      this.count(old.verdict, -1);
    }
    if (countsAsMessage(r)) {
      this.count(r.verdict, 1);
    }
    if (oldMeta.type !== m.type && i < this.counted) {
      const types = this.typeCounts;
      if (oldMeta.type) {
        types.set(oldMeta.type, (types.get(oldMeta.type) ?? 1) - 1);
      }
      if (m.type) {
        types.set(m.type, (types.get(m.type) ?? 0) + 1);
      }
    }
    const f = this.frames.get(r.frameUrl);
    if (f) {
      r.frameUrl = f.url; // one string per frame URL, as in `add`
    }
    if (f && m.surface && r.kind === 'post' && m.direction === 'event') {
      f.surface = m.surface;
    }
    this.cur = i;
    const now = this.predicate(r, m, this.curText);
    return now !== was ? 'membership' : 'changed';
  }

  /**
   * Records came late and were placed by capture time: `incoming` (in seq order) replaces every held record from
   * seq `fromSeq` on. Usually a short tail: it is rewritten in place, the rest appended, and only the tail of the
   * view is filtered again. The selected record stays selected under its new seq.
   */
  private reorder(fromSeq: number, incoming: ClassifiedRecord[]) {
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
    const selected =
      this.selectedSeq !== null && this.selectedSeq >= fromSeq ? this.recordBySeq(this.selectedSeq) : undefined;
    if (this.counted > j0) {
      this.originCounts = new Map();
      this.typeCounts = new Map();
      this.counted = 0;
    }
    this.compacted = Math.min(this.compacted, j0);
    for (let k = 0; k < oldLen; k++) {
      const i = j0 + k;
      const was = this.frames.get(records[i].frameUrl);
      if (was) {
        was.count--;
      }
      const r = incoming[k];
      let f = this.frames.get(r.frameUrl);
      if (!f) {
        f = { url: r.frameUrl, count: 0, surface: '' };
        this.frames.set(r.frameUrl, f);
      }
      f.count++;
      this.updateAt(i, r);
    }
    for (let k = oldLen; k < incoming.length; k++) {
      this.add(incoming[k]);
    }
    // The view's tail, and the first ready / dashboard-loaded, from j0 on.
    const view = this.view;
    let keep = view.length;
    while (keep > 0 && view[keep - 1] >= j0) {
      keep--;
    }
    view.length = keep;
    const meta = this.meta;
    if (this.readyIndex >= j0) {
      this.readyIndex = -1;
    }
    if (this.loadedIndex >= j0) {
      this.loadedIndex = -1;
    }
    for (let i = j0; i < this.records.length; i++) {
      const type = meta[i].type;
      if (this.readyIndex < 0 && type === 'svc:event:ready') {
        this.readyIndex = i;
      } else if (this.loadedIndex < 0 && type === 'svc:event:dashboard-loaded') {
        this.loadedIndex = i;
      }
      this.cur = i;
      if (this.predicate(this.records[i], meta[i], this.curText)) {
        view.push(i);
      }
    }
    if (selected) {
      const same = incoming.find(
        (r) =>
          r.time === selected.time &&
          r.kind === selected.kind &&
          r.frameUrl === selected.frameUrl &&
          r.origin === selected.origin,
      );
      this.selectedSeq = same ? same.seq : null;
    }
    if (this.records.length > this.state.maxRecords + Math.min(TRIM_SLACK, Math.ceil(this.state.maxRecords / 10))) {
      this.trim();
      return;
    }
    this.emit({ records: true, view: true, selection: true });
  }

  // ---------------------------------------------------------------------------------------- ingestion
  /** Hold these records instead (copied: the caller's list is left alone, unless `owned` says it is the store's to keep). */
  replace(records: ClassifiedRecord[], owned = false) {
    this.meta = [];
    this.view = [];
    this.sizes = new Float64Array(0);
    this.text.reset();
    this.compact.reset();
    this.compacted = 0;
    this.seqSorted = true;
    this.seqMap = null;
    this.lastFrame = undefined;
    this.otherFrame = undefined;
    this.frames.clear();
    this.originCounts = new Map();
    this.typeCounts = new Map();
    this.counted = 0;
    this.counts = { valid: 0, invalid: 0, foreign: 0 };
    this.readyIndex = -1;
    this.loadedIndex = -1;
    const n = records.length;
    this.records = owned ? records : records.slice();
    for (let i = 0; i < n; i++) {
      this.ingest(i);
    }
    if (this.selectedSeq !== null && this.indexOfSeq(this.selectedSeq) < 0) {
      this.selectedSeq = null;
    }
    this.emit({ records: true, view: true, selection: true });
  }

  private add(r: ClassifiedRecord) {
    this.records.push(r);
    this.ingest(this.records.length - 1);
  }
  /** Take in record i (already in `records`): its meta, counts, frame, and its place in the view. */
  private ingest(i: number) {
    const records = this.records;
    const r = records[i];
    shareEmptyIssues(r);
    const m = metaOf(r);
    if (i > 0 && r.seq <= records[i - 1].seq) {
      this.seqSorted = false;
    }
    this.meta[i] = m; // (i is the meta list's length: an append)
    if (!this.seqSorted) {
      this.seqMap?.set(r.seq, i);
    }
    if (countsAsMessage(r)) {
      this.count(r.verdict, 1);
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
        f = this.frames.get(url);
        if (!f) {
          f = { url, count: 0, surface: '' };
          this.frames.set(url, f);
        }
      }
      this.otherFrame = this.lastFrame;
      this.lastFrame = f;
    }
    r.frameUrl = f.url; // one string per frame URL (see compact.ts)
    f.count++;
    // A frame's surface: the surface of the events it posts.
    if (m.surface && r.kind === 'post' && m.direction === 'event') {
      f.surface = m.surface;
    }
    const type = m.type;
    if (type) {
      if (this.readyIndex < 0 && type === 'svc:event:ready') {
        this.readyIndex = i;
      } else if (this.loadedIndex < 0 && type === 'svc:event:dashboard-loaded') {
        this.loadedIndex = i;
      }
    }
    this.cur = i;
    if (this.predicate(r, m, this.curText)) {
      this.view.push(i);
    }
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
  /** Records [0, compacted) went through `compact.record`. */
  private compacted = 0;
  /** Counts by verdict, without a keyed access by the record's own string (which V8 would look up in its string table). */
  private count(verdict: ClassifiedRecord['verdict'], by: number) {
    const c = this.counts;
    if (verdict === 'valid') {
      c.valid += by;
    } else if (verdict === 'invalid') {
      c.invalid += by;
    } else if (verdict === 'foreign') {
      c.foreign += by;
    } else {
      (c as Record<string, number>)[verdict] = ((c as Record<string, number>)[verdict] ?? 0) + by;
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
  /** The search text of record `this.cur` (one function for every predicate call: no closure per record). */
  private cur = 0;
  private curText = () => this.textAt(this.cur);

  /**
   * Keep at most `state.maxRecords` records, like the background's log: the records it let go first (it keeps
   * what tells most: background/eviction.ts), then the oldest.
   */
  private trim() {
    const max = Math.max(0, this.state.maxRecords);
    if (this.records.length <= max) {
      return;
    }
    let kept = this.records;
    if (this.gone.size) {
      const gone = this.gone;
      kept = kept.filter((r) => !gone.has(r.seq));
      this.gone = new Set();
    }
    this.replace(kept.length > max ? kept.slice(kept.length - max) : kept, true);
  }
  /** Seqs the background let go that this store may still hold (dropped at the next trim). */
  private gone = new Set<number>();

  /**
   * Count records by origin and type, from where counting stopped, for at most `budgetMs`; true when all are
   * counted. Not part of ingestion (the first frame does not show these counts): done on first use or when idle.
   */
  countSome(budgetMs = 8, now: () => number = () => performance.now()): boolean {
    const { records, meta } = this;
    const n = records.length;
    let i = this.counted;
    if (i >= n) {
      return true;
    }
    const origins = this.originCounts,
      types = this.typeCounts;
    const end = budgetMs === Infinity ? Infinity : now() + budgetMs;
    // Runs of equal values (a post and its delivery, a burst from one frame) are counted with one map update.
    let origin = records[i].origin,
      originRun = 0,
      type = meta[i].type,
      typeRun = 0;
    for (; i < n; i++) {
      const o = records[i].origin,
        t = meta[i].type;
      if (o === origin) {
        originRun++;
      } else {
        origins.set(origin, (origins.get(origin) ?? 0) + originRun);
        origin = o;
        originRun = 1;
      }
      if (t === type) {
        typeRun++;
      } else {
        if (type) {
          types.set(type, (types.get(type) ?? 0) + typeRun);
        }
        type = t;
        typeRun = 1;
      }
      if ((i & 1023) === 1023 && now() > end) {
        i++;
        break;
      }
    }
    origins.set(origin, (origins.get(origin) ?? 0) + originRun);
    if (type) {
      types.set(type, (types.get(type) ?? 0) + typeRun);
    }
    this.counted = i;
    return i >= n;
  }

  // ---------------------------------------------------------------------------------------- search text
  /** The lower-cased search text of record i (see `searchTextOf` and searchtext.ts). */
  textAt(i: number): string {
    return this.text.at(i);
  }
  /** How many records (from the first) have their search text. */
  get textIndexed(): number {
    return this.text.indexed;
  }
  /** Build search text in the background, for at most about `budgetMs`; returns true when every record has it. */
  indexText(budgetMs = 8, now: () => number = () => performance.now()): boolean {
    return this.text.indexSome(budgetMs, now);
  }

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

  // ---------------------------------------------------------------------------------------- filters
  setFilters(patch: Partial<FilterState>) {
    this.filters = { ...this.filters, ...patch };
    this.predicate = compileFilter(this.filters);
    this.refilter();
    this.persist();
    this.emit({ view: true, filters: true });
  }
  resetFilters() {
    this.filters = defaultFilters();
    this.setFilters({});
  }

  private refilter() {
    const p = this.predicate;
    const n = this.records.length;
    const view: number[] = [];
    const { records, meta } = this;
    let i = 0,
      textI = -1,
      textS = '';
    // Built lazily, only for records that pass the cheaper checks; one slice per record, whatever the number of terms.
    const text = () => (textI === i ? textS : (textS = this.textAt((textI = i))));
    for (; i < n; i++) {
      if (p(records[i], meta[i], text)) {
        view.push(i);
      }
    }
    this.view = view;
  }

  setTimeBase(b: TimeBase) {
    this.timeBase = b;
    this.persist();
    this.emit({ view: true });
  }

  private persist() {
    const value = JSON.stringify({ filters: JSON.parse(serializeFilters(this.filters)), timeBase: this.timeBase });
    for (const key of this.keys) {
      try {
        this.storage?.setItem(key, value);
      } catch {
        /* quota, private mode */
      }
    }
  }
  private safeGet(key: string): string | null {
    try {
      return this.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  /** How many records the current filters hide (foreign ones counted apart). */
  hiddenCounts() {
    let foreignHidden = 0;
    if (!this.filters.showForeign) {
      foreignHidden = this.counts.foreign;
    }
    return { total: this.records.length, shown: this.view.length, foreignHidden };
  }

  // ---------------------------------------------------------------------------------------- lookups
  indexOfSeq(seq: number): number {
    if (!this.seqSorted) {
      if (!this.seqMap) {
        const map = new Map<number, number>();
        this.records.forEach((r, i) => map.set(r.seq, i));
        this.seqMap = map;
      }
      return this.seqMap.get(seq) ?? -1;
    }
    const a = this.records;
    let lo = 0,
      hi = a.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = a[mid].seq;
      if (s === seq) {
        return mid;
      }
      if (s < seq) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return -1;
  }
  recordBySeq(seq: number | null): ClassifiedRecord | undefined {
    if (seq === null) {
      return undefined;
    }
    const i = this.indexOfSeq(seq);
    return i < 0 ? undefined : this.records[i];
  }
  /** Position in `view` of a record index, or -1 (binary search: the view is ascending). */
  viewPos(index: number): number {
    const v = this.view;
    let lo = 0,
      hi = v.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (v[mid] === index) {
        return mid;
      }
      if (v[mid] < index) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return -1;
  }
  selectedViewPos(): number {
    if (this.selectedSeq === null) {
      return -1;
    }
    const i = this.indexOfSeq(this.selectedSeq);
    return i < 0 ? -1 : this.viewPos(i);
  }

  // ---------------------------------------------------------------------------------------- selection
  select(seq: number | null) {
    if (seq !== null && this.indexOfSeq(seq) < 0) {
      return;
    }
    this.selectedSeq = seq;
    this.emit({ selection: true });
  }
  selectAt(viewPos: number) {
    if (!this.view.length) {
      return this.select(null);
    }
    const p = Math.max(0, Math.min(this.view.length - 1, viewPos));
    this.select(this.records[this.view[p]].seq);
  }
  /** Move the selection by `delta` rows of the view (from the first/last row when nothing is selected). */
  moveSelection(delta: number) {
    const pos = this.selectedViewPos();
    if (pos < 0) {
      // nothing selected, or the selected record is filtered out: start from the nearest visible row
      const i = this.selectedSeq !== null ? this.indexOfSeq(this.selectedSeq) : -1;
      if (i >= 0) {
        let lo = 0,
          hi = this.view.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (this.view[mid] < i) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        return this.selectAt(delta > 0 ? lo : lo - 1);
      }
      return this.selectAt(delta > 0 ? 0 : this.view.length - 1);
    }
    this.selectAt(pos + delta);
  }

  // ---------------------------------------------------------------------------------------- time & session
  /** The time origin of the time column: the first `ready` (when `timeBase` is ready and one was seen) or the first record. */
  timeOrigin(): { time: number; base: TimeBase } {
    if (this.timeBase === 'ready' && this.readyIndex >= 0) {
      return { time: this.records[this.readyIndex].time, base: 'ready' };
    }
    return { time: this.records.length ? this.records[0].time : 0, base: 'first' };
  }

  sessionFacts() {
    const ready = this.readyIndex >= 0 ? this.records[this.readyIndex] : undefined;
    let timeToReady: number | null = null;
    let readyFrom: 'embed navigation' | 'first record' | null = null;
    if (ready) {
      // From the embed frame's navigation (its load) when captured, else from the first record.
      const readyPost = ready.kind === 'post' ? ready : this.recordBySeq(ready.pairedWith ?? null);
      const embedUrl = readyPost?.frameUrl;
      let nav: ClassifiedRecord | undefined;
      if (embedUrl) {
        for (let i = this.readyIndex - 1; i >= 0; i--) {
          const r = this.records[i];
          if (r.navigation && r.frameUrl === embedUrl) {
            nav = r;
            break;
          }
        }
      }
      const from = nav ?? this.records[0];
      timeToReady = ready.time - from.time;
      readyFrom = nav ? 'embed navigation' : 'first record';
    }
    let loaded: { loadDurationMs: number | null; widgetCount: number | null; seq: number } | null = null;
    if (this.loadedIndex >= 0) {
      const r = this.records[this.loadedIndex];
      const p = (r.data as { payload?: Record<string, unknown> } | null)?.payload ?? {};
      loaded = {
        seq: r.seq,
        loadDurationMs: typeof p.loadDurationMs === 'number' ? p.loadDurationMs : null,
        widgetCount: typeof p.widgetCount === 'number' ? p.widgetCount : null,
      };
    }
    return {
      readySeq: ready?.seq ?? null,
      timeToReady,
      readyFrom,
      loaded,
      surface: ready ? this.meta[this.readyIndex].surface : '',
    };
  }

  // ---------------------------------------------------------------------------------------- linked records
  /** The delivery of a post, or the post of a delivery. */
  paired(index: number): number {
    const p = this.records[index]?.pairedWith;
    return p === undefined ? -1 : this.indexOfSeq(p);
  }
  /** The previous record of the same frame, -1 when none (a backward scan: only for the selected record). */
  previousInFrame(index: number): number {
    const url = this.records[index]?.frameUrl;
    for (let j = index - 1; j >= 0; j--) {
      if (this.records[j].frameUrl === url) {
        return j;
      }
    }
    return -1;
  }

  /** For an action: the events that followed it (until the next action, within FOLLOW_WINDOW_MS); one record per post/delivery pair. */
  followingEvents(index: number, limit = 25): number[] {
    const a = this.records[index];
    if (!a || this.meta[index].direction !== 'action') {
      return [];
    }
    const pair = this.paired(index);
    const out: number[] = [];
    const seen = new Set<number>();
    for (let j = index + 1; j < this.records.length && out.length < limit; j++) {
      const r = this.records[j];
      if (r.time - a.time > FOLLOW_WINDOW_MS) {
        break;
      }
      const m = this.meta[j];
      if (m.direction === 'action' && j !== pair) {
        break;
      }
      if (m.direction !== 'event') {
        continue;
      }
      if (r.pairedWith !== undefined && seen.has(r.pairedWith)) {
        continue;
      }
      seen.add(r.seq);
      out.push(j);
    }
    return out;
  }
  /** For an event: the action it followed (the latest action within FOLLOW_WINDOW_MS before it), -1 when none. */
  precedingAction(index: number): number {
    const e = this.records[index];
    if (!e || this.meta[index].direction !== 'event') {
      return -1;
    }
    for (let j = index - 1; j >= 0; j--) {
      const r = this.records[j];
      if (e.time - r.time > FOLLOW_WINDOW_MS) {
        return -1;
      }
      if (this.meta[j].direction === 'action') {
        const pj = this.paired(j);
        return pj >= 0 && pj < j && this.records[pj].kind === 'post' ? pj : j; // prefer the post
      }
    }
    return -1;
  }
}
