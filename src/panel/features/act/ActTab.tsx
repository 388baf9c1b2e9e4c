/**
 * The detail pane's "Replay & code" tab: re-send the selected action as captured or edit it first (an event:
 * simulate it again), and copy as code (the host's sending code for an action, a listener for an event).
 */
import { createEffect, createSignal, on, Show } from 'solid-js';
import type { DetailContext } from '../../ui/detail-context.ts';
import { codeFor, TENANT_PLACEHOLDER as PLACEHOLDER } from './row-actions.ts';
import { draftFromMessage } from './draft.ts';
import { copyToClipboard } from '../../ui/clipboard.ts';
import { useAct } from './act-controller.ts';
import { recreateOf } from './recreate.ts';
import '../../ui/grid.css';

export function ActTab(p: { ctx: DetailContext }) {
  const act = useAct();
  const r = () => p.ctx.record;
  const direction = () => {
    const d = r().data as { direction?: unknown } | null;
    return !r().navigation && r().verdict !== 'foreign' && d && typeof d === 'object' ? d.direction : undefined;
  };
  const type = () => (r().data as { type?: unknown }).type;
  const tenant = () => act.target().tenantOrigin ?? act.store.log.state.tenantOrigin;
  const again = () => recreateOf(r(), { tenantOrigin: tenant(), hostOrigin: act.target().hostOrigin });
  const code = () => codeFor(r(), tenant()) ?? '';
  const [note, setNote] = createSignal('');
  // what was said of a send or a copy belongs to its record and session
  createEffect(
    on(
      () => [act.session(), r()],
      () => setNote(''),
      { defer: true },
    ),
  );
  const resend = async () => {
    setNote('Sending…');
    const side = direction() === 'event' ? 'event' : 'action';
    const res = await act.send(side, r().data);
    setNote(
      res.ok
        ? side === 'action'
          ? 'Re-sent as captured: see the new injected post on the timeline.'
          : 'Emitted again from the embed frame.'
        : `Not sent: ${res.error}`,
    );
  };
  const copy = () =>
    copyToClipboard(code()).then((ok) => setNote(ok ? 'Code copied' : 'Copy failed: select the code and copy it'));

  return (
    <div class="act-tab">
      <Show
        when={direction() === 'action' || direction() === 'event'}
        fallback={
          <p class="muted">
            {r().navigation
              ? 'A frame navigation: nothing to replay.'
              : 'Not an svc-embed action or event: nothing to replay or generate.'}
          </p>
        }
      >
        <div class="act-row">
          <Show when={again() && !again()!.thirdOrigin}>
            <button
              type="button"
              class="primary a-resend"
              disabled={!!act.target().blocked}
              onClick={() => void resend()}
              title={act.target().blocked ?? undefined}
            >
              {again()!.label}
            </button>
          </Show>
          <button type="button" class="a-edit" onClick={() => act.openComposer(draftFromMessage(r().data))}>
            ✎ Edit in composer
          </button>
          <Show when={note()}>
            <span class="muted a-note" role="status">
              {note()}
            </span>
          </Show>
        </div>
        <Show when={again()?.thirdOrigin}>{(why) => <p class="muted small a-third-origin">{why()}</p>}</Show>
        <Show when={act.target().blocked && !again()?.thirdOrigin}>
          <p class="warn small">{act.target().blocked}</p>
        </Show>
        <h3 class="act-h">
          {direction() === 'action'
            ? 'Copy as code: send this action from the host page'
            : `Copy as code: a host listener for ${String(type())}`}
        </h3>
        <Show when={!tenant()}>
          <p class="warn small">The tenant origin is unknown: replace {PLACEHOLDER} with yours.</p>
        </Show>
        <div class="code-box">
          <button type="button" class="link a-copy" onClick={() => void copy()}>
            Copy code
          </button>
          <pre class="code" tabindex="0" role="region" aria-label="Generated code">
            {code()}
          </pre>
        </div>
      </Show>
    </div>
  );
}
