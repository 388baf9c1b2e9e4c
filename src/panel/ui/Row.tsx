/**
 * A timeline row (one slot of the virtualized grid: it shows whichever record its position holds; what a row shows
 * of a record and the hidden row that warms the grid's fonts are in row-parts.tsx). A row has a cell for each shown
 * column and no other: a column the chooser hides or the width drops has no element in any row (each row's cells
 * follow `columns`, so showing a column adds its cell to the rows in view at once). The direction cell also shows
 * the kind (a post ↗, its delivery ↙: a glyph in a Text node of the row's, as the other cells' texts, so a row
 * that shows another record changes text only, and no attribute a style rule reads), so the two rows of one message
 * differ at every width.
 */
import { createMemo, createRenderEffect, For, Show, type JSX } from 'solid-js';
import type { ClassifiedRecord } from '../../shared/messages.ts';
import type { ColumnId } from '../timeline/columns.ts';
import { usePanel } from './use-panel.ts';
import { EMPTY, rowCells, type RowCells } from './row-parts.tsx';

export { WarmRow } from './row-parts.tsx';

type PanelStoreOf = ReturnType<typeof usePanel>['store'];

export interface RowProps {
  version: () => number;
  pos: () => number;
  start: () => number;
  onOpen: () => void;
  grid: () => HTMLDivElement;
  /** Open the row menu of record `seq` at a point. */
  onMenu: (seq: number, x: number, y: number) => void;
  /** The shown columns, in screen order: one cell each. */
  columns: () => readonly ColumnId[];
}

/** A page divider's words run from the Type column to the row's end (the cells after it are hidden). */
const divider = (c: { pageStart: boolean }, columns: readonly string[]) =>
  c.pageStart ? { 'grid-column': `${columns.indexOf('type') + 1} / -1` } : undefined;

/** The cells of the record at the row's position (null: none), the same object while that record shows the same. */
function createRowCells(p: RowProps, view: PanelStoreOf['timeline'], log: PanelStoreOf['log']) {
  // The same record, time origin and frame surface as last time (live records appended below, a filter change
  // that leaves this row's record in place): the same cells, so nothing in the row is touched.
  let last: { r: ClassifiedRecord; t0: number; surface: string | undefined } | null = null;
  return createMemo<RowCells | null>((prev) => {
    p.version();
    const pos = p.pos();
    const i = pos >= 0 && pos < view.length ? view.indexAt(pos) : undefined;
    if (i === undefined) {
      last = null;
      return null;
    }
    const r = log.at(i);
    const t0 = view.timeOrigin().time;
    const frame = log.frames().get(r.frameUrl);
    if (prev && last && last.r === r && last.t0 === t0 && last.surface === frame?.surface) {
      return prev;
    }
    last = { r, t0, surface: frame?.surface };
    return rowCells(log, i, r, t0, frame);
  }, null);
}

/**
 * Each text cell holds one Text node, made once per row slot; one render effect writes the row's texts into them
 * (`data`), rather than a new Text node per update (`textContent`): a fast scroll rewrites most visible rows each
 * frame, and new nodes are garbage for the DOM's collector.
 */
function createRowTexts(c: () => RowCells) {
  const t = {
    time: new Text(),
    delta: new Text(),
    clock: new Text(),
    target: new Text(),
    dir: new Text(),
    kindIcon: new Text(),
    type: new Text(),
    surface: new Text(),
    frame: new Text(),
    origins: new Text(),
    size: new Text(),
  };
  const put = (node: Text, v: string) => {
    if (node.data !== v) {
      node.data = v;
    }
  };
  createRenderEffect(() => {
    const x = c();
    put(t.time, x.time);
    put(t.delta, x.delta);
    put(t.clock, x.clock);
    put(t.target, x.target);
    put(t.dir, x.dir);
    put(t.kindIcon, x.kindIcon);
    put(t.type, x.type);
    put(t.surface, x.surface);
    put(t.frame, x.frame);
    put(t.origins, x.origins);
    put(t.size, x.truncated ? `${x.size}✂` : x.size);
  });
  return t;
}

/** The verdict cell: the verdict, the issue count, and whether the browser dropped the post or it threw. */
function VerdictCell(p: { c: () => RowCells }) {
  const c = p.c;
  return (
    <div role="gridcell" class="c-verdict">
      <Show when={c().verdict}>
        <span class={`badge b-${c().verdict}`}>{c().verdict}</span>
      </Show>
      <Show when={c().issues > 0}>
        <span class={`count s-${c().issueClass}`} title={`${c().issues} issue(s)`}>
          {c().issues}
        </span>
      </Show>
      <Show when={c().dropped}>
        <span class="badge b-dropped" title="the browser dropped this post (target origin mismatch)">
          dropped
        </span>
      </Show>
      <Show when={c().threw}>
        <span class="badge b-dropped" title={`postMessage threw: ${c().threw}`}>
          threw
        </span>
      </Show>
    </div>
  );
}

/**
 * The direction cell, with the kind's glyph. Its tooltip is there while the pointer is on the cell, and kept true if
 * the row shows another record meanwhile: a title written with every record would restyle the cell each time
 * (Chromium restyles an element whose title changes), and a post and its delivery differ by it. Its accessible name
 * is always there.
 */
function DirCell(p: { c: () => RowCells; dir: Text; kindIcon: Text }) {
  const c = p.c;
  // (plain local names: Solid inserts them as they are; a property read would get a computation of its own)
  const tDir = p.dir,
    tKindIcon = p.kindIcon;
  let dirCell: HTMLDivElement | undefined;
  createRenderEffect(() => {
    const t = c().dirTitle;
    if (dirCell?.hasAttribute('title') && dirCell.title !== t) {
      dirCell.title = t;
    }
  });
  return (
    <div
      ref={dirCell}
      role="gridcell"
      class={`c-dir d-${c().dirClass}`}
      aria-label={c().dirTitle}
      onPointerEnter={(e) => {
        e.currentTarget.title = c().dirTitle;
      }}
      onPointerLeave={(e) => e.currentTarget.removeAttribute('title')}
    >
      {tDir}
      <span class="k-icon">{tKindIcon}</span>
    </div>
  );
}

/** Each column's cell, made when the column is shown (and dropped when it is hidden); its Text node is the row's. */
function rowCellMakers(
  c: () => RowCells,
  t: ReturnType<typeof createRowTexts>,
  columns: () => readonly ColumnId[],
): Record<ColumnId, () => JSX.Element> {
  // (plain local names: Solid inserts them as they are; a property read such as `t.time` would get a computation of
  // its own)
  const tTime = t.time,
    tDelta = t.delta,
    tClock = t.clock,
    tTarget = t.target,
    tType = t.type,
    tSurface = t.surface,
    tFrame = t.frame,
    tOrigins = t.origins,
    tSize = t.size;
  return {
    time: () => (
      <div role="gridcell" class="c-time" title={c().clock}>
        {tTime}
      </div>
    ),
    delta: () => (
      <div role="gridcell" class="c-delta" title="time since the previous record">
        {tDelta}
      </div>
    ),
    clock: () => (
      <div role="gridcell" class="c-clock">
        {tClock}
      </div>
    ),
    dir: () => <DirCell c={c} dir={t.dir} kindIcon={t.kindIcon} />,
    kind: () => (
      <div role="gridcell" class="c-kind">
        {c().kind}
        {c().injected ? (
          <span class="tag" title="sent by Embed Inspector">
            inj
          </span>
        ) : null}
      </div>
    ),
    type: () => (
      <div role="gridcell" class={`c-type ${c().typeClass}`} title={c().typeTitle} style={divider(c(), columns())}>
        {tType}
      </div>
    ),
    surface: () => (
      <div role="gridcell" class="c-surface">
        {tSurface}
      </div>
    ),
    frame: () => (
      <div role="gridcell" class="c-frame" title={c().frameUrl}>
        {tFrame}
      </div>
    ),
    origin: () => (
      <div role="gridcell" class={`c-origin${c().wildcard ? ' wildcard' : ''}`} title={c().originsTitle}>
        {tOrigins}
      </div>
    ),
    target: () => (
      <div role="gridcell" class={`c-target${c().target === '*' ? ' wildcard' : ''}`}>
        {tTarget}
      </div>
    ),
    verdict: () => <VerdictCell c={c} />,
    size: () => (
      <div role="gridcell" class="c-size" title={c().truncated ? 'over the capture size cap: truncated' : undefined}>
        {tSize}
      </div>
    ),
  };
}

export function Row(p: RowProps) {
  const { store, select } = usePanel();
  const view = store.timeline;
  const cells = createRowCells(p, view, store.log);
  const selected = select('selection', () => {
    const c = cells();
    return !!c && c.seq === view.selectedSeq;
  });
  const onClick = () => {
    const c = cells();
    if (!c) {
      return;
    }
    view.select(c.seq);
    p.onOpen();
    p.grid().focus({ preventScroll: true });
  };
  // A slot with no record keeps its element, hidden, with no role or id, and what it showed last (`c`): the slot
  // gets a record again as the view scrolls (see the ring in timeline-rows.ts), and a new element would cost more.
  const shown = () => cells() !== null;
  const c = createMemo<RowCells>((prev) => cells() ?? prev, EMPTY);
  const cell = rowCellMakers(c, createRowTexts(c), p.columns);
  return (
    <div
      role={shown() ? 'row' : undefined}
      id={shown() ? `ei-row-${c().seq}` : undefined}
      hidden={!shown()}
      class={`row ${p.pos() % 2 ? 'odd' : ''} v-${c().verdict || 'nav'}${c().dropped ? ' dropped' : ''}${c().pageStart ? ' page-start' : ''}`}
      aria-rowindex={shown() ? p.pos() + 2 : undefined}
      aria-selected={shown() ? selected() : undefined}
      style={{ transform: `translateY(${p.start()}px)` }}
      onClick={onClick}
      onContextMenu={(e) => {
        const x = cells();
        if (x) {
          e.preventDefault();
          p.onMenu(x.seq, e.clientX, e.clientY);
        }
      }}
    >
      <For each={p.columns()}>{(id) => cell[id]()}</For>
    </div>
  );
}
