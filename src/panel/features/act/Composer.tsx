/**
 * The composer: an action to send to the embed, or an event to simulate from inside the embed frame. A form
 * generated from the catalog, or raw JSON; validated live with the timeline's classifier; an invalid message
 * is sent only after a confirmation. Ctrl/Cmd+Enter sends.
 */
import { createEffect, createMemo, createSignal, For, on, Show } from 'solid-js';
import { ACTIONS, EVENTS, specOf, type Surface } from '../../log/protocol.ts';
import { draftNotes, surfacesFor } from './composer.ts';
import {
  buildMessage,
  defaultDraft,
  fromRaw,
  toRaw,
  validate,
  withSurface,
  withType,
  type Draft,
  type Side,
} from './draft.ts';
import { useAct } from './act-controller.ts';
import { Fields, Suggestions } from './Fields.tsx';
import { SendBar } from './SendBar.tsx';

/** Whether the composer sends an action (as the host page) or simulates an event (from inside the embed frame). */
function SideChoice(p: { side: () => Side; onSide: (s: Side) => void }) {
  return (
    <div role="radiogroup" aria-label="What to send" class="seg">
      <button
        type="button"
        role="radio"
        class="cm-side-action"
        aria-checked={p.side() === 'action'}
        onClick={() => p.onSide('action')}
        title="An action, posted by the host page to the embed frame"
      >
        Action → embed
      </button>
      <button
        type="button"
        role="radio"
        class="cm-side-event"
        aria-checked={p.side() === 'event'}
        onClick={() => p.onSide('event')}
        title="An event, posted from inside the embed frame to the host page (event.origin is the tenant origin)"
      >
        Simulate event ← embed
      </button>
    </div>
  );
}

/** The composer's editor: the form generated from the catalog, or the whole message as JSON. */
function EditorChoice(p: { mode: () => 'form' | 'raw'; onMode: (m: 'form' | 'raw') => void }) {
  return (
    <div role="radiogroup" aria-label="Editor" class="seg">
      <button
        type="button"
        role="radio"
        class="cm-mode-form"
        aria-checked={p.mode() === 'form'}
        onClick={() => p.onMode('form')}
      >
        Form
      </button>
      <button
        type="button"
        role="radio"
        class="cm-mode-raw"
        aria-checked={p.mode() === 'raw'}
        onClick={() => p.onMode('raw')}
      >
        JSON
      </button>
    </div>
  );
}

/** The whole message as JSON, with what keeps it from being a message. */
function RawEditor(p: { raw: () => string; errors: () => readonly string[]; onRaw: (raw: string) => void }) {
  return (
    <div class="cm-raw">
      <textarea
        class="cm-json raw-json"
        rows={10}
        spellcheck={false}
        aria-label="The whole message as JSON"
        value={p.raw()}
        onInput={(e) => p.onRaw(e.currentTarget.value)}
      />
      <Show when={p.errors().length}>
        <span class="error-text small" role="alert">
          {p.errors().join('; ')}
        </span>
      </Show>
    </div>
  );
}

export function Composer() {
  const act = useAct();
  const draft = act.draft,
    setDraft = (d: Draft) => act.setDraft(d);
  const [formKey, setFormKey] = createSignal(0);
  const [modeNote, setModeNote] = createSignal('');
  createEffect(
    on(
      act.seed,
      (s) => {
        if (s) {
          setFormKey((k) => k + 1);
          setModeNote('');
        }
      },
      { defer: true },
    ),
  );

  const built = createMemo(() => buildMessage(draft()));
  const check = createMemo(() => {
    const b = built();
    return b.data === undefined ? null : validate(b.data, draft().side, act.target());
  });
  const spec = () => specOf(draft().type);

  const update = (fn: (d: Draft) => Draft) => setDraft(fn(draft()));
  const setSide = (side: Side) => {
    if (draft().side !== side) {
      setDraft(defaultDraft(side));
      setFormKey((k) => k + 1);
      setModeNote('');
    }
  };
  const setMode = (mode: 'form' | 'raw') => {
    const d = draft();
    if (d.mode === mode) {
      return;
    }
    if (mode === 'raw') {
      setDraft({ ...d, mode, raw: toRaw(d) });
      setModeNote('');
      return;
    }
    const back = fromRaw(d);
    if ('reason' in back) {
      setModeNote(back.reason);
      return;
    }
    setDraft(back.draft);
    setFormKey((k) => k + 1);
    setModeNote('');
  };
  /** The message to send now: the form's with a fresh timestamp, or the JSON as written. */
  const current = () => (draft().mode === 'form' ? buildMessage(draft()).data : built().data);

  return (
    <section class="composer" aria-label="Composer">
      <Suggestions />
      <div class="act-row">
        <SideChoice side={() => draft().side} onSide={setSide} />
        <label class="inline">
          Type
          <select
            class="cm-type"
            value={draft().type}
            disabled={draft().mode === 'raw'}
            onChange={(e) => {
              update((d) => withType(d, e.currentTarget.value));
              setFormKey((k) => k + 1);
            }}
          >
            <For each={draft().side === 'action' ? ACTIONS : EVENTS}>
              {(m) => <option value={m.type}>{m.name}</option>}
            </For>
          </select>
        </label>
        <Show when={draft().side === 'event' && draft().mode === 'form'}>
          <label class="inline">
            Surface
            <select
              class="cm-surface"
              value={draft().surface}
              onChange={(e) => update((d) => withSurface(d, e.currentTarget.value as Surface))}
            >
              <For each={surfacesFor(draft().type)}>{(s) => <option value={s}>{s}</option>}</For>
            </select>
          </label>
        </Show>
        <span class="spacer" />
        <EditorChoice mode={() => draft().mode} onMode={setMode} />
      </div>
      <Show when={modeNote()}>
        <p class="warn small" role="status">
          {modeNote()}
        </p>
      </Show>
      <Show
        when={draft().mode === 'form'}
        fallback={
          <RawEditor
            raw={() => draft().raw}
            errors={() => built().errors}
            onRaw={(raw) => update((d) => ({ ...d, raw }))}
          />
        }
      >
        <p class="muted small cm-summary">{spec()?.summary}</p>
        <Show when={formKey() + 1} keyed>
          {(_key: number) => (
            <Fields
              type={draft().type}
              values={draft().values}
              fieldErrors={built().fieldErrors}
              extra={draft().extra}
              onField={(name, value) => update((d) => ({ ...d, values: { ...d.values, [name]: value } }))}
              onExtra={(value) => update((d) => ({ ...d, extra: value }))}
            />
          )}
        </Show>
      </Show>
      <For each={draftNotes(built().data)}>
        {(n) => (
          <p class="warn small cm-note" role="status">
            {n}
          </p>
        )}
      </For>
      <SendBar side={draft().side} buildErrors={built().errors} check={check()} message={current} watch={draft} />
    </section>
  );
}
