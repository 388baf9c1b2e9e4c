/**
 * The virtualized timeline (ARIA grid). Rows (Row.tsx) are positioned from their one height (timeline-rows.ts,
 * virtual.ts); rows are a ring of slots that read their record from the log by view position
 * (timeline/timeline-view.ts), so a filter change re-renders only the visible rows and a scroll only the rows that
 * come into view.
 * Live tail: follows new records until the user scrolls up; "Follow" (or End) resumes.
 * Columns: the chosen ones (the view's, see timeline/columns.ts) that fit the timeline's width; a header click
 * sorts. Menus: the column chooser, and a row's menu (right-click, the context-menu key or Shift+F10).
 */
import { createEffect, createMemo, createSignal, Index, on, onCleanup, onMount, Show, untrack } from 'solid-js';
import { createTimelineRows, ROW_H } from './timeline-rows.ts';
import { Row, WarmRow } from './Row.tsx';
import { Empty } from './Empty.tsx';
import { ColumnChooserButton, GridHead } from './GridHead.tsx';
import { usePanel } from './use-panel.ts';
import { fitColumns, type ColumnId } from '../timeline/columns.ts';
import type { TimelineView } from '../timeline/timeline-view.ts';
import type { RowVirtualizer } from './virtual.ts';
import { createTimelineMenus } from './timeline-menus.tsx';
import './grid.css';

export interface TimelineProps {
  onOpen: () => void;
  onClose: () => void;
  ref?: (el: HTMLDivElement) => void;
}

/**
 * The chosen columns that fit the timeline's width (less the scroll bar's gutter). The shown columns change only when
 * the choice or the width does: a filter change (which recomputes `fitted`) leaves the rows' cells alone.
 */
function createColumnFit(select: ReturnType<typeof usePanel>['select'], root: () => HTMLDivElement) {
  const [width, setWidth] = createSignal(1200);
  onMount(() => {
    const ro = new ResizeObserver(() => setWidth(root().clientWidth));
    ro.observe(root());
    setWidth(root().clientWidth);
    onCleanup(() => ro.disconnect());
  });
  const chosen = select('view', (s) => s.timeline.columns);
  const fitted = createMemo(() => fitColumns(chosen(), width() - 16));
  const columns = createMemo<readonly ColumnId[]>(() => fitted().shown, [], {
    equals: (a, b) => a.length === b.length && a.every((id, k) => id === b[k]),
  });
  return { fitted, columns };
}

/**
 * The live tail: the timeline follows new records until the user scrolls up (or presses a key that moves up);
 * `resume` (Follow, End) follows again. `keepEnd`: following, the newest row stays whole at the bottom.
 */
function createLiveTail(grid: () => HTMLDivElement | undefined, appended: () => unknown) {
  const [follow, setFollow] = createSignal(true);
  const [unseen, setUnseen] = createSignal(0);
  let lastTop = 0;
  const scrollToEnd = () => {
    const el = grid();
    // (queued as a microtask: following may have stopped since, as when a selection was scrolled into view)
    if (el && untrack(follow)) {
      el.scrollTop = el.scrollHeight;
      lastTop = el.scrollTop;
    }
  };
  const onScroll = () => {
    const el = grid()!;
    const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_H;
    if (atBottom) {
      if (!follow()) {
        setFollow(true);
        setUnseen(0);
      }
    } else if (el.scrollTop < lastTop - 1) {
      setFollow(false);
    }
    lastTop = el.scrollTop;
  };
  const resume = () => {
    setFollow(true);
    setUnseen(0);
    scrollToEnd();
  };
  createEffect(
    on(
      appended,
      () => {
        if (!untrack(follow)) {
          setUnseen((n) => n + 1);
        }
      },
      { defer: true },
    ),
  );
  // When rows come, and when the grid's height changes (the panel resized, a line above the grid wrapping as the
  // integration line is judged), which leaves `scrollTop` as it was and so the end below the fold.
  const keepEnd = (virtualizer: RowVirtualizer) =>
    createEffect(
      on([() => virtualizer.getTotalSize(), () => virtualizer.getViewportHeight()], () => {
        if (untrack(follow)) {
          queueMicrotask(scrollToEnd);
        }
      }),
    );
  return { follow, setFollow, unseen, onScroll, resume, keepEnd };
}

/**
 * The selected row is scrolled into view when the selection changes (not when the user scrolls away from it). A
 * row scrolled into view above the end stops the tail's following at once, not at the scroll event a frame later:
 * in between, a new size (the detail pane opening, new records) would scroll the tail back to the end.
 */
function showSelection(
  view: TimelineView,
  virtualizer: RowVirtualizer,
  grid: () => HTMLDivElement | undefined,
  selection: () => unknown,
  stopFollowing: () => void,
) {
  createEffect(
    on(
      selection,
      () => {
        const pos = view.selectedViewPos();
        const el = grid();
        if (pos >= 0 && el) {
          const top = pos * ROW_H,
            bottom = top + ROW_H;
          if (top < el.scrollTop || bottom > el.scrollTop + el.clientHeight) {
            virtualizer.scrollToIndex(pos, { align: 'auto' });
            if (el.scrollTop + el.clientHeight < el.scrollHeight - ROW_H) {
              stopFollowing();
            }
          }
        }
      },
      { defer: true },
    ),
  );
}

/** The grid's keys: arrows, pages, Home and End move the selection; Enter opens it, Esc closes; the row's menu. */
function timelineKeys(o: {
  view: TimelineView;
  grid: () => HTMLDivElement | undefined;
  props: TimelineProps;
  menus: ReturnType<typeof createTimelineMenus>;
  tail: ReturnType<typeof createLiveTail>;
}) {
  const { view, props, menus, tail } = o;
  const pageRows = () => Math.max(1, Math.floor((o.grid()?.clientHeight ?? 400) / ROW_H) - 1);
  return (e: KeyboardEvent) => {
    // a header's buttons (sort, time base, column chooser) keep their own keys
    if (e.target !== e.currentTarget && (e.target as Element).closest('button')) {
      return;
    }
    const k = e.key;
    if (k === 'ArrowDown' || k === 'ArrowUp') {
      view.moveSelection(k === 'ArrowDown' ? 1 : -1);
      e.preventDefault();
    } else if (k === 'PageDown' || k === 'PageUp') {
      view.moveSelection(k === 'PageDown' ? pageRows() : -pageRows());
      e.preventDefault();
    } else if (k === 'Home') {
      view.selectAt(0);
      e.preventDefault();
    } else if (k === 'End') {
      view.selectAt(view.length - 1);
      tail.resume();
      e.preventDefault();
    } else if (k === 'Enter') {
      if (view.selectedSeq === null) {
        view.selectAt(0);
      }
      props.onOpen();
      e.preventDefault();
    } else if (k === 'Escape') {
      props.onClose();
    } else if (k === 'ContextMenu' || (k === 'F10' && e.shiftKey)) {
      menus.openFromKeys();
      e.preventDefault();
    }
    if (k === 'ArrowUp' || k === 'PageUp' || k === 'Home') {
      tail.setFollow(false);
    }
  };
}

let grids = 0;

export function Timeline(props: TimelineProps) {
  const { store, sig, select } = usePanel();
  const view = store.timeline,
    log = store.log;
  // The grid is the element that scrolls, so the element with the keyboard focus is the one that scrolls (as
  // assistive technology and axe-core expect of a scrollable region); its header row, above it, is its own through
  // aria-owns.
  let scrollEl!: HTMLDivElement;
  const headId = `tl-head-${++grids}`,
    rowsId = `tl-rows-${grids}`;
  const count = select('view', (s) => s.timeline.length);
  const tail = createLiveTail(() => scrollEl, sig.appended);
  const { follow, setFollow, unseen, resume } = tail;

  // ---- columns: the chosen ones that fit the timeline's width
  let rootEl!: HTMLDivElement;
  const { fitted, columns } = createColumnFit(select, () => rootEl);

  // ---- menus: the column chooser and a row's menu (timeline-menus.tsx)
  const menus = createTimelineMenus({ grid: () => scrollEl, onOpen: () => props.onOpen() });

  // ---- rows: the virtualizer and the ring of row slots (timeline-rows.ts)
  const { virtualizer, rowsVersion, slots, slotItem, rowOrder } = createTimelineRows({
    count,
    follow,
    scrollEl: () => scrollEl,
    view,
    log,
  });

  // ---- live tail, selection, keys
  tail.keepEnd(virtualizer);
  showSelection(
    view,
    virtualizer,
    () => scrollEl,
    sig.selection,
    () => setFollow(false),
  );
  const activeId = select(['selection', 'view'], (s) =>
    s.timeline.selectedSeq !== null && s.timeline.selectedViewPos() >= 0
      ? `ei-row-${s.timeline.selectedSeq}`
      : undefined,
  );
  const onKeyDown = timelineKeys({ view, grid: () => scrollEl, props, menus, tail });

  return (
    <div class="timeline" ref={rootEl}>
      <div class="grid managed" style={{ '--cols': fitted().template }}>
        <GridHead id={headId} shown={columns} onChooser={(x, y) => menus.openChooser(x, y)} />
        <div
          class="grid-body"
          role="grid"
          tabindex="0"
          onContextMenu={(e) => {
            // the context-menu key on the grid itself (a right-click on a row is the row's)
            if (!e.defaultPrevented) {
              e.preventDefault();
              if (!menus.isOpen()) {
                menus.openFromKeys();
              }
            }
          }}
          ref={(el) => {
            scrollEl = el;
            props.ref?.(el);
          }}
          aria-owns={`${headId} ${rowsId}`}
          aria-label="Recorded messages"
          aria-rowcount={count() + 1}
          aria-colcount={columns().length}
          aria-activedescendant={activeId()}
          onKeyDown={onKeyDown}
          onScroll={tail.onScroll}
          onWheel={(e) => {
            if (e.deltaY < 0) {
              setFollow(false);
            }
          }}
        >
          <div
            role="rowgroup"
            id={rowsId}
            class="grid-canvas"
            aria-owns={rowOrder()}
            style={{ height: `${virtualizer.getTotalSize()}px` }}
          >
            <Index each={slots()}>
              {(slot) => {
                const pos = createMemo(() => slotItem(slot())?.index ?? -1);
                return (
                  <Row
                    version={rowsVersion}
                    pos={pos}
                    start={() => pos() * ROW_H}
                    onOpen={props.onOpen}
                    grid={() => scrollEl}
                    onMenu={menus.openRow}
                    columns={columns}
                  />
                );
              }}
            </Index>
          </div>
          <WarmRow />
        </div>
        {/* beside the grid, over its header's end: a grid holds rows and cells only */}
        <ColumnChooserButton onChooser={(x, y) => menus.openChooser(x, y)} />
      </div>
      {/* beside the grid too: a status, not a row */}
      <Empty />
      <Show when={!follow()}>
        <button
          type="button"
          class="follow"
          onClick={resume}
          title="Scroll to the newest record and keep following (End)"
        >
          ↓ {unseen() > 0 ? 'New records — follow' : 'Follow new records'}
        </button>
      </Show>
      {menus.view()}
    </div>
  );
}
