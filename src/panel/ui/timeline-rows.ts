/**
 * The timeline's rows and their scrolling. Every row has one height, so the rows in view follow from the scroll
 * offset, the grid's height and the count alone (timeline/row-range.ts, O(1) each), with no table of row positions
 * to rebuild when the count changes; rows are a ring of slots over that range (Timeline.tsx renders a Row per slot).
 * While the timeline follows the tail, a new count (a load, live records, a filter change) renders the rows at the
 * end at once, and the scroll offset is written when the browser has laid them out (a ResizeObserver on the rows'
 * canvas), so no layout is forced for it.
 */
import { batch, createComputed, createMemo, createSignal, onCleanup, onMount, untrack, type Accessor } from 'solid-js';
import {
  clampOffset,
  EMPTY_RANGE,
  endOffset,
  offsetToShow,
  rowRange,
  slotCount,
  slotRow,
  type RowRange,
} from '../timeline/row-range.ts';
import type { RecordLog } from '../log/record-log.ts';
import type { TimelineView } from '../timeline/timeline-view.ts';

export const ROW_H = 22;
/** Rows rendered beyond each edge of the viewport. */
const OVERSCAN = 2;

export interface TimelineRowsOptions {
  /** The view's length (tracked: it changes, and is read again, with every change of the view). */
  count: Accessor<number>;
  /** Whether the timeline follows the tail. */
  follow: Accessor<boolean>;
  scrollEl: () => HTMLDivElement | undefined;
  canvasEl: () => HTMLDivElement | undefined;
  view: TimelineView;
  log: RecordLog;
}

export interface TimelineRows {
  /** Bumped with every change of the view: the rows read it rather than the bridge's view signal. */
  rowsVersion: Accessor<number>;
  /** The slots of the ring, 0..n-1 (n changes with the grid's height). */
  slots: Accessor<number[]>;
  /** The view position slot `s` shows (-1: none). */
  slotPos: (s: number) => number;
  /** The rows' ids in view order, for the row group's aria-owns (their DOM order is rotated). */
  rowOrder: Accessor<string | undefined>;
  /** The canvas's height: every row's. */
  totalHeight: Accessor<number>;
  /** The grid's height (0 before it is laid out). */
  viewport: Accessor<number>;
  /** The scroll offset the rows are drawn for. */
  top: Accessor<number>;
  /** Tell the rows the grid scrolled (from its scroll event); returns the new offset. */
  onScroll: () => number;
  /** Scroll so that the last row is at the bottom. */
  scrollToEnd: () => void;
  /** Scroll as little as it takes to show the row at view position `pos` whole. */
  scrollToRow: (pos: number) => void;
}

export function createTimelineRows(opts: TimelineRowsOptions): TimelineRows {
  const { count, follow, view, log } = opts;
  const [top, setTop] = createSignal(0);
  const [viewport, setViewport] = createSignal(0);
  const [shown, setShown] = createSignal(0);
  const [rowsVersion, setRowsVersion] = createSignal(0);
  // The grid's offset as last written or read, and whether an offset at the end waits for the next layout to be
  // written (following the tail).
  let known = 0,
    pending = false;
  // Each view change: the new count, and (following the tail) the offset at its end, in one batch, so that the rows
  // render once, at the end. The browser scrolls there after its next layout (the canvas's ResizeObserver below).
  createComputed(() => {
    const n = count();
    batch(() => {
      pending = false;
      if (untrack(follow)) {
        const t = endOffset(n, untrack(viewport), ROW_H);
        setTop(t);
        pending = t !== known;
      }
      setShown(n);
      setRowsVersion((v) => v + 1);
    });
  });

  const range = createMemo<RowRange>(() => rowRange(shown(), top(), viewport(), ROW_H, OVERSCAN), EMPTY_RANGE, {
    equals: (a, b) => a.start === b.start && a.end === b.end,
  });
  const ring = createMemo(() => slotCount(viewport(), ROW_H, OVERSCAN));
  const slots = createMemo(() => Array.from({ length: ring() }, (_, s) => s));
  const slotPos = (s: number) => slotRow(s, ring(), range());
  const totalHeight = createMemo(() => shown() * ROW_H);

  const write = (t: number) => {
    const el = opts.scrollEl();
    if (el) {
      el.scrollTop = t;
      known = t;
      pending = false;
    }
  };
  const scrollTo = (t: number) => {
    const c = clampOffset(t, untrack(shown), untrack(viewport), ROW_H);
    setTop(c);
    write(c);
  };
  const scrollToEnd = () => scrollTo(endOffset(untrack(shown), untrack(viewport), ROW_H));
  const scrollToRow = (pos: number) => {
    const t = untrack(top);
    if (pos >= 0 && offsetToShow(pos, t, untrack(viewport), ROW_H) !== t) {
      scrollTo(offsetToShow(pos, t, untrack(viewport), ROW_H));
    }
  };
  // A scroll event that only repeats the offset last written, while a new one waits (a live batch came between the
  // write and its scroll event), leaves the rows at the end: drawing them at the old offset would render them twice.
  const onScroll = () => {
    const t = opts.scrollEl()?.scrollTop ?? 0;
    if (pending && t === known) {
      return untrack(top);
    }
    known = t;
    setTop(t);
    return t;
  };

  // The grid's height and the canvas's, from one ResizeObserver: its callbacks run after the browser's layout, so
  // the scroll offset written there (following the tail) forces none.
  onMount(() => {
    const el = opts.scrollEl(),
      canvas = opts.canvasEl();
    if (!el || !canvas) {
      return;
    }
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) {
        if (e.target === el) {
          setViewport(e.contentRect.height);
        }
      }
      if (untrack(follow)) {
        scrollToEnd();
      }
    });
    ro.observe(el);
    ro.observe(canvas);
    onCleanup(() => ro.disconnect());
  });

  // The rows' DOM order is rotated by the ring: the row group's aria-owns lists them in view order for assistive
  // technology.
  const rowOrder = createMemo(() => {
    rowsVersion();
    const { start, end } = range();
    let ids = '';
    for (let pos = start; pos < end; pos++) {
      const i = view.indexAt(pos);
      if (i !== undefined) {
        ids += (ids ? ' ei-row-' : 'ei-row-') + log.at(i).seq;
      }
    }
    return ids || undefined;
  });

  return { rowsVersion, slots, slotPos, rowOrder, totalHeight, viewport, top, onScroll, scrollToEnd, scrollToRow };
}
