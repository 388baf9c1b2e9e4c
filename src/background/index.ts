/**
 * Service worker (Chrome) / background script (Firefox): per-tab logs, persisted in IndexedDB, fed by the
 * relays of every frame, read by the panels. All listeners are registered synchronously at start, so an
 * event wakes a stopped worker up and reaches them.
 *
 * `globalThis.embedInspector` is a small read/drive API for the command line (`record`), the end-to-end
 * tests and the benchmark (they reach it through the DevTools protocol); the extension's UI does not use it.
 */
import { PORT_CAPTURE, PORT_PANEL, type ClassifiedRecord, type TabState } from '../shared/messages.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { onCapturePort } from './relays.ts';
import { onPanelPort } from './panels.ts';
import { forget, navigationRecord, addRecords, onTab, persist, pushConfig, publishState, settings, setFrame, setMaxBytes, snapshot, topDocument, toPanels } from './tabs.ts';
import { listTabIds } from './db.ts';

const api: typeof chrome = (globalThis as { browser?: typeof chrome }).browser ?? chrome;

api.runtime.onConnect.addListener((port) => {
  if (port.name === PORT_CAPTURE) onCapturePort(port, api.webNavigation);
  else if (port.name === PORT_PANEL) onPanelPort(port);
});

api.webNavigation?.onCommitted.addListener((d) => {
  if (d.tabId < 0) return;
  const details = d as typeof d & { documentId?: string; parentFrameId?: number };
  void onTab(d.tabId, async (ctx) => {
    if (d.frameId === 0) {
      await topDocument(ctx, d.url, details.documentId, d.timeStamp);
      return;
    }
    setFrame(ctx, { frameId: d.frameId, parentFrameId: details.parentFrameId ?? ctx.log.frames.get(d.frameId)?.parentFrameId ?? 0, url: d.url });
    await addRecords(ctx, d.frameId, [navigationRecord(d.frameId, d.url, d.timeStamp)]);
  });
});

api.tabs?.onRemoved.addListener((tabId) => { void forget(tabId); });

// Settings that apply to every tab: chrome.storage.local `settings` = {maxBytes} (set from the panel's Limits).
void api.storage?.local.get('settings').then((v) => {
  const s = (v as { settings?: { maxBytes?: number } }).settings;
  if (s?.maxBytes && Number.isFinite(s.maxBytes)) settings.maxBytes = s.maxBytes;
}).catch(() => {});

export interface EmbedInspectorApi {
  tabIds(): Promise<number[]>;
  state(tabId: number): Promise<TabState>;
  records(tabId: number): Promise<ClassifiedRecord[]>;
  count(tabId: number): Promise<number>;
  exportCapture(tabId: number, createdBy?: string): Promise<CaptureFile>;
  setOptions(tabId: number, options: Partial<Pick<TabState, 'preserveLog' | 'receiveOnly' | 'paused' | 'maxRecords'>>): Promise<TabState>;
  setTenantOrigin(tabId: number, origin: string | null): Promise<TabState>;
  setMaxBytes(maxBytes: number): Promise<void>;
}

const inspector: EmbedInspectorApi = {
  async tabIds() {
    const ids = new Set(await listTabIds().catch(() => [] as number[]));
    return [...ids];
  },
  state: (tabId) => onTab(tabId, (ctx) => ({ ...ctx.log.state })),
  records: (tabId) => onTab(tabId, (ctx) => [...ctx.log.records.values()]),
  count: (tabId) => onTab(tabId, (ctx) => ctx.log.records.size),
  exportCapture: (tabId, createdBy) => onTab(tabId, (ctx) => ctx.log.exportCapture(createdBy)),
  setOptions: (tabId, options) => onTab(tabId, async (ctx) => {
    Object.assign(ctx.log.state, options);
    if (options.maxRecords !== undefined) ctx.log.setMaxRecords(options.maxRecords);
    pushConfig(ctx);
    publishState(ctx);
    await persist(ctx);
    return { ...ctx.log.state };
  }),
  setTenantOrigin: (tabId, origin) => onTab(tabId, async (ctx) => {
    ctx.log.setTenantOrigin(origin);
    toPanels(ctx, snapshot(ctx));
    await persist(ctx);
    return { ...ctx.log.state };
  }),
  setMaxBytes,
};
(globalThis as { embedInspector?: EmbedInspectorApi }).embedInspector = inspector;
