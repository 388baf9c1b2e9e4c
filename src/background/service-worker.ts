/**
 * Service worker (Chrome) / background script (Firefox): per-tab logs, persisted in IndexedDB, fed by the
 * relays of every frame, read by the panels. All listeners are registered synchronously at start, so an
 * event wakes a stopped worker up and reaches them.
 *
 * Each tab's state has one writer, its session (tab-session.ts; the registry: sessions.ts). The relays' ports
 * (relays.ts), the panels' ports (panels.ts), the navigation events and the automation API below all call the
 * session's methods.
 *
 * Nothing is recorded for a page out of the capture scope (scope.ts): its navigations are not logged, and no
 * script of ours runs in it.
 *
 * `globalThis.embedInspector` is a small read/drive API for the command line (`record`), the end-to-end
 * tests and the benchmark (they reach it through the DevTools protocol; in Firefox, an extension page reaches it
 * through `runtime.getBackgroundPage()`); the extension's UI does not use it. `setCapture`/`getCapture` set and
 * read the capture scope without a click.
 */
import {
  PORT_CAPTURE,
  PORT_PANEL,
  SPILL_PREFIX,
  MESSAGES_VERSION,
  type ClassifiedRecord,
  type SettleResult,
  type TabState,
} from '../shared/messages.ts';
import { browserApi } from '../shared/browser-api.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { originOf } from '../protocol/origin.ts';
import { encode } from '../protocol/encoding.ts';
import { onCapturePort } from './relays.ts';
import { onPanelPort } from './panels.ts';
import { Sessions } from './sessions.ts';
import { FollowedListener, navFilterOf } from './nav-listener.ts';
import { checkWithin, type SetOptions } from './input-checks.ts';
import { commit, deleteTab, listMetas, listTabIds, loadTab } from './db.ts';
import { frameMode, onScopeChange, scope, scopeReady, tabSites, updateScope } from './scope.ts';
import { ScopeError, scopeFromSetting, settingOf, viewOf, type CaptureSetting } from './scope-model.ts';
import { SpillSeal, takeSpill, type SpillHost } from './spill.ts';
import { dropStaleLogs } from './stale-logs.ts';

const api = browserApi();

const sessions = new Sessions({
  store: { load: loadTab, commit, remove: deleteTab, tabIds: listTabIds },
  frameMode,
  async captureMessage(tabId) {
    const sites = await tabSites(tabId);
    return { type: 'capture', scope: viewOf(scope()), sites };
  },
});

const seal = new SpillSeal(api.storage.session);

api.runtime.onConnect.addListener((port) => {
  if (port.name === PORT_CAPTURE) {
    onCapturePort(port, sessions, { ready: scopeReady, frameMode }, seal);
  } else if (port.name === PORT_PANEL) {
    onPanelPort(port, sessions, { updateScope });
  }
});

// Navigations are logged for tabs whose page is in scope (a frame of another site included: the frame tree of a
// captured page); a page out of scope is not logged at all, and ends the tab's log if it had one. The listener
// hears only what this needs (nav-listener.ts): with nothing captured, a page load does not reach the worker.
type Committed = Parameters<Parameters<NonNullable<typeof api.webNavigation>['onCommitted']['addListener']>[0]>[0];
function onCommitted(d: Committed): void {
  if (d.tabId < 0) {
    return;
  }
  const details = d as typeof d & { documentId?: string; parentFrameId?: number; documentLifecycle?: string };
  if (details.documentLifecycle === 'prerender') {
    // A page Chrome prerenders is not the tab's yet (its frames say nothing until it is shown: capture/link.ts
    // `hold`); its activation commits again, as the top frame. When it began is kept (tab-navigation.ts).
    if (details.parentFrameId === -1 && details.documentId) {
      const documentId = details.documentId;
      void scopeReady.then(() => {
        const origin = originOf(d.url);
        if (sessions.isScoped(d.tabId) || (origin !== null && frameMode(origin) !== null)) {
          void sessions.get(d.tabId).prerendered(documentId, d.timeStamp);
        }
      });
    }
    return;
  }
  void scopeReady.then(() => {
    sessions.peek(d.tabId)?.framesChanged();
    const origin = originOf(d.url);
    const own = origin !== null ? frameMode(origin) !== null : scope().all !== null && d.url.startsWith('file:');
    if (d.frameId === 0) {
      sessions.setScoped(d.tabId, own);
      if (!own) {
        void sessions.peek(d.tabId)?.leftScope(details.documentId);
        return;
      }
    } else if (!own && !sessions.isScoped(d.tabId)) {
      return;
    }
    void sessions.get(d.tabId).navigated({
      frameId: d.frameId,
      parentFrameId: details.parentFrameId,
      url: d.url,
      documentId: details.documentId,
      time: d.timeStamp,
    });
  });
}
const navigations = new FollowedListener(api.webNavigation?.onCommitted, onCommitted);
// A closed tab's stored log is deleted: heard while some tab has a log.
const closes = new FollowedListener(api.tabs?.onRemoved, (tabId: number) => void sessions.forget(tabId));
let scopeKnown = false;
let followed = 0;
async function narrowListeners(): Promise<void> {
  if (!scopeKnown) {
    return;
  }
  navigations.set(navFilterOf(scope(), sessions.anyOpen()));
  const n = ++followed;
  const anyLog = await sessions.anyLog();
  if (n === followed) {
    closes.set(anyLog || sessions.anyOpen() ? 'every' : 'none');
  }
}
void scopeReady.then(() => {
  scopeKnown = true;
  void narrowListeners();
});
sessions.onOpenChange(() => void narrowListeners());

// A scope change reaches the pages already open (a frame whose site left the scope stops recording at once) and
// the panels (what is captured, what their tab's sites are).
onScopeChange(() => {
  void narrowListeners();
  for (const s of sessions.all()) {
    void s.rescope();
  }
});

// What a frame left in storage as it went, its port unanswered (spill.ts): heard as it is written (the write wakes a
// stopped worker), and whatever an earlier worker did not take, read as this one starts.
const spillHost: SpillHost = {
  async captured(tabId, origin) {
    await scopeReady;
    const open = await api.tabs.get(tabId).then(
      () => true,
      () => false,
    );
    return open && frameMode(origin) !== null;
  },
  accept: (claim, b) =>
    sessions
      .get(claim.tabId)
      .ingestSpilled(
        { frameId: claim.frameId, origin: claim.origin, outOfScope: false, ack() {}, resend() {} },
        { v: MESSAGES_VERSION, type: 'records', docId: claim.docId, ...b },
        claim.page,
      ),
  remove: (key) => api.storage.local.remove(key),
  warn: (why) => console.warn(`embed-inspector: ${why}`),
};
const taking = new Set<string>();
function takeSpilled(key: string, value: unknown): void {
  if (!key.startsWith(SPILL_PREFIX) || value === undefined || taking.has(key)) {
    return;
  }
  taking.add(key);
  void takeSpill(seal, spillHost, key, value)
    .catch((e) => console.warn('embed-inspector: a stored spill is kept for the next start', e))
    .finally(() => taking.delete(key));
}
api.storage.onChanged.addListener((changes, area) => {
  if (area === 'local') {
    for (const [key, change] of Object.entries(changes)) {
      takeSpilled(key, change.newValue);
    }
  }
});
api.storage.local.get(null).then(
  (all) => {
    for (const [key, value] of Object.entries(all)) {
      takeSpilled(key, value);
    }
  },
  (e) => console.warn('embed-inspector: stored spills not read', e),
);

// Settings that apply to every tab: storage.local `settings` = {maxBytes} (set from the panel's ⚙ Settings).
void sessions.loadSettings();
// The logs of an earlier browser session, whose tab ids new tabs take (stale-logs.ts).
void sessions.dropStale(() =>
  dropStaleLogs({
    mark: api.storage.session,
    metas: listMetas,
    remove: deleteTab,
    async shows(tabId) {
      const f = await api.webNavigation?.getFrame({ tabId, frameId: 0 }).catch(() => null);
      return f ? { documentId: (f as { documentId?: string }).documentId, url: f.url } : null;
    },
  }),
);

export interface EmbedInspectorApi {
  tabIds(): Promise<number[]>;
  state(tabId: number): Promise<TabState>;
  records(tabId: number): Promise<ClassifiedRecord[]>;
  count(tabId: number): Promise<number>;
  exportCapture(tabId: number, createdBy?: string): Promise<CaptureFile>;
  /** The panel's options, checked as the panel's are (a wrong value rejects and changes nothing). */
  setOptions(tabId: number, options: SetOptions): Promise<TabState>;
  /** An origin (normalized), or null: back to the inferred one. Rejects what is not an origin. */
  setTenantOrigin(tabId: number, origin: string | null): Promise<TabState>;
  setMaxBytes(maxBytes: number): Promise<void>;
  /** How long an embed has to say ready (a dashboard to load, an AI query its answer), ms, extension-wide (1 s–10 min). */
  setReadyTimeout(ms: number): Promise<void>;
  /**
   * Every frame of the tab hands over what it holds; resolves once it is in the log (what the page did so far),
   * with how many frames were asked and how many stayed silent (a page busy in a long task: settle again).
   * `within` (ms) bounds the wait: the frames that have not handed over by then count as silent.
   */
  settle(tabId: number, options?: { within?: number }): Promise<SettleResult>;
  /**
   * When the tab's diagnosis next judges what did not happen (epoch ms: a limit runs out then, e.g. an embed's time
   * to say ready), or null when no limit is left to run out: nothing more will be said of the records held.
   */
  nextLimit(tabId: number): Promise<number | null>;
  /** Empty the tab's log (the embed sessions go on), as the panel's Clear. */
  clear(tabId: number): Promise<void>;
  /**
   * Post `message` as the panel's composer does: an action (`direction: 'action'` or an `svc:action:` type) from the
   * top frame to the embed frame, target origin the tab's tenant origin (never `*`: rejects while it is unknown); an
   * event from the embed frame to its parent, target origin the page's. `frameUrl` picks the frame. Resolves once
   * the frame posted it; rejects with the frame's error.
   */
  send(tabId: number, message: unknown, options?: { frameUrl?: string; from?: 'host' | 'embed' }): Promise<void>;
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
    const ids = new Set(await sessions.tabIds().catch(() => [] as number[]));
    return [...ids];
  },
  state: (tabId) => sessions.get(tabId).state(),
  records: (tabId) => sessions.get(tabId).records(),
  count: (tabId) => sessions.get(tabId).count(),
  exportCapture: (tabId, createdBy) => sessions.get(tabId).exportCapture(createdBy),
  setOptions: (tabId, options) => sessions.get(tabId).setOptions(options),
  setTenantOrigin: (tabId, origin) => sessions.get(tabId).setTenantOrigin(origin),
  setMaxBytes: (maxBytes) => sessions.setMaxBytes(maxBytes),
  setReadyTimeout: (ms) => sessions.setReadyTimeout(ms),
  settle: async (tabId, options = {}) => sessions.get(tabId).settle(checkWithin(options?.within)),
  nextLimit: (tabId) => sessions.get(tabId).nextLimit(),
  clear: (tabId) => sessions.get(tabId).clear(),
  async send(tabId, message, options = {}) {
    const session = sessions.get(tabId);
    const state = await session.state();
    const d = (message && typeof message === 'object' ? message : {}) as { direction?: unknown; type?: unknown };
    const action = d.direction === 'action' || (typeof d.type === 'string' && d.type.startsWith('svc:action:'));
    const from = options.from ?? (action ? 'host' : 'embed');
    const targetOrigin = from === 'host' ? state.tenantOrigin : originOf(state.pageUrl ?? '');
    if (!targetOrigin) {
      throw new Error(
        from === 'host'
          ? 'embedInspector.send: the tenant origin is not known yet (no embed frame has spoken): set it with setTenantOrigin'
          : 'embedInspector.send: the page is not known yet (nothing captured in this tab)',
      );
    }
    const id = `api-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    await new Promise<void>((resolve, reject) => {
      void session.send(
        {
          type: 'send',
          tabId,
          id,
          from,
          frameUrl: options.frameUrl,
          data: encode(message).value,
          targetOrigin,
        },
        (m) => {
          if (m.ok) {
            resolve();
          } else {
            reject(new Error(`embedInspector.send: ${m.error ?? 'not sent'}`));
          }
        },
      );
    });
  },
  async setCapture(setting) {
    let next: ReturnType<typeof scopeFromSetting>;
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
