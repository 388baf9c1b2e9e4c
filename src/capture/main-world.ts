/**
 * MAIN-world content script (every frame, document_start): records the posts this frame makes and hands
 * them to the isolated relay of the same frame through a private DOM event (never a `message` event).
 *
 * Hot path (inside the page's postMessage call): one tuple pushed on an array, nothing else. The posts are
 * encoded (encoding.ts) and serialized once, in a microtask at the end of the posting task, in one batch.
 * Consequence, documented: a message object the page mutates later in the same task is recorded as it is
 * at the end of the task (the delivery record on the other side holds what the browser delivered).
 * Foreign posts (no `svc-embed` marker) are recorded too, with a smaller size cap (FOREIGN_MAX_BYTES).
 */
import { encode, DEFAULT_MAX_BYTES } from '../protocol/encoding.ts';
import { CHANNEL_PAGE_TO_RELAY, CHANNEL_RELAY_TO_PAGE, type CaptureConfig, type RawRecord, type RelayToPage, type WindowRelation } from '../shared/messages.ts';
import { installHook } from './hook.ts';
import { FOREIGN_MAX_BYTES, isSvcEmbed, postTargetOrigin, transferCount, errorText } from './observe.ts';

(() => {
  const win = window as Window & typeof globalThis;
  // Once per realm (a second injection, e.g. after an extension reload, must not stack proxies).
  const KEY = Symbol.for('embed-inspector.hook');
  if ((win as unknown as Record<symbol, unknown>)[KEY]) return;
  Object.defineProperty(win, KEY, { value: true });

  const doc = document;
  const dispatch = doc.dispatchEvent.bind(doc);
  const CE = CustomEvent;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const perf = performance;
  const timeOrigin = perf.timeOrigin;
  const now = () => timeOrigin + perf.now();
  const microtask = queueMicrotask;

  let config: CaptureConfig = { receiveOnly: false, paused: false, maxBytes: DEFAULT_MAX_BYTES };
  // [time, relation, args, error, target]
  let pending: Array<[number, WindowRelation, unknown[], unknown, Window]> = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    let frameUrl = '';
    let origin = 'null';
    try { frameUrl = location.href; origin = location.origin; } catch { /* ignore */ }
    let parts: string[] = [];
    let chars = 0;
    const send = () => { if (parts.length) dispatch(new CE(CHANNEL_PAGE_TO_RELAY, { detail: parts.join(',') })); parts = []; chars = 0; };
    for (const [time, relation, args, error, target] of batch) {
      try {
        const data = args[0];
        const enc = encode(data, { maxBytes: isSvcEmbed(data) ? config.maxBytes : Math.min(config.maxBytes, FOREIGN_MAX_BYTES) });
        const rec: RawRecord = { time, kind: 'post', frameUrl, origin, targetOrigin: postTargetOrigin(args), target: relation, data: enc.value };
        if (relation === 'self') rec.targetUrl = frameUrl;
        else if (relation !== 'other') { try { rec.targetUrl = target.location.href; } catch { /* cross-origin */ } }
        if (enc.truncated) rec.originalSize = enc.size;
        const t = transferCount(args);
        if (t) rec.transfer = t;
        if (error !== undefined) rec.error = errorText(error);
        const json = stringify(rec);
        parts.push(json);
        chars += json.length;
        if (chars >= 1_000_000) send(); // bounded events and relay batches
      } catch { /* an unreadable record: skip it rather than disturb the page */ }
    }
    send();
  };

  const hook = installHook(win, (relation, args, error, target) => {
    if (config.paused) return;
    pending.push([now(), relation, args, error, target]);
    if (!scheduled) { scheduled = true; microtask(flush); }
  });

  doc.addEventListener(CHANNEL_RELAY_TO_PAGE, (e) => {
    try {
      const msg = parse(String((e as CustomEvent).detail)) as RelayToPage;
      if (msg.type !== 'config') return;
      config = msg.config;
      if (config.receiveOnly) hook.uninstall();
    } catch { /* ignore */ }
  });
})();
