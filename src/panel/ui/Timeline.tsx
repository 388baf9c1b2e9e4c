/**
 * The virtualized timeline (ARIA grid). Rows (Row.tsx) are positioned by @tanstack/virtual-core (see virtual.ts);
 * rows are a ring of slots that read their record from the log by view position (timeline/timeline-view.ts), so a filter change re-renders
 * only the visible rows and a scroll only the rows that come into view.
 * Live tail: follows new records until the user scrolls up; "Follow" (or End) resumes.
 * Columns: the chosen ones (the view's, see timeline/columns.ts) that fit the timeline's width; a header click
 * sorts. Menus: the column chooser, and a row's menu (right-click, the context-menu key or Shift+F10).
 */
import {
  batch,
  createComputed,
  createEffect,
  createMemo,
  createSignal,
  Index,
  on,
  onCleanup,
  onMount,
  Show,
  untrack,
} from 'solid-js';
import { observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { createRowVirtualizer } from './virtual.ts';
import { Row, WarmRow } from './Row.tsx';
import { Empty } from './Empty.tsx';
import { GridHead } from './GridHead.tsx';
import { usePanel } from './use-panel.ts';
import { COLUMN_DEFS, COLUMN_IDS, fitColumns } from '../timeline/columns.ts';
import { filterPatch, plainJson, rowMenuItems, type RowActionId } from '../timeline/row-menu.ts';
import { Menu, type MenuEntry } from './Menu.tsx';
import { useRowMenuFeature } from './row-menu-context.ts';
import { copyToClipboard } from './clipboard.ts';
import './grid.css';

export const ROW_H = 22;
/** Rows rendered beyond each edge of the viewport. */
const OVERSCAN = 2;

export interface TimelineProps {
  onOpen: () => void;
  onClose: () => void;
  ref?: (el: HTMLDivElement) => void;
}

export function Timeline(props: TimelineProps) {
  const { store, sig } = usePanel();
  const view = store.timeline,
    log = store.log;
  let scrollEl!: HTMLDivElement;
  let gridEl!: HTMLDivElement;
  const [follow, setFollow] = createSignal(true);
  const [unseen, setUnseen] = createSignal(0);
  const count = () => {
    sig.view();
    return view.length;
  };

  // ---- columns: the chosen ones that fit the timeline's width (less the scroll bar's gutter)
  let rootEl!: HTMLDivElement;
  const [width, setWidth] = createSignal(1200);
  onMount(() => {
    const ro = new ResizeObserver(() => setWidth(rootEl.clientWidth));
    ro.observe(rootEl);
    setWidth(rootEl.clientWidth);
    onCleanup(() => ro.disconnect());
  });
  const fit = createMemo(() => {
    sig.view();
    return fitColumns(view.columns, width() - 16);
  });
  const hiddenCols = () => COLUMN_IDS.filter((id) => !fit().shown.includes(id)).join(' ');

  // ---- menus: the column chooser and a row's menu
  type MenuState = { kind: 'cols'; x: number; y: number } | { kind: 'row'; seq: number; x: number; y: number };
  const [menu, setMenu] = createSignal<MenuState | null>(null);
  const [note, setNote] = createSignal('');
  let noteTimer: ReturnType<typeof setTimeout> | undefined;
  const say = (text: string) => {
    setNote(text);
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => setNote(''), 2500);
  };
  const feature = useRowMenuFeature();
  // the focus goes back where the menu was opened from: the chooser's button, else the grid
  let opener: HTMLElement | null = null;
  const openMenu = (m: MenuState) => {
    const active = document.activeElement as HTMLElement | null;
    opener = active?.classList.contains('col-chooser') ? active : null;
    setMenu(m);
  };
  const closeMenu = () => {
    setMenu(null);
    (opener?.isConnected ? opener : gridEl)?.focus({ preventScroll: true });
    opener = null;
  };
  // Esc closes an open menu and goes no further: not to the layout's Esc (closing the details), nor to DevTools
  // (its Console drawer). Registered as the component is made, before the layout's listener, in the same phase.
  const escGuard = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && menu()) {
      e.preventDefault();
      e.stopImmediatePropagation();
      closeMenu();
    }
  };
  window.addEventListener('keydown', escGuard, true);
  onCleanup(() => window.removeEventListener('keydown', escGuard, true));
  const chooserItems = (): MenuEntry[] => {
    sig.view();
    const chosen = new Set(view.columns);
    return [
      ...COLUMN_DEFS.filter((c) => c.optional).map((c) => ({
        id: c.id,
        label: c.id === 'delta' ? 'Time since previous' : c.id === 'clock' ? 'Absolute time' : c.label,
        checked: chosen.has(c.id),
      })),
      { id: '@causal', label: 'Causal order (no sort)', disabled: view.sort ? undefined : 'already in causal order' },
      { id: '@reset', label: 'Default columns' },
    ];
  };
  const pickColumn = (id: string) => {
    if (id === '@causal') {
      view.setSort(null);
    } else if (id === '@reset') {
      view.resetColumns();
    } else {
      const c = COLUMN_DEFS.find((x) => x.id === id);
      if (c) {
        view.setColumn(c.id, !view.columns.includes(c.id));
      }
    }
  };
  const rowItems = (seq: number): MenuEntry[] => {
    const i = log.indexOfSeq(seq);
    return i < 0 ? [] : rowMenuItems(log.at(i), log.metaAt(i), feature?.items(log.at(i)));
  };
  const pickRow = (seq: number, id: string) => {
    const i = log.indexOfSeq(seq);
    if (i < 0) {
      return;
    }
    const r = log.at(i),
      m = log.metaAt(i);
    const action = id as RowActionId;
    switch (action) {
      case 'copy-json':
        void copyToClipboard(plainJson(r.data)).then((ok) => say(ok ? 'Copied the message as JSON' : 'Copy failed'));
        break;
      case 'copy-code':
      case 'replay':
        if (feature) {
          void feature.run(action, r).then(say);
        }
        break;
      case 'filter-type':
      case 'filter-frame':
      case 'filter-origin':
        view.setFilters(filterPatch(action, r, m));
        view.select(seq);
        break;
      case 'related':
        view.select(seq);
        props.onOpen();
        // the detail pane is rendered by now (Solid renders synchronously): show its Related tab
        document.getElementById('tab-related')?.click();
        break;
    }
  };
  const openRowMenu = (seq: number, x: number, y: number) => {
    view.select(seq);
    openMenu({ kind: 'row', seq, x, y });
  };
  /** The menu of the selected row (the first when none), from the keyboard. */
  const openMenuFromKeys = () => {
    if (view.selectedSeq === null || view.selectedViewPos() < 0) {
      view.selectAt(0);
    }
    const seq = view.selectedSeq;
    if (seq === null) {
      return;
    }
    const el = document.getElementById(`ei-row-${seq}`);
    const r = el?.getBoundingClientRect() ?? gridEl.getBoundingClientRect();
    openMenu({ kind: 'row', seq, x: r.left + 24, y: r.bottom });
  };

  // The virtualizer learns the scroll offset (and the viewport's size) from scroll events and a ResizeObserver,
  // after the fact. While the timeline follows the tail, a new count (a load, live records, a filter change) would
  // render the rows at the old offset first, and the rows at the end a frame later, after the scroll event. So
  // the virtualizer sees a new count only after it was told the end offset, through its own observer callbacks:
  // the rows at the end render once, and the scroll write that follows (`scrollToEnd`) lands where they are.
  // The size is read in a microtask, once this update's other changes (summary, filter bar) are in the DOM and
  // before the new rows are: the layout that read forces does not include them.
  let reportOffset: ((offset: number, isScrolling: boolean) => void) | null = null;
  let reportRect: ((rect: { width: number; height: number }) => void) | null = null;
  // What the rows show: the count the virtualizer has, and a version bumped with it for every view change (the rows
  // read this rather than the bridge's view signal, so that they render once the virtualizer has its new range).
  const [shownCount, setShownCount] = createSignal(0);
  const [rowsVersion, setRowsVersion] = createSignal(0);
  const show = (n: number) =>
    batch(() => {
      setShownCount(n);
      setRowsVersion((v) => v + 1);
    });
  let tailQueued = false;
  const showAtEnd = () => {
    tailQueued = false;
    const n = count();
    if (n === shownCount() || !follow() || !scrollEl?.isConnected || !reportOffset || !reportRect) {
      show(n);
      return;
    }
    const width = scrollEl.clientWidth,
      height = scrollEl.clientHeight;
    if (height <= 0) {
      show(n);
      return;
    } // not laid out (a hidden panel): as before, from scroll events
    const rect = reportRect,
      offset = reportOffset;
    batch(() => {
      rect({ width, height });
      offset(Math.max(0, n * ROW_H - height), false);
      show(n);
    });
  };
  createComputed(() => {
    const n = count();
    if (untrack(follow) && untrack(shownCount) !== n && reportOffset) {
      if (!tailQueued) {
        tailQueued = true;
        queueMicrotask(showAtEnd);
      }
    } else if (!tailQueued) {
      show(n);
    }
  });

  const virtualizer = createRowVirtualizer({
    count: shownCount,
    getScrollElement: () => scrollEl,
    estimateSize: () => ROW_H,
    overscan: OVERSCAN,
    observeElementOffset: (instance, cb) => {
      reportOffset = cb;
      const stop = observeElementOffset(instance, cb);
      return () => {
        stop?.();
        if (reportOffset === cb) {
          reportOffset = null;
        }
      };
    },
    observeElementRect: (instance, cb) => {
      reportRect = cb;
      const stop = observeElementRect(instance, cb);
      return () => {
        stop?.();
        if (reportRect === cb) {
          reportRect = null;
        }
      };
    },
  });

  // ---- rows: a ring of slots. Slot s shows the visible item whose index is s modulo the number of slots, so a row
  // keeps its record while that record stays in view: a scroll by k rows rewrites k rows, not every visible one (a
  // row by slot position would show a new record in every row on every scroll step). The ring holds as many slots
  // as the viewport can need (rows that fit, one partly shown, the overscan on both sides); it is rebuilt when the
  // viewport's height changes. A slot with no item keeps its row element, hidden (Row.tsx): scrolling never makes
  // or drops row elements. The rows' DOM order is rotated: the row group's aria-owns lists them in view order for
  // assistive technology.
  const slotCount = createMemo(() =>
    Math.max(
      virtualizer.getVirtualItems().length,
      Math.ceil(virtualizer.getViewportHeight() / ROW_H) + 1 + 2 * OVERSCAN,
    ),
  );
  const slots = createMemo(() => Array.from({ length: slotCount() }, (_, s) => s));
  const slotItem = (s: number) => {
    const items = virtualizer.getVirtualItems(),
      m = slotCount();
    if (!items.length) {
      return undefined;
    }
    return items[(((s - items[0].index) % m) + m) % m];
  };
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
  createEffect(
    on(
      () => virtualizer.getTotalSize(),
      () => {
        if (untrack(follow)) {
          queueMicrotask(scrollToEnd);
        }
      },
    ),
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
  const activeId = () => {
    sig.selection();
    sig.view();
    return view.selectedSeq !== null && view.selectedViewPos() >= 0 ? `ei-row-${view.selectedSeq}` : undefined;
  };

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
      openMenuFromKeys();
      e.preventDefault();
    }
    if (k === 'ArrowUp' || k === 'PageUp' || k === 'Home') {
      setFollow(false);
    }
  };

  return (
    <div class="timeline" ref={rootEl}>
      <div
        class="grid managed"
        role="grid"
        tabindex="0"
        style={{ '--cols': fit().template }}
        data-hide={hiddenCols()}
        onContextMenu={(e) => {
          // the context-menu key on the grid itself (a right-click on a row is the row's)
          if (!e.defaultPrevented) {
            e.preventDefault();
            if (!menu()) {
              openMenuFromKeys();
            }
          }
        }}
        ref={(el) => {
          gridEl = el;
          props.ref?.(el);
        }}
        aria-label="Recorded messages"
        aria-rowcount={count() + 1}
        aria-colcount={fit().shown.length}
        aria-activedescendant={activeId()}
        onKeyDown={onKeyDown}
      >
        <GridHead shown={() => fit().shown} onChooser={(x, y) => openMenu({ kind: 'cols', x, y })} />
        <div
          role="rowgroup"
          class="grid-body"
          ref={scrollEl}
          aria-owns={rowOrder()}
          onScroll={onScroll}
          onWheel={(e) => {
            if (e.deltaY < 0) {
              setFollow(false);
            }
          }}
        >
          <div class="grid-canvas" style={{ height: `${virtualizer.getTotalSize()}px` }}>
            <Index each={slots()}>
              {(slot) => {
                const pos = createMemo(() => slotItem(slot())?.index ?? -1);
                return (
                  <Row
                    version={rowsVersion}
                    pos={pos}
                    start={() => pos() * ROW_H}
                    onOpen={props.onOpen}
                    grid={() => gridEl}
                    onMenu={openRowMenu}
                  />
                );
              }}
            </Index>
          </div>
          <WarmRow />
          <Empty />
        </div>
      </div>
      <Show when={!follow()}>
        <button class="follow" onClick={resume} title="Scroll to the newest record and keep following (End)">
          ↓ {unseen() > 0 ? 'New records — follow' : 'Follow new records'}
        </button>
      </Show>
      <Show when={menu()}>
        {(m) => {
          const st = m();
          return st.kind === 'cols' ? (
            <Menu label="Columns" items={chooserItems()} x={st.x} y={st.y} onPick={pickColumn} onClose={closeMenu} />
          ) : (
            <Menu
              label={`Record #${st.seq}`}
              items={rowItems(st.seq)}
              x={st.x}
              y={st.y}
              onPick={(id) => pickRow(st.seq, id)}
              onClose={closeMenu}
            />
          );
        }}
      </Show>
      <Show when={note()}>
        <div class="tl-note" role="status">
          {note()}
        </div>
      </Show>
    </div>
  );
}
