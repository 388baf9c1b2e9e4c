/**
 * The flow view's selected range: from the timeline's selection (the anchor, TimelineView's, never written here)
 * to another row, chosen with Shift+click or Shift+↑/↓. Its owner is the flow view that creates it; it holds the
 * far end's seq, so the range follows its records through a filter change or new records (gone when either end
 * is no longer drawn), and it is none once the selection moves (it keeps the anchor it was chosen from).
 */
import { createMemo, createSignal, type Accessor } from 'solid-js';
import type { FlowModel } from '../../log/protocol.ts';
import { rowOfSeq, seqAtRow, stepRow } from './flow-model.ts';

export interface FlowRange {
  /** The first and last rows of the range (both included), null when there is none. */
  rows: Accessor<readonly [number, number] | null>;
  /** How many rows of the range stand for a record (gaps left out). */
  records: Accessor<number>;
  /** Extend the range to `row` (the anchor's own row: no range). False when there is no anchor. */
  extendTo(row: number): boolean;
  /** Move the range's far end by `delta` rows (from the anchor when there is no range); the row it ends at. */
  extendBy(delta: number): number;
  clear(): void;
}

/** The rows from `anchor` to `end` in order, null when either is not a row or they are the same row. */
export function rangeRows(anchor: number, end: number): readonly [number, number] | null {
  return anchor < 0 || end < 0 || anchor === end ? null : [Math.min(anchor, end), Math.max(anchor, end)];
}

export function createFlowRange(opts: {
  model: Accessor<FlowModel>;
  /** The anchor: the selected record's seq, as the panel's signals tell it (a reactive read). */
  selectedSeq: Accessor<number | null>;
  /** The selected record's seq now (a plain read: the signals may tell a new selection a moment later). */
  anchorNow: () => number | null;
  pairOf: (seq: number) => number | undefined;
}): FlowRange {
  // The far end, with the anchor it was chosen from: a range whose anchor is no longer selected is none.
  const [pick, setPick] = createSignal<{ anchor: number; end: number } | null>(null);
  const rowOf = (seq: number | null) => rowOfSeq(opts.model(), seq, opts.pairOf);
  const endRow = createMemo(() => {
    const p = pick();
    return p && p.anchor === opts.selectedSeq() ? rowOf(p.end) : -1;
  });
  const rows = createMemo(() => rangeRows(endRow() < 0 ? -1 : rowOf(opts.selectedSeq()), endRow()), null, {
    equals: (a, b) => a === b || (!!a && !!b && a[0] === b[0] && a[1] === b[1]),
  });
  const extendTo = (row: number): boolean => {
    const anchor = opts.anchorNow();
    const anchorRow = rowOf(anchor);
    if (anchor === null || anchorRow < 0) {
      return false;
    }
    const end = seqAtRow(opts.model(), row);
    setPick(row === anchorRow || end === null ? null : { anchor, end });
    return true;
  };
  return {
    rows,
    records: () => {
      const r = rows();
      let k = 0;
      for (let row = r ? r[0] : 0; r && row <= r[1]; row++) {
        k += opts.model().seqAt(row) === null ? 0 : 1;
      }
      return k;
    },
    extendTo,
    extendBy: (delta) => {
      const p = pick();
      const at = p && p.anchor === opts.anchorNow() ? rowOf(p.end) : -1;
      const to = stepRow(opts.model(), at >= 0 ? at : rowOf(opts.anchorNow()), delta);
      if (to >= 0) {
        extendTo(to);
      }
      return to;
    },
    clear: () => setPick(null),
  };
}
