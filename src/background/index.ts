/**
 * Service worker (Chrome) / background script (Firefox): per-tab logs, persisted in IndexedDB, fed by the
 * relays of every frame, read by the panels. All listeners are registered synchronously at start, so an
 * event wakes a stopped worker up and reaches them.
 *
 * Nothing is recorded for a page out of the capture scope (scope.ts): its navigations are not logged, and no
 * script of ours runs in it.
 *
 * `globalThis.embedInspector` is a small read/drive API for the command line (`record`), the end-to-end
 * tests and the benchmark (they reach it through the DevTools protocol; in Firefox, an extension page reaches it
 * through `runtime.getBackgroundPage()`); the extension's UI does not use it. `setCapture`/`getCapture` set and
 * read the capture scope without a click.
 */
import { PORT_CAPTURE, PORT_PANEL, type ClassifiedRecord, type TabState } from '../shared/messages.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { originOf } from '../protocol/origin.ts';
import { onCapturePort } from './relays.ts';
import { notifyCapture, onPanelPort, onScopeChanged } from './panels.ts';
import {
  forget,
  hasContext,
  leaveScope,
  navigationRecord,
  addRecords,
  onTab,
  persist,
  pushConfig,
  publishState,
  scopedTabs,
  settings,
  setFrame,
  setMaxBytes,
  snapshot,
  topDocument,
  toPanels,
} from './tabs.ts';
import { listTabIds } from './db.ts';
import { frameMode, onScopeChange, scope, scopeReady, updateScope } from './scope.ts';
import { ScopeError, scopeFromSetting, settingOf, type CaptureSetting } from './scope-model.ts';

const api: typeof chrome = (globalThis as { browser?: typeof chrome }).browser ?? chrome;

api.runtime.onConnect.addListener((port) => {
  if (port.name === PORT_CAPTURE) {
    onCapturePort(port, api.webNavigation);
  } else if (port.name === PORT_PANEL) {
    onPanelPort(port);
  }
});

// Navigations are logged for tabs whose page is in scope (a frame of another site included: the frame tree of a
// captured page); a page out of scope is not logged at all, and ends the tab's log if it had one.
api.webNavigation?.onCommitted.addListener((d) => {
  if (d.tabId < 0) {
    return;
  }
  const details = d as typeof d & { documentId?: string; parentFrameId?: number };
  void scopeReady.then(() => {
    notifyCapture(d.tabId);
    const origin = originOf(d.url);
    const own = origin !== null ? frameMode(origin) !== null : scope().all !== null && d.url.startsWith('file:');
    if (d.frameId === 0) {
      if (!own) {
        scopedTabs.delete(d.tabId);
        if (hasContext(d.tabId)) {
          void onTab(d.tabId, (ctx) => leaveScope(ctx, details.documentId));
        }
        return;
      }
      scopedTabs.add(d.tabId);
      void onTab(d.tabId, (ctx) => topDocument(ctx, d.url, details.documentId, d.timeStamp));
      return;
    }
    if (!own && !scopedTabs.has(d.tabId)) {
      return;
    }
    void onTab(d.tabId, async (ctx) => {
      setFrame(ctx, {
        frameId: d.frameId,
        parentFrameId: details.parentFrameId ?? ctx.log.frames.get(d.frameId)?.parentFrameId ?? 0,
        url: d.url,
      });
      await addRecords(ctx, d.frameId, [navigationRecord(d.frameId, d.url, d.timeStamp)]);
    });
  });
});

api.tabs?.onRemoved.addListener((tabId) => {
  scopedTabs.delete(tabId);
  void forget(tabId);
});

// A scope change reaches the pages already open (a frame whose site left the scope stops recording at once) and
// the panels (what is captured, what their tab's sites are).
onScopeChange(onScopeChanged);

// Settings that apply to every tab: chrome.storage.local `settings` = {maxBytes} (set from the panel's ⚙ Settings).
void api.storage?.local
  .get('settings')
  .then((v) => {
    const s = (v as { settings?: { maxBytes?: number } }).settings;
    if (s?.maxBytes && Number.isFinite(s.maxBytes)) {
      settings.maxBytes = s.maxBytes;
    }
  })
  .catch(() => {});

export interface EmbedInspectorApi {
  tabIds(): Promise<number[]>;
  state(tabId: number): Promise<TabState>;
  records(tabId: number): Promise<ClassifiedRecord[]>;
  count(tabId: number): Promise<number>;
  exportCapture(tabId: number, createdBy?: string): Promise<CaptureFile>;
  setOptions(
    tabId: number,
    options: Partial<Pick<TabState, 'preserveLog' | 'paused' | 'maxRecords'>>,
  ): Promise<TabState>;
  setTenantOrigin(tabId: number, origin: string | null): Promise<TabState>;
  setMaxBytes(maxBytes: number): Promise<void>;
  /**
   * Set the capture scope: `{ sites: ['http://127.0.0.1:4100', …] | 'all' | [], mode: 'full' | 'receive-only' }`
   * (mode defaults to 'full'; `modes` gives sites modes of their own). Resolves with the scope (getCapture's shape)
   * once the content scripts are registered; rejects with what is wrong with the argument.
   */
  setCapture(setting: CaptureSetting): Promise<CaptureSetting>;
  getCapture(): Promise<CaptureSetting>;
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
  setOptions: (tabId, options) =>
    onTab(tabId, async (ctx) => {
      Object.assign(ctx.log.state, options);
      if (options.maxRecords !== undefined) {
        ctx.log.setMaxRecords(options.maxRecords);
      }
      pushConfig(ctx);
      publishState(ctx);
      await persist(ctx);
      return { ...ctx.log.state };
    }),
  setTenantOrigin: (tabId, origin) =>
    onTab(tabId, async (ctx) => {
      ctx.log.setTenantOrigin(origin);
      toPanels(ctx, snapshot(ctx));
      await persist(ctx);
      return { ...ctx.log.state };
    }),
  setMaxBytes,
  async setCapture(setting) {
    let next;
    try {
      next = scopeFromSetting(setting);
    } catch (e) {
      throw new Error(`embedInspector.setCapture: ${(e as Error).message}`);
    }
    try {
      await updateScope(() => next);
    } catch (e) {
      throw new Error(
        `embedInspector.setCapture: ${e instanceof ScopeError ? e.message : String((e as Error)?.message ?? e)}`,
      );
    }
    return settingOf(scope());
  },
  async getCapture() {
    await scopeReady;
    return settingOf(scope());
  },
};
(globalThis as { embedInspector?: EmbedInspectorApi }).embedInspector = inspector;
