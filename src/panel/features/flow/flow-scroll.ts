/**
 * The flow view's scrolling: the virtualizer over its rows and the ring of row slots (ui/virtual.ts: a scroll by k
 * rows rewrites k slots), the selected row kept in view (when the selection moves, here or in the detail pane, and
 * when the view opens), the end followed as live rows are added while the view is at its end, and the lane heads
 * moved with a sideways scroll.
 */
import { createEffect, on, onMount, untrack, type Accessor } from 'solid-js';
import { createRowVirtualizer, createSlotRing, type RowVirtualizer } from '../../ui/virtual.ts';
import { FLOW_ROW_H } from './flow-geometry.ts';

const OVERSCAN = 4;

export interface FlowScrollOptions {
  count: Accessor<number>;
  selectedRow: Accessor<number>;
  scrollEl: () => HTMLDivElement | undefined;
  headEl: () => HTMLDivElement | undefined;
}

export interface FlowScroll {
  virtualizer: RowVirtualizer;
  slots: Accessor<number[]>;
  /** The row slot `s` shows (-1: none). */
  slotRow: (s: number) => number;
  /** Bring a row into view: only when out of view ('auto'), or to the middle ('center'). */
  scrollToRow: (row: number, align: 'auto' | 'center') => void;
  onScroll: () => void;
  /** The rows a page key moves by. */
  pageRows: () => number;
}

export function createFlowScroll(opts: FlowScrollOptions): FlowScroll {
  const { count, selectedRow } = opts;
  const virtualizer = createRowVirtualizer({
    count,
    rowHeight: FLOW_ROW_H,
    overscan: OVERSCAN,
    getScrollElement: () => opts.scrollEl() ?? null,
  });
  const { slots, slotItem } = createSlotRing(virtualizer, FLOW_ROW_H, OVERSCAN);
  const scrollToRow = (row: number, align: 'auto' | 'center') => {
    const el = opts.scrollEl();
    if (row < 0 || !el) {
      return;
    }
    const top = row * FLOW_ROW_H;
    if (align === 'center' || top < el.scrollTop || top + FLOW_ROW_H > el.scrollTop + el.clientHeight) {
      virtualizer.scrollToIndex(row, { align });
    }
  };
  // Live records: a view scrolled to its end (or not filled yet) stays at its end as rows are added.
  let atEnd = true;
  const onScroll = () => {
    const el = opts.scrollEl(),
      head = opts.headEl();
    if (!el) {
      return;
    }
    if (head) {
      head.style.transform = `translateX(${-el.scrollLeft}px)`;
    }
    atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - FLOW_ROW_H;
  };
  createEffect(
    on(
      count,
      () => {
        const el = opts.scrollEl();
        if (atEnd && el && untrack(selectedRow) < 0) {
          queueMicrotask(() => {
            el.scrollTop = el.scrollHeight;
          });
        }
      },
      { defer: true },
    ),
  );
  createEffect(on(selectedRow, (row) => scrollToRow(row, 'auto'), { defer: true }));
  onMount(() => {
    const row = untrack(selectedRow);
    requestAnimationFrame(() => {
      if (row >= 0) {
        scrollToRow(row, 'center');
      }
      onScroll(); // (whether the view opened at its end, when no scroll event says so)
    });
  });
  const pageRows = () => Math.max(1, Math.floor((opts.scrollEl()?.clientHeight ?? 400) / FLOW_ROW_H) - 1);
  return { virtualizer, slots, slotRow: (s) => slotItem(s)?.index ?? -1, scrollToRow, onScroll, pageRows };
}
