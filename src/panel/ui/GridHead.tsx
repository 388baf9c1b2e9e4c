/** The timeline's header row: the column names, and the time column's switch between its two origins. */
import { For } from 'solid-js';
import { usePanel } from './use-panel.ts';

export const COLUMNS = ['Time', 'Dir', 'Kind', 'Type', 'Surface', 'Frame', 'Origin → target', 'Verdict', 'Size'];

export function GridHead() {
  const { store, sig } = usePanel();
  const view = store.timeline;
  const timeTitle = () => {
    sig.view();
    return view.timeOrigin().base === 'ready' ? 'ready' : 'first';
  };
  return (
    <div role="rowgroup" class="grid-head">
      <div role="row" class="row head" aria-rowindex={1}>
        <div role="columnheader" class="c-time">
          <button
            class="link"
            title={`Time since ${timeTitle() === 'ready' ? 'svc:event:ready' : 'the first record'}; click to switch`}
            onClick={() => view.setTimeBase(view.timeBase === 'ready' ? 'first' : 'ready')}
          >
            Time <span class="muted">{timeTitle()}</span>
          </button>
        </div>
        <For each={COLUMNS.slice(1)}>
          {(c) => (
            <div
              role="columnheader"
              class={`c-${c.split(' ')[0].toLowerCase()}`}
              title={c === 'Dir' ? 'Direction: ↑ event (embed → host), ↓ action (host → embed)' : undefined}
            >
              {c === 'Dir' ? '⇅' : c}
            </div>
          )}
        </For>
      </div>
    </div>
  );
}
