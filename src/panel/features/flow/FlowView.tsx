/**
 * The flow view: the records the timeline shows as a conversation between frames (one lane per frame, one arrow
 * per message, time running down, long pauses compressed). It reads the timeline's filters through the view's
 * order and shares its selection (TimelineView's, written only through its methods): a click or a key selects a
 * record and opens the detail pane as a row of the timeline does. Virtualized: rows are a ring of slots
 * (FlowRow.tsx) positioned by the timeline's virtualizer (ui/virtual.ts); only the rows in view are in the DOM.
 * Its parts: what it draws (flow-source.ts), its scrolling (flow-scroll.ts), its keys and clicks (flow-input.ts),
 * the range the exports take (flow-range.ts). The lanes share the width of its scroll area, measured as it resizes
 * (fitLaneWidth: within a minimum, below which it scrolls sideways, and a maximum).
 */
import { createMemo, createSignal, For, Index, onCleanup, onMount, Show, type Accessor } from 'solid-js';
import { usePanel } from '../../ui/use-panel.ts';
import { onEscape } from '../../ui/escape.ts';
import type { FlowModel } from '../../log/protocol.ts';
import { fitLaneWidth, flowWidth, laneX } from './flow-geometry.ts';
import { rowOfSeq, seqAtRow } from './flow-model.ts';
import { FlowLaneHeads } from './FlowLaneHeads.tsx';
import { FlowRow } from './FlowRow.tsx';
import { FlowBar } from './FlowBar.tsx';
import { createFlowRange, type FlowRange } from './flow-range.ts';
import { createFlowSource } from './flow-source.ts';
import { createFlowScroll, type FlowScroll } from './flow-scroll.ts';
import { createFlowInput } from './flow-input.ts';
import './flow.css';

export interface FlowViewProps {
  onOpen: () => void;
  onClose: () => void;
  ref?: (el: HTMLDivElement) => void;
  /** Where the view's bar goes (the view switch's tab strip); inline above the lanes when absent. */
  tools?: HTMLElement;
}

export function FlowView(props: FlowViewProps) {
  const core = usePanel();
  const view = core.store.timeline;
  const [expandOthers, setExpandOthers] = createSignal(false);
  let scrollEl: HTMLDivElement | undefined;
  let listEl: HTMLDivElement | undefined;
  let headEl: HTMLDivElement | undefined;
  const { model, timeOrigin } = createFlowSource(core, expandOthers);
  const pairOf = (seq: number) => core.store.log.bySeq(seq)?.pairedWith;
  const selectedSeq = createMemo(core.select('selection', () => view.selectedSeq));
  const selectedRow = createMemo(() => rowOfSeq(model(), selectedSeq(), pairOf));
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
  const count = () => model().count;
  const scroll = createFlowScroll({ count, selectedRow, scrollEl: () => scrollEl, headEl: () => headEl });
  const input = createFlowInput({ ...props, view, model, selectedRow, range, scroll, listEl: () => listEl });
  const areaW = createAreaWidth(() => scrollEl);
  const laneW = createMemo(() => fitLaneWidth(areaW(), model().lanes.length));
  const width = () => flowWidth(model().lanes.length, laneW());

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
        laneW={laneW}
        width={width}
        onExpand={() => setExpandOthers(true)}
        ref={(el) => (headEl = el)}
      />
      <div class="flow-body" ref={scrollEl} onScroll={scroll.onScroll}>
        <FlowList
          model={model}
          laneW={laneW}
          width={width}
          scroll={scroll}
          origin={() => timeOrigin().time}
          selectedRow={selectedRow}
          range={range}
          onKeyDown={input.onKeyDown}
          onRowClick={input.onRowClick}
          ref={(el) => {
            listEl = el;
            props.ref?.(el);
          }}
        />
        <Show when={count() === 0}>
          <div class="flow-empty">No message to draw: the filters show none, or none was recorded yet.</div>
        </Show>
      </div>
    </div>
  );
}

/** The inner width of the scroll area (without its scrollbar), following its resizes; 0 until measured. */
function createAreaWidth(el: () => HTMLElement | undefined): Accessor<number> {
  const [w, setW] = createSignal(0);
  onMount(() => {
    const area = el();
    if (!area) {
      return;
    }
    setW(area.clientWidth);
    const ro = new ResizeObserver(() => setW(area.clientWidth));
    ro.observe(area);
    onCleanup(() => ro.disconnect());
  });
  return w;
}

interface FlowListProps {
  model: Accessor<FlowModel>;
  laneW: Accessor<number>;
  width: Accessor<number>;
  scroll: FlowScroll;
  origin: Accessor<number>;
  selectedRow: Accessor<number>;
  range: FlowRange;
  onKeyDown: (e: KeyboardEvent) => void;
  onRowClick: (row: number, shift: boolean) => void;
  ref: (el: HTMLDivElement) => void;
}

/** The drawing: a listbox of the rows that stand for records (the selected one its active descendant), lifelines. */
function FlowList(p: FlowListProps) {
  const activeId = () => {
    const row = p.selectedRow();
    const seq = row >= 0 ? seqAtRow(p.model(), row) : null;
    return seq === null ? undefined : `ei-flow-${seq}`;
  };
  return (
    <div
      class="flow-list"
      role="listbox"
      tabindex="0"
      aria-label="Message flow: one lane per frame, one arrow per message, time running down"
      aria-activedescendant={activeId()}
      aria-multiselectable={p.range.rows() ? 'true' : undefined}
      ref={p.ref}
      onKeyDown={p.onKeyDown}
      style={{ height: `${p.scroll.virtualizer.getTotalSize()}px`, width: `${p.width()}px` }}
    >
      <For each={p.model().lanes}>
        {(l) => <div class="flow-lifeline" style={{ left: `${laneX(l.index, p.laneW())}px` }} />}
      </For>
      <Index each={p.scroll.slots()}>
        {(slot) => (
          <FlowRow
            model={p.model}
            laneW={p.laneW}
            row={createMemo(() => p.scroll.slotRow(slot()))}
            origin={p.origin}
            selectedRow={p.selectedRow}
            range={p.range.rows}
            onClick={p.onRowClick}
          />
        )}
      </Index>
    </div>
  );
}
