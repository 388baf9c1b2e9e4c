/**
 * Replay: the actions (and, on request, the events) of the current view, the whole log or from the selected
 * record on, re-sent in order to the current embed frame: original timing, faster, or step by step.
 * Works on an imported file too (the sends go to the live tab).
 */
import { createMemo, createSignal, For, onCleanup, Show } from 'solid-js';
import { Replayer, stepsFrom, type ReplayState } from './replay.ts';
import { replayData, replayItems, type ReplayItem } from './replay-items.ts';
import type { ClassifiedRecord } from '../../../shared/messages.ts';
import { shortType } from '../../log/protocol.ts';
import { formatDuration } from '../../ui/format.ts';
import { useAct } from './act-controller.ts';

type Scope = 'view' | 'all' | 'from-selected';
const SPEEDS = [1, 2, 4, 10] as const;

/**
 * A replay's run: its state, what it sent (`log`), the items it was started with (`running_`), and its controls.
 * A run starts on Play or Step with the items of the moment; `reset` forgets it (the options changed).
 */
function createReplayRun(o: {
  items: () => ReplayItem[];
  send: (side: ReplayItem['side'], data: unknown) => Promise<{ ok: boolean; error?: string }>;
  fresh: () => boolean;
  speed: () => number;
}) {
  const { items, fresh, speed } = o;
  const [state, setState] = createSignal<ReplayState | null>(null);
  const [log, setLog] = createSignal<Array<{ item: ReplayItem; ok: boolean; error?: string; at: number }>>([]);
  let replayer: Replayer<ReplayItem> | null = null;
  /** The items of the running replay (fixed when it starts; the view may grow meanwhile). */
  const [running_, setRunning] = createSignal<ReplayItem[]>([]);
  let startedAt = 0;

  const reset = () => {
    replayer?.pause();
    replayer = null;
    setState(null);
    setLog([]);
  };
  onCleanup(() => replayer?.pause());

  const ensure = () => {
    if (replayer && !replayer.state.done) {
      return replayer;
    }
    const list = items();
    setRunning(list);
    setLog([]);
    startedAt = performance.now();
    replayer = new Replayer(
      stepsFrom(list),
      async (item) => {
        const r = await o.send(item.side, replayData(item, fresh()));
        setLog((l) => [...l, { item, ok: r.ok, error: r.error, at: performance.now() - startedAt }]);
      },
      { speed: speed(), onChange: setState },
    );
    setState(replayer.state);
    return replayer;
  };
  const play = () => ensure().play();
  const step = () => {
    const r = ensure();
    r.pause();
    void r.step();
  };
  const pause = () => replayer?.pause();
  const stop = () => {
    replayer?.stop();
    replayer = null;
    setState(null);
  };

  const running = () => !!state() && !state()!.done;
  const next = () => {
    const s = state();
    const list = running_();
    return s && !s.done ? list[s.index] : undefined;
  };

  return { state, log, running_, reset, play, step, pause, stop, running, next };
}

export function ReplayPanel(p: { version: () => number }) {
  const act = useAct(),
    store = act.store;
  const [scope, setScope] = createSignal<Scope>('view');
  const [withEvents, setWithEvents] = createSignal(false);
  const [fresh, setFresh] = createSignal(true);
  const [speed, setSpeed] = createSignal<number>(1);
  const records = (s: Scope): readonly ClassifiedRecord[] => {
    const { log, timeline } = store;
    if (s === 'all') {
      return log.all();
    }
    if (s === 'view') {
      return timeline.order.map((i) => log.at(i));
    }
    const i = timeline.selectedSeq === null ? -1 : log.indexOfSeq(timeline.selectedSeq);
    return i < 0 ? [] : log.all().slice(i);
  };
  const items = createMemo(() => {
    p.version();
    return replayItems(records(scope()), { includeEvents: withEvents() });
  });
  const run = createReplayRun({ items, send: act.send, fresh, speed });
  const { state, log, running_, reset, play, step, pause, stop, running, next } = run;
  const blocked = () => act.target().blocked;

  return (
    <section class="replay" aria-label="Replay">
      <div class="act-row">
        <label class="inline">
          Replay
          <select
            class="r-scope"
            value={scope()}
            disabled={running()}
            onChange={(e) => {
              setScope(e.currentTarget.value as Scope);
              reset();
            }}
          >
            <option value="view">the current view (filters applied)</option>
            <option value="all">the whole log</option>
            <option value="from-selected">from the selected record on</option>
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            class="r-events"
            checked={withEvents()}
            disabled={running()}
            onChange={(e) => {
              setWithEvents(e.currentTarget.checked);
              reset();
            }}
          />{' '}
          also events (simulated from the embed frame)
        </label>
        <label class="check" title="Give each message the time of its sending as envelope timestamp">
          <input
            type="checkbox"
            class="r-fresh"
            checked={fresh()}
            onChange={(e) => setFresh(e.currentTarget.checked)}
          />{' '}
          fresh timestamps
        </label>
        <label class="inline">
          Timing
          <select
            class="r-speed"
            value={String(speed())}
            disabled={running()}
            onChange={(e) => {
              setSpeed(Number(e.currentTarget.value));
              reset();
            }}
          >
            <For each={SPEEDS}>
              {(s) => <option value={String(s)}>{s === 1 ? 'original timing' : `${s}× faster`}</option>}
            </For>
          </select>
        </label>
      </div>
      <p class="muted small">
        {items().length} message{items().length === 1 ? '' : 's'} to replay
        {items().length
          ? `: ${items()
              .slice(0, 6)
              .map((i) => shortType(i.type))
              .join(', ')}${items().length > 6 ? '…' : ''}`
          : ' (select a scope with actions in it)'}
        . Sent to the current embed frame of the live tab, in capture order.
      </p>
      <Show when={blocked()}>
        <p class="warn" role="status">
          {blocked()}
        </p>
      </Show>
      <div class="act-row r-controls" role="toolbar" aria-label="Replay controls">
        <button
          type="button"
          class="primary r-play"
          disabled={!!blocked() || !items().length || !!state()?.playing}
          onClick={play}
        >
          ▶ Play
        </button>
        <button type="button" class="r-pause" disabled={!state()?.playing} onClick={pause}>
          ❚❚ Pause
        </button>
        <button
          type="button"
          class="r-step"
          disabled={!!blocked() || !items().length || !!state()?.playing}
          onClick={step}
          title="Send the next message now"
        >
          Step ›
        </button>
        <button type="button" class="r-stop" disabled={!state()} onClick={stop}>
          ■ Stop
        </button>
        <span class="r-progress" role="status" aria-live="polite">
          <Show when={state()} fallback={<span class="muted">ready</span>}>
            {(s) => (
              <>
                {s().index} / {s().total} sent{s().done ? ' — done' : s().playing ? ' — playing' : ' — paused'}
                <Show when={next()}>
                  {(n) => (
                    <span class="muted">
                      {' '}
                      · next: {shortType(n().type)} (#{n().seq}
                      {s().index > 0
                        ? `, ${formatDuration((n().time - running_()[s().index - 1].time) / speed())} after the previous`
                        : ''}
                      )
                    </span>
                  )}
                </Show>
              </>
            )}
          </Show>
        </span>
      </div>
      <ol class="r-log" aria-label="Replayed messages">
        <For each={log()}>
          {(l) => (
            <li class={l.ok ? '' : 'error-text'}>
              <span class="mono">+{formatDuration(l.at)}</span> {shortType(l.item.type)}{' '}
              <span class="muted">(#{l.item.seq})</span>
              {l.ok ? ' sent' : ` not sent: ${l.error}`}
            </li>
          )}
        </For>
      </ol>
    </section>
  );
}
