/**
 * The first line of the panel: the integration's state in words ("healthy", "the embed never became ready", "the
 * host sends actions to the wrong origin", "the embed URL has 2 problems"), a link to the first record concerned,
 * and for a silent embed what its frame said and the likely causes. A host developer should know what to fix
 * within five seconds of opening the panel. Judged again at most every 300 ms while records come.
 */
import { createEffect, createSignal, on, onCleanup, Show } from 'solid-js';
import { integrationOf, type Integration as IntegrationInfo } from '../log/integration.ts';
import { usePanel } from './use-panel.ts';

const GOOD = new Set(['healthy', 'warnings']);

export function Integration() {
  const { store, sig } = usePanel();
  const [info, setInfo] = createSignal<IntegrationInfo>(integrationOf(store.log));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const judge = () => {
    timer = undefined;
    setInfo(integrationOf(store.log));
  };
  createEffect(
    on([sig.state, sig.appended], () => {
      timer ??= setTimeout(judge, 300);
    }),
  );
  // "waiting" turns into what the background says once the limit passes; the time shown moves on meanwhile.
  const tick = setInterval(() => {
    if (info().state === 'waiting') {
      judge();
    }
  }, 1000);
  onCleanup(() => {
    clearTimeout(timer);
    clearInterval(tick);
  });
  const state = () => info().state;
  return (
    <div
      // (one class string: Solid's class and classList on one element overwrite each other)
      class={`integration i-${state()} ${GOOD.has(state()) ? 'good' : state() === 'waiting' ? '' : 'bad'}`}
      role="status"
      aria-live="polite"
      data-testid="integration"
      data-state={state()}
    >
      <span class="i-label">Integration:</span> <strong class="i-text">{info().text}</strong>
      <Show when={info().seq}>
        {(seq) => (
          <button
            class="link i-jump"
            onClick={() => store.timeline.select(seq())}
            title="Select the first record concerned"
          >
            #{seq()}
          </button>
        )}
      </Show>
      <Show when={info().detail}>
        {(d) => (
          <p class="i-detail" data-testid="integration-detail">
            {d()}
          </p>
        )}
      </Show>
      <Show when={info().notes.length}>
        <span class="i-notes muted">{info().notes.join(' · ')}</span>
      </Show>
    </div>
  );
}
