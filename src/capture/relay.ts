/**
 * Isolated-world content script (every captured frame, document_start): records the frame's deliveries and
 * relays the frame's records to the background.
 *
 * - Records deliveries (deliveries.ts) and holds them in the frame's outbox (outbox.ts) while traffic flows.
 * - Receives the MAIN world's posts (full mode: private DOM events with string details, see page.ts), puts
 *   them in the frame's order with its deliveries (relay-merge.ts) and hands everything over at once.
 * - Sends the batches to the background over a Port (see link.ts: acknowledged, resent, never lost).
 * - Passes the tab's capture config to the MAIN world; runs the posts the panel asks for (inject.ts).
 * It never posts a message of its own to the page, and makes no network request.
 */
import {
  CHANNEL_COUNTER,
  CHANNEL_COUNTER_ASK,
  CHANNEL_PAGE_RECORDS,
  CHANNEL_RELAY_TO_PAGE,
  type BackgroundToRelay,
  type CaptureConfig,
  type RelayToBackground,
  type RelayToPage,
} from '../shared/messages.ts';
import { accept, relayToPageDetail, stamp, type Body } from '../shared/channel.ts';
import { findBrowserApi, type Runtime } from '../shared/browser-api.ts';
import { Link } from './link.ts';
import { runPost } from './inject.ts';
import { DEFAULT_MAX_BYTES } from '../protocol/encoding.ts';
import { deliveryChars, deliveryJson, installDeliveries, type Delivery } from './deliveries.ts';
import { Outbox } from './outbox.ts';
import { relationFinder } from './relation.ts';
import { Drain, joinInChunks, MAX_DETAIL_CHARS, parsePosts, type PagePost } from './relay-merge.ts';

/** Deliveries written per task when the frame hands a long burst over. */
const SLICE = 1000;

(() => {
  const api = findBrowserApi();
  if (!api?.runtime?.connect) {
    return;
  }
  const KEY = '__embedInspectorRelay';
  const g = globalThis as Record<string, unknown>;
  if (g[KEY]) {
    return;
  }
  g[KEY] = true;

  const perf = performance;
  const timeOrigin = perf.timeOrigin; // constant for the document
  const now = () => timeOrigin + perf.now();
  const isTop = window === window.top;
  const firefox = (() => {
    try {
      return api.runtime.getURL('').startsWith('moz-extension:');
    } catch {
      return false;
    }
  })();
  let config: CaptureConfig = { receiveOnly: false, paused: false, maxBytes: DEFAULT_MAX_BYTES };
  // Whether this frame may have our MAIN-world script (full mode): a receive-only frame gets none, and then
  // nothing of ours is dispatched in the page's world either. It becomes true with the first full-mode config or
  // the first posts handed over (a frame loaded in full mode whose site turned receive-only since).
  let mainWorld = false;
  const toPage = (msg: Body<RelayToPage>) =>
    document.dispatchEvent(new CustomEvent(CHANNEL_RELAY_TO_PAGE, { detail: relayToPageDetail(msg) }));

  const post = (msg: Extract<BackgroundToRelay, { type: 'post' }>): Body<RelayToBackground> => {
    const { result, record } = runPost(msg, window, document, now);
    if (record) {
      link.push(JSON.stringify(record));
    }
    return { type: 'post-result', id: msg.id, ...result };
  };
  let said = false;
  const link = new Link({
    runtime: api.runtime,
    // (`start` on the first hello only: a reconnection's hello is not this document's start)
    hello: () => {
      const time = now();
      const h = { frameUrl: location.href, isTop, time, ...(said ? {} : { start: time }) };
      said = true;
      return h;
    },
    onMessage(msg: BackgroundToRelay) {
      if (msg.type === 'config') {
        config = msg.config;
        mainWorld ||= !config.receiveOnly;
        if (mainWorld) {
          toPage({ type: 'config', config });
        }
      } else if (msg.type === 'post') {
        link.send(post(msg));
      } else if (msg.type === 'flush') {
        pull();
        handOverAll();
        link.flush();
        link.send({ type: 'flushed', id: msg.id });
      } else if (msg.type === 'hand-over') {
        pull();
        handOver();
      }
    },
  });
  // A post asked for while this frame's port is closed (the service worker stopped during a quiet period and
  // nothing was sent since): the background reaches the frame by tabs.sendMessage and gets the result as
  // the reply; the record of the post reconnects the port.
  // (answered synchronously through `reply`, so the listener returns nothing: the type only knows `true`)
  const onPost = (raw: unknown, _sender: unknown, reply: (r: RelayToBackground) => void): void => {
    const msg = accept<BackgroundToRelay>('background->relay', raw);
    if (msg?.type !== 'post') {
      return;
    }
    reply(stamp<RelayToBackground>(post(msg)));
  };
  api.runtime.onMessage?.addListener(onPost as unknown as Runtime.OnMessageListener);

  // The frame's records leave together, in its order: the posts the MAIN world handed over (asked for first,
  // synchronously) merged with the deliveries held here, sent on at the end of this task.
  let posts: PagePost[] = [];
  let pulling = false;
  // Ask the MAIN world for the posts it holds (synchronously: they are in `posts` when this returns).
  const pull = () => {
    if (mainWorld) {
      pulling = true;
      try {
        toPage({ type: 'flush' });
      } finally {
        pulling = false;
      }
    }
  };
  // Written and sent in slices (relay-merge.ts: a long burst's records are not written in one task), each in
  // parts of at most ~1M characters (the link batches them).
  const drain = new Drain<Delivery>(
    (d) => deliveryJson(d, config.maxBytes),
    (records) => joinInChunks(records, ',', MAX_DETAIL_CHARS, (part) => link.push(part, true)),
    SLICE,
    (fn) => setTimeout(fn, 0),
  );
  const send = (deliveries: Delivery[], burstEnd = false) => {
    pull();
    const mine = posts;
    posts = [];
    if (burstEnd) {
      // A burst this frame received ended (not a light stream, the longest wait, a bound, an ask, or a few messages
      // before a burst of the sender's): the frames that posted it hand theirs over now (background/tab-relays.ts
      // `askHandOver`).
      link.send({ type: 'received' });
    }
    drain.add(deliveries, mine);
  };
  const outbox = new Outbox<Delivery>(now, send);
  const handOver = () => {
    outbox.flush();
    if (posts.length) {
      send([]);
    }
  };
  // Everything the frame holds, written now (the page is going away, or the background asks).
  const handOverAll = () => {
    handOver();
    drain.drain();
  };
  const { answer } = installDeliveries(window, {
    now,
    config: () => config,
    relationTo: relationFinder(window as Window & typeof globalThis),
    eager: firefox,
    hold: (d, time) => outbox.add(d, deliveryChars(d), time),
  });
  // The MAIN world asks for the delivery counter as it starts (before any page script) and at the first post of
  // each task: the answer is synchronous, the counter brought up to date, handed over the first time as a
  // FocusEvent's relatedTarget (a node crosses worlds; a detail may not). The config comes later (the background
  // answers the port), and goes to the page world from then on.
  let handed = false;
  document.addEventListener(CHANNEL_COUNTER_ASK, () => {
    const node = answer();
    if (!handed) {
      handed = mainWorld = true;
      document.dispatchEvent(new FocusEvent(CHANNEL_COUNTER, { relatedTarget: node }));
    }
  });
  // The MAIN world hands its posts over when asked, or when its own outbox says so.
  document.addEventListener(CHANNEL_PAGE_RECORDS, (e) => {
    const detail = (e as CustomEvent).detail;
    if (typeof detail === 'string' && detail) {
      if (!mainWorld) {
        mainWorld = true;
        toPage({ type: 'config', config });
      }
      parsePosts(detail, posts);
      if (!pulling) {
        handOver();
      }
    }
  });

  // Leaving the page (or entering the back/forward cache): send what is queued now.
  // The MAIN world hands over every record it holds synchronously first.
  window.addEventListener(
    'pagehide',
    () => {
      handOverAll();
      link.flush();
    },
    true,
  );
  window.addEventListener(
    'pageshow',
    (e) => {
      if ((e as PageTransitionEvent).persisted) {
        link.start();
      }
    },
    true,
  );

  link.start();
})();
