/**
 * The timeline's view of the record log: the filters (persisted in storage), their compiled predicate, the view
 * order (the indices of the records that pass, ascending), the selection and the time base. Its methods are the
 * only writers of this state; it follows the log through the log's events and tells its readers through its own
 * (`TimelineEvents`). Plain TypeScript, framework-free (unit-tested in node).
 *
 * A live batch is filtered on its own (O(batch)), never by re-scanning the log; a filter change, a new log, or a
 * live update that changes which records pass re-scans the log once with the predicate compiled in filters.ts.
 * The view handles every change of the log's records and sends exactly one event for it, so a reader that follows
 * the view hears of each change once.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import { Emitter } from '../log/emitter.ts';
import type { LogEvents, RecordLog } from '../log/record-log.ts';
import {
  compileFilter,
  defaultFilters,
  parseFilters,
  serializeFilters,
  type FilterState,
  type Predicate,
  type TimeBase,
} from './filters.ts';
import {
  type ColumnId,
  COLUMN_DEFS,
  defaultColumns,
  insertSorted,
  parseColumns,
  parseSort,
  sortIndices,
  type SortState,
} from './columns.ts';

export interface TimelineEvents {
  /** A live batch was applied without rebuilding the order: `count` rows were added at its end (0 when the filters
   * hide every new record); `updated`: records already held were replaced in place (their rows, and the selected
   * record, may show something new). */
  appended: { count: number; updated: boolean };
  /** The order was rebuilt after the log changed (the selection may have moved or gone): `replaced` when the log
   * holds other records or rewrote some in place (a snapshot, a sync, a load, a trim, a clear, a reorder), else a live
   * update changed which records pass. */
  rebuilt: { replaced: boolean };
  /** The filters changed (the order was rebuilt with them). */
  filters: Record<string, never>;
  /** The time base changed (the time column's origin). */
  timeBase: Record<string, never>;
  /** The chosen columns or the sort changed (a new sort rebuilt the order). */
  columns: Record<string, never>;
  selection: Record<string, never>;
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ViewOptions {
  /** Where filter state persists (default: none). */
  storage?: KeyValueStorage | null;
  /** The storage key; a per-tab key is derived from it when a tab id is known. */
  storageKey?: string;
  tabId?: number | null;
}

const NONE: Record<string, never> = Object.freeze({}) as Record<string, never>;

export class TimelineView {
  private filterState: FilterState;
  private base: TimeBase = 'ready';
  private predicate: Predicate;
  /** Indices into the log of the records passing the filters, ascending. */
  private view: number[] = [];
  /** The view in the sort's order (null: no sort, the causal order `view`). */
  private sorted: number[] | null = null;
  /** Positions in `sorted` by log index, made when first asked for. */
  private sortedPos: Map<number, number> | null = null;
  private sortState: SortState = null;
  private chosen: ColumnId[] = defaultColumns();
  /** Records [0, seen) of the log were filtered into `view`. */
  private seen = 0;
  private selected: number | null = null;
  /** The seq of a selection a filter hid: the arrow keys continue from its place. */
  private anchor: number | null = null;
  private events = new Emitter<TimelineEvents>();
  private storage: KeyValueStorage | null;
  private keys: string[];
  /** The search text of record `this.cur` (one function for every predicate call: no closure per record). */
  private cur = 0;
  private curText = () => this.log.textAt(this.cur);

  constructor(
    private readonly log: RecordLog,
    opts: ViewOptions = {},
  ) {
    this.storage = opts.storage ?? null;
    const base = opts.storageKey ?? 'embed-inspector:panel:v1';
    this.keys = opts.tabId != null ? [`${base}:tab:${opts.tabId}`, base] : [base];
    let saved: { filters?: unknown; timeBase?: unknown; columns?: unknown; sort?: unknown } = {};
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
    this.filterState = saved.filters ? parseFilters(JSON.stringify(saved.filters)) : defaultFilters();
    if (saved.timeBase === 'first' || saved.timeBase === 'ready') {
      this.base = saved.timeBase;
    }
    if (saved.columns !== undefined) {
      this.chosen = parseColumns(saved.columns);
    }
    this.sortState = parseSort(saved.sort);
    this.predicate = compileFilter(this.filterState);
    log.on('batch', (e) => this.onBatch(e));
    log.on('reordered', (e) => this.onReordered(e));
    log.on('replaced', () => this.onReplaced());
    log.on('synced', () => this.onReplaced());
    this.refilter();
  }

  on<K extends keyof TimelineEvents>(type: K, fn: (e: TimelineEvents[K]) => void): () => void {
    return this.events.on(type, fn);
  }

  // ---------------------------------------------------------------------------------------- reading
  /** The records passing the filters, as log indices in ascending (causal) order whatever the sort (read-only;
   * changed by the view's next change: appended to, cut or replaced). */
  get order(): readonly number[] {
    return this.view;
  }
  /** The rows as shown: log indices in the sort's order (the causal order when there is no sort). */
  get rows(): readonly number[] {
    return this.sorted ?? this.view;
  }
  /** How many rows the view shows. */
  get length(): number {
    return this.view.length;
  }
  /** The log index of the record at view position `pos`. */
  indexAt(pos: number): number {
    return (this.sorted ?? this.view)[pos];
  }
  /** The chosen columns, in screen order (the required ones included). */
  get columns(): readonly ColumnId[] {
    return this.chosen;
  }
  get sort(): SortState {
    return this.sortState;
  }
  get filters(): Readonly<FilterState> {
    return this.filterState;
  }
  get timeBase(): TimeBase {
    return this.base;
  }
  get selectedSeq(): number | null {
    return this.selected;
  }
  /** The log index of the selected record, -1 when none. */
  selectedIndex(): number {
    return this.selected === null ? -1 : this.log.indexOfSeq(this.selected);
  }
  /** Position in the view (as shown) of a log index, or -1. */
  viewPos(index: number): number {
    if (this.sorted) {
      if (!this.sortedPos) {
        this.sortedPos = new Map(this.sorted.map((i, p) => [i, p]));
      }
      return this.sortedPos.get(index) ?? -1;
    }
    return this.causalPos(index);
  }
  /** Position in the causal order of a log index, or -1 (binary search: the view is ascending). */
  private causalPos(index: number): number {
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
    const i = this.selectedIndex();
    return i < 0 ? -1 : this.viewPos(i);
  }
  /** The time origin of the time column: the first `ready` (when `timeBase` is ready and one was seen) or the first record. */
  timeOrigin(): { time: number; base: TimeBase } {
    const log = this.log;
    if (this.base === 'ready' && log.readyIndex >= 0) {
      return { time: log.at(log.readyIndex).time, base: 'ready' };
    }
    return { time: log.count ? log.at(0).time : 0, base: 'first' };
  }

  // ---------------------------------------------------------------------------------------- filters
  /** New filters. The selection follows them: a selected record they hide is no longer selected (the detail pane
   * never shows a record the list does not). */
  setFilters(patch: Partial<FilterState>): void {
    this.filterState = { ...this.filterState, ...patch };
    this.predicate = compileFilter(this.filterState);
    this.refilter();
    this.persist();
    this.events.emit('filters', NONE);
    this.dropHiddenSelection();
  }
  /**
   * Clear every filter (the Reset button, the empty view's): the foreign chip stays as the user set it, as the
   * button says. `all`: the foreign chip too (the defaults).
   */
  resetFilters(all = false): void {
    const { showForeign } = this.filterState;
    this.filterState = all ? defaultFilters() : { ...defaultFilters(), showForeign };
    this.setFilters({});
  }
  setTimeBase(b: TimeBase): void {
    this.base = b;
    this.persist();
    this.events.emit('timeBase', NONE);
  }

  // ---------------------------------------------------------------------------------------- columns, sort
  /** Show or hide an optional column (the required ones stay). */
  setColumn(id: ColumnId, shown: boolean): void {
    const set = new Set(this.chosen);
    if (shown) {
      set.add(id);
    } else {
      set.delete(id);
    }
    this.chosen = parseColumns(COLUMN_DEFS.filter((c) => set.has(c.id)).map((c) => c.id));
    this.persist();
    this.events.emit('columns', NONE);
  }
  resetColumns(): void {
    this.chosen = defaultColumns();
    this.persist();
    this.events.emit('columns', NONE);
  }
  /** Sort the rows by a column (null: the causal order). The selection stays on its record. */
  setSort(sort: SortState): void {
    this.sortState = sort;
    this.resort();
    this.persist();
    this.events.emit('columns', NONE);
  }

  // ---------------------------------------------------------------------------------------- selection
  select(seq: number | null): void {
    if (seq !== null && this.log.indexOfSeq(seq) < 0) {
      return;
    }
    this.selected = seq;
    this.anchor = null;
    this.events.emit('selection', NONE);
  }
  /** Select the row at position `viewPos` as shown (sorted or not), clamped to the rows. */
  selectAt(viewPos: number): void {
    if (!this.view.length) {
      this.select(null);
      return;
    }
    const p = Math.max(0, Math.min(this.view.length - 1, viewPos));
    this.select(this.log.at(this.indexAt(p)).seq);
  }
  /** Move the selection by `delta` rows of the view (from the first/last row when nothing is selected). */
  moveSelection(delta: number): void {
    const pos = this.selectedViewPos();
    if (pos < 0) {
      // nothing selected (or a filter hid the selected record): start from the nearest visible row
      const i =
        this.selected === null && this.anchor !== null ? this.log.indexOfSeq(this.anchor) : this.selectedIndex();
      if (i >= 0 && !this.sorted) {
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
        this.selectAt(delta > 0 ? lo : lo - 1);
        return;
      }
      this.selectAt(delta > 0 ? 0 : this.view.length - 1);
      return;
    }
    this.selectAt(pos + delta);
  }

  // ---------------------------------------------------------------------------------------- following the log
  private onBatch(e: LogEvents['batch']): void {
    // An updated record already filtered may now pass or fail: then the whole view is filtered again.
    for (const i of e.updated) {
      if (i >= this.seen) {
        break; // (ascending: the rest are filtered below, with the appended records)
      }
      this.cur = i;
      if (this.predicate(this.log.at(i), this.log.metaAt(i), this.curText) !== this.viewPos(i) >= 0) {
        this.refilter();
        this.events.emit('rebuilt', { replaced: false });
        this.dropHiddenSelection();
        return;
      }
    }
    const before = this.view.length;
    this.filterFrom(this.seen);
    if (this.sortState) {
      // sorted rows are not appended at the end: a few new ones are put in their places (an updated record's
      // key may have changed: then, or for many, the order is made again), and the view says it was rebuilt
      const added = this.view.length - before;
      if (this.sorted && !e.updated.length && added <= 256) {
        for (let p = before; p < this.view.length; p++) {
          insertSorted(this.log, this.sorted, this.view[p], this.sortState);
        }
        this.sortedPos = null;
      } else {
        this.resort();
      }
      this.events.emit('rebuilt', { replaced: false });
      return;
    }
    this.events.emit('appended', { count: this.view.length - before, updated: e.updated.length > 0 });
  }

  private onReordered(e: LogEvents['reordered']): void {
    const from = e.from;
    // The selected record stays selected under its new seq (matched on time, kind, frame and origin).
    const sel = this.selected;
    if (sel !== null && e.previous.length && sel >= e.previous[0].seq) {
      const old = e.previous.find((r) => r.seq === sel);
      if (old) {
        let same: ClassifiedRecord | undefined;
        for (let i = from; i < this.log.count && !same; i++) {
          const r = this.log.at(i);
          if (r.time === old.time && r.kind === old.kind && r.frameUrl === old.frameUrl && r.origin === old.origin) {
            same = r;
          }
        }
        this.selected = same ? same.seq : null;
      }
    }
    // The view's tail, from `from` on.
    const view = this.view;
    let keep = view.length;
    while (keep > 0 && view[keep - 1] >= from) {
      keep--;
    }
    view.length = keep;
    this.filterFrom(Math.min(from, this.seen));
    this.resort();
    this.events.emit('rebuilt', { replaced: true });
  }

  private onReplaced(): void {
    this.refilter();
    if (this.selected !== null && this.log.indexOfSeq(this.selected) < 0) {
      this.selected = null;
    }
    this.events.emit('rebuilt', { replaced: true });
  }

  /** Filter the log's records [from, count) onto the end of the view. */
  private filterFrom(from: number): void {
    const log = this.log,
      n = log.count,
      p = this.predicate,
      view = this.view;
    for (let i = from; i < n; i++) {
      this.cur = i;
      if (p(log.at(i), log.metaAt(i), this.curText)) {
        view.push(i);
      }
    }
    this.seen = n;
  }

  private refilter(): void {
    const p = this.predicate;
    const n = this.log.count;
    const view: number[] = [];
    const records = this.log.all(),
      { ids, table } = this.log.allMetas();
    let i = 0,
      textI = -1,
      textS = '';
    // Built lazily, only for records that pass the cheaper checks; one slice per record, whatever the number of terms.
    const text = () => (textI === i ? textS : (textS = this.log.textAt((textI = i))));
    if (p.metaOnly) {
      // Once per meta (a few hundred in a log): 1 passes, 2 fails, 0 not asked yet.
      const passes = new Uint8Array(table.length);
      for (; i < n; i++) {
        const id = ids[i];
        let ok = passes[id];
        if (ok === 0) {
          passes[id] = ok = p(records[i], table[id], text) ? 1 : 2;
        }
        if (ok === 1) {
          view.push(i);
        }
      }
    } else {
      for (; i < n; i++) {
        if (p(records[i], table[ids[i]], text)) {
          view.push(i);
        }
      }
    }
    this.view = view;
    this.seen = n;
    this.resort();
  }

  /** Make the sorted rows again from the causal order (or drop them: no sort). */
  private resort(): void {
    this.sortedPos = null;
    this.sorted = this.sortState ? sortIndices(this.log, this.view, this.sortState) : null;
  }

  private dropHiddenSelection(): void {
    const i = this.selectedIndex();
    if (i >= 0 && this.causalPos(i) < 0) {
      const seq = this.selected;
      this.select(null);
      this.anchor = seq;
    }
  }

  private persist(): void {
    const value = JSON.stringify({
      filters: JSON.parse(serializeFilters(this.filterState)),
      timeBase: this.base,
      columns: this.chosen,
      sort: this.sortState,
    });
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
}
