/**
 * `window.__embedInspectorPanel`: a handle for tests, the benchmark and the screenshots (extension pages are not
 * reachable by web pages, so this exposes nothing to the inspected page). It hands out the panel's own objects as
 * they are — the record log, the timeline view, the link's store, the features' controllers — and holds no state;
 * the few functions it adds load a source in place of the live tab.
 */
import { DEFAULT_MAX_RECORDS, type ClassifiedRecord } from '../../shared/messages.ts';
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

export interface PanelTestHandle {
  /** The record log of the source shown: records, metas, tab state, counts, frames, indexes (`store.log`). */
  readonly log: RecordLog;
  /** The timeline view over the log: filters, the order shown, the selection, the time base (`store.timeline`). */
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

/** Install the handle on the page's global object (app: the composition root's parts). */
export function installTestHandle(app: PanelApp): PanelTestHandle {
  const { store, useTransport } = app;
  const handle: PanelTestHandle = {
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
        const classified = input.every(
          (r) => r && typeof r === 'object' && 'verdict' in r && Array.isArray((r as ClassifiedRecord).issues),
        );
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
