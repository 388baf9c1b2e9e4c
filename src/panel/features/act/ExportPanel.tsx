/**
 * Export the log as a capture file (format v1), a HAR or a Playwright test (testgen.ts): all of it or the current
 * view, with the REST calls seen (all of them: the filters are the messages'); redaction on unless turned off.
 */
import { createSignal, Show } from 'solid-js';
import { captureOf, exportFileName } from './capture-file.ts';
import { toHar, generateTest } from '../../log/protocol.ts';
import { saveAsFile } from '../../ui/clipboard.ts';
import { plural } from '../../ui/format.ts';
import { useAct } from './act-controller.ts';

/** The extension's version for a HAR's `creator` (none when the panel is served without the extension). */
function extensionVersion(): string | undefined {
  try {
    return typeof chrome !== 'undefined' ? chrome.runtime?.getManifest?.().version : undefined;
  } catch {
    return undefined;
  }
}

export function ExportPanel(p: { version: () => number }) {
  const act = useAct();
  const store = act.store;
  const [filtered, setFiltered] = createSignal(false);
  const [redact, setRedact] = createSignal(true);
  const [format, setFormat] = createSignal<'json' | 'har' | 'spec'>('json');
  const [done, setDone] = createSignal('');
  const counts = () => {
    p.version();
    return { all: store.log.count, view: store.timeline.order.length };
  };
  const restCalls = () => act.rest?.records() ?? [];
  /** The file has a `rest` where REST calls can be seen (DevTools) or were imported. */
  const withRest = () => !!act.rest && (act.rest.available || restCalls().length > 0);

  const download = () => {
    const { log, timeline } = store;
    const records = filtered() ? timeline.order.map((i) => log.at(i)) : log.all();
    const calls = restCalls();
    const file = captureOf(records, {
      tenantOrigin: log.state.tenantOrigin,
      pageUrl: log.state.pageUrl,
      dropped: log.state.dropped,
      redact: redact(),
      ...(withRest() ? { rest: calls.map((r) => r.call) } : {}),
    });
    const har = format() === 'har';
    let text: string;
    let name: string;
    if (format() === 'spec') {
      try {
        const spec = generateTest(file, {
          framework: 'playwright',
          assertPayloads: true,
          by: "the Embed panel's Export",
          source: 'the panel’s log',
        });
        text = spec.code;
        name = spec.fileName;
      } catch (e) {
        setDone(`No test written: ${(e as Error).message}.`);
        return;
      }
    } else {
      // (captureOf has redacted it already, or was asked not to)
      text = JSON.stringify(har ? toHar(file, { redact: false, version: extensionVersion() }) : file, null, 1);
      name = exportFileName(log.state.pageUrl, new Date(), format() as 'json' | 'har');
    }
    saveAsFile(text, name, format() === 'spec' ? 'text/plain' : 'application/json');
    const rest = file.rest && format() !== 'spec' ? `, ${plural(file.rest.length, 'REST call')}` : '';
    setDone(
      `Saved ${name}: ${plural(records.length, 'record')}${rest}${redact() ? ', secrets redacted' : ', NOT redacted'}.`,
    );
  };

  return (
    <section class="export" aria-label="Export">
      <fieldset class="x-scope">
        <legend>Records</legend>
        <label class="check">
          <input type="radio" name="x-scope" class="x-all" checked={!filtered()} onChange={() => setFiltered(false)} />{' '}
          the whole log ({plural(counts().all, 'record')})
        </label>
        <label class="check">
          <input type="radio" name="x-scope" class="x-view" checked={filtered()} onChange={() => setFiltered(true)} />{' '}
          the current view, filters applied ({plural(counts().view, 'record')})
        </label>
      </fieldset>
      <fieldset class="x-format">
        <legend>Format</legend>
        <label class="check">
          <input
            type="radio"
            name="x-format"
            class="x-json"
            checked={format() === 'json'}
            onChange={() => setFormat('json')}
          />{' '}
          capture file (.json, format v1)
        </label>
        <label class="check">
          <input
            type="radio"
            name="x-format"
            class="x-har"
            checked={format() === 'har'}
            onChange={() => setFormat('har')}
          />{' '}
          HAR (.har): the REST calls as entries, the messages in <code>_embedMessages</code>
        </label>
        <label class="check">
          <input
            type="radio"
            name="x-format"
            class="x-spec"
            checked={format() === 'spec'}
            onChange={() => setFormat('spec')}
          />{' '}
          as a Playwright test (.spec.ts): sends the host's actions, checks the embed's events (as{' '}
          <code>embed-inspector codegen --playwright --assert-payloads</code>)
        </label>
      </fieldset>
      <Show when={withRest()}>
        <p class="muted small x-rest">
          With {plural(restCalls().length, 'REST call')} of the platform API (all of them: the filters apply to the
          messages).
        </p>
      </Show>
      <label class="check x-redact-label">
        <input
          type="checkbox"
          class="x-redact"
          checked={redact()}
          onChange={(e) => setRedact(e.currentTarget.checked)}
        />
        Redact secrets: the <code>session</code> URL parameter, bearer tokens and anything shaped like a JWT are
        replaced by [redacted]
      </label>
      <Show when={!redact()}>
        <p class="warn x-warning" role="alert">
          Redaction is off: the file will hold session ids and tokens as captured. Share it only where they may be seen.
        </p>
      </Show>
      <div class="act-row">
        <button
          type="button"
          class="primary x-download"
          disabled={counts().all === 0 && restCalls().length === 0}
          onClick={download}
        >
          ⇩ Download {format() === 'har' ? 'HAR' : format() === 'spec' ? 'Playwright test' : 'capture file'}
        </button>
        <span class="muted small">
          {format() === 'spec' ? (
            <>
              Runs with <code>npx playwright test</code> and <code>embed-inspector/playwright</code>.
            </>
          ) : (
            <>
              {format() === 'har' ? 'HAR 1.2' : 'Format v1 (docs/capture-format.md)'}:{' '}
              <code>embed-inspector check</code> reads it.
            </>
          )}
        </span>
      </div>
      <Show when={done()}>
        <p class="x-done" role="status">
          {done()}
        </p>
      </Show>
    </section>
  );
}
