/**
 * The flow view: the records the timeline shows as a conversation between frames (one lane per frame, one arrow
 * per message, time running down, long pauses compressed). It reads the timeline's filters through the view's
 * order and shares its selection (TimelineView's, written only through its methods): a click or a key selects a
 * record and opens the detail pane as a row of the timeline does. Virtualized: rows are a ring of slots
 * (FlowRow.tsx) positioned by the timeline's virtualizer (ui/virtual.ts); only the rows in view are in the DOM.
 */
import { createEffect, createMemo, createSignal, For, Index, on, onCleanup, onMount, Show, untrack } from 'solid-js';
import { usePanel } from '../../ui/use-panel.ts';
import { createRowVirtualizer, createSlotRing } from '../../ui/virtual.ts';
import { FLOW_ROW_H, flowWidth, laneX } from './flow-geometry.ts';
import type { FlowIndex } from '../../log/protocol.ts';
import { flowIndexOf, flowOfView, rowOfSeq, seqAtRow, stepRow } from './flow-model.ts';
import { FlowLaneHeads } from './FlowLaneHeads.tsx';
import { FlowRow } from './FlowRow.tsx';
import { FlowBar } from './FlowBar.tsx';
import { createFlowRange } from './flow-range.ts';
import { onEscape } from '../../ui/escape.ts';
import './flow.css';

const OVERSCAN = 4;
/** From this many records on, live records rebuild the flow at most every LIVE_REBUILD_MS. */
const BIG_LOG = 20_000;
const LIVE_REBUILD_MS = 500;

export interface FlowViewProps {
  onOpen: () => void;
  onClose: () => void;
  ref?: (el: HTMLDivElement) => void;
  /** Where the view's bar goes (the view switch's tab strip); inline above the lanes when absent. */
  tools?: HTMLElement;
}

export function FlowView(props: FlowViewProps) {
  const { store, sig } = usePanel();
  const view = store.timeline,
    log = store.log;
  const [expandOthers, setExpandOthers] = createSignal(false);
  let scrollEl!: HTMLDivElement;
  let listEl!: HTMLDivElement;
  let headEl!: HTMLDivElement;

  // The flow of what the timeline shows: made again when the view's order changes (filters, search, a new log) or
  // the tenant origin does (it decides which frames are embeds), from the flow's index of the log (frames, pairs,
  // times), which is made again only when the log changed since. Live records rebuild it at once in a small log, at
  // most every LIVE_REBUILD_MS in a big one (the index reads the whole log).
  const [version, setVersion] = createSignal(0);
  const bump = () => setVersion((v) => v + 1);
  let logChanged = true;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      bump();
    }, LIVE_REBUILD_MS);
  };
  onCleanup(view.on('filters', bump));
  onCleanup(
    view.on('rebuilt', () => {
      logChanged = true;
      bump();
    }),
  );
  onCleanup(
    view.on('appended', (e) => {
      logChanged = true;
      if (e.count > 0 || e.updated) {
        (log.count < BIG_LOG ? bump : later)();
      }
    }),
  );
  onCleanup(() => clearTimeout(pending));
  const tenantOrigin = createMemo(() => {
    sig.state();
    return log.state.tenantOrigin;
  });
  let index: FlowIndex | null = null;
  let indexTenant: string | null = null;
  const model = createMemo(() => {
    version();
    const src = { records: log.all(), order: view.order, tenantOrigin: tenantOrigin() };
    if (!index || logChanged || indexTenant !== src.tenantOrigin) {
      index = flowIndexOf(src);
      indexTenant = src.tenantOrigin;
      logChanged = false;
    }
    return flowOfView(src, { expandOthers: expandOthers() }, index);
  });
  const count = () => model().count;
  // The times are the timeline's (its origin: the first ready, or the first record), so that a message has one time
  // in both views; the bar says which.
  const timeOrigin = createMemo(
    () => {
      sig.view();
      sig.state();
      return view.timeOrigin();
    },
    undefined,
    { equals: (a, b) => !!a && !!b && a.time === b.time && a.base === b.base },
  );
  const pairOf = (seq: number) => log.bySeq(seq)?.pairedWith;
  const selectedSeq = createMemo(() => {
    sig.selection();
    return view.selectedSeq;
  });
  const selectedRow = createMemo(() => {
    sig.selection();
    return rowOfSeq(model(), view.selectedSeq, pairOf);
  });
  // The range the exports take (Shift+click, Shift+↑/↓), from the selected arrow to another.
  const range = createFlowRange({ model, selectedSeq, anchorNow: () => view.selectedSeq, pairOf });
  // The bar says "Esc clears it": so it does wherever the focus is (a click on Save SVG, which downloads, may leave
  // it on the page's body).
  onCleanup(
    onEscape(() => {
      if (!range.rows()) {
        return false;
      }
      range.clear();
      return true;
    }),
  );

  const virtualizer = createRowVirtualizer({
    count,
    getScrollElement: () => scrollEl,
    estimateSize: () => FLOW_ROW_H,
    overscan: OVERSCAN,
  });
  // A ring of slots, as the timeline's rows (ui/virtual.ts): a scroll by k rows rewrites k slots.
  const { slots, slotItem } = createSlotRing(virtualizer, FLOW_ROW_H, OVERSCAN);
  const slotRow = (s: number) => slotItem(s)?.index ?? -1;

  const scrollToRow = (row: number, align: 'auto' | 'center') => {
    if (row < 0 || !scrollEl) {
      return;
    }
    const top = row * FLOW_ROW_H;
    if (
      align === 'center' ||
      top < scrollEl.scrollTop ||
      top + FLOW_ROW_H > scrollEl.scrollTop + scrollEl.clientHeight
    ) {
      virtualizer.scrollToIndex(row, { align });
    }
  };
  // Live records: a view scrolled to its end (or not filled yet) stays at its end as rows are added.
  let atEnd = true;
  const onScroll = () => {
    headEl.style.transform = `translateX(${-scrollEl.scrollLeft}px)`;
    atEnd = scrollEl.scrollTop + scrollEl.clientHeight >= scrollEl.scrollHeight - FLOW_ROW_H;
  };
  createEffect(
    on(
      count,
      () => {
        if (atEnd && untrack(selectedRow) < 0) {
          queueMicrotask(() => {
            scrollEl.scrollTop = scrollEl.scrollHeight;
          });
        }
      },
      { defer: true },
    ),
  );
  // The selected record stays in view: when the selection moves (here or in the detail pane), and when the view opens.
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

  const selectRow = (row: number) => {
    const seq = seqAtRow(model(), row);
    if (seq !== null) {
      view.select(seq);
    }
  };
  const pageRows = () => Math.max(1, Math.floor((scrollEl?.clientHeight ?? 400) / FLOW_ROW_H) - 1);
  const onKeyDown = (e: KeyboardEvent) => {
    const k = e.key;
    const m = model();
    const from = selectedRow();
    let to: number | null = null;
    if ((k === 'ArrowDown' || k === 'ArrowUp') && e.shiftKey) {
      e.preventDefault();
      scrollToRow(range.extendBy(k === 'ArrowDown' ? 1 : -1), 'auto');
      return;
    }
    if (k === 'ArrowDown' || k === 'ArrowUp') {
      to = stepRow(m, from, k === 'ArrowDown' ? 1 : -1);
    } else if (k === 'PageDown' || k === 'PageUp') {
      to = stepRow(m, from, k === 'PageDown' ? pageRows() : -pageRows());
    } else if (k === 'Home') {
      to = stepRow(m, -1, 1);
    } else if (k === 'End') {
      to = stepRow(m, -1, -1);
    } else if (k === 'Enter') {
      if (from < 0) {
        selectRow(stepRow(m, -1, 1));
      }
      props.onOpen();
      e.preventDefault();
      return;
    } else if (k === 'Escape') {
      if (range.rows()) {
        range.clear();
      } else {
        props.onClose();
      }
      return;
    } else {
      return;
    }
    e.preventDefault();
    if (to !== null && to >= 0) {
      selectRow(to);
    }
  };
  const onRowClick = (row: number, shift: boolean) => {
    const seq = seqAtRow(model(), row);
    if (seq === null) {
      return;
    }
    if (shift && range.extendTo(row)) {
      listEl.focus({ preventScroll: true });
      return;
    }
    view.select(seq);
    props.onOpen();
    listEl.focus({ preventScroll: true });
  };

  const activeId = () => {
    const row = selectedRow();
    const seq = row >= 0 ? seqAtRow(model(), row) : null;
    return seq === null ? undefined : `ei-flow-${seq}`;
  };
  const width = () => flowWidth(model().lanes.length);

  return (
    <div class="flow">
      <FlowBar
        mount={props.tools}
        messages={() => model().messages}
        lanes={() => model().lanes.length}
        expanded={expandOthers}
        onCollapse={() => setExpandOthers(false)}
        range={range}
        model={model}
        timeBase={() => timeOrigin().base}
      />
      <FlowLaneHeads
        lanes={() => model().lanes}
        width={width}
        onExpand={() => setExpandOthers(true)}
        ref={(el) => {
          headEl = el;
        }}
      />
      <div class="flow-body" ref={scrollEl} onScroll={onScroll}>
        <div
          class="flow-list"
          role="listbox"
          tabindex="0"
          aria-label="Message flow: one lane per frame, one arrow per message, time running down"
          aria-activedescendant={activeId()}
          aria-multiselectable={range.rows() ? 'true' : undefined}
          ref={(el) => {
            listEl = el;
            props.ref?.(el);
          }}
          onKeyDown={onKeyDown}
          style={{ height: `${virtualizer.getTotalSize()}px`, width: `${width()}px` }}
        >
          <For each={model().lanes}>{(l) => <div class="flow-lifeline" style={{ left: `${laneX(l.index)}px` }} />}</For>
          <Index each={slots()}>
            {(slot) => {
              const row = createMemo(() => slotRow(slot()));
              return (
                <FlowRow
                  model={model}
                  row={row}
                  origin={() => timeOrigin().time}
                  selectedRow={selectedRow}
                  range={range.rows}
                  onClick={onRowClick}
                />
              );
            }}
          </Index>
        </div>
        <Show when={count() === 0}>
          <div class="flow-empty">No message to draw: the filters show none, or none was recorded yet.</div>
        </Show>
      </div>
    </div>
  );
}
