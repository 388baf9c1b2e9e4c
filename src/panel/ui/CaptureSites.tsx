/**
 * The captured sites, in the panel's settings: review them, change a site's mode, remove one; and the "capture on
 * every site" switch (off by default). The background registers the scripts; changes apply to pages loaded after
 * them (a removed site's open pages stop recording at once).
 */
import { createSignal, Index, Show } from 'solid-js';
import type { CaptureMode } from '../../shared/messages.ts';
import { changeScope } from './capture-scope.ts';
import { usePanel } from './use-panel.ts';

export function CaptureSites(p: { disabled: () => boolean }) {
  const { store, select } = usePanel();
  const scope = select('capture', (s) => s.capture?.scope ?? null);
  const [error, setError] = createSignal('');
  const run = (promise: Promise<string | null>) => {
    setError('');
    void promise.then((e) => {
      if (e) {
        setError(e);
      }
    });
  };
  const modeSelect = (value: () => CaptureMode, cls: string, label: string, onPick: (m: CaptureMode) => void) => (
    <select
      class={cls}
      aria-label={label}
      value={value()}
      disabled={p.disabled()}
      onChange={(e) => onPick(e.currentTarget.value as CaptureMode)}
    >
      <option value="full">full</option>
      <option value="receive-only">receive-only</option>
    </select>
  );
  // (the list is kept by position: the scope comes anew after every snapshot, a service-worker restart's too, and a
  // list keyed by object would make its rows again, losing the focus of a mode being chosen)
  return (
    <div class="cap-settings" role="group" aria-label="Captured sites">
      <h3>Captured sites</h3>
      <Show when={scope()} fallback={<p class="muted">Open the panel on a tab to see and change what is captured.</p>}>
        {(s) => (
          <>
            <label class="check">
              <input
                type="checkbox"
                class="cap-all"
                checked={s().all !== null}
                disabled={p.disabled()}
                onChange={(e) => run(changeScope(store, { op: 'all', mode: e.currentTarget.checked ? 'full' : null }))}
              />{' '}
              Capture on every site
              <Show when={s().all}>
                {(m) =>
                  modeSelect(m, 'cap-all-mode', 'Mode on every site', (mode) =>
                    run(changeScope(store, { op: 'all', mode })),
                  )
                }
              </Show>
            </label>
            <p class="muted">Off by default: nothing of Embed Inspector runs in a page whose site is not captured.</p>
            <Show
              when={s().sites.length}
              fallback={
                <p class="muted cap-none">{s().all ? 'No site has a mode of its own.' : 'No site is captured.'}</p>
              }
            >
              <ul class="cap-list">
                <Index each={s().sites}>
                  {(site) => (
                    <li>
                      <span class="cap-origin">{site().origin}</span>
                      {modeSelect(
                        () => site().mode,
                        'cap-site-mode',
                        `Mode of ${site().origin}`,
                        (mode) => run(changeScope(store, { op: 'mode', sites: [site().origin], mode })),
                      )}
                      <button
                        type="button"
                        class="tool cap-remove"
                        disabled={p.disabled()}
                        aria-label={`Stop capturing ${site().origin}`}
                        title={`Stop capturing ${site().origin}`}
                        onClick={() => run(changeScope(store, { op: 'remove', sites: [site().origin] }))}
                      >
                        ✕
                      </button>
                    </li>
                  )}
                </Index>
              </ul>
            </Show>
            <p class="muted">
              A change applies to pages loaded after it; the open pages of a removed site stop recording at once.
            </p>
            <Show when={error()}>
              <p class="error-text" role="alert">
                {error()}
              </p>
            </Show>
          </>
        )}
      </Show>
    </div>
  );
}
