/**
 * `window.__embedInspectorPanel`: a handle for tests, the benchmark and the screenshots (extension pages are not
 * reachable by web pages, so this exposes nothing to the inspected page).
 */
import { DEFAULT_MAX_RECORDS, type ClassifiedRecord } from '../shared/messages.ts';
import type { CaptureRecord } from '../protocol/record.ts';
import type { PanelStore } from './store.ts';
import { checkFileRecords, createFileTransport, createMemoryTransport, type PanelTransport } from './transport.ts';
import { readCapture } from '../protocol/capture.ts';
import { syntheticSession } from './synthetic.ts';
import type { LiveLink } from './act/live.ts';
import type { ActController } from './ui/act/controller.ts';
import type { RestLog } from './rest/log.ts';

export interface PanelTestHandle {
  store: PanelStore;
  /** Load records (classified or not) or a capture file in place of the live log; returns the record count. */
  load(input: unknown, name?: string): number;
  /** A synthetic session of about n records. */
  synthetic(n: number): ClassifiedRecord[];
  useTransport(t: PanelTransport): void;
  /** The link to the live tab (sends), when the panel is attached to one. */
  link?: LiveLink | null;
  /** The composer / replay / import controller (set once the UI is up). */
  act?: ActController;
  /** REST calls seen in the Network traffic. */
  rest?: RestLog;
}

export function installTestHandle(store: PanelStore, useTransport: (t: PanelTransport) => void): PanelTestHandle {
  const hooks: PanelTestHandle = {
    store,
    useTransport,
    synthetic: (n) => syntheticSession(n),
    load(input, name = 'loaded records') {
      if (Array.isArray(input)) {
        const classified = input.every(
          (r) => r && typeof r === 'object' && 'verdict' in r && Array.isArray((r as ClassifiedRecord).issues),
        );
        const records = classified
          ? (input as ClassifiedRecord[])
          : checkFileRecords(input as CaptureRecord[], store.state.tenantOrigin).records;
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
