/**
 * The panel's settings (⚙ Settings): buffer limits — how many messages the tab's log keeps (past it, what tells
 * least is dropped first, and counted by kind) and the size cap of one captured message (a larger one is kept truncated, with
 * its original size) — how long an embed has to say ready (protocol/diagnose.ts) — and the captured sites
 * (CaptureSites).
 */
import { createMemo, onCleanup } from 'solid-js';
import { CaptureSites } from './CaptureSites.tsx';
import { Icon } from './icons.tsx';
import { Popover, type PopoverApi } from './Popover.tsx';
import { usePanel } from './use-panel.ts';

export function Limits(p: { disabled: () => boolean }) {
  const { store, select } = usePanel();
  const st = select('state', (s) => s.log.state);
  // What an input shows changes only when its setting does: a new state with the same setting (every snapshot
  // brings one, after a service-worker restart too) leaves what the user is typing alone.
  const records = createMemo(() => st().maxRecords);
  const kb = createMemo(() => Math.round((st().maxBytes ?? 1_000_000) / 1000));
  const readyS = createMemo(() => Math.round((st().readyTimeoutMs ?? 10_000) / 1000));
  const apply = (key: 'maxRecords' | 'maxBytes' | 'readyTimeoutMs', raw: string, scale = 1) => {
    const n = Math.floor(Number(raw) * scale);
    if (!Number.isFinite(n) || n <= 0) {
      return;
    }
    store.command({ type: 'set-options', options: { [key]: n } });
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      (e.currentTarget as HTMLInputElement).blur();
    }
  };
  // A new page (with the log preserved or not), a cleared log or another source starts without the settings over it.
  let pop: PopoverApi | undefined;
  const closeIt = () => pop?.close();
  onCleanup(store.log.on('cleared', closeIt));
  onCleanup(store.log.on('replaced', closeIt));
  onCleanup(
    store.log.on('batch', ({ from, count }) => {
      for (let i = from; i < from + count; i++) {
        const r = store.log.at(i);
        if (r.navigation && r.frameId === 0) {
          closeIt(); // the page navigated or reloaded (with the log preserved)
          return;
        }
      }
    }),
  );
  return (
    <Popover
      class="limits"
      buttonClass="tool limits-button"
      buttonTitle="How much the log keeps; which sites are captured"
      button={
        <>
          <Icon name="settings" />
          <span class="tb-text">Settings</span>
        </>
      }
      buttonLabel="Settings"
      label="Settings"
      titled
      panelClass="limits-pop"
      api={(a) => (pop = a)}
    >
      <div role="group" aria-label="Buffer limits">
        <label>
          Keep at most
          <input
            class="lim-records"
            type="number"
            min="100"
            step="1000"
            disabled={p.disabled()}
            value={records()}
            onChange={(e) => apply('maxRecords', e.currentTarget.value)}
            onKeyDown={onKey}
          />{' '}
          messages
        </label>
        <p class="muted">
          Past it, foreign traffic goes first, then valid repeats of a type from the same frame, then the oldest others;
          messages with an error or a warning and each session’s ready are kept longest. “dropped” says what went.
        </p>
        <label>
          Cap one message at
          <input
            class="lim-kb"
            type="number"
            min="1"
            step="100"
            disabled={p.disabled()}
            value={kb()}
            onChange={(e) => apply('maxBytes', e.currentTarget.value, 1000)}
            onKeyDown={onKey}
          />{' '}
          KB
        </label>
        <p class="muted">
          A larger message is kept truncated, with its original size (applies to the whole extension).
        </p>
        <label>
          Expect ready within
          <input
            class="lim-ready"
            type="number"
            min="1"
            step="1"
            disabled={p.disabled()}
            value={readyS()}
            onChange={(e) => apply('readyTimeoutMs', e.currentTarget.value, 1000)}
            onKeyDown={onKey}
          />{' '}
          s
        </label>
        <p class="muted">
          An embed frame silent this long after it loaded is diagnosed “never ready”; a dashboard that never loaded its
          data and an AI query never answered get a warning (for the whole extension; 1 to 600 s).
        </p>
        <CaptureSites disabled={p.disabled} />
        <KeyboardMap />
      </div>
    </Popover>
  );
}

/** The panel's keys: every mouse action has one (Tab reaches every button, menu and field in between). */
const KEYS: Array<[string, string]> = [
  ['↑ ↓ · Page Up/Down · Home · End', 'move the selection in the timeline or the flow view'],
  ['Enter', "open the selected record's details"],
  ['← →', "switch the details' tabs (on a tab); resize the details (on the splitter)"],
  ['Shift+↑ ↓', "extend the flow view's range (what Save SVG and Copy Mermaid take)"],
  ['Esc', "close a menu, Settings or the drawer; clear the flow view's range, else close the details"],
  ['Shift+F10 · Menu key', "the selected row's menu (copy as code, re-send)"],
  ['Ctrl/⌘+F', 'search the messages (Enter: at once; Esc: clear the search)'],
  ['V', 'switch between the timeline and the flow view (not while typing)'],
  ['Ctrl/⌘+C', "copy the focused node of the details' JSON tree (when no text is selected)"],
  ['Ctrl/⌘+Enter', 'send from the composer'],
  ['End (timeline)', 'follow new records again'],
];

function KeyboardMap() {
  return (
    <details class="keys">
      <summary>Keyboard</summary>
      <dl class="keys-list">
        {KEYS.map(([k, what]) => (
          <>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </>
        ))}
      </dl>
    </details>
  );
}
