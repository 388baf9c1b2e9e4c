/**
 * The first line of the panel: the integration's state in words ("healthy", "the embed never became ready", "the
 * host sends actions to the wrong origin", "the embed URL has 2 problems"), a link to the first record concerned,
 * and for a silent embed what its frame said and the likely causes. A host developer should know what to fix
 * within five seconds of opening the panel. Judged again at most every 300 ms while records come, and once a new log
 * is in (a snapshot, a file opened: at the end of the task that loaded it, before the next frame), however many
 * changes that load made: a verdict is never shown for records no longer there, and a load pays for one judgement.
 * A large load (a snapshot or file of 10,000 records or more) shows its rows first: the line says it is judging
 * until the panel is idle after that frame (the judgement then reads the page's records once: record-log.ts).
 * With nothing to judge (no tab attached and no file open yet, as `embed-inspector view` starts) it says so, never
 * "no embed".
 */
import { createEffect, createSignal, on, onCleanup, Show } from 'solid-js';
import { integrationOf, type Integration as IntegrationInfo } from '../log/integration.ts';
import { tabCapture } from './capture-scope.ts';
import type { PanelTransport } from '../link/transports.ts';
import { usePanel } from './use-panel.ts';
import { verdictOfState, type ShownState } from './integration-verdict.ts';

/** A new log of this many records or more paints its rows first and is judged when the panel is next idle. */
const JUDGE_AFTER_PAINT = 10_000;

/** `fn` once the panel is idle after this task's frame (at most 300 ms later: an idle callback may wait). */
function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(fn, { timeout: 300 });
  } else {
    setTimeout(fn, 50);
  }
}

/**
 * The line's judgement of the log and whether it is one (an empty log's "no embed" is not, nor a log still loading):
 * judged again at most every 300 ms as records come, once a new log is in, and each second while "waiting".
 */
function createJudgement(): { info: () => IntegrationInfo; judged: () => boolean } {
  const { store, sig, select } = usePanel();
  const [info, setInfo] = createSignal<IntegrationInfo>(integrationOf(store.log));
  // A judgement is of one log, as its source gave it (a generation of the log, and the transport shown then). The line
  // says it is judging until the source shown has given its log and that log is judged: never the judgement of the
  // log before it (another file's), nor of the empty log a panel starts with (its snapshot still to come: "no embed"
  // would be false), nor of the source before this one (a file opened is attached, and its status told, before its
  // records are in).
  type Of = { generation: number; source: PanelTransport | null };
  const now = (): Of => ({ generation: store.log.generation, source: store.transportInfo });
  const [loaded, setLoaded] = createSignal<Of | null>(store.log.generation > 0 ? now() : null);
  const [judgedOf, setJudgedOf] = createSignal<Of | null>(store.log.count > 0 ? now() : null);
  const source = select(['state', 'status'], (s) => s.transportInfo);
  const judged = () => {
    const of = judgedOf();
    const shown = source();
    // (`loaded` changes with each new log: read here, it re-reads the line when one comes)
    return loaded()?.source === shown && of?.source === shown && of.generation === store.log.generation;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let queued = false;
  const judge = () => {
    clearTimeout(timer);
    timer = undefined;
    queued = false;
    setInfo(integrationOf(store.log));
    setJudgedOf(now());
  };
  createEffect(
    on([sig.state, sig.appended], () => {
      timer ??= setTimeout(judge, 300);
    }),
  );
  // A new log (snapshot, file, clear): judged when the task that loads it ends. The log's own rewrites (a trim at its
  // bound, a reorder) come with live records, at most every 300 ms like them.
  const offRecords = store.onChange((c) => {
    if (!c.records) {
      return;
    }
    if (store.log.generation === loaded()?.generation) {
      timer ??= setTimeout(judge, 300);
    } else {
      setLoaded(now()); // (the old log's verdict is not this one's: judging until judged)
      if (!queued) {
        queued = true;
        if (store.log.count < JUDGE_AFTER_PAINT) {
          queueMicrotask(() => queued && judge());
        } else {
          whenIdle(() => queued && judge());
        }
      }
    }
  });
  // "waiting" turns into what the background says once the limit passes; the time shown moves on meanwhile.
  const tick = setInterval(() => {
    if (info().state === 'waiting') {
      judge();
    }
  }, 1000);
  onCleanup(() => {
    offRecords();
    clearTimeout(timer);
    clearInterval(tick);
  });
  return { info, judged };
}

export function Integration(p: { onOpen?: () => void } = {}) {
  const { store, select } = usePanel();
  const { info, judged } = createJudgement();
  // With capture off for the tab nothing was recorded, so nothing can be judged: say that, not "no embed".
  const off = select(['capture', 'status'], (s) => !!s.transportInfo?.live && tabCapture(s)?.off === true);
  // Neither a tab nor a file: a page without records is not a page without an embed.
  const detached = select(['state', 'status'], (s) => {
    const t = s.transportInfo;
    return !t?.live && t?.kind !== 'file' && s.log.count === 0;
  });
  // Cleared during this page: its first records (the embed's address, its ready) are gone, so the page is not judged
  // from its tail ("no embed" of an empty log would be false) until the next page begins.
  const cleared = select('state', (s) => s.log.clearedOnPage);
  // A capture file: no record will follow, so an embed still "waiting" never said ready (as `check` fails it).
  const ended = select('status', (s) => s.transportInfo?.kind === 'file');
  const notJudged = (text: string): IntegrationInfo => ({
    ...info(),
    state: 'waiting',
    text,
    seq: null,
    detail: null,
    notes: [],
  });
  const shown = (): IntegrationInfo =>
    off()
      ? notJudged('not judged: capture is off for this tab')
      : detached()
        ? notJudged('not judged: no tab attached and no file open')
        : cleared()
          ? notJudged('not judged: the log was cleared during this page (reload to judge it)')
          : !judged()
            ? notJudged('judging…')
            : ended() && info().state === 'waiting'
              ? { ...info(), text: 'the embed never said ready before the file ends' }
              : info();
  const state = (): ShownState =>
    off() ? 'capture-off' : detached() ? 'detached' : cleared() ? 'cleared' : judged() ? info().state : 'judging';
  const verdict = () => verdictOfState(state(), ended());
  return (
    <div
      // (one class string: Solid's class and classList on one element overwrite each other)
      class={`integration i-${state()} ${verdict() === 'none' ? '' : verdict()}`}
      role="status"
      aria-live="polite"
      data-testid="integration"
      data-state={state()}
    >
      <span class="i-label">Integration:</span> <strong class="i-text">{shown().text}</strong>
      <Show when={shown().seq}>
        {(seq) => (
          <button
            type="button"
            class="link i-jump"
            onClick={() => {
              store.timeline.select(seq());
              p.onOpen?.();
            }}
            title="Show the first record concerned: select it and open its details"
          >
            #{seq()}
          </button>
        )}
      </Show>
      <Show when={shown().detail}>
        {(d) => (
          <p class="i-detail" data-testid="integration-detail">
            {d()}
          </p>
        )}
      </Show>
      <Show when={shown().notes.length}>
        <span class="i-notes muted">{shown().notes.join(' · ')}</span>
      </Show>
    </div>
  );
}
