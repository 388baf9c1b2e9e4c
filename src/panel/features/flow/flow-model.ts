/**
 * The flow view's glue to the protocol's flow model (src/protocol/flow.ts): the flow of what the timeline shows
 * (its filters and search decide which records are arrows), the rows the keyboard moves between, and the exports
 * of the view as it is. Plain TypeScript over the record log and the timeline view (their readers only: the
 * selection stays the view's, written through its methods).
 */
import {
  flowOfIndex,
  flowToMermaid,
  flowToSvg,
  indexFlow,
  redactFlow,
  redactString,
  type FlowIndex,
  type FlowModel,
} from '../../log/protocol.ts';
import type { ClassifiedRecord, TabState } from '../../../shared/messages.ts';

/** What the flow reads of the log and the timeline view. */
export interface FlowSource {
  /** The log's records, in causal order (the log's order). */
  records: readonly ClassifiedRecord[];
  /** The log indexes the timeline shows (its filters applied), ascending. */
  order: readonly number[];
  tenantOrigin: string | null;
}

export interface FlowViewOptions {
  /** One lane per other frame instead of one "other frames" lane. */
  expandOthers?: boolean;
}

/** The flow's index of the log's records (frames, pairs, times: `indexFlow`), to be made again when the log or
 * the tenant origin changes and kept across filter changes. */
export function flowIndexOf(src: Pick<FlowSource, 'records' | 'tenantOrigin'>): FlowIndex {
  return indexFlow(src.records, { tenantOrigin: src.tenantOrigin });
}

/**
 * The flow of the records the timeline shows: a post and its delivery are one arrow when either passes the filters.
 * `index` is the log's (`flowIndexOf`, made for the same records and tenant origin); a filter change reads only it
 * and the view's order, not the records.
 */
export function flowOfView(
  src: FlowSource,
  opts: FlowViewOptions = {},
  index: FlowIndex = flowIndexOf(src),
): FlowModel {
  const { order } = src;
  const n = index.flags.length;
  const shown = new Uint8Array(n);
  for (let k = 0; k < order.length; k++) {
    if (order[k] < n) {
      shown[order[k]] = 1;
    }
  }
  return flowOfIndex(index, shown, { expandOthers: opts.expandOthers ?? false });
}

/** The record a row stands for (an arrow's post or delivery, a navigation); null for a gap or past the end. */
export function seqAtRow(model: FlowModel, row: number): number | null {
  return model.seqAt(row);
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
  const item = at >= 0 ? model.item(at) : undefined;
  return item?.kind === 'arrow' && (item.post === seq || item.delivery === seq) ? at : -1;
}

const ascending = new WeakMap<FlowModel, boolean>();
/** Whether the seqs of the rows that stand for a record ascend (checked once per model). */
function ascendingRows(model: FlowModel): boolean {
  let yes = ascending.get(model);
  if (yes === undefined) {
    yes = true;
    let last = Number.NEGATIVE_INFINITY;
    for (let row = 0; row < model.count; row++) {
      const seq = model.seqAt(row);
      if (seq !== null) {
        if (seq <= last) {
          yes = false;
          break;
        }
        last = seq;
      }
    }
    ascending.set(model, yes);
  }
  return yes;
}

/** The row whose own seq is `seq` (a gap row is always followed by a record's row), -1 when none. */
function findRow(model: FlowModel, seq: number): number {
  let lo = 0;
  let hi = model.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = model.seqAt(mid) === null ? mid + 1 : mid;
    const s = model.seqAt(at);
    if (s === null) {
      return -1;
    }
    if (s === seq) {
      return at;
    }
    if (s < seq) {
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
  const n = model.count;
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
function nextRecordRow(model: FlowModel, row: number, dir: 1 | -1): number {
  for (let r = row; r >= 0 && r < model.count; r += dir) {
    if (model.seqAt(r) !== null) {
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

/**
 * The exports of the flow as shown: a self-contained SVG document and a Mermaid `sequenceDiagram`, their secrets
 * redacted as `check`'s are (the page's address in the title too).
 */
export function flowExports(model: FlowModel, state: Pick<TabState, 'pageUrl'>): { svg: string; mermaid: string } {
  const title = state.pageUrl ? `Embed Inspector flow · ${redactString(state.pageUrl)}` : 'Embed Inspector flow';
  const shown = redactFlow(model);
  return { svg: flowToSvg(shown, { title }), mermaid: flowToMermaid(shown) };
}
