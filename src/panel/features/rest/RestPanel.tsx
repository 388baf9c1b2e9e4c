/** The REST drawer: the platform operations seen in the Network traffic, each with its verdict and issues. */
import { createSignal, For, Show } from 'solid-js';
import type { RestLog } from './rest-log.ts';
import type { RestRecord } from './network.ts';
import { RULES } from '../../log/protocol.ts';

export function RestButton(p: { log: RestLog; open: () => boolean; toggle: () => void }) {
  const bad = () => p.log.records().filter((r) => r.verdict === 'invalid').length;
  return (
    <button
      type="button"
      class="tool t-rest"
      aria-pressed={p.open()}
      aria-controls={p.open() ? 'rest-drawer' : undefined}
      onClick={() => p.toggle()}
      title="The platform's REST operations seen in the Network traffic, checked against the spec"
    >
      REST {p.log.records().length}
      <Show when={bad() > 0}>
        {' '}
        · <span class="bad">{bad()} invalid</span>
      </Show>
    </button>
  );
}

export function RestPanel(p: { log: RestLog; onClose: () => void }) {
  const [open, setOpen] = createSignal<RestRecord | null>(null);
  const path = (url: string) => {
    try {
      return new URL(url).pathname;
    } catch {
      return url;
    }
  };
  return (
    <section id="rest-drawer" class="act-drawer rest-drawer" aria-label="REST operations">
      <header class="drawer-head">
        <strong>REST operations</strong>
        <span class="muted">the four documented platform operations in this tab's Network traffic</span>
        <span class="spacer" />
        <button type="button" class="tool" onClick={() => p.log.clear()}>
          Clear
        </button>
        <button type="button" class="tool" aria-label="Close" onClick={() => p.onClose()}>
          ×
        </button>
      </header>
      <Show
        when={p.log.available || p.log.records().length > 0}
        fallback={
          <p class="muted rest-empty">
            Network traffic is visible only in the DevTools panel (not in a tab opened with ?tabId=).
          </p>
        }
      >
        <Show
          when={p.log.records().length > 0}
          fallback={
            <p class="muted rest-empty">
              No call to the four operations yet (move, get workbook, update notification, disconnect).
            </p>
          }
        >
          <div class="rest-list" role="table" aria-label="REST calls">
            <div role="row" class="rest-row rest-headrow">
              <span role="columnheader">Method</span>
              <span role="columnheader">Path</span>
              <span role="columnheader">Status</span>
              <span role="columnheader">Operation</span>
              <span role="columnheader">Verdict</span>
            </div>
            <For each={p.log.records()}>
              {(r) => (
                <>
                  <div
                    role="row"
                    class={`rest-row v-${r.verdict}`}
                    tabIndex={0}
                    aria-expanded={open() === r}
                    onClick={() => setOpen(open() === r ? null : r)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        setOpen(open() === r ? null : r);
                      }
                    }}
                  >
                    <span role="cell">{r.method}</span>
                    <span role="cell" class="mono">
                      {path(r.url)}
                    </span>
                    <span role="cell">{r.status}</span>
                    <span role="cell">{r.title}</span>
                    <span role="cell">
                      <span class={`badge b-${r.verdict}`}>{r.verdict}</span>
                      {r.issues.length ? ` ${r.issues.length}` : ''}
                    </span>
                  </div>
                  <Show when={open() === r}>
                    <ul class="rest-issues">
                      <Show when={r.issues.length === 0}>
                        <li class="muted">No issue: the call follows the documented rules.</li>
                      </Show>
                      <For each={r.issues}>
                        {(i) => (
                          <li class={`sev-${i.severity}`}>
                            <span class="sev">{i.severity}</span> <code>{i.rule}</code>{' '}
                            <span class="mono muted">{i.path}</span> {i.message}
                            <Show when={RULES[i.rule]}>
                              <div class="spec muted">Spec: {RULES[i.rule].spec}</div>
                            </Show>
                          </li>
                        )}
                      </For>
                    </ul>
                  </Show>
                </>
              )}
            </For>
          </div>
        </Show>
      </Show>
    </section>
  );
}
