/**
 * The flow view's keys and clicks. ↑/↓, Page Up/Down, Home and End move the selection (the timeline's) over the
 * rows that stand for records; Shift+↑/↓ and Shift+click make a range for the exports; Enter opens the details;
 * Esc clears the range, else closes the details. A click selects and opens, as a row of the timeline does.
 */
import type { Accessor } from 'solid-js';
import type { FlowModel } from '../../log/protocol.ts';
import type { TimelineView } from '../../timeline/timeline-view.ts';
import type { FlowRange } from './flow-range.ts';
import { seqAtRow, stepRow } from './flow-model.ts';
import type { FlowScroll } from './flow-scroll.ts';

export interface FlowInputOptions {
  view: TimelineView;
  model: Accessor<FlowModel>;
  selectedRow: Accessor<number>;
  range: FlowRange;
  scroll: Pick<FlowScroll, 'scrollToRow' | 'pageRows'>;
  /** The list, which takes the focus back after a click. */
  listEl: () => HTMLElement | undefined;
  onOpen: () => void;
  onClose: () => void;
}

export function createFlowInput(o: FlowInputOptions) {
  const selectRow = (row: number) => {
    const seq = seqAtRow(o.model(), row);
    if (seq !== null) {
      o.view.select(seq);
    }
  };
  /** The row a key moves the selection to (null: not a moving key). */
  const target = (k: string, m: FlowModel, from: number): number | null => {
    if (k === 'ArrowDown' || k === 'ArrowUp') {
      return stepRow(m, from, k === 'ArrowDown' ? 1 : -1);
    }
    if (k === 'PageDown' || k === 'PageUp') {
      const n = o.scroll.pageRows();
      return stepRow(m, from, k === 'PageDown' ? n : -n);
    }
    return k === 'Home' ? stepRow(m, -1, 1) : k === 'End' ? stepRow(m, -1, -1) : null;
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const k = e.key;
    if ((k === 'ArrowDown' || k === 'ArrowUp') && e.shiftKey) {
      e.preventDefault();
      o.scroll.scrollToRow(o.range.extendBy(k === 'ArrowDown' ? 1 : -1), 'auto');
    } else if (k === 'Enter') {
      if (o.selectedRow() < 0) {
        selectRow(stepRow(o.model(), -1, 1));
      }
      o.onOpen();
      e.preventDefault();
    } else if (k === 'Escape') {
      if (o.range.rows()) {
        o.range.clear();
      } else {
        o.onClose();
      }
    } else {
      const to = target(k, o.model(), o.selectedRow());
      if (to === null) {
        return;
      }
      e.preventDefault();
      if (to >= 0) {
        selectRow(to);
      }
    }
  };
  const onRowClick = (row: number, shift: boolean) => {
    const seq = seqAtRow(o.model(), row);
    if (seq === null) {
      return;
    }
    if (!(shift && o.range.extendTo(row))) {
      o.view.select(seq);
      o.onOpen();
    }
    o.listEl()?.focus({ preventScroll: true });
  };
  return { onKeyDown, onRowClick };
}
