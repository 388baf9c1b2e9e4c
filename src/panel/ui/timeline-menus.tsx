/**
 * The timeline's menus: the column chooser (its checkboxes, the causal order, the default columns) and a row's
 * menu (timeline/row-menu.ts: copy as JSON, the act feature's copy as code and replay, filter by type, frame or
 * origin, show related), with what they say ("Copied …") and where the focus goes back to. One menu at a time.
 */
import { createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { COLUMN_DEFS } from '../timeline/columns.ts';
import { filterPatch, plainJson, rowMenuItems, type RowActionId } from '../timeline/row-menu.ts';
import { Menu, type MenuEntry } from './Menu.tsx';
import { useRowMenuFeature } from './row-menu-context.ts';
import { copyToClipboard } from './clipboard.ts';
import { usePanel } from './use-panel.ts';

export interface TimelineMenus {
  openRow(seq: number, x: number, y: number): void;
  /** The menu of the selected row (the first when none), below it. */
  openFromKeys(): void;
  openChooser(x: number, y: number): void;
  isOpen(): boolean;
  /** The open menu and the last word said. */
  view(): JSX.Element;
}

type PanelOf = ReturnType<typeof usePanel>;

/** The column chooser's entries (the optional columns, the causal order, the defaults) and what picking one does. */
function createColumnChooser(view: PanelOf['store']['timeline'], select: PanelOf['select']) {
  const chooserItems = select('view', (): MenuEntry[] => {
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
  });
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
  return { chooserItems, pickColumn };
}

/** What an entry of record `seq`'s row menu does (`id`: timeline/row-menu.ts's, or the act feature's). */
function pickRowAction(
  o: {
    view: PanelOf['store']['timeline'];
    log: PanelOf['store']['log'];
    feature: ReturnType<typeof useRowMenuFeature>;
    say: (text: string) => void;
    onOpen: () => void;
  },
  seq: number,
  id: string,
) {
  const { view, log } = o;
  const i = log.indexOfSeq(seq);
  if (i < 0) {
    return;
  }
  const r = log.at(i),
    m = log.metaAt(i);
  const action = id as RowActionId;
  switch (action) {
    case 'copy-json':
      void copyToClipboard(plainJson(r.data)).then((ok) => o.say(ok ? 'Copied the message as JSON' : 'Copy failed'));
      break;
    case 'copy-code':
    case 'replay':
      if (o.feature) {
        void o.feature.run(action, r).then(o.say);
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
      o.onOpen();
      // the detail pane is rendered by now (Solid renders synchronously): show its Related tab
      document.getElementById('tab-related')?.click();
      break;
  }
}

export function createTimelineMenus(opts: { grid: () => HTMLDivElement; onOpen: () => void }): TimelineMenus {
  const { store, select } = usePanel();
  const view = store.timeline,
    log = store.log;
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
    (opener?.isConnected ? opener : opts.grid())?.focus({ preventScroll: true });
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
  const { chooserItems, pickColumn } = createColumnChooser(view, select);
  const rowItems = (seq: number): MenuEntry[] => {
    const i = log.indexOfSeq(seq);
    return i < 0 ? [] : rowMenuItems(log.at(i), log.metaAt(i), feature?.items(log.at(i)));
  };
  const pickRow = (seq: number, id: string) => pickRowAction({ view, log, feature, say, onOpen: opts.onOpen }, seq, id);
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
    const r = el?.getBoundingClientRect() ?? opts.grid().getBoundingClientRect();
    openMenu({ kind: 'row', seq, x: r.left + 24, y: r.bottom });
  };

  return {
    openRow: openRowMenu,
    openFromKeys: openMenuFromKeys,
    openChooser: (x, y) => openMenu({ kind: 'cols', x, y }),
    isOpen: () => menu() !== null,
    view: () => (
      <>
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
      </>
    ),
  };
}
