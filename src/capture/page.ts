/**
 * The MAIN-world capture of one frame, full mode (started by main-world.ts at document_start, before any page
 * script): records the posts this frame makes through the windows it got from the hooked paths (hook.ts), and
 * hands them to the isolated relay of the same frame (never a `message` event) when the relay asks or when its
 * outbox says so (outbox.ts).
 *
 * The two worlds talk over a private channel (shared/messages.ts): a detached Text node the relay hands over at
 * document_start, on which every message between them is an event. Everything this world uses to talk on it (the
 * event constructors, `dispatchEvent`, `addEventListener`, the getters of `detail`, `relatedTarget` and `data`,
 * `JSON.parse`) is kept now, before any page script: the page can neither hear nor speak on the channel, nor catch the
 * node through a prototype it replaced later. The node's text is also the relay's count of the frame's deliveries
 * (deliveries.ts), written when this world asks (at the first post of each task): posts read it (the first of a task,
 * and the first after the relay says it changed), so that the relay can put posts and deliveries in the frame's order
 * (relay-merge.ts). Without a relay (none answered), a capture-phase listener registered now counts the deliveries.
 *
 * A post's line says only what this world saw of it (PagePostFacts): where it was made is the relay's and the
 * background's to say (background/batch.ts).
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
  CHANNEL_COUNTER_ASK,
  CHANNEL_COUNTER_CHANGED,
  CHANNEL_LEAVING,
  CHANNEL_REWRITTEN,
  CHANNEL_PAGE_RECORDS,
  CHANNEL_READER,
  CHANNEL_RELAY_TO_PAGE,
  type CaptureConfig,
  type RelayToPage,
  type WindowRelation,
} from '../shared/messages.ts';
import { accept } from '../shared/channel.ts';
import { installHook, locationHref } from './hook.ts';
import { openPageChannel, type PageChannel } from './page-channel.ts';
import { deliveryReader } from './deliveries.ts';
import { relationFinder } from './relation.ts';
import { postLine, MAX_DETAIL_CHARS } from './relay-merge.ts';
import { Outbox } from './outbox.ts';
import { copyJson, dataJson, ownCopy, type DataJson } from './serialize.ts';
import { close, field, open, text } from './writer.ts';
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

/** What a written post counts for in the outbox's bounds beyond its data (its other fields). */
const WRITTEN_CHARS = 120;

/** A post's line for the relay. */
function lineOf(w: Written): string {
  const data = w.data ?? { json: copyJson(w.copy) };
  let json = open(w.time, '') + text('targetOrigin', w.targetOrigin) + text('target', w.relation);
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

/** The frame's count of deliveries: the relay's (over the channel), else a listener of this world's own. */
function deliveryCounter(win: Window, channel: PageChannel): { seen: () => number; ask: () => void } {
  // Without a relay (it never answered), a capture-phase listener registered now counts the same deliveries; it
  // goes once the relay's node comes (its count includes what came before).
  let own = 0;
  const onMessage = () => {
    own++;
  };
  if (!channel.open) {
    win.addEventListener('message', onMessage, true);
    channel.whenOpen(() => win.removeEventListener('message', onMessage, true));
  }
  // The relay's count changes within a task only where the page dispatches a message event itself (the browser's
  // deliveries are tasks of their own): read at the first post of a task, and again after such a dispatch, which the
  // relay says (CHANNEL_COUNTER_CHANGED) before any page listener runs. A read costs ~2 µs in the page's loop.
  let stale = true;
  let counted = 0;
  channel.on(CHANNEL_COUNTER_CHANGED, () => {
    stale = true;
  });
  return {
    seen: () => {
      if (!channel.open) {
        return own;
      }
      if (stale) {
        stale = false;
        counted = channel.count();
      }
      return counted;
    },
    // The relay writes its counter when asked (and at each delivery dispatched within a task): asked at the first
    // post of each task, it is exact for every post of that task.
    ask: () => {
      stale = true;
      channel.send(CHANNEL_COUNTER_ASK);
    },
  };
}

/**
 * Whether the page's code running now is a listener of the browser's own `pagehide` or `unload` on this window, or
 * of its document's `freeze` (a frozen page may be discarded with no pagehide): the frame is going away, and what it posts there can no longer wait for a quiet moment. Read in the posting task's
 * end-of-task microtask: the microtasks of a listener run before its event's dispatch goes on, so the current event
 * is still the listener's (whatever the page dispatched itself within it). Read with the getters kept now (the page
 * may replace `window.event` or Event's getters later); `isTrusted` is each event's own, unforgeable. A listener on
 * another window (a same-origin frame's) is not this frame going.
 */
function leavingCheck(win: Window): () => boolean {
  const apply = Reflect.apply;
  const eventOf =
    Object.getOwnPropertyDescriptor(win, 'event')?.get ??
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(win), 'event')?.get;
  const proto = Event.prototype;
  const typeOf = Object.getOwnPropertyDescriptor(proto, 'type')?.get;
  const currentTargetOf = Object.getOwnPropertyDescriptor(proto, 'currentTarget')?.get;
  if (!eventOf || !typeOf || !currentTargetOf) {
    return () => false;
  }
  const doc = win.document;
  return () => {
    try {
      const e = apply(eventOf, win, []) as Event | undefined;
      if (!e?.isTrusted) {
        return false;
      }
      const at = apply(currentTargetOf, e, []);
      const type = apply(typeOf, e, []);
      // (the document's freeze: the page may be discarded frozen, with no pagehide)
      return at === win
        ? type === 'pagehide' || type === 'unload' || type === 'freeze'
        : at === doc && type === 'freeze';
    } catch {
      return false;
    }
  };
}

/**
 * Targets' URLs (JSON text), each read once per batch (`clear` after it: a target may navigate before the next one);
 * none where it is cross-origin, told without an exception where the platform allows (hook.ts `locationHref`: a throw
 * is slow, the first in a frame most). Made at document_start: it keeps `JSON.stringify` and `Reflect.apply` then.
 */
function targetUrls(): { of: (target: Window) => string | null; clear: () => void } {
  const stringify = JSON.stringify;
  const apply = Reflect.apply;
  const urls = new Map<Window, string | null>();
  return {
    of: (target) => {
      let u = urls.get(target);
      if (u === undefined) {
        try {
          const h = locationHref(target);
          u = h === null ? null : stringify(String(h ? apply(h.get, h.loc, []) : target.location.href));
        } catch {
          u = null;
        }
        urls.set(target, u);
      }
      return u;
    },
    clear: () => urls.clear(),
  };
}

/** Start capturing posts in this frame (full mode). */
export function startCapture(): void {
  const win = window as Window & typeof globalThis;
  // No mark on the window: it would be page-visible. One registration per frame injects this once.
  // Captured now: the page may replace JSON.parse later.
  const parse = JSON.parse;
  const perf = performance;
  const perfNow = perf.now.bind(perf);
  const timeOrigin = perf.timeOrigin;
  const now = () => timeOrigin + perfNow();
  const microtask = queueMicrotask;
  const channel = openPageChannel(document);
  // Each hand-over: lines of `<after>\t<post facts JSON>` (relay-merge.ts), one event for each part of about
  // MAX_DETAIL_CHARS the outbox hands over. A post's line is written then, once the frame is quiet, from what its
  // task's end read (`Written`). The posts of later parts are still in the outbox while the relay reads a part:
  // when the relay hands its deliveries over (and asks for every post first), the posts made before them come
  // first, in order, whatever part it is reading.
  const outbox = new Outbox<Written>(
    now,
    (posts) => channel.send(CHANNEL_PAGE_RECORDS, posts.map(lineOf).join('\n')),
    MAX_DETAIL_CHARS,
  );
  const counter = deliveryCounter(win, channel);
  // Firefox: the relay reads each delivery with one call of this reader (deliveries.ts), made now, before the hook
  // wraps `source` and before any page script. Chromium's relay takes no function from this world: its build makes
  // none (nor holds the code, which every frame would compile).
  const reader = import.meta.env.EI_BROWSER === 'firefox' ? deliveryReader(now) : null;
  if (reader) {
    channel.whenOpen(() => channel.send(CHANNEL_READER, reader));
  }

  let config: CaptureConfig = { receiveOnly: false, paused: false, maxBytes: DEFAULT_MAX_BYTES };
  // The posts of the current task, as their calls left them (one object each: cheaper than pushing their
  // fields on an array).
  let calls: Call[] = [];
  let scheduled = false;
  // Whether the posting task is a listener of the browser's pagehide or unload (its posts then leave at its end).
  const goingAway = leavingCheck(win);

  const urls = targetUrls();
  const capOf = (data: unknown): number =>
    isSvcEmbed(data) ? config.maxBytes : Math.min(config.maxBytes, FOREIGN_MAX_BYTES);

  // At the end of the posting task: what the record needs, read now (the data serialized, the target's URL, the
  // call's arguments); the record's text is written at the hand-over (`lineOf`).
  const flush = () => {
    if (!calls.length && !scheduled) {
      return; // (written already: the relay asked in the middle of the task)
    }
    scheduled = false;
    const leaving = goingAway(); // (before any page code a read below may run)
    const cs = calls;
    calls = [];
    const t = now();
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      const w = written(c, capOf(c.args[0]), urls.of);
      outbox.fill(c.slot, w, w ? w.chars : 0, t);
    }
    urls.clear();
    if (leaving) {
      // The frame is going away: the relay takes everything now (it asks for these posts first).
      channel.send(CHANNEL_LEAVING);
    }
  };

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
        counter.ask();
      }
      calls.push({
        time,
        relation,
        args,
        error,
        target,
        early: early as DataJson | undefined,
        slot: outbox.reserve(),
        after: counter.seen(),
      });
    },
    (args) => (config.paused ? undefined : dataJson(args[0], capOf(args[0]))),
    () => channel.send(CHANNEL_REWRITTEN),
  );

  /** The posts held here leave now (`write`: this task's too, written now: the frame's address is about to change). */
  function handOver(write: boolean): void {
    if (write) {
      flush();
    }
    outbox.flush();
    if (outbox.size > 0) {
      // Asked in the middle of a posting task (a page's own pagehide event, from its code or from a getter the
      // task's end reads; a bound crossed by deliveries the page dispatched): the task's posts not written yet
      // stay here, and what follows them. Ask again, so that the relay knows this world still holds posts (it
      // keeps its pagehide listener until they have left).
      counter.ask();
    }
  }

  channel.on(
    CHANNEL_RELAY_TO_PAGE,
    relayMessages(parse, {
      flush: handOver,
      config: (c) => {
        config = c;
        if (c.receiveOnly) {
          hook.uninstall();
        }
      },
    }),
  );
}

/** A listener of the relay's messages (RelayToPage, JSON in an event's detail); anything else is ignored. */
function relayMessages(
  parse: (text: string) => unknown,
  on: { flush(write: boolean): void; config(c: CaptureConfig): void },
): (detail: unknown) => void {
  return (detail) => {
    try {
      const msg = typeof detail === 'string' ? accept<RelayToPage>('relay->page', parse(detail)) : null;
      if (msg?.type === 'flush') {
        on.flush(msg.write === true);
      } else if (msg?.type === 'config') {
        on.config(msg.config);
      }
    } catch {
      /* ignore */
    }
  };
}

/** What a post's record is written from, read at the end of its task; null when it cannot be read. */
function written(c: Call, cap: number, urlOf: (target: Window) => string | null): (Written & { chars: number }) | null {
  try {
    const { relation, args, error } = c;
    const copied = c.early === undefined ? ownCopy(args[0], cap) : null;
    const data = copied ? null : (c.early ?? dataJson(args[0], cap));
    return {
      time: c.time,
      after: c.after,
      targetOrigin: postTargetOrigin(args),
      relation,
      url: relation === 'other' ? null : urlOf(c.target),
      data,
      copy: copied?.data,
      transfer: transferCount(args),
      error: error === undefined ? undefined : errorText(error),
      chars: (data ? data.json.length : copied!.chars) + WRITTEN_CHARS,
    };
  } catch {
    return null; // an unreadable post: skip it rather than disturb the page
  }
}
