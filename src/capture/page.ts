/**
 * The MAIN-world capture of one frame (started by main-world.ts or main-world-receive.ts at document_start,
 * before any page script): records the posts this frame makes through the windows it got from the hooked
 * paths (hook.ts) and the messages it receives (receive.ts), in the order the frame saw them, and hands them
 * to the isolated relay of the same frame as JSON strings once the frame is quiet (outbox.ts; never a
 * `message` event).
 *
 * Posts. Hot path (inside the page's postMessage call): the time, the call and a place in the outbox pushed
 * on arrays, nothing else. The posts are encoded and serialized once (serialize.ts), in a microtask at the
 * end of the posting task, in one batch. Consequence, documented: a message object the page mutates later in
 * the same task is recorded as it is at the end of the task (the delivery record on the other side holds
 * what the browser delivered). A post with a transfer list is serialized before the call, since the
 * transfer detaches what it moves.
 * Receive-only mode removes the post hook; the delivery listener stays (it changes nothing the page sees).
 * Foreign messages (no `svc-embed` marker) are recorded too, with a smaller size cap (FOREIGN_MAX_BYTES).
 */
import { DEFAULT_MAX_BYTES } from '../protocol/encoding.ts';
import {
  CHANNEL_RELAY_TO_PAGE,
  type CaptureConfig,
  type RelayToPage,
  type WindowRelation,
} from '../shared/messages.ts';
import { installHook } from './hook.ts';
import { installReceiver } from './receive.ts';
import { relationFinder } from './relation.ts';
import { Outbox } from './outbox.ts';
import { dataJson, type DataJson } from './serialize.ts';
import { close, field, head, open, text } from './writer.ts';
import { FOREIGN_MAX_BYTES, isSvcEmbed, postTargetOrigin, transferCount, errorText } from './observe.ts';

export type PageMode = 'full' | 'receive-only';

/** Start capturing in this frame. `receive-only`: deliveries only, no hook on any window, from the first byte. */
export function startCapture(mode: PageMode): void {
  const win = window as Window & typeof globalThis;
  // No mark on the window: it would be page-visible. One registration per frame injects this once.
  const doc = document;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const perf = performance;
  const perfNow = perf.now.bind(perf);
  const timeOrigin = perf.timeOrigin;
  const now = () => timeOrigin + perfNow();
  const microtask = queueMicrotask;
  const outbox = new Outbox(doc, now); // the capture clock: a delivery's time is read once, for both

  let config: CaptureConfig = { receiveOnly: false, paused: false, maxBytes: DEFAULT_MAX_BYTES };
  // Pending posts: their times, and their calls flat, six slots each (relation, args, error, target, data
  // serialized before the call or undefined, outbox slot), so that a post allocates nothing of ours beyond the
  // array slots.
  let times: number[] = [];
  let calls: unknown[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const ts = times;
    const cs = calls;
    times = [];
    calls = [];
    let frameUrl = '';
    let origin = 'null';
    try {
      frameUrl = location.href;
      origin = location.origin;
    } catch {
      /* ignore */
    }
    const shared = head('post', frameUrl) + text('origin', origin);
    // A target's URL, read once per batch (a cross-origin read throws, and throwing is slow).
    const urls = new Map<Window, string | null>();
    const urlOf = (target: Window): string | null => {
      let u = urls.get(target);
      if (u === undefined) {
        try {
          u = stringify(String(target.location.href));
        } catch {
          u = null;
        }
        urls.set(target, u);
      }
      return u;
    };
    for (let i = 0; i < ts.length; i++) {
      const slot = cs[6 * i + 5] as number;
      let json = '';
      try {
        const relation = cs[6 * i] as WindowRelation;
        const args = cs[6 * i + 1] as unknown[];
        const error = cs[6 * i + 2];
        const target = cs[6 * i + 3] as Window;
        const d = (cs[6 * i + 4] as DataJson | undefined) ?? serialize(args[0]);
        json = open(ts[i], shared) + text('targetOrigin', postTargetOrigin(args)) + text('target', relation);
        const url = relation === 'other' ? null : urlOf(target);
        if (url !== null) {
          json += field('targetUrl', url);
        }
        if (d.originalSize !== undefined) {
          json += field('originalSize', String(d.originalSize));
        }
        const t = transferCount(args);
        if (t) {
          json += field('transfer', String(t));
        }
        if (error !== undefined) {
          json += text('error', errorText(error));
        }
        json += close(d.json);
      } catch {
        json = ''; /* an unreadable record: skip it rather than disturb the page */
      }
      outbox.fill(slot, json);
    }
  };
  const serialize = (data: unknown): DataJson =>
    dataJson(data, isSvcEmbed(data) ? config.maxBytes : Math.min(config.maxBytes, FOREIGN_MAX_BYTES));

  // First: it keeps the platform getters (event.source, parent) before the hook wraps them.
  const relationTo = relationFinder(win);
  installReceiver(
    win,
    () => config,
    now,
    relationTo,
    (json, time) => outbox.add(json, time),
  );

  const hook =
    mode === 'full'
      ? installHook(
          win,
          relationTo,
          (relation, args, error, target, early) => {
            if (config.paused) {
              return;
            }
            times.push(now());
            calls.push(relation, args, error, target, early, outbox.reserve());
            if (!scheduled) {
              scheduled = true;
              microtask(flush);
            }
          },
          (args) => (config.paused ? undefined : serialize(args[0])),
        )
      : null;

  doc.addEventListener(CHANNEL_RELAY_TO_PAGE, (e) => {
    try {
      const msg = parse(String((e as CustomEvent).detail)) as RelayToPage;
      if (msg.type === 'flush') {
        outbox.flush();
        return;
      }
      if (msg.type !== 'config') {
        return;
      }
      config = msg.config;
      if (config.receiveOnly) {
        hook?.uninstall();
      }
    } catch {
      /* ignore */
    }
  });
}
