/**
 * Isolated-world content script (every frame, document_start, before any page script).
 *
 * - Records every `message` event this frame receives: a capture-phase listener on `window`, registered
 *   first, so page listeners that stop propagation hide nothing. Encoded once, serialized once.
 * - Receives the MAIN world's post records (private DOM event with a string detail) and splices them
 *   into the same batches, unparsed.
 * - Sends the batches to the background over a Port (see link.ts: acknowledged, resent, never lost).
 * - Passes the tab's capture config to the MAIN world; runs the posts the panel asks for (inject.ts).
 * It never posts a message of its own to the page, and makes no network request.
 */
import { encode, DEFAULT_MAX_BYTES } from '../protocol/encoding.ts';
import {
  CHANNEL_PAGE_TO_RELAY, CHANNEL_RELAY_TO_PAGE, MESSAGES_VERSION,
  type BackgroundToRelay, type CaptureConfig, type RawRecord, type RelayToPage, type WindowRelation,
} from '../shared/messages.ts';
import { Link, type RuntimeLike } from './link.ts';
import { FOREIGN_MAX_BYTES, isSvcEmbed } from './observe.ts';
import { runPost } from './inject.ts';

(() => {
  const api = ((globalThis as { browser?: { runtime?: RuntimeLike } }).browser?.runtime
    ? (globalThis as unknown as { browser: typeof chrome }).browser
    : chrome);
  if (!api?.runtime?.connect) return;
  const KEY = '__embedInspectorRelay';
  const g = globalThis as Record<string, unknown>;
  if (g[KEY]) return;
  g[KEY] = true;

  let config: CaptureConfig = { receiveOnly: false, paused: false, maxBytes: DEFAULT_MAX_BYTES };
  const now = () => performance.timeOrigin + performance.now();
  const isTop = window === window.top;

  const link = new Link({
    runtime: api.runtime,
    hello: () => ({ frameUrl: location.href, isTop, time: now() }),
    onMessage(msg: BackgroundToRelay) {
      if (msg.type === 'config') {
        config = msg.config;
        const detail: RelayToPage = { v: MESSAGES_VERSION, type: 'config', config };
        document.dispatchEvent(new CustomEvent(CHANNEL_RELAY_TO_PAGE, { detail: JSON.stringify(detail) }));
      } else if (msg.type === 'post') {
        const { result, record } = runPost(msg, window, document, now);
        if (record) link.push(JSON.stringify(record));
        link.send({ v: MESSAGES_VERSION, type: 'post-result', id: msg.id, ...result });
      }
    },
  });

  const relationOf = (s: unknown): WindowRelation | undefined => {
    if (s === null || s === undefined) return undefined;
    if (s === window) return 'self';
    if (s === window.parent) return 'parent';
    if (s === window.opener) return 'opener';
    for (let i = 0; i < window.length; i++) if (window[i] === s) return 'child';
    return 'other';
  };

  window.addEventListener('message', (e: MessageEvent) => {
    if (config.paused) return;
    try {
      const data = e.data;
      const enc = encode(data, { maxBytes: isSvcEmbed(data) ? config.maxBytes : Math.min(config.maxBytes, FOREIGN_MAX_BYTES) });
      const rec: RawRecord = { time: now(), kind: 'receive', frameUrl: location.href, origin: e.origin, data: enc.value };
      const from = relationOf(e.source);
      if (from) rec.from = from;
      if (enc.truncated) rec.originalSize = enc.size;
      if (e.ports?.length) rec.transfer = e.ports.length;
      link.push(JSON.stringify(rec));
    } catch { /* never disturb the page */ }
  }, true);

  document.addEventListener(CHANNEL_PAGE_TO_RELAY, (e) => {
    const detail = (e as CustomEvent).detail;
    if (typeof detail === 'string' && detail) link.push(detail, true);
  });

  // Leaving the page (or entering the back/forward cache): send what is queued now.
  window.addEventListener('pagehide', () => link.flush(), true);
  window.addEventListener('pageshow', (e) => { if ((e as PageTransitionEvent).persisted) link.start(); }, true);

  link.start();
})();
