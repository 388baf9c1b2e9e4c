/**
 * The Issues tab of the detail pane: each issue's rule id (a link to the rule's documentation: its row of
 * docs/rules.md, opened here), severity, what is wrong, the spec sentence it enforces, and where: its path is a
 * button that shows the field in the message's tree below, where every issue's field is marked.
 */
import { InlineCode } from './InlineCode.tsx';
import { createMemo, createSignal, For, Show } from 'solid-js';
import { RULES_DOC_PATH, ruleAnchor, ruleSpec } from '../log/protocol.ts';
import { JsonTree } from './JsonTree.tsx';
import { highlightOf } from './jsontree-model.ts';
import { AddressView, type AddressViewApi } from './AddressView.tsx';
import { navigationUrl } from './address-parts.ts';
import './grid.css';
import type { DetailContext } from './detail-context.ts';
import { usePanel } from './use-panel.ts';

export function IssuesTab(p: { ctx: DetailContext }) {
  const { store } = usePanel();
  const r = () => p.ctx.record;
  const marks = createMemo(() => r().issues.map((i) => highlightOf(r().data, i.path)));
  const [docOpen, setDocOpen] = createSignal<string | null>(null);
  let treeBox: HTMLDivElement | undefined;
  let address: AddressViewApi | undefined;
  const showField = (k: number) => {
    if (address?.focusIssue(k)) {
      return;
    }
    const el = treeBox?.querySelector<HTMLElement>(`[role="treeitem"][data-path="${CSS.escape(marks()[k].path)}"]`);
    el?.scrollIntoView({ block: 'nearest' });
    el?.focus();
  };
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
            {(i, k) => {
              const spec = ruleSpec(i.rule);
              return (
                <li class={`issue s-${i.severity}`} classList={{ sender: !!i.sender }}>
                  <div class="issue-head">
                    <span class={`sev s-${i.severity}`}>{i.severity}</span>
                    <a
                      class="rule rule-link"
                      href={`${RULES_DOC_PATH}#${ruleAnchor(i.rule)}`}
                      title={`The rule's documentation (${RULES_DOC_PATH})`}
                      aria-expanded={docOpen() === `${k()}`}
                      onClick={(e) => {
                        e.preventDefault();
                        setDocOpen(docOpen() === `${k()}` ? null : `${k()}`);
                      }}
                    >
                      {i.rule}
                    </a>
                    <Show when={i.sender}>
                      <span
                        class="sender-tag"
                        title="An issue of the post this delivery came from: the sender's to fix"
                      >
                        sender's
                      </span>
                      <Show when={r().pairedWith !== undefined}>
                        <button
                          type="button"
                          class="link sender-link"
                          onClick={() => store.timeline.select(r().pairedWith!)}
                        >
                          post #{r().pairedWith}
                        </button>
                      </Show>
                    </Show>
                    <Show when={i.path}>
                      <button
                        type="button"
                        class="link path"
                        title={`Show ${i.path} in the ${r().navigation ? 'address' : 'message'} below`}
                        onClick={() => showField(k())}
                      >
                        {i.path}
                      </button>
                    </Show>
                  </div>
                  <p class="issue-msg">{i.message}</p>
                  <Show when={docOpen() === `${k()}` && spec}>
                    {(s) => (
                      <div class="rule-doc" role="note" aria-label={`Rule ${i.rule}`}>
                        <div>
                          <strong>{i.rule}</strong> · {s().severity} · {s().group}
                        </div>
                        <div>
                          Checks: <InlineCode text={s().summary} />
                        </div>
                        <div class="muted small">
                          {RULES_DOC_PATH}#{ruleAnchor(i.rule)}
                        </div>
                      </div>
                    )}
                  </Show>
                  <Show when={spec}>
                    {(s) => (
                      <>
                        <blockquote class="spec" title="The spec sentence this rule enforces">
                          <InlineCode text={s().spec} />
                        </blockquote>
                        <Show when={s().note}>
                          {(note) => (
                            <p class="muted small">
                              <InlineCode text={note()} />
                            </p>
                          )}
                        </Show>
                      </>
                    )}
                  </Show>
                </li>
              );
            }}
          </For>
        </ul>
        <div class="issue-tree" ref={treeBox}>
          <Show
            when={navigationUrl(r())}
            fallback={
              <JsonTree value={r().data} label={`Message #${r().seq}, issue fields marked`} highlight={marks()} />
            }
          >
            {(url) => <AddressView url={url()} issues={r().issues} api={(a) => (address = a)} />}
          </Show>
        </div>
      </Show>
    </div>
  );
}
