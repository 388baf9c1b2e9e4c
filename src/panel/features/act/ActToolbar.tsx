/**
 * Toolbar buttons: composer, replay, export, import (file picker); while a file is shown, the way back to the live
 * tab. Compose and Replay send to a live tab: without one (`live` false: the offline viewer) they are not shown.
 */
import { Show } from 'solid-js';
import { useAct, type DrawerKind } from './act-controller.ts';
import { Icon } from '../../ui/icons.tsx';

export function ActToolbar(p: { live?: boolean }) {
  const act = useAct();
  let input: HTMLInputElement | undefined;
  let compareInput: HTMLInputElement | undefined;
  const toggle = (d: DrawerKind) => act.setDrawer(act.drawer() === d ? null : d);
  const btn = (d: DrawerKind, label: string, title: string) => (
    <button
      type="button"
      class={`tool t-${d}`}
      aria-pressed={act.drawer() === d}
      aria-controls={act.drawer() === d ? 'act-drawer' : undefined}
      title={title}
      data-closes-menu
      onClick={() => toggle(d)}
    >
      {label}
    </button>
  );
  return (
    <span class="act-tools" role="group" aria-label="Act on the embed">
      <Show when={act.viewing().kind === 'file'}>
        <span class="viewing-file" title="An imported capture file: nothing is replayed unless you ask">
          <Icon name="file" /> {act.viewing().label}
        </span>
        <Show when={act.link}>
          <button
            type="button"
            class="tool t-live"
            onClick={() => act.goLive()}
            title="Show the live log of the inspected tab again"
          >
            ← Back to live tab
          </button>
        </Show>
      </Show>
      <Show when={p.live !== false}>
        {btn('compose', '✎ Compose', 'Send an action to the embed or simulate an event from it')}
        {btn('replay', '▶ Replay', 'Replay captured actions (timed, faster, or step by step)')}
      </Show>
      {btn('export', '⇩ Export', 'Save the log as a capture file or a HAR')}
      <button
        type="button"
        class="tool t-import"
        title="Open a capture file or HAR to inspect it offline (or drop it on the panel)"
        onClick={() => input?.click()}
      >
        ⇧ Import
      </button>
      <input
        ref={input}
        type="file"
        class="import-input"
        accept=".json,.har,application/json"
        hidden
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          if (f) {
            void act.importFile(f);
          }
          e.currentTarget.value = '';
        }}
      />
      <button
        type="button"
        class="tool t-compare"
        title="Compare what is shown with a capture file or HAR (what changed: types, issues, order, payload fields, timing)"
        onClick={() => compareInput?.click()}
      >
        ⇆ Compare
      </button>
      <input
        ref={compareInput}
        type="file"
        class="compare-input"
        accept=".json,.har,application/json"
        hidden
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          if (f) {
            void act.compareFile(f);
          }
          e.currentTarget.value = '';
        }}
      />
      <span class="sep" aria-hidden="true" />
    </span>
  );
}
