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
  const [follow, setFollow] = createSignal(true);
  const [unseen, setUnseen] = createSignal(0);
  const count = select('view', (s) => s.timeline.length);

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

  // ---- live tail
  let lastTop = 0;
  const scrollToEnd = () => {
    if (scrollEl) {
      scrollEl.scrollTop = scrollEl.scrollHeight;
      lastTop = scrollEl.scrollTop;
    }
  };
  const onScroll = () => {
    const el = scrollEl;
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
  // Following, the newest row stays whole at the bottom: when rows come, and when the grid's height changes (the
  // panel resized, a line above the grid wrapping as the integration line is judged), which leaves `scrollTop` as it
  // was and so the end below the fold.
  createEffect(
    on([() => virtualizer.getTotalSize(), () => virtualizer.getViewportHeight()], () => {
      if (untrack(follow)) {
        queueMicrotask(scrollToEnd);
      }
    }),
  );
  createEffect(
    on(
      sig.appended,
      () => {
        if (!untrack(follow)) {
          setUnseen((n) => n + 1);
        }
      },
      { defer: true },
    ),
  );

  // ---- selection
  createEffect(
    on(
      sig.selection,
      () => {
        const pos = view.selectedViewPos();
        if (pos >= 0 && scrollEl) {
          const top = pos * ROW_H,
            bottom = top + ROW_H;
          if (top < scrollEl.scrollTop || bottom > scrollEl.scrollTop + scrollEl.clientHeight) {
            virtualizer.scrollToIndex(pos, { align: 'auto' });
          }
        }
      },
      { defer: true },
    ),
  );
  const activeId = select(['selection', 'view'], (s) =>
    s.timeline.selectedSeq !== null && s.timeline.selectedViewPos() >= 0
      ? `ei-row-${s.timeline.selectedSeq}`
      : undefined,
  );

  const pageRows = () => Math.max(1, Math.floor((scrollEl?.clientHeight ?? 400) / ROW_H) - 1);
  const onKeyDown = (e: KeyboardEvent) => {
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
      resume();
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
      setFollow(false);
    }
  };

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
          onScroll={onScroll}
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
