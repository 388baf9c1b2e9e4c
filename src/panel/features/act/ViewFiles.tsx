/**
 * The panel served by `embed-inspector view` (no extension): `?view=<list URL>` names a JSON list of capture files
 * (`[{ name, url }]`) on the same server. The first is opened as an imported file; a select switches between them.
 * Nothing is live: the files are read, classified here as `check` does, and shown.
 */
import { createSignal, For, Show } from 'solid-js';
import { useAct } from '../act/act-controller.ts';
import { sameOriginPath } from '../../ui/same-origin.ts';

export interface ViewFile {
  name: string;
  url: string;
}

export function ViewFiles(p: { list: string }) {
  const act = useAct();
  const [files, setFiles] = createSignal<ViewFile[]>([]);
  const [current, setCurrent] = createSignal(0);
  const [error, setError] = createSignal<string | null>(null);
  const open = async (i: number) => {
    const f = files()[i];
    if (!f) {
      return;
    }
    try {
      const res = await fetch(f.url);
      if (!res.ok) {
        throw new Error(`${res.status} ${res.statusText}`);
      }
      if (act.importText(await res.text(), f.name)) {
        setCurrent(i);
        setError(null);
      }
    } catch (e) {
      setError(`Could not read ${f.name}: ${(e as Error).message}`);
    }
  };
  void (async () => {
    try {
      const res = await fetch(p.list);
      // (each file on this page's own server only, as the list itself)
      const list = (await res.json()) as ViewFile[];
      setFiles(Array.isArray(list) ? list.filter((f) => typeof f?.name === 'string' && sameOriginPath(f.url)) : []);
      await open(0);
    } catch (e) {
      setError(`Could not read the file list: ${(e as Error).message}`);
    }
  })();
  return (
    <div class="view-files" data-testid="view-files">
      <Show when={files().length > 1}>
        <label>
          File{' '}
          <select data-testid="view-file" value={current()} onChange={(e) => void open(Number(e.currentTarget.value))}>
            <For each={files()}>{(f, i) => <option value={i()}>{f.name}</option>}</For>
          </select>
        </label>
      </Show>
      <Show when={error()}>
        <span class="warn">{error()}</span>
      </Show>
    </div>
  );
}
