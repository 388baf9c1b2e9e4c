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
import { lastFlowExport } from '../features/flow/FlowExports.tsx';

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
  /** The flow view's last export (its file name and text). */
  readonly flowExport: { name: string; text: string };
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
    flowExport: lastFlowExport,
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
