/**
 * The panel hop: snapshot then live records; options; tenant origin; sends routed to a frame's relay; the capture
 * scope (what is captured, the tab's sites, changes asked for from the panel).
 */
import {
  MESSAGES_VERSION,
  type BackgroundToPanel,
  type BackgroundToRelay,
  type PanelToBackground,
  type RelayToBackground,
} from '../shared/messages.ts';
import {
  allContexts,
  configOf,
  hasContext,
  onTab,
  persist,
  publishState,
  pushConfig,
  relayModes,
  setMaxBytes,
  snapshot,
  toPanels,
  type TabCtx,
} from './tabs.ts';
import { outOfScope, pendingSends, relayOrigins } from './relays.ts';
import { originOf } from '../protocol/origin.ts';
import { frameMode, scope, tabSites, updateScope } from './scope.ts';
import { viewOf, withChange, type Scope } from './scope-model.ts';

const tabsApi = () => ((globalThis as { browser?: typeof chrome }).browser ?? chrome).tabs;

/** The `capture` message for a tab: the scope and the tab's sites as its frames are now. */
async function captureMessage(tabId: number): Promise<BackgroundToPanel> {
  const sites = await tabSites(tabId);
  return { v: MESSAGES_VERSION, type: 'capture', scope: viewOf(scope()), sites };
}
async function sendCapture(ctx: TabCtx): Promise<void> {
  if (!ctx.panels.size) {
    return;
  }
  toPanels(ctx, await captureMessage(ctx.log.state.tabId));
}

/** The tab's frames changed (a navigation): its panels get its sites anew, once the frames settle. */
const captureTimers = new Map<number, ReturnType<typeof setTimeout>>();
export function notifyCapture(tabId: number): void {
  if (!hasContext(tabId)) {
    return;
  }
  clearTimeout(captureTimers.get(tabId));
  captureTimers.set(
    tabId,
    setTimeout(() => {
      captureTimers.delete(tabId);
      void onTab(tabId, (ctx) => sendCapture(ctx));
    }, 250),
  );
}

/** The scope changed: frames whose site left it stop recording at once; every panel gets the new scope. */
export function onScopeChanged(_scope: Scope): void {
  for (const p of allContexts()) {
    void p.then(
      (c) =>
        onTab(c.log.state.tabId, async (ctx) => {
          for (const [frameId, port] of ctx.relays) {
            const mode = frameMode(relayOrigins.get(port));
            if (mode !== null) {
              relayModes.set(port, mode);
              continue;
            }
            outOfScope.add(port);
            ctx.relays.delete(frameId);
            const msg: BackgroundToRelay = {
              v: MESSAGES_VERSION,
              type: 'config',
              config: configOf(ctx.log.state, null),
            };
            try {
              port.postMessage(msg);
            } catch {
              /* gone */
            }
          }
          pushConfig(ctx);
          await sendCapture(ctx);
        }),
      () => {},
    );
  }
}

type Port = chrome.runtime.Port;

export function onPanelPort(port: Port): void {
  let subscribed: number | null = null;
  const reply = (msg: BackgroundToPanel) => {
    try {
      port.postMessage(msg);
    } catch {
      /* gone */
    }
  };

  port.onMessage.addListener((msg: PanelToBackground) => {
    if (!msg || msg.v !== MESSAGES_VERSION) {
      console.warn('embed-inspector: panel message of another version dropped', msg);
      return;
    }
    const tabId = msg.tabId;
    switch (msg.type) {
      case 'subscribe':
        if (subscribed !== null && subscribed !== tabId) {
          const old = subscribed;
          void onTab(old, (ctx) => {
            ctx.panels.delete(port);
          });
        }
        subscribed = tabId;
        void onTab(tabId, async (ctx) => {
          ctx.panels.add(port);
          reply(snapshot(ctx));
          reply(await captureMessage(tabId));
        });
        break;
      case 'set-capture': {
        const change = msg.change;
        void updateScope((s) => withChange(s, change)).then(
          async () => {
            reply({ v: MESSAGES_VERSION, type: 'capture-result', id: msg.id, ok: true });
            if (msg.reload) {
              await tabsApi().reload(tabId);
            }
          },
          (e: Error) =>
            reply({
              v: MESSAGES_VERSION,
              type: 'capture-result',
              id: msg.id,
              ok: false,
              error: e?.message ?? String(e),
            }),
        );
        break;
      }
      case 'reload':
        void Promise.resolve(tabsApi().reload(tabId)).catch(() => {});
        break;
      case 'clear':
        void onTab(tabId, async (ctx) => {
          ctx.log.clear();
          toPanels(ctx, snapshot(ctx));
          await persist(ctx, { clear: true });
        });
        break;
      case 'set-tenant-origin':
        void onTab(tabId, async (ctx) => {
          ctx.log.setTenantOrigin(msg.origin);
          toPanels(ctx, snapshot(ctx));
          await persist(ctx);
        });
        break;
      case 'set-options':
        void onTab(tabId, async (ctx) => {
          const o = msg.options;
          const s = ctx.log.state;
          if (o.preserveLog !== undefined) {
            s.preserveLog = !!o.preserveLog;
          }
          if (o.paused !== undefined) {
            s.paused = !!o.paused;
          }
          let removed: number[] = [];
          if (o.maxRecords !== undefined && Number.isFinite(o.maxRecords)) {
            removed = ctx.log.setMaxRecords(o.maxRecords);
          }
          if (o.maxBytes !== undefined && Number.isFinite(o.maxBytes)) {
            await setMaxBytes(o.maxBytes);
          }
          pushConfig(ctx);
          if (removed.length) {
            toPanels(ctx, snapshot(ctx));
          } else {
            publishState(ctx);
          }
          await persist(ctx);
        });
        break;
      case 'send':
        void onTab(tabId, (ctx) => route(ctx, msg, reply));
        break;
    }
  });
  port.onDisconnect.addListener(() => {
    if (subscribed !== null) {
      void onTab(subscribed, (ctx) => {
        ctx.panels.delete(port);
      });
    }
  });
}

/** Route a send to the frame that must appear as its sender. */
function route(
  ctx: TabCtx,
  msg: Extract<PanelToBackground, { type: 'send' }>,
  reply: (m: BackgroundToPanel) => void,
): void {
  const fail = (error: string) => reply({ v: MESSAGES_VERSION, type: 'send-result', id: msg.id, ok: false, error });
  // The panel sends data in the capture encoding (the port carries JSON only); the relay decodes it once.
  const data = msg.data;
  let frameId: number | undefined;
  let post: BackgroundToRelay;
  if (msg.from === 'host') {
    frameId = 0;
    post = {
      v: MESSAGES_VERSION,
      type: 'post',
      id: msg.id,
      target: 'child',
      childUrl: msg.frameUrl ?? embedFrameUrl(ctx),
      data,
      targetOrigin: msg.targetOrigin,
    };
  } else {
    const frames = [...ctx.log.frames.values()].filter((f) => f.frameId !== 0);
    const tenant = ctx.log.state.tenantOrigin;
    const url = msg.frameUrl;
    const f =
      (url
        ? (frames.find((x) => x.url === url) ?? frames.find((x) => originOf(x.url) === originOf(url)))
        : undefined) ??
      (tenant ? frames.find((x) => originOf(x.url) === tenant) : undefined) ??
      // Never post from an arbitrary (possibly third-party) frame: only a lone child frame is a safe guess.
      (frames.length === 1 ? frames[0] : undefined);
    frameId = f?.frameId;
    post = { v: MESSAGES_VERSION, type: 'post', id: msg.id, target: 'parent', data, targetOrigin: msg.targetOrigin };
  }
  if (frameId === undefined) {
    fail(msg.from === 'host' ? 'no top frame in this tab' : 'no embed frame found in this tab');
    return;
  }
  const relay = ctx.relays.get(frameId);
  if (!relay) {
    // The frame's port closed while the page was quiet (the service worker stopped): reach its relay directly;
    // it posts, replies with the result, and its record of the post reconnects the port.
    const tabs = (globalThis as { browser?: typeof chrome }).browser?.tabs ?? chrome.tabs;
    const done = (r: Extract<RelayToBackground, { type: 'post-result' }> | undefined) =>
      reply({
        v: MESSAGES_VERSION,
        type: 'send-result',
        id: msg.id,
        ok: !!r?.ok,
        error: r
          ? r.error
          : 'the page has no capture script (capture is off for this site, or the page was opened before it was turned on: reload it)',
      });
    Promise.resolve(tabs.sendMessage(ctx.log.state.tabId, post, { frameId })).then(
      (r) => done(r as Extract<RelayToBackground, { type: 'post-result' }> | undefined),
      () => done(undefined),
    );
    return;
  }
  const timer = setTimeout(() => {
    pendingSends.delete(msg.id);
    fail('the frame did not answer');
  }, 5000);
  pendingSends.set(msg.id, (ok, error) => {
    clearTimeout(timer);
    reply({ v: MESSAGES_VERSION, type: 'send-result', id: msg.id, ok, error });
  });
  try {
    relay.postMessage(post);
  } catch {
    pendingSends.delete(msg.id);
    clearTimeout(timer);
    fail('the frame is gone');
  }
}

function embedFrameUrl(ctx: TabCtx): string | undefined {
  const tenant = ctx.log.state.tenantOrigin;
  if (!tenant) {
    return undefined;
  }
  return [...ctx.log.frames.values()].find((f) => f.parentFrameId === 0 && originOf(f.url) === tenant)?.url;
}
