/**
 * The MAIN-world capture of one frame, full mode (started by main-world.ts at document_start, before any page
 * script): records the posts this frame makes through the windows it got from the hooked paths (hook.ts), and
 * hands them to the isolated relay of the same frame (never a `message` event) when the relay asks or when its
 * outbox says so (outbox.ts). Deliveries are recorded by the relay (deliveries.ts), which also writes their count
 * into a Text node it shares with this world as both start, when this world asks (at the first post of each
 * task): posts read it (the first of a task, and the first after the relay says it changed), so that the relay can
 * put posts and deliveries in the frame's order (relay-merge.ts). Where the relay has not started yet (its answer is
 * synchronous, so it did not answer), a capture-phase listener registered now counts the same deliveries.
 *
 * Posts. Hot path (inside the page's postMessage call): the time, the call and a place in the outbox, kept in
 * one object, nothing else. The posts are read once, in a microtask at the end of the posting task, in one batch,
 * with everything else their records hold: plain data whose text cannot reach its cap is copied (serialize.ts,
 * `ownCopy`: sharing the data's strings), anything else encoded and serialized; the records' text, the copies'
 * included, is written from that when the frame hands over (`lineOf`), once the frame is quiet, so a burst of long
 * messages does not pay for their text while its receiver still takes them. Consequence,
 * documented: a message object the page mutates later in the same task is recorded as it is at the end of the
 * task (the delivery record on the other side holds what the browser delivered). A post with a transfer list is
 * serialized before the call, since the transfer detaches what it moves.
 * A frame whose site is (or becomes) receive-only gets no MAIN-world script, or removes the hook.
 * Foreign messages (no `svc-embed` marker) are recorded too, with a smaller size cap (FOREIGN_MAX_BYTES).
 */
import { DEFAULT_MAX_BYTES } from '../protocol/encoding.ts';
import {
  CHANNEL_COUNTER,
  CHANNEL_COUNTER_ASK,
  CHANNEL_COUNTER_CHANGED,
  CHANNEL_PAGE_RECORDS,
  CHANNEL_RELAY_TO_PAGE,
  type CaptureConfig,
  type RelayToPage,
  type WindowRelation,
} from '../shared/messages.ts';
import { accept } from '../shared/channel.ts';
import { installHook } from './hook.ts';
import { CHANNEL_READER, deliveryReader } from './deliveries.ts';
import { relationFinder } from './relation.ts';
import { postLine, MAX_DETAIL_CHARS } from './relay-merge.ts';
import { Outbox } from './outbox.ts';
import { copyJson, dataJson, ownCopy, type DataJson } from './serialize.ts';
import { close, field, head, open, text } from './writer.ts';
import { FOREIGN_MAX_BYTES, isSvcEmbed, postTargetOrigin, transferCount, errorText } from './observe.ts';

/** A post of the current task, as its call left it. */
interface Call {
  time: number;
  relation: WindowRelation;
  args: unknown[];
  error: unknown;
  target: Window;
  /** Its data serialized before the call (it carried a transfer list), or undefined. */
  early: DataJson | undefined;
  /** Its place in the outbox. */
  slot: number;
  /** Deliveries the frame had seen (read after the task's ask). */
  after: number;
}

/** What a post's record is written from (`lineOf`): all of it read at the end of the posting task. */
interface Written {
  time: number;
  /** Deliveries the frame had seen when the page posted (relay-merge.ts). */
  after: number;
  /** The fields every post of its batch shares (`head` and origin). */
  shared: string;
  targetOrigin: string;
  relation: WindowRelation;
  /** JSON text of the target's URL, or null where it cannot be read. */
  url: string | null;
  /**
   * The data's text, or null when the data was plain and is held as `copy` (sharing the page's strings), written
   * at the hand-over (its text cannot reach its cap): a burst's sender does not write its long messages while
   * their receiver still takes them (BENCHMARKS.md, issue 31).
   */
  data: DataJson | null;
  copy: unknown;
  transfer: number;
  error: string | undefined;
}

/** What a written post counts for in the outbox's bounds beyond its shared fields and data (its other fields). */
const WRITTEN_CHARS = 120;

/** A post's line for the relay. */
function lineOf(w: Written): string {
  const data = w.data ?? { json: copyJson(w.copy) };
  let json = open(w.time, w.shared) + text('targetOrigin', w.targetOrigin) + text('target', w.relation);
  if (w.url !== null) {
    json += field('targetUrl', w.url);
  }
  if (data.originalSize !== undefined) {
    json += field('originalSize', String(data.originalSize));
  }
  if (w.transfer) {
    json += field('transfer', String(w.transfer));
  }
  if (w.error !== undefined) {
    json += text('error', w.error);
  }
  return postLine(w.after, json + close(data.json));
}

/** Start capturing posts in this frame (full mode). */
export function startCapture(): void {
  const win = window as Window & typeof globalThis;
  // No mark on the window: it would be page-visible. One registration per frame injects this once.
  const doc = document;
  const stringify = JSON.stringify;
  // Captured now: the page may replace JSON.parse later (what readRelayToPage in channel.ts does, with this parse).
  const parse = JSON.parse;
  const perf = performance;
  const perfNow = perf.now.bind(perf);
  const timeOrigin = perf.timeOrigin;
  const now = () => timeOrigin + perfNow();
  const microtask = queueMicrotask;
  const CE = CustomEvent;
  const dispatch = doc.dispatchEvent.bind(doc);
  // Each hand-over: lines of `<after>\t<record JSON>` (relay-merge.ts), one event for each part of about
  // MAX_DETAIL_CHARS the outbox hands over. A post's line is written then, once the frame is quiet, from what its
  // task's end read (`Written`). The posts of later parts are still in the outbox while the relay reads a part:
  // when the relay hands its deliveries over (and asks for every post first), the posts made before them come
  // first, in order, whatever part it is reading.
  const outbox = new Outbox<Written>(
    now,
    (posts) => dispatch(new CE(CHANNEL_PAGE_RECORDS, { detail: posts.map(lineOf).join('\n') })),
    MAX_DETAIL_CHARS,
  );
  // Deliveries this frame has seen: the relay's counter (read through the native getter, captured now), or
  // else a listener of our own (registered at document_start, before any page script, like the relay's).
  let counter: Text | null = null;
  const onCounter = (e: Event) => {
    const n = (e as FocusEvent).relatedTarget;
    if (n instanceof Text) {
      counter = n;
    }
  };
  doc.addEventListener(CHANNEL_COUNTER, onCounter);
  dispatch(new CE(CHANNEL_COUNTER_ASK));
  doc.removeEventListener(CHANNEL_COUNTER, onCounter);
  const readData = Object.getOwnPropertyDescriptor(CharacterData.prototype, 'data')?.get;
  const read = counter && readData ? (readData.bind(counter) as () => string) : null;
  let seen = 0;
  if (!read) {
    win.addEventListener(
      'message',
      () => {
        seen++;
      },
      true,
    );
  }
  // The relay's count changes within a task only where the page dispatches a message event itself (the browser's
  // deliveries are tasks of their own): read at the first post of a task, and again after such a dispatch, which the
  // relay says (CHANNEL_COUNTER_CHANGED) before any page listener runs. A read costs ~2 µs in the page's loop.
  let stale = true;
  let counted = 0;
  if (read) {
    doc.addEventListener(CHANNEL_COUNTER_CHANGED, () => {
      stale = true;
    });
  }
  const deliveriesSeen = read
    ? () => {
        if (stale) {
          stale = false;
          counted = +read();
        }
        return counted;
      }
    : () => seen;
  // Firefox: the relay reads each delivery with one call of this reader (deliveries.ts), made now, before the hook
  // wraps `source` and before any page script. (Chromium's relay takes no function from this world.)
  const reader = read ? deliveryReader(now) : null;
  if (reader) {
    dispatch(new CE(CHANNEL_READER, { detail: reader }));
  }
  // The relay writes its counter when asked (and at each delivery dispatched within a task): asked at the first
  // post of each task, it is exact for every post of that task. The browser's deliveries are tasks of their own.
  const ask = read ? () => dispatch(new CE(CHANNEL_COUNTER_ASK)) : () => {};

  let config: CaptureConfig = { receiveOnly: false, paused: false, maxBytes: DEFAULT_MAX_BYTES };
  // The posts of the current task, as their calls left them (one object each: cheaper than pushing their
  // fields on an array).
  let calls: Call[] = [];
  let scheduled = false;

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

  // At the end of the posting task: what the record needs, read now (the data serialized, the target's URL, the
  // call's arguments); the record's text is written at the hand-over (`lineOf`).
  const flush = () => {
    scheduled = false;
    const cs = calls;
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
    const t = now();
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      let w: Written | null = null;
      let chars = 0;
      try {
        const { relation, args, error } = c;
        const cap = capOf(args[0]);
        const copied = c.early === undefined ? ownCopy(args[0], cap) : null;
        const data = copied ? null : (c.early ?? dataJson(args[0], cap));
        chars = shared.length + (data ? data.json.length : copied!.chars) + WRITTEN_CHARS;
        w = {
          time: c.time,
          after: c.after,
          shared,
          targetOrigin: postTargetOrigin(args),
          relation,
          url: relation === 'other' ? null : urlOf(c.target),
          data,
          copy: copied?.data,
          transfer: transferCount(args),
          error: error === undefined ? undefined : errorText(error),
        };
      } catch {
        /* an unreadable post: skip it rather than disturb the page */
      }
      outbox.fill(c.slot, w, w ? chars : 0, t);
    }
    urls.clear(); // a target may navigate before the next batch, and the map would keep its window
  };
  const capOf = (data: unknown): number =>
    isSvcEmbed(data) ? config.maxBytes : Math.min(config.maxBytes, FOREIGN_MAX_BYTES);

  // First: it keeps the platform getters (parent, opener) before the hook wraps them.
  const relationTo = relationFinder(win);
  const hook = installHook(
    win,
    relationTo,
    (relation, args, error, target, early) => {
      if (config.paused) {
        return;
      }
      const time = now();
      if (!scheduled) {
        scheduled = true;
        microtask(flush);
        ask();
        stale = true;
      }
      calls.push({
        time,
        relation,
        args,
        error,
        target,
        early: early as DataJson | undefined,
        slot: outbox.reserve(),
        after: deliveriesSeen(),
      });
    },
    (args) => (config.paused ? undefined : dataJson(args[0], capOf(args[0]))),
  );

  doc.addEventListener(CHANNEL_RELAY_TO_PAGE, (e) => {
    try {
      const detail = (e as CustomEvent).detail;
      const msg = typeof detail === 'string' ? accept<RelayToPage>('relay->page', parse(detail)) : null;
      if (msg === null) {
        return;
      }
      if (msg.type === 'flush') {
        outbox.flush();
        return;
      }
      if (msg.type !== 'config') {
        return;
      }
      config = msg.config;
      if (config.receiveOnly) {
        hook.uninstall();
      }
    } catch {
      /* ignore */
    }
  });
}
