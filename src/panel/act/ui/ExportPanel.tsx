/** Export the log as a capture file (format v1): all of it or the current view; redaction on unless turned off. */
import { createSignal, Show } from 'solid-js';
import { captureOf, exportFileName } from '../capture.ts';
import { plural } from '../../format.ts';
import type { ActController } from './controller.ts';

export function ExportPanel(p: { act: ActController; version: () => number }) {
  const store = p.act.store;
  const [filtered, setFiltered] = createSignal(false);
  const [redact, setRedact] = createSignal(true);
  const [done, setDone] = createSignal('');
  const counts = () => {
    p.version();
    return { all: store.log.count, view: store.timeline.order.length };
  };

  const download = () => {
    const { log, timeline } = store;
    const records = filtered() ? timeline.order.map((i) => log.at(i)) : log.all();
    const file = captureOf(records, {
      tenantOrigin: log.state.tenantOrigin,
      pageUrl: log.state.pageUrl,
      dropped: log.state.dropped,
      redact: redact(),
    });
    const text = JSON.stringify(file, null, 1);
    const name = exportFileName(log.state.pageUrl);
    p.act.lastExport = { name, text };
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setDone(`Saved ${name}: ${plural(records.length, 'record')}${redact() ? ', secrets redacted' : ', NOT redacted'}.`);
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
        <button class="primary x-download" disabled={counts().all === 0} onClick={download}>
          ⇩ Download capture file
        </button>
        <span class="muted small">
          Format v1 (docs/capture-format.md): <code>embed-inspector check</code> reads it.
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
