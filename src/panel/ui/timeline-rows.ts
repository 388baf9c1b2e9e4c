/**
 * The timeline's rows: the virtualizer over the view's length, told the end offset before it sees a new count
 * while the timeline follows the tail, and the ring of row slots over its visible items (Timeline.tsx renders a
 * Row per slot).
 */
import { batch, createComputed, createMemo, createSignal, untrack, type Accessor } from 'solid-js';
import { createRowVirtualizer, createSlotRing, type RowItem, type RowVirtualizer } from './virtual.ts';
import type { RecordLog } from '../log/record-log.ts';
import type { TimelineView } from '../timeline/timeline-view.ts';

export const ROW_H = 22;
/** Rows rendered beyond each edge of the viewport. */
const OVERSCAN = 2;

export interface TimelineRowsOptions {
  /** The view's length (tracked: it changes with the view). */
  count: Accessor<number>;
  /** Whether the timeline follows the tail. */
  follow: Accessor<boolean>;
  scrollEl: () => HTMLDivElement | undefined;
  view: TimelineView;
  log: RecordLog;
}

export interface TimelineRows {
  virtualizer: RowVirtualizer;
  /** Bumped with every count the virtualizer is given: the rows read it rather than the bridge's view signal. */
  rowsVersion: Accessor<number>;
  /** The slots of the ring, 0..n-1 (n changes with the viewport's height). */
  slots: Accessor<number[]>;
  /** The visible item slot `s` shows, if any. */
  slotItem: (s: number) => RowItem | undefined;
  /** The rows' ids in view order, for the row group's aria-owns (their DOM order is rotated). */
  rowOrder: Accessor<string | undefined>;
}

export function createTimelineRows(opts: TimelineRowsOptions): TimelineRows {
  const { count, follow, view, log } = opts;
  // The virtualizer learns the scroll offset (and the viewport's size) from scroll events and a ResizeObserver,
  // after the fact. While the timeline follows the tail, a new count (a load, live records, a filter change) would
  // render the rows at the old offset first, and the rows at the end a frame later, after the scroll event. So
  // the virtualizer sees a new count only after it was told the end offset (`tell`): the rows at the end render
  // once, and the scroll write that follows (`scrollToEnd`) lands where they are.
  // The size is read in a microtask, once this update's other changes (summary, filter bar) are in the DOM and
  // before the new rows are: the layout that read forces does not include them.
  // What the rows show: the count the virtualizer has, and a version bumped with it for every view change (the rows
  // read this rather than the bridge's view signal, so that they render once the virtualizer has its new range).
  const [shownCount, setShownCount] = createSignal(0);
  const [rowsVersion, setRowsVersion] = createSignal(0);
  const show = (n: number) =>
    batch(() => {
      setShownCount(n);
      setRowsVersion((v) => v + 1);
    });
  const virtualizer = createRowVirtualizer({
    count: shownCount,
    rowHeight: ROW_H,
    overscan: OVERSCAN,
    getScrollElement: () => opts.scrollEl() ?? null,
  });

  let tailQueued = false;
  const showAtEnd = () => {
    tailQueued = false;
    const n = count();
    const scrollEl = opts.scrollEl();
    if (n === shownCount() || !follow() || !scrollEl?.isConnected || !virtualizer.watching()) {
      show(n);
      return;
    }
    const height = scrollEl.clientHeight;
    if (height <= 0) {
      show(n);
      return;
    } // not laid out (a hidden panel): as before, from scroll events
    batch(() => {
      virtualizer.tell(height, Math.max(0, n * ROW_H - height));
      show(n);
    });
  };
  createComputed(() => {
    const n = count();
    if (untrack(follow) && untrack(shownCount) !== n && virtualizer.watching()) {
      if (!tailQueued) {
        tailQueued = true;
        queueMicrotask(showAtEnd);
      }
    } else if (!tailQueued) {
      show(n);
    }
  });

  // The rows' DOM order is rotated by the ring (virtual.ts): the row group's aria-owns lists them in view order for
  // assistive technology.
  const { slots, slotItem } = createSlotRing(virtualizer, ROW_H, OVERSCAN);
  const rowOrder = createMemo(() => {
    rowsVersion();
    const items = virtualizer.getVirtualItems();
    let ids = '';
    for (const it of items) {
      const i = view.indexAt(it.index);
      if (i !== undefined) {
        ids += (ids ? ' ei-row-' : 'ei-row-') + log.at(i).seq;
      }
    }
    return ids || undefined;
  });

  return { virtualizer, rowsVersion, slots, slotItem, rowOrder };
}
