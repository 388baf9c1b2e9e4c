/**
 * What the timeline shows when no row is, one screen per state, each with at most one action and never one that
 * would do nothing:
 * - capture off for the tab: nothing is recorded (the banner above has the action: turn it on and reload);
 * - some of the tab's sites not captured: waiting (the banner's action captures them too);
 * - recording paused: Resume;
 * - waiting for the first message: Reload the page (its session is then captured from its start);
 * - an imported file without messages; a page not attached to a tab (the notice above says how);
 * - no message matches the filters: Reset filters (and show foreign traffic when that is what hides them).
 */
import { Match, Show, Switch } from 'solid-js';
import { plural } from './format.ts';
import { tabCapture } from './capture-scope.ts';
import { usePanel } from './use-panel.ts';

type EmptyState = 'no-match' | 'file' | 'detached' | 'capture-off' | 'partial' | 'paused' | 'waiting';

export function Empty() {
  const { store, select } = usePanel();
  const view = store.timeline,
    log = store.log;
  const info = select(['view', 'state'], () => ({
    total: log.count,
    shown: view.length,
    foreign: log.counts.foreign,
    showForeign: view.filters.showForeign,
  }));
  const tc = select('capture', tabCapture);
  const state = select(['status', 'state'], (): EmptyState => {
    if (info().total > 0) {
      return 'no-match';
    }
    const t = store.transportInfo;
    if (t?.kind === 'file') {
      return 'file';
    }
    if (!t?.live) {
      return 'detached';
    }
    const c = tc();
    if (c?.off) {
      return 'capture-off';
    }
    if (c?.missing.length) {
      return 'partial';
    }
    return log.state.paused ? 'paused' : 'waiting';
  });
  const receiveOnly = () => tc()?.mode === 'receive-only';
  return (
    <Show when={info().shown === 0}>
      <div class="empty" role="status" data-state={state()}>
        <Switch>
          <Match when={state() === 'no-match'}>
            <p>
              <strong>No message matches the filters.</strong> {plural(info().total, 'record')} recorded
              {info().showForeign ? '' : `, ${plural(info().foreign, 'foreign message')} hidden`}.
            </p>
            <p>
              <Show
                when={!info().showForeign && info().foreign > 0 && info().foreign === info().total}
                fallback={
                  <button type="button" onClick={() => view.resetFilters()}>
                    Reset filters
                  </button>
                }
              >
                <button type="button" onClick={() => view.setFilters({ showForeign: true })}>
                  Show foreign traffic
                </button>
              </Show>
            </p>
          </Match>
          <Match when={state() === 'file'}>
            <p>
              <strong>This file has no messages.</strong>
            </p>
          </Match>
          <Match when={state() === 'detached'}>
            <p>
              <strong>No messages.</strong>
            </p>
          </Match>
          <Match when={state() === 'capture-off'}>
            <p>
              <strong>Nothing is recorded in this tab.</strong>
            </p>
            <p class="muted">Capture is off for its page: turn it on above; the page then reloads and is recorded.</p>
          </Match>
          <Match when={state() === 'partial'}>
            <p>
              <strong>Waiting for messages…</strong>
            </p>
            <p class="muted">
              Some of this tab's frames are not captured: capture them too (above) to see their messages from both
              sides.
            </p>
          </Match>
          <Match when={state() === 'paused'}>
            <p>
              <strong>Recording is paused.</strong>
            </p>
            <p>
              <button
                type="button"
                class="primary"
                onClick={() => store.command({ type: 'set-options', options: { paused: false } })}
              >
                Resume recording
              </button>
            </p>
          </Match>
          <Match when={state() === 'waiting'}>
            <p>
              <strong>Waiting for the first message…</strong>
            </p>
            <p class="muted">
              {receiveOnly()
                ? 'Receive-only: the message deliveries of this tab are recorded, not its postMessage calls.'
                : "Embed Inspector records this tab's window messages: the svc-embed events an embed sends and the actions the host posts."}{' '}
              Reload the page to record its session from the start.
            </p>
            <p>
              <button type="button" class="primary empty-reload" onClick={() => store.command({ type: 'reload' })}>
                Reload the page
              </button>
            </p>
          </Match>
        </Switch>
      </div>
    </Show>
  );
}
