/**
 * The timeline's virtualizer: @tanstack/virtual-core, bound to Solid with two plain signals (the visible items and
 * the total size). Not TanStack's Solid adapter: it reconciles the items into a Solid store on every change, so each
 * scroll frame would make new store proxies and a signal per property read of every visible item (BENCHMARKS.md,
 * the panel with 100,000 records, has the allocation figures).
 * The items here are the virtualizer's own objects, replaced as a whole (rows are kept in a ring of slots, see timeline-rows.ts).
 */
import { batch, createComputed, createSignal, onCleanup, onMount, untrack } from 'solid-js';
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
