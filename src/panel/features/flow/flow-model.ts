/**
 * The flow view's glue to the protocol's flow model (src/protocol/flow.ts): the flow of what the timeline shows
 * (its filters and search decide which records are arrows), the rows the keyboard moves between, and the exports
 * of the view as it is. Plain TypeScript over the record log and the timeline view (their readers only: the
 * selection stays the view's, written through its methods).
 */
import { buildFlow, flowToMermaid, flowToSvg, type FlowModel } from '../../log/protocol.ts';
import type { ClassifiedRecord, TabState } from '../../../shared/messages.ts';

/** What the flow reads of the log and the timeline view. */
export interface FlowSource {
  /** The log's records, in causal order (the log's order). */
  records: readonly ClassifiedRecord[];
  /** The log indexes the timeline shows (its filters applied), ascending. */
  order: readonly number[];
  tenantOrigin: string | null;
  /** The log index of a seq, -1 when not held (default: a map of the records). */
  indexOfSeq?: (seq: number) => number;
}

export interface FlowViewOptions {
  /** One lane per other frame instead of one "other frames" lane. */
  expandOthers?: boolean;
}

/**
 * The flow of the records the timeline shows: a post and its delivery are one arrow when either passes the filters.
 * The model is built from the shown records and the other halves of their pairs only (in the log's order), so a
 * filter that shows few records builds a small flow.
 */
export function flowOfView(src: FlowSource, opts: FlowViewOptions = {}): FlowModel {
  const { records, order } = src;
  const n = records.length;
  let input: readonly ClassifiedRecord[] = records;
  let shown: Uint8Array;
  if (order.length === n) {
    shown = new Uint8Array(n).fill(1);
  } else {
    // 1: shown, 2: the other half of a shown record's pair
    const mark = new Uint8Array(n);
    for (const i of order) {
      mark[i] = 1;
    }
    const seqIndex = src.indexOfSeq ?? indexBySeq(records);
    for (const i of order) {
      const p = records[i].pairedWith;
      if (p !== undefined) {
        const j = seqIndex(p);
        if (j >= 0 && mark[j] === 0) {
          mark[j] = 2;
        }
      }
    }
    const subset: ClassifiedRecord[] = [];
    const keep: number[] = [];
    for (let i = 0; i < n; i++) {
      if (mark[i] !== 0) {
        subset.push(records[i]);
        keep.push(mark[i]);
      }
    }
    input = subset;
    shown = Uint8Array.from(keep, (m) => (m === 1 ? 1 : 0));
  }
  return buildFlow(input, {
    tenantOrigin: src.tenantOrigin,
    expandOthers: opts.expandOthers ?? false,
    keep: (_r, i) => shown[i] === 1,
  });
}

/** A lookup of a record's index by its seq (the log has its own: `RecordLog.indexOfSeq`). */
function indexBySeq(records: readonly ClassifiedRecord[]): (seq: number) => number {
  const map = new Map<number, number>();
  for (const [i, r] of records.entries()) {
    map.set(r.seq, i);
  }
  return (seq) => map.get(seq) ?? -1;
}

/** The record a row stands for (an arrow's post or delivery, a navigation); null for a gap or past the end. */
export function seqAtRow(model: FlowModel, row: number): number | null {
  const item = model.items[row];
  return item && item.kind !== 'gap' ? item.seq : null;
}

/**
 * The row of a record (its arrow's row for either half of a pair), -1 when the flow does not show it. `pairOf`
 * gives a record's other half (`pairedWith`). Rows follow the log's order, so in a log whose seqs ascend, the
 * rows' seqs do too and a binary search finds the row without the model's map of rows by seq (made when first read).
 */
export function rowOfSeq(model: FlowModel, seq: number | null, pairOf?: (seq: number) => number | undefined): number {
  if (seq === null) {
    return -1;
  }
  if (!ascendingRows(model)) {
    return model.rowOf.get(seq) ?? -1;
  }
  const row = findRow(model, seq);
  if (row >= 0) {
    return row;
  }
  const other = pairOf?.(seq);
  if (other === undefined) {
    return -1;
  }
  const at = findRow(model, other);
  const item = at >= 0 ? model.items[at] : undefined;
  return item?.kind === 'arrow' && (item.post === seq || item.delivery === seq) ? at : -1;
}

const ascending = new WeakMap<FlowModel, boolean>();
/** Whether the seqs of the rows that stand for a record ascend (checked once per model). */
function ascendingRows(model: FlowModel): boolean {
  let yes = ascending.get(model);
  if (yes === undefined) {
    yes = true;
    let last = Number.NEGATIVE_INFINITY;
    for (const item of model.items) {
      if (item.kind !== 'gap') {
        if (item.seq <= last) {
          yes = false;
          break;
        }
        last = item.seq;
      }
    }
    ascending.set(model, yes);
  }
  return yes;
}

/** The row whose own seq is `seq` (a gap row is always followed by a record's row), -1 when none. */
function findRow(model: FlowModel, seq: number): number {
  const items = model.items;
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = items[mid].kind === 'gap' ? mid + 1 : mid;
    const item = items[at];
    if (!item || item.kind === 'gap') {
      return -1;
    }
    if (item.seq === seq) {
      return at;
    }
    if (item.seq < seq) {
      lo = at + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

/**
 * The row the keyboard moves to from `row` by `delta` rows (gaps are skipped: they stand for no record), clamped to
 * the first and last rows with a record; from no row (-1), ↓ starts at the first and ↑ at the last. -1 when no row
 * has a record.
 */
export function stepRow(model: FlowModel, row: number, delta: number): number {
  const n = model.items.length;
  const first = nextRecordRow(model, 0, 1);
  const last = nextRecordRow(model, n - 1, -1);
  if (first < 0) {
    return -1;
  }
  if (row < 0 || row >= n) {
    return delta >= 0 ? first : last;
  }
  const target = Math.max(0, Math.min(n - 1, row + delta));
  const dir = delta >= 0 ? 1 : -1;
  const found = nextRecordRow(model, target, dir);
  return found >= 0 ? found : dir > 0 ? last : first;
}

/** The first row from `row` on in direction `dir` that stands for a record, -1 when none. */
export function nextRecordRow(model: FlowModel, row: number, dir: 1 | -1): number {
  for (let r = row; r >= 0 && r < model.items.length; r += dir) {
    if (model.items[r].kind !== 'gap') {
      return r;
    }
  }
  return -1;
}

/** `flow-example.com-2026-11-26T09-43-07.svg`: the page's host and the time, as the capture export names files. */
export function flowFileName(pageUrl: string | null | undefined, now: Date, extension: 'svg' | 'mmd'): string {
  let host = 'session';
  try {
    if (pageUrl) {
      host = new URL(pageUrl).host.replace(/[^A-Za-z0-9.-]+/g, '-') || host;
    }
  } catch {
    /* keep */
  }
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '-');
  return `flow-${host}-${stamp}.${extension}`;
}

/** The exports of the flow as shown: a self-contained SVG document and a Mermaid `sequenceDiagram`. */
export function flowExports(model: FlowModel, state: Pick<TabState, 'pageUrl'>): { svg: string; mermaid: string } {
  const title = state.pageUrl ? `Embed Inspector flow · ${state.pageUrl}` : 'Embed Inspector flow';
  return { svg: flowToSvg(model, { title }), mermaid: flowToMermaid(model) };
}
