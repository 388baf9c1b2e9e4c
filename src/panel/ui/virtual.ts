/**
 * The timeline's virtualizer: @tanstack/virtual-core, bound to Solid with two plain signals (the visible items and
 * the total size). Not TanStack's Solid adapter: it reconciles the items into a Solid store on every change, so each
 * scroll frame would make new store proxies and a signal per property read of every visible item (BENCHMARKS.md,
 * the panel with 100,000 records, has the allocation figures).
 * The items here are the virtualizer's own objects, replaced as a whole (rows are kept in a ring of slots, see timeline-rows.ts).
 */
import { batch, createComputed, createMemo, createSignal, onCleanup, onMount, untrack, type Accessor } from 'solid-js';
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type VirtualItem,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';

type Options = Pick<
  VirtualizerOptions<HTMLDivElement, HTMLDivElement>,
  'getScrollElement' | 'estimateSize' | 'overscan'
> &
  Partial<Pick<VirtualizerOptions<HTMLDivElement, HTMLDivElement>, 'observeElementOffset' | 'observeElementRect'>> & {
    count: () => number;
  };

export interface RowVirtualizer {
  getVirtualItems: () => VirtualItem[];
  getTotalSize: () => number;
  /** The scroll element's height as the virtualizer last measured it (0 before it has). */
  getViewportHeight: () => number;
  scrollToIndex: Virtualizer<HTMLDivElement, HTMLDivElement>['scrollToIndex'];
}

export function createRowVirtualizer(opts: Options): RowVirtualizer {
  const [items, setItems] = createSignal<VirtualItem[]>([], { equals: false });
  const [totalSize, setTotalSize] = createSignal(0);
  const [viewportHeight, setViewportHeight] = createSignal(0);
  const publish = (v: Virtualizer<HTMLDivElement, HTMLDivElement>) =>
    batch(() => {
      setItems(v.getVirtualItems());
      setTotalSize(v.getTotalSize());
      setViewportHeight(v.scrollRect?.height ?? 0);
    });
  const options = (count: number): VirtualizerOptions<HTMLDivElement, HTMLDivElement> => ({
    count,
    getScrollElement: opts.getScrollElement,
    estimateSize: opts.estimateSize,
    overscan: opts.overscan,
    scrollToFn: elementScroll,
    observeElementOffset: opts.observeElementOffset ?? observeElementOffset,
    observeElementRect: opts.observeElementRect ?? observeElementRect,
    onChange: (v) => {
      v._willUpdate();
      publish(v);
    },
  });
  const v = new Virtualizer<HTMLDivElement, HTMLDivElement>(options(untrack(opts.count)));
  onMount(() => {
    const cleanup = v._didMount();
    v._willUpdate();
    onCleanup(cleanup);
  });
  createComputed(() => {
    v.setOptions(options(opts.count()));
    v._willUpdate();
    publish(v);
  });
  return {
    getVirtualItems: items,
    getTotalSize: totalSize,
    getViewportHeight: viewportHeight,
    scrollToIndex: (index, o) => v.scrollToIndex(index, o),
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
): { slots: Accessor<number[]>; slotItem: (s: number) => VirtualItem | undefined } {
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
