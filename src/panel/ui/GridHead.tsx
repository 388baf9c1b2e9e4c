/**
 * The timeline's header row: a header per shown column (a click sorts by it: ascending, descending, then back to
 * the causal order; `aria-sort` says which), the time column's switch between its two origins, and the column
 * chooser (its button, beside the grid, or a right-click on the header). The header is above the grid's scrolling
 * element, which has the focus and owns the header (aria-owns).
 */
import { For, Show } from 'solid-js';
import { columnDef, nextSort, type ColumnId } from '../timeline/columns.ts';
import { usePanel } from './use-panel.ts';

export interface GridHeadProps {
  /** Its id: the grid (the element below it that scrolls) owns it by this id. */
  id: string;
  /** The columns shown (those chosen that fit). */
  shown: () => readonly ColumnId[];
  /** Open the column chooser at a point. */
  onChooser: (x: number, y: number) => void;
}

export function GridHead(p: GridHeadProps) {
  const { store, select } = usePanel();
  const view = store.timeline;
  const timeTitle = select('view', () => (view.timeOrigin().base === 'ready' ? 'ready' : 'first'));
  const sort = select('view', () => view.sort);
  const ariaSort = (id: ColumnId) => {
    const s = sort();
    return s && s.column === id ? (s.dir === 'asc' ? 'ascending' : 'descending') : undefined;
  };
  const sortTitle = (id: ColumnId) => {
    const s = sort();
    const what = columnDef(id).title;
    if (!s || s.column !== id) {
      return `${what}. Click to sort by it${s ? '' : ' (now: the causal order)'}`;
    }
    return `${what}. Sorted ${s.dir === 'asc' ? 'ascending' : 'descending'}; click for ${s.dir === 'asc' ? 'descending' : 'the causal order'}`;
  };
  return (
    <div
      role="rowgroup"
      class="grid-head"
      id={p.id}
      onContextMenu={(e) => {
        e.preventDefault();
        p.onChooser(e.clientX, e.clientY);
      }}
    >
      <div role="row" class="row head" aria-rowindex={1}>
        <For each={p.shown()}>
          {(id) => (
            <div role="columnheader" class={`c-${id}`} aria-sort={ariaSort(id)}>
              <button
                type="button"
                class="link sort-btn"
                title={sortTitle(id)}
                onClick={() => view.setSort(nextSort(view.sort, id))}
              >
                {id === 'dir' ? '⇅' : columnDef(id).label}
                <Show when={ariaSort(id)}>
                  {(dir) => (
                    <span class="sort-mark" aria-hidden="true">
                      {dir() === 'ascending' ? '▲' : '▼'}
                    </span>
                  )}
                </Show>
              </button>
              <Show when={id === 'time'}>
                <button
                  type="button"
                  class="link muted time-base"
                  title={`Time since ${timeTitle() === 'ready' ? 'svc:event:ready' : 'the first record'}; click to switch`}
                  onClick={() => view.setTimeBase(view.timeBase === 'ready' ? 'first' : 'ready')}
                >
                  {timeTitle()}
                </button>
              </Show>
            </div>
          )}
        </For>
      </div>
    </div>
  );
}

/** The column chooser's button: over the header's end, outside the grid (Timeline.tsx places it). */
export function ColumnChooserButton(p: { onChooser: (x: number, y: number) => void }) {
  return (
    <button
      type="button"
      class="col-chooser"
      aria-label="Columns"
      aria-haspopup="menu"
      title="Choose the columns (or right-click the header)"
      onClick={(e) => {
        const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
        p.onChooser(r.left, r.bottom);
      }}
    >
      <svg viewBox="0 0 12 12" width="12" height="12" aria-hidden="true">
        <path d="M1 2h10M1 6h10M1 10h10" stroke="currentColor" stroke-width="1.5" />
      </svg>
    </button>
  );
}
