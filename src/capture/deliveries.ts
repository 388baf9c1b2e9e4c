/**
 * The delivery recorder, in the relay's isolated world: a capture-phase `message` listener on `window`,
 * registered at document_start before any page script (page listeners that stop propagation hide nothing),
 * invisible to the page (its world sees neither the listener nor anything it reads).
 *
 * Chromium gives each world its own copy of a posted message: the isolated world deserializes `event.data`
 * from the bytes the browser delivered, whatever the page did to its copy, and even long after the page read
 * it (a transferred buffer or port stays the page's). So a delivery is held as the event itself, with its time,
 * the frame's URL and where it came from, and read and serialized only when the frame hands its records over
 * (relay.ts, once the frame is quiet): during a burst the page pays for one listener call and a few array
 * slots, not for a second copy and its JSON.
 *
 * Serialized at once, in the listener, before any page listener runs: an event the page constructed itself
 * (`isTrusted` false: its data is the page's live object, copied into this world when read), and every event in
 * Firefox (a content script reads the page's own object through an Xray).
 *
 * Firefox reads (`pageRealm`): every read through an Xray is a wrapper call, and the page's objects fail
 * serialize.ts's fast path (their prototypes are the page's). So a delivered message (trusted: its data is the
 * browser's structured clone, plain objects, arrays and primitives with no getter, and no page listener ran yet)
 * is read with the page realm's own getters (data, origin, source, ports) and clock, kept at document_start,
 * called on the event through a transparent wrapper (`XPCNativeWrapper.unwrap`); its data, proven plain with the
 * page's prototypes, is written by JSON.stringify through that wrapper, which calls none of the page's code.
 * Anything else (an event the page made, data the check declines) takes the Xray and the encoder. The source's
 * relation is read through the Xray, only when the source changes. Plain data short enough never to reach its cap is
 * not written in the listener: it is copied into this world (`snapshot`: the walk the check makes, sharing the page's
 * strings), and the event held, so that its origin, ports and text are read at the hand-over, as in Chromium.
 *
 * Firefox, full mode: each of those reads is still a call across compartments (of the check too, one per object
 * and property). The MAIN world runs in the page's compartment, so it makes a reader there (`deliveryReader`), as
 * it starts, and offers it to this listener over the private channel (CHANNEL_READER): one call of it reads the
 * event with the page realm's getters and clock and writes the data by the same fast path, and gives it all back
 * as one string; where the data is not plain it declines, and the delivery is read as above. Long plain data
 * (`HELD_CHARS`) is not written in the listener: the reader keeps a copy of it in its world (sharing the message's
 * strings) and gives back its number, and the relay asks for its text when the frame hands over. The offer is taken
 * once, and only while the document holds no script yet. What the reader gives back is written in the page's
 * compartment: the relay writes the record's fields itself and passes the data's text on as a line of the batch,
 * which the background reads on its own (background/batch.ts).
 *
 * What must be copied at once is the data (a page listener may change it after ours returns); the record's text
 * is written from the parts held (`Delivery`) when the frame hands over, so a burst does not pay for it. The
 * records are the same.
 *
 * The count of deliveries is also written into the private channel's node (relay-channel.ts) that the MAIN world of
 * a full-mode frame reads at each post (`answer()`, called by relay.ts when page.ts asks, at the first post of each
 * task),
 * so that the relay can put posts among deliveries in the frame's order (relay-merge.ts) without a second listener
 * call per delivery. The browser's deliveries do not write it: each is a task of its own, so none can come between
 * a task's ask and its posts. A delivery the page dispatches itself can (`dispatchEvent` is synchronous), so that
 * one writes it at once, before any page listener runs, and says so on the node (CHANNEL_COUNTER_CHANGED): the MAIN
 * world reads the node at the first post of a task and after that event only. The node is never inserted anywhere:
 * the page holds no reference to it and no observer sees it change. A receive-only frame has no channel: nothing is
 * written or dispatched for the page's world.
 */
import {
  CHANNEL_COUNTER_CHANGED,
  CHANNEL_READER,
  type CaptureConfig,
  type WindowRelation,
} from '../shared/messages.ts';
import type { RelayChannel } from './relay-channel.ts';
import type { BatchEntry } from './relay-merge.ts';
import { copyJson, dataJson, LONG_DATA, ownCopy, plainCopy, plainJson, type Protos } from './serialize.ts';
import { FOREIGN_MAX_BYTES, isSvcEmbed } from './observe.ts';
import { SOURCE } from '../protocol/marker.ts';
import { close, field, head, open, text } from './writer.ts';

export interface Delivery {
  /** Its number among the messages this frame saw (relay-merge.ts). */
  i: number;
  time: number;
  /** `document.URL` at delivery: as `location.href` but with any credentials, stripped when written (`hrefOf`). */
  docUrl: string;
  from: WindowRelation | undefined;
  /** Held until the hand-over (Chromium, trusted); null once read (`read`). */
  event: MessageEvent | null;
  /** Read from the event: its origin, how many ports came with it. */
  origin: string;
  transfer: number;
  /** The data's JSON text ('' when the event could not be read at all), and its encoded size when truncated. */
  data: string;
  originalSize: number | undefined;
  /** The record's text, written once at the hand-over (`deliveryJson`). */
  json: string;
  /** Firefox, full mode: `data` was written by the reader, in the page's compartment (a line of the batch). */
  untrusted?: boolean;
  /**
   * Firefox, a delivered message with plain data (`snapshot`): a copy of its data in this world, and the record
   * size it is counted for until the hand-over reads the rest from the held event.
   */
  held?: { data: unknown; chars: number };
  /**
   * Firefox, full mode, long plain data: the reader's copy of it, held in the MAIN world under this number and
   * written when the frame hands over (`HELD_CHARS`), and the size it is counted for until then.
   */
  slot?: { n: number; chars: number };
}

/** What a held delivery counts for in the outbox's bounds (a 200-byte envelope's record). */
export const DELIVERY_CHARS = 400;

/** What a delivery counts for in the outbox's bounds: its data's text once read, with the record's other fields. */
export function deliveryChars(d: Delivery): number {
  if (d.event) {
    return d.held ? d.held.chars + DELIVERY_CHARS - 200 : DELIVERY_CHARS;
  }
  return (d.slot ? d.slot.chars : d.data.length) + DELIVERY_CHARS - 200;
}

/**
 * The record of a message whose data the isolated world could not copy: Chromium gives `null` for a constructed
 * event whose data holds something structured clone refuses (a function, a node). Never a false `null`.
 */
const NOT_COPIED =
  '{"$ei":"Unknown","kind":"Unreadable","message":"a constructed event whose data this world cannot copy"}';

export function installDeliveries(
  win: Window,
  options: {
    now: () => number;
    config: () => CaptureConfig;
    relationTo: (w: unknown) => WindowRelation;
    /** Serialize every delivery in the listener (Firefox). */
    eager: boolean;
    hold: (d: Delivery, time: number) => void;
    /** Full mode: the channel to the MAIN world (its node is the counter); none in receive-only. */
    channel: RelayChannel | null;
  },
): { answer: () => void; listen: () => void } {
  const { config, relationTo, eager, hold } = options;
  let now = options.now;
  if (eager) {
    page = pageRealm(win);
    now = page?.now ?? now;
  }
  let count = 0;
  const { channel } = options;
  const counter = channel?.node ?? null;
  // Firefox, full mode: the MAIN world's reader (`deliveryReader`), offered as it starts, before any page script.
  let reader: Reader | null = null;
  let readerRelation: WindowRelation | undefined;
  const doc = win.document;
  let offered = false;
  if (eager && page && channel) {
    channel.on(CHANNEL_READER, (e: Event) => {
      try {
        const fn = (page!.unwrap(e) as CustomEvent).detail as unknown;
        // Taken once, and only before the page's first script.
        if (!offered && typeof fn === 'function' && doc.scripts.length === 0) {
          const r = fn as Reader;
          reader = r;
          takeHeld = (n) => r(null, n);
        }
      } catch {
        /* keep reading through the page realm's getters */
      }
      offered = true;
    });
  }
  // The last source seen and its relation (a burst comes from one window). A WindowProxy keeps its relation
  // across navigations; a removed child frame sends nothing more. (Firefox: the source as the page realm's getter
  // gives it, the relation found from the Xray's.)
  let lastSource: unknown;
  let lastRelation: WindowRelation | undefined;
  const onMessage = (e: Event): void => {
    const i = count++;
    const m = e as MessageEvent;
    const trusted = m.isTrusted;
    if (counter && !trusted) {
      counter.data = `${count}`;
      channel!.send(CHANNEL_COUNTER_CHANGED);
    }
    try {
      if (config().paused) {
        return;
      }
      // A delivered message in Firefox: read with the page realm's getters (a browser's event, a MessageEvent).
      const raw = page !== null && trusted ? page.unwrap(m) : null;
      if (raw && reader) {
        // One call into the page's compartment reads and writes it all (full mode); '' where it declined.
        let r = '';
        try {
          r = reader(raw, config().maxBytes);
        } catch {
          reader = null; // (its world is gone) read as before
        }
        if (r) {
          const d = fromReader(r, i, doc.URL);
          if (r.charCodeAt(0) === 49) {
            const src = m.source;
            readerRelation = src === null || src === undefined ? undefined : relationTo(src);
          }
          d.from = readerRelation;
          hold(d, d.time);
          return;
        }
      }
      const time = now();
      const s = raw ? page!.source(raw) : m.source;
      if (s !== lastSource) {
        lastSource = s;
        lastRelation = s === null || s === undefined ? undefined : relationTo(raw ? m.source : s);
      }
      // document.URL, not location.href: Chromium builds a new string at each href read.
      const d: Delivery = {
        i,
        time,
        docUrl: doc.URL,
        from: lastRelation,
        event: m,
        origin: '',
        transfer: 0,
        data: '',
        originalSize: undefined,
        json: '',
      };
      // Firefox: plain data is copied now (a page listener may change it), the rest read at the hand-over.
      if ((eager || !trusted) && !(raw && snapshot(d, raw, Math.min(config().maxBytes, FOREIGN_MAX_BYTES)))) {
        read(d, config().maxBytes, !eager && !trusted, raw);
      }
      hold(d, time);
    } catch {
      /* never disturb the page */
    }
  };
  const listen = () => win.addEventListener('message', onMessage, true);
  listen();
  return {
    /** The counter node brought up to date. */
    answer: () => {
      if (counter) {
        counter.data = `${count}`;
      }
    },
    /** The listener added again (a document rewrite erased it: rewrite.ts); nothing if it is there. */
    listen,
  };
}

/**
 * A delivery's parts as one string: `<source changed: 1|0>\t<transfer>\t<time>\t<origin>\t<data>`, or ''
 * where its data is not plain (the relay then reads it as before). `<data>` is the data's JSON text, or, for long
 * data, `#<n>:<chars>`: a copy held under number `n`, whose text `(null, n)` gives once, at the hand-over.
 */
type Reader = (e: unknown | null, maxBytes: number) => string;

/**
 * Plain data whose strings and keys hold at least this many characters is held by the reader as a copy and written
 * at the hand-over: a 10 KB message's text and its garbage are not made in the listener during a burst (the copy shares
 * the message's strings; BENCHMARKS.md, issue 31). Shorter data is written at once, as before: its text costs
 * about what a copy does, and comes with the rest in one call.
 */
export const HELD_CHARS = 2048;

/** The text of the reader's copy `n`, taken once (Firefox, full mode: `Delivery.slot`). */
let takeHeld: ((n: number) => string) | null = null;
const NOT_HELD = '{"$ei":"Unknown","kind":"Unreadable","message":"the copy of this delivery was not found"}';

/**
 * The reader, made in the MAIN world (Firefox: the page's compartment) as it starts, before any page script and
 * before the hook wraps `source`: it reads a delivered event with the page realm's own getters and clock, and writes
 * its data by the fast path (serialize.ts) with the page realm's prototypes, which it reads without running any
 * getter, in one call from the relay: where the relay's own reads are each a call across compartments. It runs
 * nothing of the page's (the data is the browser's structured clone, read before any page listener), writes
 * nothing, and keeps only the last source (so that the relay finds a relation only when it changes).
 */
export function deliveryReader(now: () => number): Reader | null {
  try {
    const proto = MessageEvent.prototype;
    const get = (name: string): ((this: unknown) => unknown) => {
      const g = getDesc(proto, name)?.get;
      if (typeof g !== 'function') {
        throw new Error(name);
      }
      return g;
    };
    const [data, origin, source, ports] = [get('data'), get('origin'), get('source'), get('ports')];
    const apply = Reflect.apply;
    const realm: Protos = { obj: Object.prototype, arr: Array.prototype };
    let last: unknown = realm; // no source is this object: the first delivery's source is a change
    // The copies of long data, until the hand-over takes their text (no prototype: no page name is looked up).
    const held = { __proto__: null } as unknown as Record<number, unknown>;
    let slots = 0;
    return (e, maxBytes) => {
      if (e === null) {
        if (!(maxBytes in held)) {
          return '';
        }
        const copy = held[maxBytes];
        delete held[maxBytes];
        return copyJson(copy);
      }
      const time = now();
      const v = apply(data, e, []);
      let json: string | null;
      if (v === null || typeof v !== 'object') {
        json = plainJson(v, Math.min(maxBytes, FOREIGN_MAX_BYTES), realm);
      } else {
        json = plainJson(v, maxBytes, realm, HELD_CHARS);
        if (json === LONG_DATA) {
          // Copied where its text cannot pass its cap (every character escaped): a foreign message's cap is the
          // smaller one. (The walk above proved it plain, the prototypes' toJSON included.)
          const copy = ownCopy(v, ownSvc(v) ? maxBytes : Math.min(maxBytes, FOREIGN_MAX_BYTES));
          if (copy !== null) {
            const n = slots++;
            held[n] = copy.data;
            json = `#${n}:${copy.chars}`;
          } else {
            json = plainJson(v, maxBytes, realm);
          }
        }
        if (json !== null && json.charCodeAt(0) !== 35 && json.length > FOREIGN_MAX_BYTES && !ownSvc(v)) {
          json = null;
        }
      }
      if (json === null) {
        return '';
      }
      const s = apply(source, e, []);
      const changed = s !== last;
      last = s;
      const p = apply(ports, e, []) as ArrayLike<unknown> | null;
      return `${changed ? 1 : 0}\t${p?.length ?? 0}\t${time}\t${String(apply(origin, e, []) ?? '')}\t${json}`;
    };
  } catch {
    return null;
  }
}

/** `n` when it is a whole number of at least 0, else 0 (a number the reader's string gave). */
const wholeOr0 = (n: number): number => (Number.isSafeInteger(n) && n > 0 ? n : 0);

/** The delivery a reader's string describes (its relation is the caller's to set). */
export function fromReader(r: string, i: number, docUrl: string): Delivery {
  const a = r.indexOf('\t');
  const b = r.indexOf('\t', a + 1);
  const c = r.indexOf('\t', b + 1);
  const o = r.indexOf('\t', c + 1);
  const d: Delivery = {
    i,
    time: +r.slice(b + 1, c),
    docUrl,
    from: undefined,
    event: null,
    origin: r.slice(c + 1, o),
    transfer: wholeOr0(+r.slice(a + 1, b)),
    data: r.slice(o + 1),
    originalSize: undefined,
    json: '',
    untrusted: true,
  };
  // `#<n>:<chars>`: held by the reader (no JSON text starts with `#`)
  if (d.data.charCodeAt(0) === 35) {
    const colon = d.data.indexOf(':');
    d.slot = { n: +d.data.slice(1, colon), chars: +d.data.slice(colon + 1) };
    d.data = '';
  }
  return d;
}

/**
 * The delivery's entry in a batch (written once; '' when it cannot be read at all): its record's JSON, or, where its
 * data's text was written in the page's compartment (`untrusted`), the record's other fields with that text beside.
 */
export function deliveryJson(d: Delivery, maxBytes: number): BatchEntry {
  if (d.event) {
    read(d, maxBytes, false, null);
  }
  if (d.slot) {
    const n = d.slot.n;
    d.slot = undefined;
    let text = '';
    try {
      text = takeHeld ? takeHeld(n) : '';
    } catch {
      /* the MAIN world is gone: said below */
    }
    d.data = typeof text === 'string' && text ? text : NOT_HELD;
  }
  if (!d.json && d.data) {
    if (d.docUrl !== lastUrl) {
      lastUrl = d.docUrl;
      lastHead = head('receive', hrefOf(d.docUrl));
    }
    let json = open(d.time, lastHead) + text('origin', d.origin);
    if (d.from) {
      json += text('from', d.from);
    }
    if (d.originalSize !== undefined) {
      json += field('originalSize', String(d.originalSize));
    }
    if (d.transfer) {
      json += field('transfer', String(d.transfer));
    }
    if (d.untrusted) {
      const line = d.data;
      d.data = '';
      return { entry: `${json},"line":true}`, line };
    }
    d.json = json + close(d.data);
    d.data = '';
  }
  return d.json;
}

/**
 * `location.href` from `document.URL`: the same URL, less any user name and password (Chromium's href leaves them
 * out, and a record must not keep them).
 */
export function hrefOf(docUrl: string): string {
  const at = docUrl.indexOf('@');
  if (at < 0) {
    return docUrl;
  }
  try {
    const u = new URL(docUrl);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
      return u.href;
    }
  } catch {
    /* not a URL the parser takes: as it is */
  }
  return docUrl;
}

// The shared head of the last frame URL written (a frame's deliveries mostly share one).
let lastUrl: string | undefined;
let lastHead = '';

/**
 * Firefox: what reads the page's own objects without an Xray (null elsewhere, or where unavailable). The getters
 * take the event as `unwrap` gives it (a transparent wrapper of the page's event).
 */
interface PageRealm {
  unwrap: (o: unknown) => unknown;
  protos: Protos;
  data: (e: unknown) => unknown;
  origin: (e: unknown) => unknown;
  source: (e: unknown) => unknown;
  ports: (e: unknown) => ArrayLike<unknown> | null;
  /** The capture's clock (`timeOrigin + performance.now()`), read with the page realm's `now`. */
  now: () => number;
}
let page: PageRealm | null = null;
const getDesc = Object.getOwnPropertyDescriptor;
const callBind = Function.prototype.call.bind(Function.prototype.call) as unknown as (
  f: unknown,
  self: unknown,
) => unknown;

/** Kept at document_start, before any page script: the page realm's own object prototype, getters and clock. */
function pageRealm(win: Window): PageRealm | null {
  try {
    const unwrap = (globalThis as { XPCNativeWrapper?: { unwrap?: (o: unknown) => unknown } }).XPCNativeWrapper?.unwrap;
    const raw = unwrap?.(win) as (Window & typeof globalThis) | undefined;
    if (!unwrap || !raw) {
      return null;
    }
    // The page realm's objects, reached through objects it has rather than by the names of its globals where that
    // can be: Firefox defines a built-in global (`JSON`, `Array`…) on the window when a script first reads its name,
    // and a read here, before any page script, would change the order of the names the page lists
    // (`Object.getOwnPropertyNames(window)`). So: the performance object's prototype, the end of the window's
    // prototype chain; the array prototype is learnt from the first delivered array (serialize.ts, `Protos.arr`),
    // and the data written with this world's JSON.stringify. `MessageEvent`'s prototype is the exception, a known
    // difference: any MessageEvent made here defines it as naming it does, and it must be kept before a page
    // script could replace its getters (test/transparency/known-differences.ts, KNOWN_REORDERS).
    const getProto = Object.getPrototypeOf;
    const proto = raw.MessageEvent.prototype;
    const getter = (name: string): ((e: unknown) => unknown) => {
      const get = getDesc(proto, name)?.get;
      if (typeof get !== 'function') {
        throw new Error(name);
      }
      return (e) => callBind(get, e);
    };
    const perf = raw.performance;
    const nowOf = getProto(perf).now;
    const timeOrigin = win.performance.timeOrigin;
    let obj: object = raw;
    for (let p = getProto(obj); p !== null; p = getProto(p)) {
      obj = p;
    }
    if (typeof nowOf !== 'function' || typeof timeOrigin !== 'number') {
      return null;
    }
    return {
      unwrap,
      protos: { obj, arr: null },
      data: getter('data'),
      origin: getter('origin'),
      source: getter('source'),
      ports: getter('ports') as (e: unknown) => ArrayLike<unknown> | null,
      now: () => timeOrigin + (callBind(nowOf, perf) as number),
    };
  } catch {
    return null;
  }
}

/** An own `source` marker, read without running any getter (the page's prototypes are not looked at). */
function ownSvc(data: object): boolean {
  try {
    return getDesc(data, 'source')?.value === SOURCE;
  } catch {
    return false;
  }
}

/**
 * Firefox, a delivered message: copy its data into this world now, where it is plain (objects and dense arrays with
 * the page realm's own prototypes, no `$ei` key, no object met twice, primitives) and keep the event, so that its
 * origin, ports and the data's text are read at the hand-over (`read`), as Chromium's held events are: the page can
 * change its data once our listener returns, but not what the event's own getters give. The copy reads what the
 * check of the data reads (own enumerable keys, own data properties, two prototypes; no getter of the page runs:
 * the data is the browser's structured clone and no page listener ran yet), and shares the page's strings: a
 * 10 KB message costs no 10 KB text during the burst. False where the data is anything else: read it now.
 */
function snapshot(d: Delivery, raw: unknown, cap: number): boolean {
  try {
    const held = plainCopy(page!.data(raw), page!.protos, cap);
    if (held === null) {
      return false;
    }
    d.held = held;
    return true;
  } catch {
    return false;
  }
}

/**
 * Read what the record needs from the event, and let it go. `copied`: the browser copied the data into this world
 * (Chromium, a constructed event); `raw`: a delivered event in Firefox, for the page realm's getters.
 */
function read(d: Delivery, maxBytes: number, copied: boolean, raw: unknown): void {
  const e = d.event!;
  d.event = null;
  const held = d.held;
  if (held) {
    d.held = undefined;
    raw = page!.unwrap(e);
  }
  try {
    let json: string | null = null;
    let size: number | undefined;
    try {
      if (held) {
        // This world's copy of plain page data: read as the page's data is below, with this world's prototypes.
        const data = held.data;
        const dj =
          data === null || typeof data !== 'object'
            ? dataJson(data, Math.min(maxBytes, FOREIGN_MAX_BYTES))
            : dataJson(data, isSvcEmbed(data) ? maxBytes : Math.min(maxBytes, FOREIGN_MAX_BYTES));
        json = dj.json;
        size = dj.originalSize;
      } else if (raw && page) {
        const data = page.data(raw);
        if (data === null || typeof data !== 'object') {
          const dj = dataJson(data, Math.min(maxBytes, FOREIGN_MAX_BYTES));
          json = dj.json;
          size = dj.originalSize;
        } else {
          json = plainJson(data, maxBytes, page.protos);
          if (json !== null && json.length > FOREIGN_MAX_BYTES && !ownSvc(data)) {
            json = null;
          }
        }
      }
      if (json === null) {
        const data = e.data;
        const dj =
          copied && data === null
            ? { json: NOT_COPIED }
            : dataJson(data, isSvcEmbed(data) ? maxBytes : Math.min(maxBytes, FOREIGN_MAX_BYTES));
        json = dj.json;
        size = dj.originalSize;
      }
    } catch (err) {
      json = JSON.stringify({ $ei: 'Unknown', kind: 'Unreadable', message: String(err) });
    }
    d.origin = String((raw && page ? page.origin(raw) : e.origin) ?? '');
    const ports = raw && page ? page.ports(raw) : page ? page.ports(page.unwrap(e)) : e.ports;
    d.transfer = ports?.length ?? 0;
    d.originalSize = size;
    d.data = json;
  } catch {
    d.data = '';
  }
}
