/** The bottom drawer (composer, replay or export), and the import error banner. Esc closes the drawer. */
import { createSignal, Match, onCleanup, Show, Switch } from 'solid-js';
import { useAct } from './act-controller.ts';
import { Composer } from './Composer.tsx';
import { ReplayPanel } from './ReplayPanel.tsx';
import { ExportPanel } from './ExportPanel.tsx';
import { headline } from '../../log/protocol.ts';

const TITLES = { compose: 'Compose', replay: 'Replay', export: 'Export', compare: 'Compare' } as const;

export function ActDrawer() {
  const act = useAct();
  const [version, setVersion] = createSignal(0);
  onCleanup(
    act.store.onChange((c) => {
      if (c.records || c.view || c.appended !== undefined || c.selection) {
        setVersion((n) => n + 1);
      }
    }),
  );
  return (
    <>
      <Show when={act.importError()}>
        <div class="import-error" role="alert">
          <span>{act.importError()}</span>
          <button type="button" class="link" onClick={() => act.setImportError(null)} aria-label="Dismiss">
            Dismiss
          </button>
        </div>
      </Show>
      <Show when={act.drawer()}>
        {(d) => (
          <div
            id="act-drawer"
            class="act-drawer"
            role="region"
            aria-label={TITLES[d()]}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && !(e.target instanceof HTMLSelectElement)) {
                act.setDrawer(null);
                e.stopPropagation();
              }
            }}
          >
            <header class="drawer-head">
              <strong>{TITLES[d()]}</strong>
              <span class="muted small">
                {d() === 'compose'
                  ? 'Validated live with the same rules as the timeline'
                  : d() === 'replay'
                    ? 'Re-sends captured messages to the live embed'
                    : d() === 'compare'
                      ? 'What changed from what is shown (A) to the file (B), as embed-inspector diff says it'
                      : 'A capture file, format v1'}
              </span>
              <span class="spacer" />
              <button
                type="button"
                class="close"
                aria-label="Close (Esc)"
                title="Close (Esc)"
                onClick={() => act.setDrawer(null)}
              >
                ✕
              </button>
            </header>
            <div class="drawer-body">
              <Switch>
                <Match when={d() === 'compose'}>
                  <Composer />
                </Match>
                <Match when={d() === 'replay'}>
                  <ReplayPanel version={version} />
                </Match>
                <Match when={d() === 'export'}>
                  <ExportPanel version={version} />
                </Match>
                <Match when={d() === 'compare'}>
                  <Show when={act.comparison()} fallback={<p class="muted">Choose a file with ⇆ Compare.</p>}>
                    {(c) => (
                      <div class="compare" data-testid="compare">
                        <p class={`compare-head ${c().diff.exitCode ? 'bad' : 'good'}`}>{headline(c().diff)}</p>
                        <pre class="compare-text">{c().text}</pre>
                      </div>
                    )}
                  </Show>
                </Match>
              </Switch>
            </div>
          </div>
        )}
      </Show>
    </>
  );
}
