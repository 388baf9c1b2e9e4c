/**
 * The capture hop: ports from the relays (one per frame and document). A relay whose frame's origin is out of the
 * capture scope (Firefox: another port of a captured host, whose pattern cannot name the port; any browser: a page
 * loaded before its site was removed) is told to pause and nothing it sends is stored; it never opens a tab's log.
 */
import { MESSAGES_VERSION, type BackgroundToRelay, type RelayToBackground } from '../shared/messages.ts';
import { originOf } from '../protocol/origin.ts';
import {
  configOf,
  ingest,
  onTab,
  relayModes,
  rememberBatch,
  scopedTabs,
  setFrame,
  topDocument,
  toPanels,
  type TabCtx,
} from './tabs.ts';
import { frameMode, scopeReady } from './scope.ts';
import { newState } from './tablog.ts';

type Port = chrome.runtime.Port;
type Sender = chrome.runtime.MessageSender & { documentId?: string };

/** Replies to `send` requests: request id → callback. */
export const pendingSends = new Map<string, (ok: boolean, error?: string) => void>();

/** Relays out of scope, and the origin of every relay's frame (to re-check it when the scope changes). */
export const outOfScope = new WeakSet<Port>();
export const relayOrigins = new WeakMap<Port, string | null>();

/** A frame's origin: the sender's (Chromium gives an about:blank frame its creator's), else its URL's. */
const originOfSender = (sender: Sender | undefined, frameUrl: string): string | null =>
  (sender?.origin && sender.origin !== 'null' ? sender.origin : null) ?? originOf(frameUrl);

export function onCapturePort(port: Port, webNavigation: typeof chrome.webNavigation | undefined): void {
  const sender = port.sender as Sender | undefined;
  const senderTab = sender?.tab?.id;
  const frameId = sender?.frameId ?? 0;
  if (senderTab === undefined || senderTab < 0) {
    port.disconnect();
    return;
  }
  const tabId: number = senderTab;

  // Messages are handled in the order they came, once the scope is loaded: a frame's batches reach the tab's
  // chain after its hello (which may start the tab's log).
  let gate: Promise<void> = scopeReady;
  port.onMessage.addListener((msg: RelayToBackground) => {
    if (!msg || msg.v !== MESSAGES_VERSION) {
      console.warn('embed-inspector: message of another version dropped', msg);
      return;
    }
    if (msg.type === 'post-result') {
      const cb = pendingSends.get(msg.id);
      pendingSends.delete(msg.id);
      cb?.(msg.ok, msg.error);
      return;
    }
    gate = gate.then(
      () => handle(msg),
      () => handle(msg),
    );
  });
  const ack = (batch: number) => {
    const m: BackgroundToRelay = { v: MESSAGES_VERSION, type: 'ack', batch };
    try {
      port.postMessage(m);
    } catch {
      /* the relay resends after reconnecting */
    }
  };
  function handle(msg: Exclude<RelayToBackground, { type: 'post-result' }>): void {
    switch (msg.type) {
      case 'hello': {
        const origin = originOfSender(sender, msg.frameUrl);
        relayOrigins.set(port, origin);
        const mode = frameMode(origin);
        if (mode === null) {
          outOfScope.add(port);
          const reply: BackgroundToRelay = {
            v: MESSAGES_VERSION,
            type: 'config',
            config: configOf(newState(tabId), null),
          };
          try {
            port.postMessage(reply);
          } catch {
            /* gone */
          }
          return;
        }
        outOfScope.delete(port);
        relayModes.set(port, mode);
        if (frameId === 0) {
          scopedTabs.add(tabId);
        }
        void onTab(tabId, (ctx) => hello(ctx, msg));
        return;
      }
      case 'records':
        // Out of scope: not stored, only acknowledged, so that the relay lets the batch go.
        if (outOfScope.has(port)) {
          ack(msg.batch);
          return;
        }
        // Stored now, processed later (tabs.ts, deferred processing): a burst costs the page little.
        void onTab(
          tabId,
          async (ctx) => {
            if (!outOfScope.has(port)) {
              const last = ctx.meta.docBatches[msg.docId] ?? 0;
              if (msg.batch > last) {
                rememberBatch(ctx, msg.docId, msg.batch);
                await ingest(ctx, frameId, msg.json);
              }
            }
            ack(msg.batch);
          },
          { lazy: true },
        );
        return;
    }
  }
  port.onDisconnect.addListener(() => {
    void onTab(tabId, (ctx) => {
      if (ctx.relays.get(frameId) === port) {
        ctx.relays.delete(frameId);
      }
    });
  });

  async function hello(ctx: TabCtx, msg: Extract<RelayToBackground, { type: 'hello' }>): Promise<void> {
    ctx.relays.set(frameId, port);
    let parentFrameId = frameId === 0 ? -1 : (ctx.log.frames.get(frameId)?.parentFrameId ?? -1);
    if (frameId !== 0 && webNavigation) {
      try {
        const f = await webNavigation.getFrame({ tabId, frameId });
        if (f) {
          parentFrameId = f.parentFrameId;
        }
      } catch {
        /* frame gone */
      }
    }
    setFrame(ctx, { frameId, parentFrameId, url: msg.frameUrl });
    if (msg.isTop && frameId === 0) {
      // Chrome: the navigation event may come later (or never, if the worker was asleep): start the log here.
      if (sender?.documentId && sender.documentId !== ctx.meta.topDocumentId) {
        await topDocument(ctx, msg.frameUrl, sender.documentId, msg.time);
      } else if (!ctx.log.state.pageUrl) {
        ctx.log.state.pageUrl = msg.frameUrl;
      }
    }
    const reply: BackgroundToRelay = {
      v: MESSAGES_VERSION,
      type: 'config',
      config: configOf(ctx.log.state, relayModes.get(port)),
    };
    try {
      port.postMessage(reply);
    } catch {
      /* gone */
    }
  }
}

export { toPanels };
