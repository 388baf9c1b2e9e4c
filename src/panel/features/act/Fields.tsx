/**
 * The composer's form: one input per payload field of the catalog (enums as selects, the time zone and the
 * locale with suggestions, the filter builder), and set-theme's further fields as JSON.
 */
import { createMemo, createSignal, For, Show } from 'solid-js';
import {
  filterParameter,
  formFields,
  jsonError,
  localeSuggestions,
  parseFilterParameter,
  timeZoneSuggestions,
  type FormField,
} from './composer.ts';

const TZ_LIST_ID = 'ei-timezones';
const LOCALE_LIST_ID = 'ei-locales';

/** The datalists behind the time-zone and locale inputs (the browser's own IANA list). */
export function Suggestions() {
  const langs = typeof navigator !== 'undefined' ? [...(navigator.languages ?? [])] : [];
  return (
    <>
      <datalist id={TZ_LIST_ID}>
        <For each={timeZoneSuggestions()}>{(z) => <option value={z} />}</For>
      </datalist>
      <datalist id={LOCALE_LIST_ID}>
        <For each={localeSuggestions(langs)}>{(l) => <option value={l} />}</For>
      </datalist>
    </>
  );
}

export interface FieldsProps {
  type: string;
  values: Record<string, string>;
  fieldErrors: Record<string, string>;
  extra: string;
  onField(name: string, value: string): void;
  onExtra(value: string): void;
}

export function Fields(p: FieldsProps) {
  // Recomputed only when the type changes (not on each keystroke: the inputs must keep their focus).
  const type = createMemo(() => p.type);
  const fields = createMemo(() => formFields(type()));
  return (
    <div class="cm-fields">
      <Show when={fields().length === 0}>
        <p class="muted">This action takes an empty payload.</p>
      </Show>
      <For each={fields()}>
        {(f) => (
          <div class="cm-field" data-field={f.name}>
            <label for={`cf-${f.name}`}>
              {f.label}
              {f.required ? (
                <span class="req" title="required">
                  {' '}
                  *
                </span>
              ) : null}
            </label>
            <div class="cm-input">
              <FieldInput field={f} value={p.values[f.name] ?? ''} onInput={(v) => p.onField(f.name, v)} />
              <span class="muted small" id={`cf-${f.name}-hint`}>
                {hintOf(f)}
              </span>
              <Show when={p.fieldErrors[f.name]}>
                <span class="error-text small" role="alert">
                  {p.fieldErrors[f.name]}
                </span>
              </Show>
            </div>
          </div>
        )}
      </For>
      <Show when={p.type === 'svc:action:set-theme'}>
        <div class="cm-field" data-field="extra">
          <label for="cf-extra">other fields</label>
          <div class="cm-input">
            <textarea
              id="cf-extra"
              class="cm-json"
              rows={3}
              spellcheck={false}
              placeholder='{"fontSize": 13}'
              value={p.extra}
              onInput={(e) => p.onExtra(e.currentTarget.value)}
              aria-describedby="cf-extra-hint"
            />
            <span class="muted small" id="cf-extra-hint">
              Further embedTheme fields, as a JSON object (the spec lists only the common ones).
            </span>
            <Show when={p.fieldErrors.extra}>
              <span class="error-text small" role="alert">
                {p.fieldErrors.extra}
              </span>
            </Show>
          </div>
        </div>
      </Show>
    </div>
  );
}

function hintOf(f: FormField): string {
  const doc = f.hint.replace(/`/g, '');
  if (f.input === 'json') {
    return `${doc}. A JSON value, or plain text for a string.`;
  }
  if (f.nullable) {
    return `${doc}. Type null for null.`;
  }
  return doc;
}

function FieldInput(p: { field: FormField; value: string; onInput(v: string): void }) {
  const f = p.field;
  const id = `cf-${f.name}`;
  const common = { id, 'aria-describedby': `${id}-hint`, 'data-input': f.input };
  const text = (extra: Record<string, unknown> = {}) => (
    <input
      {...common}
      {...extra}
      type="text"
      spellcheck={false}
      value={p.value}
      onInput={(e) => p.onInput(e.currentTarget.value)}
    />
  );
  switch (f.input) {
    case 'select':
      return (
        <select {...common} value={p.value} onChange={(e) => p.onInput(e.currentTarget.value)}>
          <Show when={!f.required}>
            <option value="">(absent)</option>
          </Show>
          <For each={f.options ?? []}>{(o) => <option value={o}>{o}</option>}</For>
          <Show when={f.nullable}>
            <option value="null">null</option>
          </Show>
        </select>
      );
    case 'boolean':
      return (
        <select {...common} value={p.value} onChange={(e) => p.onInput(e.currentTarget.value)}>
          <Show when={!f.required}>
            <option value="">(absent)</option>
          </Show>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case 'number':
      return text({ inputmode: 'decimal', placeholder: f.nullable ? 'a number, or null' : 'a number' });
    case 'timezone':
      return text({ list: TZ_LIST_ID, placeholder: 'Europe/Berlin', autocomplete: 'off' });
    case 'locale':
      return text({ list: LOCALE_LIST_ID, placeholder: 'de-DE', autocomplete: 'off' });
    case 'filter':
      return <FilterBuilder value={p.value} onInput={p.onInput} />;
    case 'json':
      return (
        <textarea
          {...common}
          class="cm-json"
          rows={1}
          spellcheck={false}
          value={p.value}
          onInput={(e) => p.onInput(e.currentTarget.value)}
        />
      );
    default:
      return text();
  }
}

/** `f_<semantic_view>.<dimension>=<JSON>` from its parts, with a JSON editor that says when the JSON does not parse. */
function FilterBuilder(p: { value: string; onInput(v: string): void }) {
  const init = parseFilterParameter(p.value) ?? { view: '', dimension: '', json: p.value ? '' : '["EMEA"]' };
  const [view, setView] = createSignal(init.view);
  const [dim, setDim] = createSignal(init.dimension);
  const [json, setJson] = createSignal(init.json);
  const emit = () => p.onInput(filterParameter(view(), dim(), json()));
  if (!p.value && init.json) {
    queueMicrotask(emit);
  }
  const err = () => jsonError(json());
  return (
    <div class="filter-builder" role="group" aria-label="Filter builder">
      <div class="fb-row">
        <span class="mono">f_</span>
        <input
          class="fb-view"
          aria-label="Semantic view"
          placeholder="orders"
          spellcheck={false}
          value={view()}
          onInput={(e) => {
            setView(e.currentTarget.value);
            emit();
          }}
        />
        <span class="mono">.</span>
        <input
          class="fb-dim"
          aria-label="Dimension"
          placeholder="region"
          spellcheck={false}
          value={dim()}
          onInput={(e) => {
            setDim(e.currentTarget.value);
            emit();
          }}
        />
        <span class="mono">=</span>
      </div>
      <textarea
        id="cf-filterUrlParameter"
        class="cm-json fb-json"
        rows={2}
        spellcheck={false}
        aria-label="Filter value (JSON)"
        aria-invalid={!!err()}
        aria-describedby="fb-json-status"
        value={json()}
        onInput={(e) => {
          setJson(e.currentTarget.value);
          emit();
        }}
      />
      <span id="fb-json-status" class={`small ${err() ? 'error-text' : 'muted'}`} role={err() ? 'alert' : undefined}>
        {err() ? `The JSON does not parse: ${err()}` : 'JSON parses. A scalar or an array filters; null or [] clears.'}
      </span>
      <output class="fb-out mono small" aria-label="Filter parameter">
        {p.value}
      </output>
    </div>
  );
}
