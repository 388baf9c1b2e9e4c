/**
 * Where a composed message goes (the embed frame, the target origin), its live verdict with rule ids, the
 * send button with the confirmation for invalid messages, and the outcome.
 */
import { createEffect, createSignal, For, on, onCleanup, Show } from 'solid-js';
import type { Issue } from '../../log/protocol.ts';
import type { Side } from './draft.ts';
import { frameLabel } from '../../ui/format.ts';
import { useAct } from './act-controller.ts';

export interface SendBarProps {
  side: Side;
  buildErrors: string[];
  check: { verdict: string; issues: Issue[] } | null;
  /** The message to send (built when sending: fresh timestamp). */
  message(): unknown;
  /** Changes of the draft reset the confirmation. */
  watch(): unknown;
}

/** What the composer says of a send. */
const outcomeOf = (side: Side, r: { ok: boolean; error?: string }) =>
  r.ok
    ? {
        ok: true,
        text:
          side === 'action'
            ? 'Sent: the injected post and its delivery appear on the timeline (marked inj).'
            : 'Emitted from the embed frame: it appears on the timeline (marked inj).',
      }
    : { ok: false, text: `Not sent: ${r.error ?? 'unknown error'}` };

export function SendBar(p: SendBarProps) {
  const act = useAct();
  const [confirming, setConfirming] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  // what was said of the last send is the controller's: it belongs to the session it was made in
  const outcome = act.outcome,
    setOutcome = act.setOutcome;
  createEffect(
    on(
      () => [p.watch(), act.session()],
      () => setConfirming(false),
      { defer: true },
    ),
  );
  const t = () => act.target();
  const errors = () => p.check?.issues.filter((i) => i.severity === 'error') ?? [];
  const invalid = () => !!p.check && p.check.verdict !== 'valid';
  const canSend = () =>
    !t().blocked && !busy() && p.buildErrors.length === 0 && !(p.side === 'event' && !t().hostOrigin);
  let confirmBtn: HTMLButtonElement | undefined;

  const send = async (force = false) => {
    if (!canSend()) {
      return;
    }
    if (invalid() && !force) {
      setConfirming(true);
      queueMicrotask(() => confirmBtn?.focus());
      return;
    }
    setConfirming(false);
    setBusy(true);
    setOutcome(null);
    const r = await act.send(p.side, p.message());
    setBusy(false);
    setOutcome(outcomeOf(p.side, r));
  };
  // Ctrl/Cmd+Enter anywhere in the composer
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && (e.target as Element | null)?.closest?.('.composer')) {
      e.preventDefault();
      void send();
    }
  };
  document.addEventListener('keydown', onKey);
  onCleanup(() => document.removeEventListener('keydown', onKey));

  const frames = () => t().embedFrames;
  return (
    <div class="sendbar">
      <div class="cm-target">
        <Show
          when={!t().blocked}
          fallback={
            <p class="warn cm-blocked" role="status">
              {t().blocked}
            </p>
          }
        >
          <span class="muted">{p.side === 'action' ? 'To' : 'From'} embed frame</span>
          <select
            class="cm-frame"
            aria-label="Embed frame"
            value={act.frameChoice()}
            onChange={(e) => act.setFrameChoice(e.currentTarget.value)}
          >
            <option value="">
              {frames().length
                ? `most recent: ${frameLabel(frames()[0].url)}`
                : 'any frame of the tenant origin (none seen yet)'}
            </option>
            <For each={frames()}>
              {(f) => (
                <option value={f.url} title={f.url}>
                  {frameLabel(f.url)}
                </option>
              )}
            </For>
          </select>
          <span class="muted">target origin</span>
          <code class="cm-origin">
            {p.side === 'action' ? t().tenantOrigin : (t().hostOrigin ?? 'unknown (no page URL yet)')}
          </code>
        </Show>
      </div>
      <div class="cm-verdict" aria-live="polite">
        <Show
          when={p.buildErrors.length === 0}
          fallback={<span class="error-text">Cannot build the message: {p.buildErrors.join('; ')}</span>}
        >
          <Show when={p.check}>
            {(c) => (
              <Show when={c().issues.length} fallback={<span class="badge b-valid">valid</span>}>
                <span class={`badge b-${c().verdict}`}>{c().verdict}</span>
                <ul class="cm-issues" aria-label="Issues">
                  <For each={c().issues}>
                    {(i) => (
                      <li class={`s-${i.severity}`}>
                        <span class={`sev s-${i.severity}`}>{i.severity}</span> <code class="rule">{i.rule}</code>{' '}
                        <span class="muted">{i.path}</span> {i.message}
                      </li>
                    )}
                  </For>
                </ul>
              </Show>
            )}
          </Show>
        </Show>
      </div>
      <Show when={confirming()}>
        <div class="cm-confirm" role="alertdialog" aria-labelledby="c-confirm-text">
          <p id="c-confirm-text">
            <strong>This {p.side} is invalid</strong>
            {errors().length
              ? ` (${errors()
                  .map((i) => i.rule)
                  .join(', ')})`
              : ` (${p.check?.verdict})`}
            : a receiver that follows the spec may ignore or mishandle it. Send it anyway?
          </p>
          <button type="button" class="danger cm-send-anyway" ref={confirmBtn} onClick={() => void send(true)}>
            Send anyway
          </button>
          <button type="button" class="cm-cancel" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      </Show>
      <div class="cm-actions">
        <button
          type="button"
          class="primary cm-send"
          disabled={!canSend()}
          onClick={() => void send()}
          title="Ctrl/Cmd+Enter"
        >
          {busy() ? 'Sending…' : p.side === 'action' ? 'Send action' : 'Emit event'}
        </button>
        <Show when={outcome()}>
          {(o) => (
            <span class={`cm-outcome ${o().ok ? 'ok' : 'error-text'}`} role="status">
              {o().text}
            </span>
          )}
        </Show>
      </div>
    </div>
  );
}
