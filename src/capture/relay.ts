/**
 * The isolated-world relay (every captured frame, document_start; started by relay-full.ts or
 * relay-receive-only.ts, as the frame's site is captured): records the frame's deliveries and relays the frame's
 * records to the background.
 *
 * - Records deliveries (deliveries.ts) and holds them in the frame's outbox (outbox.ts) while traffic flows.
 * - Full mode: receives the MAIN world's posts over the private channel (relay-channel.ts, page.ts), puts them in
 *   the frame's order with its deliveries (relay-merge.ts) and hands everything over at once. What the page's world
 *   wrote travels as lines beside the relay's own JSON, never inside it (background/batch.ts reads each line alone).
 * - Sends the batches to the background over a Port (see link.ts: acknowledged, resent, never lost).
 * - Passes the tab's capture config to the MAIN world; runs the posts the panel asks for (inject.ts).
 * It never posts a message of its own to the page, and makes no network request.
 */
import {
  CHANNEL_COUNTER_ASK,
  CHANNEL_LEAVING,
  CHANNEL_PAGE_RECORDS,
  CHANNEL_RELAY_TO_PAGE,
  CHANNEL_REWRITTEN,
  type BackgroundToRelay,
  type CaptureConfig,
  type RelayReply,
  type RelayToBackground,
  type RelayToPage,
  type SpilledBatches,
} from '../shared/messages.ts';
import { accept, relayToPageDetail, stamp, type Body } from '../shared/channel.ts';
import { findBrowserApi, type Runtime } from '../shared/browser-api.ts';
import { LeaveGuard } from './leave-guard.ts';
import { Link } from './link.ts';
import { runPost } from './inject.ts';
import { DEFAULT_MAX_BYTES } from '../protocol/encoding.ts';
import { deliveryChars, deliveryJson, hrefOf, installDeliveries, type Delivery } from './deliveries.ts';
import { Outbox } from './outbox.ts';
import { relationFinder } from './relation.ts';
import { openRelayChannel, type RelayChannel } from './relay-channel.ts';
import {
  Drain,
  joinEntries,
  MAX_DETAIL_CHARS,
  parsePosts,
  SLICE_CHARS,
  type BatchEntry,
  type PagePost,
} from './relay-merge.ts';

/** Deliveries written per task when the frame hands a long burst over. */
const SLICE = 1000;

/**
 * Start the relay of this frame. `full`: the frame's site is captured in full mode (the MAIN-world hook runs too):
 * open the private channel to it (relay-channel.ts). A receive-only relay has none: it listens for no event of the
 * page's world and dispatches none there, ever.
 */
export function startRelay(full: boolean): void {
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
  // (the build says which browser: asking the API, `runtime.getURL`, costs every frame a call at document_start)
  const firefox = import.meta.env.EI_BROWSER === 'firefox';
  // (the storage API is asked for only as a frame goes with a port the background has not answered: link.ts `spill`)
  const store = (key: string, value: SpilledBatches) => {
    Promise.resolve(api.storage.local.set({ [key]: value })).catch(() => {});
  };
  new FrameRelay(api.runtime, full ? openRelayChannel(document) : null, firefox, store).start();
}

type Post = Extract<BackgroundToRelay, { type: 'post' }>;

/** One frame's relay: its deliveries, the MAIN world's posts (full mode), and its link to the background. */
class FrameRelay {
  private config: CaptureConfig = { receiveOnly: false, paused: false, maxBytes: DEFAULT_MAX_BYTES };
  private readonly now: () => number;
  private readonly link: Link;
  /** The posts the MAIN world handed over, not yet queued with the deliveries. */
  private posts: PagePost[] = [];
  /** Asking the MAIN world for its posts (they come synchronously). */
  private pulling = false;
  /** Writes and sends the frame's records (made at the first hand-over: nothing to write before). */
  private drain: Drain<Delivery, BatchEntry> | null = null;
  private readonly outbox: Outbox<Delivery>;
  private readonly answer: () => void;
  /** The delivery listener added again (a document rewrite erased it). */
  private readonly listenDeliveries: () => void;
  /** A post's batch entry, by the frame's URL at the hand-over (posts are the page's word but for where). */
  private postUrl = '';
  private postHead = '';
  private flushDetail: string | null = null;
  /** The pagehide listener, there only while something is held (leave-guard.ts). */
  private readonly leave = new LeaveGuard(window, (trusted) => this.leaving(trusted), document);
  /**
   * The MAIN world posted since the last pull (it asks for the counter at the first post of each task, and again when
   * a pull in the middle of a posting task leaves that task's posts with it).
   */
  private mainMayHold = false;
  /** A `navigate` listener is there (`watchAddress`). */
  private watching = false;

  constructor(
    private readonly runtime: Runtime.Static,
    private readonly channel: RelayChannel | null,
    firefox: boolean,
    private readonly store: (key: string, value: SpilledBatches) => void,
  ) {
    const perf = performance;
    const timeOrigin = perf.timeOrigin; // constant for the document
    this.now = () => timeOrigin + perf.now();
    this.link = this.makeLink();
    this.outbox = new Outbox<Delivery>(this.now, (ds, burstEnd) => this.send(ds, burstEnd));
    const deliveries = installDeliveries(window, {
      now: this.now,
      config: () => this.config,
      relationTo: relationFinder(window as Window & typeof globalThis),
      eager: firefox,
      hold: (d, time) => {
        this.leave.hold();
        this.outbox.add(d, deliveryChars(d), time);
      },
      channel,
    });
    this.answer = deliveries.answer;
    this.listenDeliveries = deliveries.listen;
  }

  start(): void {
    const { channel } = this;
    if (channel) {
      // The MAIN world asks at the first post of each task (answered synchronously), and hands its posts over
      // when asked or when its own outbox says so.
      channel.on(CHANNEL_COUNTER_ASK, () => {
        this.mainMayHold = true;
        this.leave.hold();
        this.answer();
        this.watchAddress();
      });
      // The page posted in its own pagehide or unload listener (after ours, if we had one): everything leaves now.
      channel.on(CHANNEL_LEAVING, () => this.leaving());
      channel.on(CHANNEL_PAGE_RECORDS, (e) => {
        const detail = (e as CustomEvent).detail;
        if (typeof detail === 'string' && detail) {
          this.leave.hold();
          parsePosts(detail, this.posts, document.URL);
          if (!this.pulling) {
            this.handOver();
          }
        }
      });
    }
    // Asked while this frame's port is closed (the service worker stopped during a quiet period and nothing was
    // sent since), the background reaches the frame by tabs.sendMessage: a post's result is the reply (the record of
    // the post reconnects the port); a hand-over (`settle`) is sent, and answered, on the port it opens.
    // (answered synchronously through `reply`, so the listener returns nothing: the type only knows `true`)
    const onAsk = (raw: unknown, _sender: unknown, reply: (r: RelayReply) => void): void => {
      const msg = accept<BackgroundToRelay>('background->relay', raw);
      if (msg?.type === 'post') {
        reply(stamp<RelayReply>(this.post(msg)));
      } else if (msg?.type === 'flush' && !this.link.held) {
        // (held, in a page being prerendered, the frame is none of the tab's yet: no answer, not waited for)
        reply(stamp<RelayReply>({ type: 'flushing', id: msg.id }));
        this.onMessage(msg);
      }
    };
    this.runtime.onMessage?.addListener(onAsk as unknown as Runtime.OnMessageListener);
    this.listenPage();
    this.link.start();
  }

  /**
   * The relay's listeners on the frame's window and document, added again when the MAIN world says the page
   * rewrote the document, which erases them (rewrite.ts; full mode only): the deliveries', `pageshow`,
   * `prerenderingchange` while prerendered, and the LeaveGuard's while it holds something. Adding one that is still
   * there changes nothing.
   */
  private listenPage(): void {
    // Shown again from the back/forward cache: a new port (link.ts `restart`). (Leaving the page, or entering the
    // cache: the LeaveGuard's `pagehide` sends what is held then, the MAIN world's records first.)
    const onShow = (e: Event) => {
      if (e.isTrusted && (e as PageTransitionEvent).persisted) {
        this.link.restart();
      }
    };
    // A page Chrome prerenders (speculation rules, the omnibox) says nothing until it is shown: it then becomes the
    // tab's page, and a new port names its frames as the browser does then (link.ts `hold`).
    // (held while the browser says so, whatever the page dispatches: an event the page sends itself does not end
    // it, and one the page stops before ours, on the window first, does not prolong it past the next send)
    const doc = document as Document & { prerendering?: boolean };
    let prerendered = doc.prerendering === true;
    if (prerendered) {
      this.link.hold(() => doc.prerendering === true);
    }
    const shown = (e: Event) => {
      if (e.isTrusted && !doc.prerendering) {
        prerendered = false;
        window.removeEventListener('prerenderingchange', shown, true);
        this.link.restart();
      }
    };
    const listen = () => {
      window.addEventListener('pageshow', onShow, true);
      if (prerendered) {
        window.addEventListener('prerenderingchange', shown, true);
      }
    };
    listen();
    this.channel?.on(CHANNEL_REWRITTEN, () => {
      this.listenDeliveries();
      listen();
      this.leave.renew();
    });
  }

  private makeLink(): Link {
    let said = false;
    const isTop = window === window.top;
    const start = this.now(); // (the document's start: its first hello may come much later, once prerendered)
    return new Link({
      runtime: this.runtime,
      // (`start` on the first hello only: a reconnection's hello is not this document's start)
      hello: () => {
        const time = this.now();
        const h = { frameUrl: location.href, isTop, time, ...(said ? {} : { start }) };
        said = true;
        return h;
      },
      onMessage: (msg: BackgroundToRelay) => this.onMessage(msg),
      flushed: () => this.released(),
      // (what the closed port did not have acknowledged leaves on the next one, at pagehide at the latest)
      dropped: () => this.leave.hold(),
      store: this.store,
    });
  }

  /** After the link sent what it queued: when nothing is held anywhere in the frame, no pagehide listener. */
  private released(): void {
    if (
      this.leave.holding &&
      !this.mainMayHold &&
      this.outbox.size === 0 &&
      this.posts.length === 0 &&
      !this.drain?.queued &&
      this.link.waiting === 0
    ) {
      this.leave.release();
    }
  }

  private onMessage(msg: BackgroundToRelay): void {
    if (msg.type === 'config') {
      this.config = msg.config;
      this.toPage({ type: 'config', config: msg.config });
    } else if (msg.type === 'post') {
      this.link.send(this.post(msg));
    } else if (msg.type === 'flush') {
      this.handOverAll();
      this.link.send({ type: 'flushed', id: msg.id });
    } else if (msg.type === 'hand-over') {
      this.pull();
      this.handOver();
    }
  }

  /** To the MAIN world, over the private channel (full mode; nothing in receive-only). */
  private toPage(msg: Body<RelayToPage>): void {
    this.channel?.send(CHANNEL_RELAY_TO_PAGE, relayToPageDetail(msg));
  }

  /** The MAIN world's ask for its posts (its text written once: the relay asks at every hand-over). */
  private askPosts(): void {
    this.flushDetail ??= relayToPageDetail({ type: 'flush' });
    this.channel?.send(CHANNEL_RELAY_TO_PAGE, this.flushDetail);
  }

  /**
   * From the MAIN world's first post (not at document_start: a frame that posts nothing pays nothing): a same-document
   * navigation (pushState, a fragment, history traversal) that is about to change the frame's address first takes
   * the posts made before it, at the address they were made at (the Navigation API's `navigate` comes first). Not in
   * Firefox: a content script's first read of `navigation` defines the page's `Navigation` global early, which the
   * page could see in the order of its window's names; there the posts take the address they are handed over at.
   */
  private watchAddress(): void {
    if (this.watching || import.meta.env.EI_BROWSER === 'firefox') {
      return;
    }
    this.watching = true;
    (window as Window & { navigation?: EventTarget }).navigation?.addEventListener('navigate', () =>
      this.addressChanging(),
    );
  }

  /**
   * A same-document navigation is about to change the frame's address: the MAIN world's posts, this task's too
   * (written now, not at the task's end), are taken at the address they were made at.
   */
  private addressChanging(): void {
    if (this.channel && this.mainMayHold) {
      this.mainMayHold = false;
      this.pulling = true;
      try {
        this.toPage({ type: 'flush', write: true });
      } finally {
        this.pulling = false;
      }
      if (this.posts.length) {
        this.handOver(); // (they leave as they would have: the MAIN world's timer for them is gone)
      }
    }
  }

  private post(msg: Post): Body<Extract<RelayToBackground, { type: 'post-result' }>> {
    const { result, record } = runPost(msg, window, document, this.now);
    if (record) {
      this.leave.hold();
      this.link.push(JSON.stringify(record));
    }
    return { type: 'post-result', id: msg.id, ...result };
  }

  /** The batch entry that stands for a post of the MAIN world's, made in this frame at address `url`. */
  private postEntry(url: string): string {
    if (url !== this.postUrl) {
      this.postUrl = url;
      this.postHead = `{"kind":"post","frameUrl":${JSON.stringify(hrefOf(url))},"line":true}`;
    }
    return this.postHead;
  }

  /**
   * The frame's records leave together, in its order: the posts the MAIN world handed over (asked for first,
   * synchronously) merged with the deliveries held here, sent on at the end of this task.
   */
  private send(deliveries: Delivery[], burstEnd = false): void {
    this.pull();
    const mine = this.posts;
    this.posts = [];
    if (burstEnd) {
      // A burst this frame received ended (not a light stream, the longest wait, a bound, an ask, or a few messages
      // before a burst of the sender's): the frames that posted it hand theirs over now (background/tab-relays.ts
      // `askHandOver`).
      this.link.send({ type: 'received' });
    }
    this.drain ??= this.makeDrain();
    this.drain.add(deliveries, mine);
  }

  /**
   * The frame's records written and sent in slices (relay-merge.ts: a long burst's records are not written in one
   * task), each in parts of at most ~1M characters (the link batches them).
   */
  private makeDrain(): Drain<Delivery, BatchEntry> {
    return new Drain<Delivery, BatchEntry>(
      (d) => deliveryJson(d, this.config.maxBytes),
      (entries) => joinEntries(entries, MAX_DETAIL_CHARS, (json, lines) => this.link.push(json, true, lines)),
      SLICE,
      (fn) => setTimeout(fn, 0),
      SLICE_CHARS,
      (p) => ({ entry: this.postEntry(p.url), line: p.json }),
      (e) => (typeof e === 'string' ? e.length : e.entry.length + e.line.length),
    );
  }

  /** Ask the MAIN world for the posts it holds (synchronously: they are in `posts` when this returns). */
  private pull(): void {
    if (this.channel) {
      this.mainMayHold = false;
      this.pulling = true;
      try {
        this.askPosts();
      } finally {
        this.pulling = false;
      }
    }
  }

  private handOver(): void {
    this.outbox.flush();
    if (this.posts.length) {
      this.send([]);
    }
  }

  /**
   * Everything the frame holds, written and sent now (the page is going away, or the background asks): the MAIN
   * world's posts too, asked for first (a frame that holds no delivery would otherwise not ask for them).
   */
  private handOverAll(): void {
    this.pull();
    this.handOver();
    this.drain?.drain();
    this.link.flush();
  }

  /**
   * The frame is going: everything leaves now, and also by storage if no worker answers its port (link.ts). A
   * `pagehide` the page dispatched itself hands over, but writes nothing to storage (a page could fill it so).
   */
  private leaving(trusted = true): void {
    this.handOverAll();
    if (trusted) {
      this.link.spill();
    }
  }
}
