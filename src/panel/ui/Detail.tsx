/**
 * The detail pane of the selected record, as tabs: Message (record facts + the envelope as a JSON tree),
 * Issues (rule id, what is wrong, the spec sentence), Related (post ↔ delivery, action ↔ following events),
 * Timing. More tabs plug in through `extraTabs` (the composer/replay of issue 6). A title line names the record
 * shown; the tabs stay on one line (icons alone where the pane is narrow). Layout decides its width, and makes it
 * an overlay over the list where the panel is narrow (then "List" goes back).
 */
import { createMemo, createSignal, For, Show } from 'solid-js';
import { JsonTree } from './JsonTree.tsx';
import { highlightOf } from './jsontree-model.ts';
import { copyToClipboard } from './clipboard.ts';
import { shortType } from '../log/protocol.ts';
import { formatBytes, formatClock, formatDuration, frameLabel, originLabel } from './format.ts';
import { Related } from './Related.tsx';
import { pageSession } from '../log/related.ts';
import { TimingTab } from './Timing.tsx';
import { IssuesTab } from './IssuesTab.tsx';
import { AddressView } from './AddressView.tsx';
import { navigationUrl } from './address-parts.ts';
import type { DetailContext, DetailTab } from './detail-context.ts';
import { usePanel } from './use-panel.ts';
import { Icon } from './icons.tsx';

export type { DetailContext, DetailTab } from './detail-context.ts';

export function Detail(p: { onClose: () => void; extraTabs?: DetailTab[] }) {
  const { store, select } = usePanel();
  const [tab, setTab] = createSignal('message');
  const [toast, setToast] = createSignal('');
  const ctx = createMemo<DetailContext | null>(
    select(['selection', 'state'], (s) => {
      const index = s.timeline.selectedIndex();
      return index < 0 ? null : { index, record: s.log.at(index) };
    }),
    null,
    { equals: (a, b) => a === b || (!!a && !!b && a.record === b.record && a.index === b.index) },
  );
  const notify = (msg: string) => {
    setToast(msg);
    setTimeout(() => setToast(''), 1500);
  };
  const tabs = (): DetailTab[] => [
    {
      id: 'message',
      label: () => 'Message',
      icon: 'message',
      render: (c) => <MessageTab ctx={c} notify={notify} openIssues={() => setTab('issues')} />,
    },
    {
      id: 'issues',
      label: (c) => `Issues${c.record.issues.length ? ` (${c.record.issues.length})` : ''}`,
      icon: 'issues',
      render: (c) => <IssuesTab ctx={c} />,
    },
    { id: 'related', label: () => 'Related', icon: 'related', render: (c) => <Related ctx={c} /> },
    { id: 'timing', label: () => 'Timing', icon: 'timing', render: (c) => <TimingTab ctx={c} /> },
    ...(p.extraTabs ?? []),
  ];
  /** What the pane shows, in words: "#12 ready · post by host.example.com". */
  const title = (c: DetailContext) => {
    const r = c.record;
    const type = store.log.metaAt(c.index).type;
    const what = type ? shortType(type) : r.navigation ? 'navigation' : 'foreign message';
    const how = r.navigation ? '' : ` · ${r.kind === 'post' ? 'post by' : 'received by'} ${frameLabel(r.frameUrl)}`;
    return `#${r.seq} ${what}${how}`;
  };
  const current = () => tabs().find((t) => t.id === tab()) ?? tabs()[0];
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') {
      return;
    }
    const list = tabs();
    const i = list.findIndex((t) => t.id === current().id);
    const next = list[(i + (e.key === 'ArrowRight' ? 1 : list.length - 1)) % list.length];
    setTab(next.id);
    (e.currentTarget as HTMLElement).querySelector<HTMLElement>(`#tab-${next.id}`)?.focus();
    e.preventDefault();
  };
  return (
    <section
      class="detail"
      aria-label="Message details"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          p.onClose();
          e.stopPropagation();
        }
      }}
    >
      <Show when={ctx()} fallback={<div class="empty muted">Select a message to see its details.</div>}>
        {(c) => (
          <>
            <header class="detail-head">
              <div class="detail-titlebar">
                <button
                  type="button"
                  class="tool detail-back"
                  title="Back to the list (Esc)"
                  aria-label="Back to the list (Esc)"
                  onClick={p.onClose}
                >
                  <Icon name="back" />
                  <span>List</span>
                </button>
                <h2 class="detail-title" title={title(c())}>
                  {title(c())}
                </h2>
                <button
                  type="button"
                  class="close"
                  aria-label="Close details (Esc)"
                  title="Close (Esc)"
                  onClick={p.onClose}
                >
                  <Icon name="close" />
                </button>
              </div>
              <div role="tablist" aria-label="Detail views" onKeyDown={onTabKey}>
                <For each={tabs()}>
                  {(t) => (
                    <button
                      type="button"
                      role="tab"
                      id={`tab-${t.id}`}
                      aria-selected={current().id === t.id}
                      aria-controls="detail-panel"
                      aria-label={t.label(c())}
                      title={t.label(c())}
                      tabIndex={current().id === t.id ? 0 : -1}
                      onClick={() => setTab(t.id)}
                      class={
                        t.id === 'issues' && c().record.issues.some((i) => i.severity === 'error') ? 'has-errors' : ''
                      }
                    >
                      <Show when={t.icon}>{(i) => <Icon name={i()} />}</Show>
                      <span class="tab-text">{t.label(c())}</span>
                      <Show when={t.id === 'issues' && c().record.issues.length}>
                        <span class="tab-count">{c().record.issues.length}</span>
                      </Show>
                    </button>
                  )}
                </For>
              </div>
            </header>
            <div class="detail-body" role="tabpanel" id="detail-panel" aria-labelledby={`tab-${current().id}`}>
              {current().render(c())}
            </div>
            <Show when={toast()}>
              <div class="toast" role="status">
                {toast()}
              </div>
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}

/** A page's divider (preserve log): the summary of that page's session, as the summary bar said it then. */
function PageSummary(p: { ctx: DetailContext }) {
  const { store } = usePanel();
  const facts = () => {
    const log = store.log;
    for (let i = 0; i < log.count; i++) {
      if (log.at(i).seq === p.ctx.record.seq) {
        return pageSession(log, i);
      }
    }
    return null;
  };
  return (
    <Show when={facts()}>
      {(f) => (
        <div class="page-summary" data-testid="page-summary">
          <strong>Page session</strong> <span class="muted">{frameLabel(f().url)}</span>
          <ul>
            <li>{f().records} records</li>
            <li>{f().timeToReady === null ? 'ready: not seen' : `ready in ${formatDuration(f().timeToReady!)}`}</li>
            <Show when={f().loaded}>
              {(l) => (
                <li>
                  dashboard-loaded{' '}
                  {l().loadDurationMs === null ? '(no loadDurationMs)' : formatDuration(l().loadDurationMs!)}
                  {l().widgetCount !== null ? ` · ${l().widgetCount} widgets` : ''}
                </li>
              )}
            </Show>
            <li>
              {f().errors} errors, {f().warnings} warnings
            </li>
          </ul>
        </div>
      )}
    </Show>
  );
}

function MessageTab(p: { ctx: DetailContext; notify: (m: string) => void; openIssues: () => void }) {
  const r = () => p.ctx.record;
  const receiver = () => (r().kind === 'receive' ? originLabel(r().frameUrl) : (r().targetOrigin ?? ''));
  const copyAll = () =>
    copyToClipboard(JSON.stringify(r().data, null, 2) ?? '').then((ok) =>
      p.notify(ok ? 'Copied the message' : 'Copy failed'),
    );
  const errors = () => r().issues.filter((i) => i.severity === 'error').length;
  return (
    <div class="message-tab">
      <Show when={r().issues.length > 0}>
        <button type="button" class={`issue-banner ${errors() ? 'error' : 'warning'}`} onClick={p.openIssues}>
          {r().issues.length} issue{r().issues.length === 1 ? '' : 's'}:{' '}
          {r()
            .issues.map((i) => i.rule)
            .join(', ')}{' '}
          — details
        </button>
      </Show>
      <Show when={r().navigation && r().frameId === 0}>
        <PageSummary ctx={p.ctx} />
      </Show>
      <dl class="facts-list">
        {/* A navigation is a frame loading an address: neither posted nor received. */}
        <dt>{r().navigation ? 'Frame' : r().kind === 'post' ? 'Posted by' : 'Received by'}</dt>
        <dd title={r().frameUrl}>
          {frameLabel(r().frameUrl)}
          {/* (the browser's own frame ids mean nothing to a reader; Firefox's are ten digits long) */}
          {r().frameId === 0 ? ' (top frame)' : ''}
        </dd>
        <dt>{r().navigation ? 'Origin' : r().kind === 'post' ? 'From origin' : 'event.origin'}</dt>
        <dd>{r().origin}</dd>
        <Show when={r().kind === 'post'}>
          <dt>Target origin</dt>
          <dd classList={{ wildcard: r().targetOrigin === '*' }}>
            {r().targetOrigin ?? '—'}
            {r().target ? ` (to ${r().target})` : ''}
          </dd>
        </Show>
        <Show when={r().kind === 'receive' && !r().navigation}>
          <dt>Receiver origin</dt>
          <dd>{receiver()}</dd>
        </Show>
        <Show when={r().dropped}>
          <dt>Delivery</dt>
          <dd class="error-text">dropped by the browser: the target origin did not match the target frame</dd>
        </Show>
        <Show when={r().error}>
          <dt>Not sent</dt>
          <dd class="error-text">postMessage threw: {r().error}</dd>
        </Show>
        <Show when={r().from}>
          <dt>Came from</dt>
          <dd>{r().from}</dd>
        </Show>
        <Show when={r().injected}>
          <dt>Injected</dt>
          <dd>sent by Embed Inspector</dd>
        </Show>
        <Show when={typeof r().originalSize === 'number'}>
          <dt>Size</dt>
          <dd>{formatBytes(r().originalSize!)} — over the capture size cap, truncated</dd>
        </Show>
        <Show when={r().transfer}>
          <dt>Transfer</dt>
          <dd>{r().transfer} transferred object(s)</dd>
        </Show>
        <dt>Observed</dt>
        <dd>{formatClock(r().time)}</dd>
      </dl>
      <div class="tree-toolbar">
        <span class="muted">{r().navigation ? 'Navigation' : 'Message'}</span>
        <button
          type="button"
          class="link"
          onClick={copyAll}
          title="Copy the message as JSON (values that JSON cannot carry keep their $ei tags)"
        >
          Copy JSON
        </button>
      </div>
      <Show
        when={navigationUrl(r())}
        fallback={
          <JsonTree
            value={r().data}
            label={`Message #${r().seq}`}
            onCopied={p.notify}
            highlight={r().issues.map((i) => highlightOf(r().data, i.path))}
          />
        }
      >
        {(url) => <AddressView url={url()} issues={r().issues} />}
      </Show>
    </div>
  );
}
