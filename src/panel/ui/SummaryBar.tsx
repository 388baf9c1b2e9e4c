/**
 * The summary bar: recording controls (pause/resume, clear, preserve log, receive-only), the tenant origin
 * (editable), session facts (time to ready, dashboard-loaded), counts by verdict and the dropped count.
 * `actions` is a slot for further toolbar buttons (import/export, composer: issue 6). One row: what does not fit
 * goes into the overflow menu (Toolbar.tsx): the counts first, then the session facts, the options, the tenant
 * origin, the act buttons; the recording controls and Settings last.
 */
import { createEffect, Show, type JSX } from 'solid-js';
import { formatDuration, plural } from './format.ts';
import { Limits } from './Limits.tsx';
import { setTabMode, tabCapture } from './capture-scope.ts';
import { sessionFacts } from '../log/related.ts';
import { TenantOrigin } from './TenantOrigin.tsx';
import { usePanel } from './use-panel.ts';
import { Icon } from './icons.tsx';
import { Toolbar, type ToolbarItem } from './Toolbar.tsx';

export function SummaryBar(p: {
  actions?: () => JSX.Element;
  /** Whether the panel can ever show a live tab (false: the offline viewer, files only): the recording controls
   * (record, Preserve log, Receive only) are shown only then. */
  liveControls?: boolean;
}) {
  const { store, select } = usePanel();
  const st = select('state', (s) => s.log.state);
  const live = select('status', (s) => s.transportInfo?.live ?? false);
  // Capture is on unless the background said it is off for this tab's page (before it says, the log is live).
  const capturing = select('capture', (s) => live() && tabCapture(s)?.off !== true);
  const all: ToolbarItem[] = [
    {
      id: 'record',
      priority: 0,
      render: () => (
        <button
          type="button"
          class={`tool rec ${!capturing() ? 'off' : st().paused ? 'paused' : 'on'}`}
          aria-pressed={capturing() && !st().paused}
          disabled={!capturing()}
          title={
            !live()
              ? 'Nothing is recorded: this is not a live tab'
              : !capturing()
                ? 'Nothing is recorded: capture is off for this tab (turn it on above the list)'
                : st().paused
                  ? 'Resume recording'
                  : 'Pause recording (the page keeps running; nothing is captured meanwhile)'
          }
          onClick={() => store.command({ type: 'set-options', options: { paused: !store.log.state.paused } })}
        >
          <Icon name="dot" class="dot" />
          {!capturing() ? 'Not recording' : st().paused ? 'Resume' : 'Recording'}
        </button>
      ),
    },
    {
      id: 'clear',
      priority: 0,
      render: () => (
        <button type="button" class="tool t-clear" title="Clear the log" onClick={() => store.clearLog()}>
          <Icon name="clear" />
          <span class="tb-text">Clear</span>
        </button>
      ),
    },
    {
      id: 'preserve',
      priority: 3,
      render: () => (
        <label class="check" title="Keep the log when the page navigates or reloads">
          <input
            type="checkbox"
            checked={st().preserveLog}
            disabled={!live()}
            onChange={(e) => store.command({ type: 'set-options', options: { preserveLog: e.currentTarget.checked } })}
          />{' '}
          Preserve log
        </label>
      ),
    },
    { id: 'receive-only', priority: 3, render: () => <ReceiveOnly live={live} /> },
    { id: 'settings', priority: 0, render: () => <Limits disabled={() => !live()} /> },
    { id: 'tenant', priority: 2, render: () => <TenantOrigin /> },
    { id: 'facts', priority: 4, render: () => <SessionFacts /> },
    ...(p.actions ? [{ id: 'actions', priority: 1, push: true, render: p.actions }] : []),
    { id: 'counts', priority: 5, push: !p.actions, render: () => <Counts /> },
  ];
  const LIVE_ONLY = new Set(['record', 'preserve', 'receive-only']);
  const items = p.liveControls === false ? all.filter((it) => !LIVE_ONLY.has(it.id)) : all;
  return <Toolbar label={p.liveControls === false ? 'Log' : 'Recording'} class="summary" items={items} />;
}

/**
 * The mode of the tab's captured sites: receive-only records deliveries only, with no hook in the page. Mixed
 * (indeterminate) when the tab's captured sites have different modes.
 */
function ReceiveOnly(p: { live: () => boolean }) {
  const { store, select } = usePanel();
  const tc = select('capture', tabCapture);
  const modes = () => new Set(tc()?.captured.map((s) => s.mode) ?? []);
  const mixed = () => modes().size > 1;
  return (
    <label
      class="check receive-only"
      title={
        tc()?.off !== false
          ? 'Receive only: capture is off for this tab (turn it on first)'
          : `${mixed() ? "Mixed: some of this tab's sites are receive-only, some full. " : ''}Record only message deliveries, not postMessage calls: no hook on the page's windows. Sets the mode of this tab's sites (${tc()!
              .captured.map((s) => `${s.origin}: ${s.mode}`)
              .join(', ')}); it takes effect when the page reloads.`
      }
    >
      <input
        type="checkbox"
        checked={!mixed() && modes().has('receive-only')}
        ref={(el) => createEffect(() => (el.indeterminate = mixed()))}
        aria-checked={mixed() ? 'mixed' : undefined}
        disabled={!p.live() || tc()?.off !== false}
        onChange={(e) => {
          void setTabMode(store, e.currentTarget.checked ? 'receive-only' : 'full');
        }}
      />{' '}
      Receive only <span class="muted">(on reload)</span>
    </label>
  );
}

function SessionFacts() {
  const { store, select } = usePanel();
  const facts = select('state', (s) => sessionFacts(s.log));
  const beforeClear = select('state', (s) => !!s.log.state.readyBeforeClear);
  const jump = (seq: number | null) => {
    if (seq !== null) {
      store.timeline.select(seq);
    }
  };
  return (
    <span class="facts">
      <Show
        when={facts().readySeq !== null}
        fallback={
          <Show
            when={beforeClear()}
            fallback={
              <Show
                when={facts().startFailure}
                fallback={
                  <span
                    class="fact missing"
                    title="No svc:event:ready seen yet: the embed has not reported that it authenticated and mounted"
                  >
                    ready: not seen
                  </span>
                }
              >
                {(f) => (
                  <button
                    type="button"
                    class="fact link failed"
                    onClick={() => jump(f().seq)}
                    title="The embed posted a fatal svc:event:error before svc:event:ready: it could not start (not an ordering fault of the host)"
                  >
                    {f().message}
                  </button>
                )}
              </Show>
            }
          >
            <span class="fact" title="svc:event:ready came before Clear: its record is gone, the embed session goes on">
              ready: before Clear
            </span>
          </Show>
        }
      >
        <button
          type="button"
          class="fact link"
          onClick={() => jump(facts().readySeq)}
          title={`Time from the ${facts().readyFrom} to svc:event:ready`}
        >
          ready in <strong>{formatDuration(facts().timeToReady ?? 0)}</strong>
        </button>
      </Show>
      <Show when={facts().loaded}>
        {(l) => (
          <button
            type="button"
            class="fact link"
            onClick={() => jump(l().seq)}
            title="svc:event:dashboard-loaded: loadDurationMs as the embed reported it"
          >
            dashboard-loaded{' '}
            <strong>{l().loadDurationMs === null ? 'no loadDurationMs' : formatDuration(l().loadDurationMs!)}</strong>
            <Show when={l().widgetCount !== null}> · {plural(l().widgetCount!, 'widget')}</Show>
          </button>
        )}
      </Show>
    </span>
  );
}

function Counts() {
  const { select } = usePanel();
  const c = select('state', (s) => ({ ...s.log.counts, dropped: s.log.state.dropped, total: s.log.count }));
  /** What the bound let go, by kind (only the kinds that went). */
  const kinds = select('state', (s) => {
    const by = s.log.state.droppedBy;
    if (!by) {
      return '';
    }
    const parts: Array<[number, string]> = [
      [by.foreign, 'foreign'],
      [by.repeats, 'valid repeats'],
      [by.other, 'other'],
      [by.issues, 'with issues'],
    ];
    return parts
      .filter(([n]) => n > 0)
      .map(([n, what]) => `${n.toLocaleString('en-US')} ${what}`)
      .join(', ');
  });
  return (
    <span class="counts" role="group" aria-label="Counts">
      <span
        class="cnt v-valid"
        title="svc-embed messages that follow the protocol (a post and its delivery count once)"
      >
        {c().valid.toLocaleString('en-US')} valid
      </span>
      <span
        class="cnt v-invalid"
        title="svc-embed messages with at least one error (a post and its delivery count once)"
      >
        {c().invalid.toLocaleString('en-US')} invalid
      </span>
      <span class="cnt v-foreign" title="Other window messages (not svc-embed)">
        {c().foreign.toLocaleString('en-US')} foreign
      </span>
      <span
        class={`cnt dropped${c().dropped ? ' warn' : ''}`}
        title="Records discarded by the log's size bound since it started: foreign traffic first, then valid repeats of a type from the same frame, then the oldest others; records with an error or a warning and each session's ready go last"
      >
        {c().dropped.toLocaleString('en-US')} dropped
        <Show when={kinds()}>
          <span class="dropped-kinds"> ({kinds()})</span>
        </Show>
      </span>
    </span>
  );
}
