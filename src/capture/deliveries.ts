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
 * serialize.ts's fast path (their prototypes are the page's), so a delivery's data took the full encoder over the
 * Xray, and `event.ports` built a frozen array and its Xray per event: in a profile, the two were most of what
 * the capture added per delivery. So the data of a delivered message (trusted: the browser's structured clone of
 * it, plain objects, arrays and primitives with no getter, read before any page listener) is read through a
 * transparent wrapper (`XPCNativeWrapper.unwrap`) and written by the fast path with the page's prototypes, which
 * calls none of the page's code; anything else takes the Xray and the encoder as before. The ports come from the
 * page realm's own getter, kept at document_start, called on the event itself. The records are the same.
 *
 * The count of deliveries is also written into a detached Text node that the MAIN world of a full-mode frame reads
 * at each post (`answer()`, called by relay.ts when page.ts asks: as it starts and at the first post of each task),
 * so that the relay can put posts among deliveries in the frame's order (relay-merge.ts) without a second listener
 * call per delivery. The browser's deliveries do not write it: each is a task of its own, so none can come between
 * a task's ask and its posts. A delivery the page dispatches itself can (`dispatchEvent` is synchronous), so that
 * one writes it at once, before any page listener runs. The node is never inserted anywhere: the page holds no
 * reference to it and no observer sees it change.
 */
import type { CaptureConfig, WindowRelation } from '../shared/messages.ts';
import { dataJson, plainJson, type Protos } from './serialize.ts';
import { FOREIGN_MAX_BYTES, isSvcEmbed } from './observe.ts';
import { close, field, head, open, text } from './writer.ts';

export interface Delivery {
  /** Its number among the messages this frame saw (relay-merge.ts). */
  i: number;
  time: number;
  /** `document.URL` at delivery: as `location.href` but with any credentials, stripped when written (`hrefOf`). */
  docUrl: string;
  from: WindowRelation | undefined;
  /** Held until the hand-over (Chromium, trusted); null once `json` is written. */
  event: MessageEvent | null;
  json: string;
}

/** What a held delivery counts for in the outbox's bounds (a 200-byte envelope's record). */
export const DELIVERY_CHARS = 400;

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
  },
): { answer: () => Text } {
  const { now, config, relationTo, eager, hold } = options;
  if (eager) {
    page = pageRealm(win);
  }
  let count = 0;
  let counter: Text | null = null;
  // The last source seen and its relation (a burst comes from one window). A WindowProxy keeps its relation
  // across navigations; a removed child frame sends nothing more.
  let lastSource: unknown;
  let lastRelation: WindowRelation | undefined;
  win.addEventListener(
    'message',
    (e) => {
      const i = count++;
      const m = e as MessageEvent;
      const trusted = m.isTrusted;
      if (counter && !trusted) {
        counter.data = `${count}`;
      }
      try {
        if (config().paused) {
          return;
        }
        const time = now();
        const s = m.source;
        if (s !== lastSource) {
          lastSource = s;
          lastRelation = s === null || s === undefined ? undefined : relationTo(s);
        }
        // document.URL, not location.href: Chromium builds a new string at each href read.
        const d: Delivery = { i, time, docUrl: win.document.URL, from: lastRelation, event: m, json: '' };
        if (eager || !trusted) {
          write(d, config().maxBytes, !eager && !trusted, eager && trusted);
        }
        hold(d, time);
      } catch {
        /* never disturb the page */
      }
    },
    true,
  );
  return {
    /** The counter node, brought up to date (made at the first call). */
    answer: () => {
      if (counter) {
        counter.data = `${count}`;
      } else {
        counter = win.document.createTextNode(`${count}`);
      }
      return counter;
    },
  };
}

/** The delivery's record JSON (written once; '' when it cannot be read at all). */
export function deliveryJson(d: Delivery, maxBytes: number): string {
  if (d.event) {
    write(d, maxBytes, false);
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

/** Firefox: what reads the page's own objects without an Xray (null elsewhere, or where unavailable). */
interface PageRealm {
  unwrap: (o: unknown) => unknown;
  protos: Protos;
  ports: (e: MessageEvent) => ArrayLike<unknown> | null;
}
let page: PageRealm | null = null;
const apply = Reflect.apply;

/** Kept at document_start, before any page script: the page realm's own prototypes and `ports` getter. */
function pageRealm(win: Window): PageRealm | null {
  try {
    const unwrap = (globalThis as { XPCNativeWrapper?: { unwrap?: (o: unknown) => unknown } }).XPCNativeWrapper?.unwrap;
    const raw = unwrap?.(win) as (Window & typeof globalThis) | undefined;
    const get = raw && Object.getOwnPropertyDescriptor(raw.MessageEvent.prototype, 'ports')?.get;
    if (!unwrap || !raw || typeof get !== 'function') {
      return null;
    }
    return {
      unwrap,
      protos: { obj: raw.Object.prototype, arr: raw.Array.prototype },
      ports: (e) => apply(get, unwrap(e), []) as ArrayLike<unknown> | null,
    };
  } catch {
    return null;
  }
}

/** `copied`: the browser copied the data into this world (Chromium); `delivered`: trusted, in Firefox. */
function write(d: Delivery, maxBytes: number, copied: boolean, delivered = false): void {
  const e = d.event!;
  d.event = null;
  try {
    let data: unknown;
    let dj: ReturnType<typeof dataJson> | null = null;
    try {
      data = e.data;
      const max = isSvcEmbed(data) ? maxBytes : Math.min(maxBytes, FOREIGN_MAX_BYTES);
      if (delivered && page && data !== null && typeof data === 'object') {
        const json = plainJson(page.unwrap(data), max, page.protos);
        dj = json === null ? null : { json };
      }
      dj ??= copied && data === null ? { json: NOT_COPIED } : dataJson(data, max);
    } catch (err) {
      dj = { json: JSON.stringify({ $ei: 'Unknown', kind: 'Unreadable', message: String(err) }) };
    }
    if (d.docUrl !== lastUrl) {
      lastUrl = d.docUrl;
      lastHead = head('receive', hrefOf(d.docUrl));
    }
    let json = open(d.time, lastHead) + text('origin', String(e.origin ?? ''));
    if (d.from) {
      json += text('from', d.from);
    }
    if (dj.originalSize !== undefined) {
      json += field('originalSize', String(dj.originalSize));
    }
    const ports = page ? page.ports(e) : e.ports;
    if (ports?.length) {
      json += field('transfer', String(ports.length));
    }
    d.json = json + close(dj.json);
  } catch {
    d.json = '';
  }
}
