/**
 * The virtualizer of a list whose rows all have one height (the timeline's, the flow view's): which rows are in
 * view (row-range.ts, O(1) per scroll and per count change), bound to Solid with three plain signals (the visible
 * items, the total size, the viewport's height). It learns the scroll offset from scroll events and the viewport's
 * height from a ResizeObserver, after the fact; a list that must render at a known offset at once (the timeline
 * following its tail, timeline-rows.ts) tells it both first (`tell`).
 * It replaced @tanstack/virtual-core, which builds a table of every row's position on each count change: ~14 ms at
 * a load of 100,000 records (its first, unoptimized run) and ~3 ms on each live batch and filter change after it.
 * The items are plain objects, replaced as a whole when the range or the count changes (rows are kept in a ring of
 * slots, below).
 */
import { batch, createComputed, createMemo, createSignal, onCleanup, onMount, untrack, type Accessor } from 'solid-js';
import { type Align, offsetToShow, rowRange } from './row-range.ts';

export interface RowItem {
  /** The row's position in the list. */
  readonly index: number;
  /** Its top, in px from the list's top. */
  readonly start: number;
}

interface Options {
  count: () => number;
  rowHeight: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  getScrollElement: () => HTMLDivElement | null;
}

export interface RowVirtualizer {
  getVirtualItems: () => RowItem[];
  getTotalSize: () => number;
  /** The scroll element's height as the virtualizer last measured it (0 before it has). */
  getViewportHeight: () => number;
  /** Scroll row `index` into view ('auto': only if it is not; see row-range.ts). */
  scrollToIndex: (index: number, o?: { align?: Align }) => void;
  /** Whether it watches its scroll element (mounted, and not cleaned up). */
  watching: () => boolean;
  /** The viewport's height and the scroll offset, known before the browser's events would say them. */
  tell: (height: number, offset: number) => void;
}

export function createRowVirtualizer(opts: Options): RowVirtualizer {
  const H = opts.rowHeight;
  const [items, setItems] = createSignal<RowItem[]>([], { equals: false });
  const [totalSize, setTotalSize] = createSignal(0);
  const [viewportHeight, setViewportHeight] = createSignal(0);
  let count = untrack(opts.count),
    offset = 0,
    height = 0,
    watched = false,
    start = 0,
    end = 0;
  /** The items of the rows in view, and the sizes: items anew when the range or (`counted`) the count changed. */
  const publish = (counted: boolean) => {
    const r = rowRange(count, offset, height, H, opts.overscan);
    const moved = r.start !== start || r.end !== end;
    if (!moved && !counted && untrack(viewportHeight) === height) {
      return;
    }
    start = r.start;
    end = r.end;
    batch(() => {
      if (moved || counted) {
        const next: RowItem[] = [];
        for (let i = r.start; i < r.end; i++) {
          next.push({ index: i, start: i * H });
        }
        setItems(next);
      }
      setTotalSize(count * H);
      setViewportHeight(height);
    });
  };
  createComputed(() => {
    count = opts.count();
    publish(true);
  });
  onMount(() => {
    const el = opts.getScrollElement();
    if (!el) {
      return;
    }
    const onScroll = () => {
      offset = el.scrollTop;
      publish(false);
    };
    const ro = new ResizeObserver(() => {
      height = el.clientHeight;
      publish(false);
    });
    el.addEventListener('scroll', onScroll, { passive: true });
    ro.observe(el);
    watched = true;
    height = el.clientHeight;
    offset = el.scrollTop;
    publish(false);
    onCleanup(() => {
      watched = false;
      ro.disconnect();
      el.removeEventListener('scroll', onScroll);
    });
  });
  return {
    getVirtualItems: items,
    getTotalSize: totalSize,
    getViewportHeight: viewportHeight,
    scrollToIndex: (index, o) => {
      const el = opts.getScrollElement();
      if (!el || count <= 0) {
        return;
      }
      // (the element's own offset and height: a scroll written since, as the tail's, has no scroll event yet)
      const row = Math.max(0, Math.min(count - 1, index));
      const to = offsetToShow(row, el.scrollTop, el.clientHeight, count, H, o?.align ?? 'auto');
      if (to !== null) {
        el.scrollTo({ top: to });
        // (the rows at the new offset now, not at the scroll event a frame later: a row just selected by the
        // keyboard is in the DOM when the key's handling ends)
        offset = el.scrollTop;
        height = el.clientHeight;
        publish(false);
      }
    },
    watching: () => watched,
    tell: (h, top) => {
      height = h;
      offset = top;
      publish(false);
    },
  };
}

/**
 * A ring of row slots over a virtualizer's items. Slot s shows the visible item whose index is s modulo the number
 * of slots, so a row keeps its item while that item stays in view: a scroll by k rows rewrites k slots, not every
 * visible one (a row by slot position would show a new item in every row on every scroll step). The ring holds as
 * many slots as the viewport can need (rows that fit, one partly shown, the overscan on both sides) and grows or
 * shrinks when the viewport's height changes; a slot with no item keeps its element (its view hides it), so
 * scrolling never makes or drops row elements. Used by the timeline's rows and the flow view's.
 */
export function createSlotRing(
  virtualizer: RowVirtualizer,
  rowHeight: number,
  overscan: number,
): { slots: Accessor<number[]>; slotItem: (s: number) => RowItem | undefined } {
  const slotCount = createMemo(() =>
    Math.max(
      virtualizer.getVirtualItems().length,
      Math.ceil(virtualizer.getViewportHeight() / rowHeight) + 1 + 2 * overscan,
    ),
  );
  const slots = createMemo(() => Array.from({ length: slotCount() }, (_, s) => s));
  const slotItem = (s: number) => {
    const items = virtualizer.getVirtualItems();
    const m = slotCount();
    return items.length ? items[(((s - items[0].index) % m) + m) % m] : undefined;
  };
  return { slots, slotItem };
}
