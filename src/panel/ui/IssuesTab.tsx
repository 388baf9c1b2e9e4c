/** The Issues tab of the detail pane: each issue's rule id, severity, what is wrong and the spec sentence it enforces. */
import { For, Show } from 'solid-js';
import { ruleSpec } from '../base/protocol.ts';
import type { DetailContext } from './detail-context.ts';
import { usePanel } from './use-panel.ts';

export function IssuesTab(p: { ctx: DetailContext }) {
  const { store } = usePanel();
  const r = () => p.ctx.record;
  return (
    <div class="issues-tab">
      <Show
        when={r().issues.length > 0}
        fallback={
          <p class="muted">
            {r().navigation
              ? 'A frame navigation: nothing to validate.'
              : r().verdict === 'foreign'
                ? 'Not svc-embed traffic: its data has no `source: "svc-embed"`, so no protocol rule applies.'
                : 'No issues: this message follows the protocol.'}
          </p>
        }
      >
        <ul class="issues" aria-label="Issues">
          <For each={r().issues}>
            {(i) => {
              const spec = ruleSpec(i.rule);
              return (
                <li class={`issue s-${i.severity}`} classList={{ sender: !!i.sender }}>
                  <div class="issue-head">
                    <span class={`sev s-${i.severity}`}>{i.severity}</span>
                    <code class="rule">{i.rule}</code>
                    <Show when={i.sender}>
                      <span
                        class="sender-tag"
                        title="An issue of the post this delivery came from: the sender's to fix"
                      >
                        sender's
                      </span>
                      <Show when={r().pairedWith !== undefined}>
                        <button class="link sender-link" onClick={() => store.timeline.select(r().pairedWith!)}>
                          post #{r().pairedWith}
                        </button>
                      </Show>
                    </Show>
                    <Show when={i.path}>
                      <code class="path muted">{i.path}</code>
                    </Show>
                  </div>
                  <p class="issue-msg">{i.message}</p>
                  <Show when={spec}>
                    {(s) => (
                      <>
                        <blockquote class="spec" title="The spec sentence this rule enforces">
                          {s().spec}
                        </blockquote>
                        <Show when={s().note}>
                          <p class="muted small">{s().note}</p>
                        </Show>
                      </>
                    )}
                  </Show>
                </li>
              );
            }}
          </For>
        </ul>
      </Show>
    </div>
  );
}
