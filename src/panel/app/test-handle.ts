/**
 * `window.__embedInspectorPanel`: a handle for tests, the benchmark and the screenshots (extension pages are not
 * reachable by web pages, so this exposes nothing to the inspected page).
 */
import { DEFAULT_MAX_RECORDS, type BackgroundToPanel, type ClassifiedRecord } from '../../shared/messages.ts';
import { type CaptureRecord, readCapture } from '../base/protocol.ts';
import type { PanelStore } from '../link/panel-store.ts';
import {
  checkFileRecords,
  createFileTransport,
  createMemoryTransport,
  type PanelCommand,
  type PanelTransport,
} from '../link/transports.ts';
import type { FilterState } from '../timeline/filters.ts';
import { syntheticSession } from './synthetic.ts';
import type { LiveLink } from '../link/live-link.ts';
import type { ActController } from '../features/act/act-controller.ts';
import type { RestLog } from '../features/rest/rest-log.ts';
import type { PanelApp } from './context.ts';
import { lastFlowExport } from '../features/flow/FlowExports.tsx';

/**
 * The store as the end-to-end tests, the benchmark and the screenshots script read it: one flat object over the
 * record log, the timeline view and the link, reading through their accessors and calling their methods (it holds
 * no state of its own).
 */
export function storeHandle(store: PanelStore) {
  const { log, timeline: view } = store;
  return {
    get records() {
      return log.all();
    },
    get meta() {
      return log.allMetas();
    },
    get view() {
      return view.order;
    },
    get counts() {
      return log.counts;
    },
    get types() {
      return log.types();
    },
    get origins() {
      return log.origins();
    },
    get frames() {
      return log.frames();
    },
    get readyIndex() {
      return log.readyIndex;
    },
    get loadedIndex() {
      return log.loadedIndex;
    },
    get textIndexed() {
      return log.textIndexed;
    },
    get state() {
      return log.state;
    },
    get filters() {
      return view.filters;
    },
    get timeBase() {
      return view.timeBase;
    },
    get selectedSeq() {
      return view.selectedSeq;
    },
    get status() {
      return store.status;
    },
    get capture() {
      return store.capture;
    },
    get transportInfo() {
      return store.transportInfo;
    },
    recordBySeq: (seq: number | null) => log.bySeq(seq),
    indexOfSeq: (seq: number) => log.indexOfSeq(seq),
    replace: (records: ClassifiedRecord[]) => log.replace(records),
    flush: () => log.flush(),
    handle: (msg: BackgroundToPanel) => store.handle(msg),
    command: (cmd: PanelCommand) => store.command(cmd),
    setFilters: (patch: Partial<FilterState>) => view.setFilters(patch),
    resetFilters: () => view.resetFilters(),
    select: (seq: number | null) => view.select(seq),
    selectedViewPos: () => view.selectedViewPos(),
  };
}

export interface PanelTestHandle {
  store: ReturnType<typeof storeHandle>;
  /** Load records (classified or not) or a capture file in place of the live log; returns the record count. */
  load(input: unknown, name?: string): number;
  /** A synthetic session of about n records. */
  synthetic(n: number): ClassifiedRecord[];
  useTransport(t: PanelTransport): void;
  /** The link to the live tab (sends), when the panel is attached to one. */
  link?: LiveLink | null;
  /** The composer / replay / import controller. */
  act?: ActController;
  /** REST calls seen in the Network traffic. */
  rest?: RestLog;
  /** The flow view's last export (its file name and text). */
  flowExport?: { name: string; text: string };
}

/** Install the handle on the page's global object (app: the composition root's parts). */
export function installTestHandle(app: PanelApp): PanelTestHandle {
  const { store, useTransport } = app;
  const hooks: PanelTestHandle = {
    store: storeHandle(store),
    useTransport,
    link: app.live,
    act: app.act,
    rest: app.rest,
    flowExport: lastFlowExport,
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
  (globalThis as { __embedInspectorPanel?: PanelTestHandle }).__embedInspectorPanel = hooks;
  return hooks;
}
