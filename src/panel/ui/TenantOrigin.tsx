/** The tenant origin, with where it came from (inferred, from the file, set by hand), and the form that sets it. */
import { createSignal, Show, untrack } from 'solid-js';
import { usePanel } from './use-panel.ts';
import { tenantSource } from './tenant-source.ts';

export function TenantOrigin() {
  const { store, select } = usePanel();
  const [editing, setEditing] = createSignal(false);
  const [error, setError] = createSignal('');
  const st = select('state', (s) => s.log.state);
  const source = () => tenantSource(st().tenantOriginSource, st().tenantOriginFrame);
  const commit = (raw: string) => {
    const v = raw.trim();
    if (v === '') {
      store.command({ type: 'set-tenant-origin', origin: null });
      setEditing(false);
      setError('');
      return;
    }
    let origin: string;
    try {
      origin = new URL(v).origin;
    } catch {
      setError('not an origin: use https://tenant.example.com');
      return;
    }
    if (origin === 'null') {
      setError('not an origin: use https://tenant.example.com');
      return;
    }
    store.command({ type: 'set-tenant-origin', origin });
    setEditing(false);
    setError('');
  };
  return (
    <span class="tenant">
      <span class="label">Tenant origin</span>
      <Show
        when={editing()}
        fallback={
          <button
            type="button"
            class="value link"
            title={`Edit the tenant origin${source() ? ` (${source()!.title})` : ''}. Events from any other origin are reported; actions must target it.`}
            onClick={() => setEditing(true)}
          >
            {st().tenantOrigin ?? 'unknown — set it'}
            <Show when={source()}>
              {(s) => (
                <span class="src-tag" data-source={st().tenantOriginSource}>
                  {s().tag}
                </span>
              )}
            </Show>
          </button>
        }
      >
        <input
          class="tenant-input"
          aria-label="Tenant origin"
          placeholder="https://tenant.example.com (empty: infer)"
          ref={(el) => {
            // Uncontrolled: live state updates must not overwrite what the user is typing.
            el.value = untrack(() => store.log.state.tenantOrigin ?? '');
            queueMicrotask(() => {
              el.focus();
              el.select();
            });
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              commit(e.currentTarget.value);
            }
            if (e.key === 'Escape') {
              setEditing(false);
              setError('');
              e.stopPropagation();
            }
          }}
          onBlur={(e) => {
            if (editing()) {
              commit(e.currentTarget.value);
            }
          }}
          aria-invalid={!!error()}
          aria-describedby="tenant-error"
        />
        <Show when={error()}>
          <span id="tenant-error" class="error-text" role="alert">
            {error()}
          </span>
        </Show>
      </Show>
      <Show when={!editing() && st().tenantOriginSource === 'manual'}>
        <button
          type="button"
          class="link tenant-reset"
          title="Forget the hand-set tenant origin: infer it from the page's embed frames and ready again"
          onClick={() => store.command({ type: 'set-tenant-origin', origin: null })}
        >
          ↺ infer
        </button>
      </Show>
    </span>
  );
}
