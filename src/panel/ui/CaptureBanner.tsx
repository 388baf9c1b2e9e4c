/**
 * What the panel says about capture for the inspected tab, above the timeline:
 * - capture off for the page: nothing of ours runs there; the tab's sites (page and frames, from the tab's frame
 *   tree) listed with a checkbox each, a mode, and one button that turns them on and reloads the tab, so that the
 *   session is captured from its first message;
 * - the page captured but some frames' sites not: the same, smaller;
 * - receive-only: which rules cannot be checked;
 * - a mode change that waits for the next load of the page, with a reload button.
 */
import { createSignal, For, Show } from 'solid-js';
import type { CaptureMode, TabSite } from '../../shared/messages.ts';
import { changeScope, RECEIVE_ONLY_UNCHECKED, tabCapture } from './capture-scope.ts';
import { usePanel } from './use-panel.ts';

export function CaptureBanner() {
  const { store, select } = usePanel();
  const tc = select(['capture', 'status'], (s) => (s.transportInfo?.live ? tabCapture(s) : null));
  const note = select('capture', (s) => s.captureNote);
  return (
    <>
      <Show when={tc()?.off}>
        <section class="capture-off" aria-label="Capture is off for this tab">
          <p>
            <strong>Capture is off for this tab.</strong>{' '}
            {tc()!.captured.length
              ? `Only the frames of ${tc()!
                  .captured.map((s) => s.origin)
                  .join(', ')} are captured; nothing of Embed Inspector runs in the page itself.`
              : 'Nothing of Embed Inspector runs in its pages until you turn it on for their sites.'}
          </p>
          <Show
            when={tc()!.missing.length}
            fallback={<p class="muted">This tab shows no web page that can be captured.</p>}
          >
            <TurnOn sites={tc()!.missing} label="Capture these sites and reload" />
          </Show>
        </section>
      </Show>
      <Show when={tc() && !tc()!.off && tc()!.missing.length}>
        <section class="capture-partial" aria-label="Sites of this tab not captured">
          <p>Not captured in this tab (their frames' messages are seen only from the other side):</p>
          <TurnOn sites={tc()!.missing} label="Capture them too and reload" compact />
        </section>
      </Show>
      <Show when={tc()?.mode === 'receive-only'}>
        <p class="capture-note receive-only-note" role="note">
          Receive-only: the page's postMessage calls are not recorded, so these rules cannot be checked here:{' '}
          {RECEIVE_ONLY_UNCHECKED.map((r) => `${r.what} (${r.rule})`).join(', ')}. Deliveries are recorded and checked.
        </p>
      </Show>
      <Show when={note()}>
        {(n) => (
          <p class="capture-note mode-note" role="note">
            {n()}{' '}
            <button
              type="button"
              class="tool cap-reload"
              onClick={() => {
                store.command({ type: 'reload' });
                store.noteCapture(null);
              }}
            >
              Reload now
            </button>
          </p>
        )}
      </Show>
    </>
  );
}

/** The sites to turn on (all checked at first), their mode, and the button. */
function TurnOn(p: { sites: TabSite[]; label: string; compact?: boolean }) {
  const { store } = usePanel();
  const [unchecked, setUnchecked] = createSignal<ReadonlySet<string>>(new Set());
  const [mode, setMode] = createSignal<CaptureMode>('full');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal('');
  const chosen = () => p.sites.map((s) => s.origin).filter((o) => !unchecked().has(o));
  const toggle = (origin: string, on: boolean) => {
    const next = new Set(unchecked());
    if (on) {
      next.delete(origin);
    } else {
      next.add(origin);
    }
    setUnchecked(next);
  };
  const go = () => {
    const sites = chosen();
    if (!sites.length) {
      return;
    }
    setBusy(true);
    setError('');
    // From the click itself: the browser asks the user for host access only during a gesture.
    void changeScope(store, { op: 'add', sites, mode: mode() }, { reload: true }).then((err) => {
      setBusy(false);
      if (err) {
        setError(err);
      }
    });
  };
  return (
    <div class={`cap-turn-on${p.compact ? ' compact' : ''}`}>
      <ul class="cap-sites" aria-label="Sites of this tab">
        <For each={p.sites}>
          {(s) => (
            <li>
              <label class="check">
                <input
                  type="checkbox"
                  class="cap-site"
                  value={s.origin}
                  checked={!unchecked().has(s.origin)}
                  onChange={(e) => toggle(s.origin, e.currentTarget.checked)}
                />
                <span class="cap-origin">{s.origin}</span> <span class="muted">{s.top ? 'this page' : 'a frame'}</span>
              </label>
            </li>
          )}
        </For>
      </ul>
      <div class="cap-actions">
        <label>
          Mode{' '}
          <select class="cap-mode" value={mode()} onChange={(e) => setMode(e.currentTarget.value as CaptureMode)}>
            <option value="full">full: posts and deliveries</option>
            <option value="receive-only">receive-only: deliveries, no hook in the page</option>
          </select>
        </label>
        <button type="button" class="tool primary cap-on" disabled={busy() || !chosen().length} onClick={go}>
          {busy() ? 'Turning capture on…' : p.label}
        </button>
      </div>
      <Show when={!p.compact}>
        <p class="muted">
          Remembered per site until you remove it (in Settings). The tab reloads so that the session is captured from
          its first message.
        </p>
      </Show>
      <Show when={error()}>
        <p class="error-text" role="alert">
          {error()}
        </p>
      </Show>
    </div>
  );
}
