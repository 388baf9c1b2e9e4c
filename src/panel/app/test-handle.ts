/**
 * `window.__embedInspectorPanel`: a handle for tests, the benchmark and the screenshots (extension pages are not
 * reachable by web pages, so this exposes nothing to the inspected page). It holds no state.
 *
 * Tests read and steer the timeline through its facade, in the user's words, and get plain JSON-safe values back
 * (so a refactor of the log or the view changes this file, not the tests):
 *
 * - `records(query?)`: the log's records (all of them, filters aside), in capture order; `record(seq)`, `ready()`
 *   (the session's `ready` the time column counts from), null when there is none;
 * - `rows(query?)`: what the timeline shows, in the order shown, each record with its Type, Direction and Surface;
 * - `counts()`: records held, rows shown, and the valid / invalid / foreign records; `state()`: the tab's state
 *   (tenant origin, preserve log, paused, limits, dropped);
 * - `filters()`, `setFilters(patch)`, `resetFilters()`; `select(seq | query | null)`, `selected()`;
 *   `setTimeBase('ready' | 'first')`.
 *
 * A query (`{type, kind, verdict, injected}`) picks the records whose every given field matches (`type`: the type
 * the Type column shows). Besides, the handle hands out the panel's own objects as they are, for what the facade
 * does not cover and for the benchmark and the screenshots (`log`, `view`), and loads a source in place of the live
 * tab (`load`, `useTransport`).
 */
import { DEFAULT_MAX_RECORDS, type ClassifiedRecord, type TabState } from '../../shared/messages.ts';
import { type CaptureRecord, readCapture } from '../log/protocol.ts';
import type { PanelStore } from '../ui/panel-store.ts';
import type { RecordLog } from '../log/record-log.ts';
import type { TimelineView } from '../timeline/timeline-view.ts';
import {
  checkFileRecords,
  createFileTransport,
  createMemoryTransport,
  type PanelTransport,
} from '../link/transports.ts';
import { syntheticSession } from './synthetic.ts';
import type { LiveLink } from '../link/live-link.ts';
import type { ActController } from '../features/act/act-controller.ts';
import type { RestLog } from '../features/rest/rest-log.ts';
import type { PanelApp } from './context.ts';
import type { FilterState, TimeBase } from '../timeline/filters.ts';
import type { RecordMeta } from '../log/meta.ts';

/** Which records a query picks: those whose every given field matches (`type`: the type of the Type column). */
interface RecordQuery {
  type?: string;
  kind?: 'post' | 'receive';
  verdict?: ClassifiedRecord['verdict'];
  injected?: boolean;
}
/** Which row `select` picks: the `at`-th (0 by default; the last when there are fewer) of the rows shown that match. */
interface RowQuery extends RecordQuery {
  at?: number;
}
/** A row of the timeline: the record and the facts of its Type, Direction and Surface columns. */
interface TestRow extends ClassifiedRecord {
  type: string;
  direction: string;
  surface: string;
}
interface TestCounts {
  /** Records the log holds (filters aside). */
  records: number;
  /** Rows the timeline shows. */
  shown: number;
  valid: number;
  invalid: number;
  foreign: number;
}

/** What tests read and do through the handle, in the timeline's words; plain JSON-safe values only. */
interface PanelFacade {
  /** The log's records matching the query, in capture order (shallow copies). */
  records(query?: RecordQuery): ClassifiedRecord[];
  /** The record of this seq, or null. */
  record(seq: number): ClassifiedRecord | null;
  /** The session's `ready` (what the time column counts from), or null while none was seen. */
  ready(): ClassifiedRecord | null;
  /** The rows the timeline shows (its filters applied) matching the query, in the order shown. */
  rows(query?: RowQuery): TestRow[];
  counts(): TestCounts;
  /** The tab's state: tenant origin (and its source), preserve log, paused, the limits, records dropped. */
  state(): TabState;
  filters(): FilterState;
  /** Change some filters (the others stay); a selected record they hide is no longer selected. */
  setFilters(patch: Partial<FilterState>): void;
  resetFilters(): void;
  /** Select a record by seq, or the row a query picks (none: nothing selected), or nothing; returns the selected seq. */
  select(which: number | RowQuery | null): number | null;
  /** The selected record's seq, or null. */
  selected(): number | null;
  /** What the time column counts from. */
  setTimeBase(base: TimeBase): void;
}

interface SavedFile {
  name: string;
  text: string;
}

/**
 * Watch what leaves the panel as a file: the text of each Blob made of strings, a download link clicked to one, and
 * the text written to the clipboard (the Clipboard API, or the copy command on a selected text field).
 */
function watchSavedFiles(): SavedFile {
  const saved: SavedFile = { name: '', text: '' };
  const blobTexts = new Map<string, string>();
  const texts = new WeakMap<Blob, string>();
  const NativeBlob = globalThis.Blob;
  globalThis.Blob = class extends NativeBlob {
    constructor(parts?: BlobPart[], opts?: BlobPropertyBag) {
      super(parts, opts);
      if (parts?.every((p) => typeof p === 'string')) {
        texts.set(this, parts.join(''));
      }
    }
  };
  const createObjectURL = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (obj: Blob | MediaSource) => {
    const url = createObjectURL(obj);
    const text = obj instanceof NativeBlob ? texts.get(obj) : undefined;
    if (text !== undefined) {
      blobTexts.set(url, text);
    }
    return url;
  };
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    const text = this.download ? blobTexts.get(this.href) : undefined;
    if (text !== undefined) {
      Object.assign(saved, { name: this.download, text });
    }
    click.call(this);
  };
  const clipboard = navigator.clipboard;
  if (clipboard?.writeText) {
    const writeText = clipboard.writeText.bind(clipboard);
    clipboard.writeText = (text: string) => {
      Object.assign(saved, { name: '', text });
      return writeText(text);
    };
  }
  const execCommand = document.execCommand.bind(document);
  document.execCommand = (command: string, ui?: boolean, value?: string) => {
    const field = document.activeElement;
    if (command === 'copy' && field instanceof HTMLTextAreaElement) {
      Object.assign(saved, { name: '', text: field.value });
    }
    return execCommand(command, ui, value);
  };
  return saved;
}

export interface PanelTestHandle extends PanelFacade {
  /** The record log of the source shown (`store.log`): for the benchmark and the screenshots; tests use the facade. */
  readonly log: RecordLog;
  /** The timeline view over the log (`store.timeline`): for the benchmark and the screenshots; tests use the facade. */
  readonly view: TimelineView;
  /** The link: connection status, capture scope, the transport shown, commands to the background. */
  readonly store: PanelStore;
  /** The link to the live tab (sends), when the panel is attached to one. */
  readonly link: LiveLink | null;
  /** The composer / replay / export / import controller. */
  readonly act: ActController;
  /** REST calls seen in the Network traffic (or an imported file's). */
  readonly rest: RestLog;
  /** Show this transport's records. */
  useTransport(t: PanelTransport): void;
  /** Load records (classified or not) or a capture file in place of the live log; returns the record count. */
  load(input: unknown, name?: string): number;
  /** A synthetic session of about n records. */
  synthetic(n: number): ClassifiedRecord[];
  /**
   * The last file the panel saved (a download: its name) or copied (name ''), with its text, as the user gets it
   * (extension pages cannot read a download or, headless, the clipboard). Tests empty it before an export.
   */
  readonly saved: SavedFile;
}

const picks = (r: ClassifiedRecord, m: RecordMeta, q: RecordQuery): boolean =>
  (q.type === undefined || m.type === q.type) &&
  (q.kind === undefined || r.kind === q.kind) &&
  (q.verdict === undefined || r.verdict === q.verdict) &&
  (q.injected === undefined || !!r.injected === q.injected);

/** The facade over the log and the timeline view (see the file's comment). */
export function panelFacade(log: RecordLog, view: TimelineView): PanelFacade {
  const recordOf = (r: ClassifiedRecord | undefined) => (r ? { ...r } : null);
  const rows = (q: RecordQuery = {}): TestRow[] =>
    view.rows.flatMap((i) => {
      const r = log.at(i);
      const m = log.metaAt(i);
      return picks(r, m, q) ? [{ ...r, type: m.type, direction: m.direction, surface: m.surface }] : [];
    });
  return {
    records(q = {}) {
      const out: ClassifiedRecord[] = [];
      for (let i = 0; i < log.count; i++) {
        const r = log.at(i);
        if (picks(r, log.metaAt(i), q)) {
          out.push({ ...r });
        }
      }
      return out;
    },
    record: (seq) => recordOf(log.bySeq(seq)),
    ready: () => recordOf(log.readyIndex >= 0 ? log.at(log.readyIndex) : undefined),
    rows,
    counts: () => ({ records: log.count, shown: view.length, ...log.counts }),
    state: () => ({ ...log.state }),
    filters: () => structuredClone(view.filters) as FilterState,
    setFilters: (patch) => view.setFilters(patch),
    resetFilters: () => view.resetFilters(true),
    select(which) {
      if (which === null || typeof which === 'number') {
        view.select(which);
      } else {
        const shown = rows(which);
        view.select(shown.length ? shown[Math.min(which.at ?? 0, shown.length - 1)].seq : null);
      }
      return view.selectedSeq;
    },
    selected: () => view.selectedSeq,
    setTimeBase: (base) => view.setTimeBase(base),
  };
}

/** Install the handle on the page's global object (app: the composition root's parts). */
export function installTestHandle(app: PanelApp): PanelTestHandle {
  const { store, useTransport } = app;
  const handle: PanelTestHandle = {
    ...panelFacade(store.log, store.timeline),
    log: store.log,
    view: store.timeline,
    store,
    link: app.live,
    act: app.act,
    rest: app.rest,
    saved: watchSavedFiles(),
    useTransport,
    synthetic: (n) => syntheticSession(n),
    load(input, name = 'loaded records') {
      if (Array.isArray(input)) {
        // Classified records or capture records, as the first one says (a pass over every record here would be
        // timed by the panel bench's first render, which no user's load runs).
        const first = input[0] as ClassifiedRecord | undefined;
        const classified =
          first === undefined ||
          (!!first && typeof first === 'object' && 'verdict' in first && Array.isArray(first.issues));
        const records = classified
          ? (input as ClassifiedRecord[])
          : checkFileRecords(input as CaptureRecord[], store.log.state.tenantOrigin).records;
        useTransport(
          createMemoryTransport({
            records,
            live: false,
            label: name,
            state: { maxRecords: Math.max(DEFAULT_MAX_RECORDS, records.length) },
          }),
        );
        return records.length;
      }
      const file = readCapture(typeof input === 'string' ? JSON.parse(input) : input);
      useTransport(createFileTransport(file, name));
      return file.messages.length;
    },
  };
  (globalThis as { __embedInspectorPanel?: PanelTestHandle }).__embedInspectorPanel = handle;
  return handle;
}
