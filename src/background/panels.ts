/** The panel hop: snapshot then live records; options; tenant origin; sends routed to a frame's relay. */
import { MESSAGES_VERSION, type BackgroundToPanel, type BackgroundToRelay, type PanelToBackground } from '../shared/messages.ts';
import { onTab, persist, publishState, pushConfig, setMaxBytes, snapshot, toPanels, type TabCtx } from './tabs.ts';
import { pendingSends } from './relays.ts';
import { originOf } from '../protocol/origin.ts';

type Port = chrome.runtime.Port;

export function onPanelPort(port: Port): void {
  let subscribed: number | null = null;
  const reply = (msg: BackgroundToPanel) => { try { port.postMessage(msg); } catch { /* gone */ } };

  port.onMessage.addListener((msg: PanelToBackground) => {
    if (!msg || msg.v !== MESSAGES_VERSION) { console.warn('embed-inspector: panel message of another version dropped', msg); return; }
    const tabId = msg.tabId;
    switch (msg.type) {
      case 'subscribe':
        if (subscribed !== null && subscribed !== tabId) { const old = subscribed; void onTab(old, (ctx) => { ctx.panels.delete(port); }); }
        subscribed = tabId;
        void onTab(tabId, (ctx) => { ctx.panels.add(port); reply(snapshot(ctx)); });
        break;
      case 'clear':
        void onTab(tabId, async (ctx) => {
          ctx.log.reset(ctx.log.state.pageUrl);
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
          if (o.preserveLog !== undefined) s.preserveLog = !!o.preserveLog;
          if (o.receiveOnly !== undefined) s.receiveOnly = !!o.receiveOnly;
          if (o.paused !== undefined) s.paused = !!o.paused;
          let removed: number[] = [];
          if (o.maxRecords !== undefined && Number.isFinite(o.maxRecords)) removed = ctx.log.setMaxRecords(o.maxRecords);
          if (o.maxBytes !== undefined && Number.isFinite(o.maxBytes)) await setMaxBytes(o.maxBytes);
          pushConfig(ctx);
          if (removed.length) toPanels(ctx, snapshot(ctx)); else publishState(ctx);
          await persist(ctx);
        });
        break;
      case 'send':
        void onTab(tabId, (ctx) => route(ctx, msg, reply));
        break;
    }
  });
  port.onDisconnect.addListener(() => {
    if (subscribed !== null) void onTab(subscribed, (ctx) => { ctx.panels.delete(port); });
  });
}

/** Route a send to the frame that must appear as its sender. */
function route(ctx: TabCtx, msg: Extract<PanelToBackground, { type: 'send' }>, reply: (m: BackgroundToPanel) => void): void {
  const fail = (error: string) => reply({ v: MESSAGES_VERSION, type: 'send-result', id: msg.id, ok: false, error });
  // The panel sends data in the capture encoding (the port carries JSON only); the relay decodes it once.
  const data = msg.data;
  let frameId: number | undefined;
  let post: BackgroundToRelay;
  if (msg.from === 'host') {
    frameId = 0;
    post = { v: MESSAGES_VERSION, type: 'post', id: msg.id, target: 'child', childUrl: msg.frameUrl ?? embedFrameUrl(ctx), data, targetOrigin: msg.targetOrigin };
  } else {
    const frames = [...ctx.log.frames.values()].filter((f) => f.frameId !== 0);
    const tenant = ctx.log.state.tenantOrigin;
    const url = msg.frameUrl;
    const f = (url ? frames.find((x) => x.url === url) ?? frames.find((x) => originOf(x.url) === originOf(url)) : undefined)
      ?? (tenant ? frames.find((x) => originOf(x.url) === tenant) : undefined)
      // Never post from an arbitrary (possibly third-party) frame: only a lone child frame is a safe guess.
      ?? (frames.length === 1 ? frames[0] : undefined);
    frameId = f?.frameId;
    post = { v: MESSAGES_VERSION, type: 'post', id: msg.id, target: 'parent', data, targetOrigin: msg.targetOrigin };
  }
  const relay = frameId !== undefined ? ctx.relays.get(frameId) : undefined;
  if (!relay) { fail(msg.from === 'host' ? 'the page has no capture script connected (reload the page)' : 'no embed frame found in this tab'); return; }
  const timer = setTimeout(() => { pendingSends.delete(msg.id); fail('the frame did not answer'); }, 5000);
  pendingSends.set(msg.id, (ok, error) => { clearTimeout(timer); reply({ v: MESSAGES_VERSION, type: 'send-result', id: msg.id, ok, error }); });
  try { relay.postMessage(post); } catch { pendingSends.delete(msg.id); clearTimeout(timer); fail('the frame is gone'); }
}

function embedFrameUrl(ctx: TabCtx): string | undefined {
  const tenant = ctx.log.state.tenantOrigin;
  if (!tenant) return undefined;
  return [...ctx.log.frames.values()].find((f) => f.parentFrameId === 0 && originOf(f.url) === tenant)?.url;
}
