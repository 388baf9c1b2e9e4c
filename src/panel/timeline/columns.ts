/**
 * The timeline's columns: which exist, which the user may hide (the column chooser), what each sorts by, and
 * which of the chosen ones fit a given width. Pure TypeScript (no DOM): the view (timeline-view.ts) owns the
 * chosen columns and the sort, persists them with the filters, and sorts with `sortKey`.
 *
 * The causal order (the log's order: a post before its delivery, an action before the events it caused) is the
 * default and what "no sort" means. A sort is stable: records with equal keys keep their causal order.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import type { RecordMeta } from '../log/meta.ts';

export type ColumnId =
  | 'time'
  | 'delta'
  | 'clock'
  | 'dir'
  | 'kind'
  | 'type'
  | 'surface'
  | 'frame'
  | 'origin'
  | 'target'
  | 'verdict'
  | 'size';

export interface ColumnDef {
  id: ColumnId;
  /** The header's text. */
  label: string;
  /** What the header's title and the chooser say it is. */
  title: string;
  /** Its track in the grid template. */
  track: string;
  /** The least width it needs (px), to decide what fits. */
  min: number;
  /** The track and least width it takes when even the columns always shown do not fit (a side-docked pane). */
  narrow?: { track: string; min: number };
  /** The chooser can hide it. The others (time, direction and kind, type, verdict) are always shown: a row is
   * never without its direction and kind, at any width. */
  optional: boolean;
  /** Shown unless the user hid it. */
  byDefault: boolean;
  /** Which optional columns give way first when the timeline is narrow (higher: dropped earlier). */
  dropOrder: number;
}

/** The columns in their order on screen. */
export const COLUMN_DEFS: readonly ColumnDef[] = [
  {
    id: 'time',
    label: 'Time',
    title: 'time since the time origin',
    track: '86px',
    min: 86,
    narrow: { track: '76px', min: 76 },
    optional: false,
    byDefault: true,
    dropOrder: 0,
  },
  {
    id: 'delta',
    label: 'Δ prev',
    title: 'time since the previous record',
    track: '70px',
    min: 70,
    optional: true,
    byDefault: false,
    dropOrder: 6,
  },
  {
    id: 'clock',
    label: 'Clock',
    title: 'absolute time (local clock)',
    track: '96px',
    min: 96,
    optional: true,
    byDefault: false,
    dropOrder: 7,
  },
  {
    id: 'dir',
    label: 'Dir',
    title:
      'direction and kind: ↑ event (embed → host), ↓ action (host → embed); a post (sent) or its delivery (received)',
    track: '38px',
    min: 38,
    narrow: { track: '34px', min: 34 },
    optional: false,
    byDefault: true,
    dropOrder: 0,
  },
  {
    id: 'kind',
    label: 'Kind',
    title: 'post (sent) or receive (delivered)',
    track: '82px',
    min: 82,
    optional: true,
    byDefault: true,
    dropOrder: 4,
  },
  {
    id: 'type',
    label: 'Type',
    title: 'message type',
    track: 'minmax(100px, 1.3fr)',
    min: 100,
    narrow: { track: 'minmax(56px, 1fr)', min: 56 },
    optional: false,
    byDefault: true,
    dropOrder: 0,
  },
  {
    id: 'surface',
    label: 'Surface',
    title: 'the envelope surface',
    track: '80px',
    min: 80,
    optional: true,
    byDefault: true,
    dropOrder: 8,
  },
  {
    id: 'frame',
    label: 'Frame',
    title: 'the frame that posted or received it',
    track: 'minmax(100px, 1fr)',
    min: 100,
    optional: true,
    byDefault: true,
    dropOrder: 5,
  },
  {
    id: 'origin',
    label: 'Origin → target',
    title: 'sender origin → target or receiver origin',
    track: 'minmax(130px, 1.3fr)',
    min: 130,
    optional: true,
    byDefault: true,
    dropOrder: 3,
  },
  {
    id: 'target',
    label: 'Target origin',
    title: 'the targetOrigin a post named',
    track: 'minmax(100px, 1fr)',
    min: 100,
    optional: true,
    byDefault: false,
    dropOrder: 2,
  },
  {
    id: 'verdict',
    label: 'Verdict',
    title: 'valid, invalid, issues, dropped, threw',
    track: '140px',
    min: 140,
    narrow: { track: 'minmax(48px, 90px)', min: 48 },
    optional: false,
    byDefault: true,
    dropOrder: 0,
  },
  {
    id: 'size',
    label: 'Size',
    title: 'encoded size',
    track: '62px',
    min: 62,
    optional: true,
    byDefault: true,
    dropOrder: 9,
  },
];
const BY_ID = new Map(COLUMN_DEFS.map((c) => [c.id, c]));
export const columnDef = (id: ColumnId): ColumnDef => BY_ID.get(id)!;

export const defaultColumns = (): ColumnId[] => COLUMN_DEFS.filter((c) => c.byDefault).map((c) => c.id);

type SortDir = 'asc' | 'desc';
/** A sort by one column; null: the causal order. */
export type SortState = { column: ColumnId; dir: SortDir } | null;

/** Persisted chosen columns: known ids only, the required ones always in, in screen order; anything malformed
 * gives the defaults. */
export function parseColumns(raw: unknown): ColumnId[] {
  if (!Array.isArray(raw)) {
    return defaultColumns();
  }
  const chosen = new Set(raw.filter((x): x is ColumnId => typeof x === 'string' && BY_ID.has(x as ColumnId)));
  return COLUMN_DEFS.filter((c) => !c.optional || chosen.has(c.id)).map((c) => c.id);
}

export function parseSort(raw: unknown): SortState {
  if (!raw || typeof raw !== 'object') {
    return null;
  }
  const o = raw as Record<string, unknown>;
  if (typeof o.column !== 'string' || !BY_ID.has(o.column as ColumnId) || (o.dir !== 'asc' && o.dir !== 'desc')) {
    return null;
  }
  return { column: o.column as ColumnId, dir: o.dir };
}

/** A header click: ascending, then descending, then back to the causal order. */
export function nextSort(cur: SortState, column: ColumnId): SortState {
  if (!cur || cur.column !== column) {
    return { column, dir: 'asc' };
  }
  return cur.dir === 'asc' ? { column, dir: 'desc' } : null;
}

/** Which chosen columns fit `width` px (the optional ones give way in their drop order) and their grid template;
 * below the always-shown columns' width, their narrow tracks. */
export function fitColumns(chosen: readonly ColumnId[], width: number): { shown: ColumnId[]; template: string } {
  const shown = new Set(chosen);
  const total = () => COLUMN_DEFS.reduce((n, c) => n + (shown.has(c.id) ? c.min : 0), 0);
  const droppable = COLUMN_DEFS.filter((c) => c.optional && shown.has(c.id)).sort((a, b) => b.dropOrder - a.dropOrder);
  for (const c of droppable) {
    if (total() <= width) {
      break;
    }
    shown.delete(c.id);
  }
  const list = COLUMN_DEFS.filter((c) => shown.has(c.id));
  // Narrower than the columns always shown: they shrink (the type and the verdict are cut with an ellipsis; the
  // row's colour still says its verdict) rather than push the grid past the pane's edge.
  const narrow = total() > width;
  return {
    shown: list.map((c) => c.id),
    template: list.map((c) => (narrow && c.narrow ? c.narrow.track : c.track)).join(' '),
  };
}

/** What a record sorts by in a column (numbers compare as numbers, strings by code units). */
export interface SortSource {
  at(i: number): ClassifiedRecord;
  metaAt(i: number): RecordMeta;
  sizeAt(i: number): number;
}
function sortKey(src: SortSource, i: number, column: ColumnId): number | string {
  const r = src.at(i);
  switch (column) {
    case 'time':
    case 'clock':
      return r.time;
    case 'delta':
      return i > 0 ? r.time - src.at(i - 1).time : 0;
    case 'dir': {
      const m = src.metaAt(i);
      return `${r.navigation ? 'nav' : m.direction || '~'} ${r.kind}`;
    }
    case 'kind':
      return r.navigation ? 'nav' : r.kind;
    case 'type':
      return src.metaAt(i).type;
    case 'surface':
      return src.metaAt(i).surface;
    case 'frame':
      return r.frameUrl;
    case 'origin':
      return `${r.origin} ${r.targetOrigin ?? ''}`;
    case 'target':
      return r.targetOrigin ?? '';
    case 'verdict':
      // the worst first when ascending: errors, then issues, then the verdict's name
      return `${r.error || r.dropped ? 0 : r.verdict === 'invalid' ? 1 : r.issues.length ? 2 : 3}${r.verdict}`;
    case 'size':
      return src.sizeAt(i);
  }
}

/** Insert log index `i` into `sorted` (ordered by `sort`, ties by index) where it belongs: O(log n) keys. */
export function insertSorted(src: SortSource, sorted: number[], i: number, sort: NonNullable<SortState>): void {
  const k = sortKey(src, i, sort.column);
  const sign = sort.dir === 'asc' ? 1 : -1;
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const km = sortKey(src, sorted[mid], sort.column);
    const c = km < k ? -1 : km > k ? 1 : 0;
    if ((c !== 0 ? sign * c : sorted[mid] - i) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  sorted.splice(lo, 0, i);
}

/** `indices` (causal order) sorted by `sort`, stably; a new array. */
export function sortIndices(src: SortSource, indices: readonly number[], sort: NonNullable<SortState>): number[] {
  const keys = new Map<number, number | string>();
  for (const i of indices) {
    keys.set(i, sortKey(src, i, sort.column));
  }
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...indices].sort((a, b) => {
    const ka = keys.get(a)!,
      kb = keys.get(b)!;
    const c = ka < kb ? -1 : ka > kb ? 1 : 0;
    return c !== 0 ? sign * c : a - b;
  });
}
