/** What the timeline shows when no row is: waiting for messages, or no message matches the filters. */
import { Show } from 'solid-js';
import { plural } from './format.ts';
import { usePanel } from './use-panel.ts';

export function Empty() {
  const { store, sig } = usePanel();
  const view = store.timeline,
    log = store.log;
  const info = () => {
    sig.view();
    sig.state();
    return { total: log.count, shown: view.length, foreign: log.counts.foreign, showForeign: view.filters.showForeign };
  };
  return (
    <Show when={info().shown === 0}>
      <div class="empty" role="status">
        <Show
          when={info().total === 0}
          fallback={
            <>
              <p>
                <strong>No message matches the filters.</strong> {plural(info().total, 'record')} recorded
                {info().showForeign ? '' : `, ${plural(info().foreign, 'foreign message')} hidden`}.
              </p>
              <p>
                <button onClick={() => view.resetFilters()}>Reset filters</button>{' '}
                <Show when={!info().showForeign && info().foreign > 0}>
                  <button onClick={() => view.setFilters({ showForeign: true })}>Show foreign traffic</button>
                </Show>
              </p>
            </>
          }
        >
          <p>
            <strong>Waiting for messages…</strong>
          </p>
          <p class="muted">
            Embed Inspector records the window messages of this tab's page and all its frames: the svc-embed events an
            embed sends and the actions the host posts. Reload the page to capture a session from its start.
          </p>
        </Show>
      </div>
    </Show>
  );
}
