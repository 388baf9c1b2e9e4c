/** The capture hop: ports from the relays (one per frame and document). */
import { MESSAGES_VERSION, type BackgroundToRelay, type RelayToBackground } from '../shared/messages.ts';
import { configOf, ingest, onTab, rememberBatch, setFrame, topDocument, toPanels } from './tabs.ts';

type Port = chrome.runtime.Port;
type Sender = chrome.runtime.MessageSender & { documentId?: string };

/** Replies to `send` requests: request id → callback. */
export const pendingSends = new Map<string, (ok: boolean, error?: string) => void>();

export function onCapturePort(port: Port, webNavigation: typeof chrome.webNavigation | undefined): void {
  const sender = port.sender as Sender | undefined;
  const tabId = sender?.tab?.id;
  const frameId = sender?.frameId ?? 0;
  if (tabId === undefined || tabId < 0) { port.disconnect(); return; }

  port.onMessage.addListener((msg: RelayToBackground) => {
    if (!msg || msg.v !== MESSAGES_VERSION) { console.warn('embed-inspector: message of another version dropped', msg); return; }
    switch (msg.type) {
      case 'hello':
        void onTab(tabId, async (ctx) => {
          ctx.relays.set(frameId, port);
          let parentFrameId = frameId === 0 ? -1 : ctx.log.frames.get(frameId)?.parentFrameId ?? -1;
          if (frameId !== 0 && webNavigation) {
            try {
              const f = await webNavigation.getFrame({ tabId, frameId });
              if (f) parentFrameId = f.parentFrameId;
            } catch { /* frame gone */ }
          }
          setFrame(ctx, { frameId, parentFrameId, url: msg.frameUrl });
          if (msg.isTop && frameId === 0) {
            // Chrome: the navigation event may come later (or never, if the worker was asleep): start the log here.
            if (sender?.documentId && sender.documentId !== ctx.meta.topDocumentId) await topDocument(ctx, msg.frameUrl, sender.documentId, msg.time);
            else if (!ctx.log.state.pageUrl) ctx.log.state.pageUrl = msg.frameUrl;
          }
          const reply: BackgroundToRelay = { v: MESSAGES_VERSION, type: 'config', config: configOf(ctx.log.state) };
          try { port.postMessage(reply); } catch { /* gone */ }
        });
        break;
      case 'records':
        // Stored now, processed later (tabs.ts, deferred processing): a burst costs the page little.
        void onTab(tabId, async (ctx) => {
          const last = ctx.meta.docBatches[msg.docId] ?? 0;
          if (msg.batch > last) {
            rememberBatch(ctx, msg.docId, msg.batch);
            await ingest(ctx, frameId, msg.json);
          }
          const ack: BackgroundToRelay = { v: MESSAGES_VERSION, type: 'ack', batch: msg.batch };
          try { port.postMessage(ack); } catch { /* the relay resends after reconnecting */ }
        }, { lazy: true });
        break;
      case 'post-result': {
        const cb = pendingSends.get(msg.id);
        pendingSends.delete(msg.id);
        cb?.(msg.ok, msg.error);
        break;
      }
    }
  });
  port.onDisconnect.addListener(() => {
    void onTab(tabId, (ctx) => { if (ctx.relays.get(frameId) === port) ctx.relays.delete(frameId); });
  });
}

export { toPanels };
