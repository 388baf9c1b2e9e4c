/**
 * MAIN-world delivery recorder: a capture-phase `message` listener on `window`, registered at
 * document_start before any page script (page listeners that stop propagation hide nothing).
 *
 * It runs in the page's own world on purpose: the page deserializes `event.data` there anyway and the
 * browser keeps the result on the event, so reading it first costs the page nothing; an isolated-world
 * listener paid a second structured-clone deserialization per message. The record (event.origin, the
 * frame URL, the relation of event.source, transfer count, the data) is serialized once, on the spot,
 * before any page listener can touch the data; the outbox batches the strings. Every platform function
 * used is captured here, before the page can replace it.
 */
import type { CaptureConfig, WindowRelation } from '../shared/messages.ts';
import { dataJson } from './serialize.ts';
import { FOREIGN_MAX_BYTES, isSvcEmbed } from './observe.ts';
import { close, field, head, open, text } from './writer.ts';

const getDesc = Object.getOwnPropertyDescriptor;
const call = Function.prototype.call;
const bind = Function.prototype.bind;

/** A getter as a plain function of the object (`get(e)`), bound once: no argument array per call. */
const ofObject = (g: (() => unknown) | undefined): ((self: unknown) => unknown) | undefined =>
  g ? (Reflect.apply(bind, call, [g]) as (self: unknown) => unknown) : undefined;
const getter = (proto: object | undefined, prop: string) => ofObject((proto && getDesc(proto, prop))?.get);

export function installReceiver(
  win: Window & typeof globalThis,
  config: () => CaptureConfig,
  now: () => number,
  relationTo: (w: unknown) => WindowRelation,
  sink: (json: string, time: number) => void,
): void {
  const proto = win.MessageEvent.prototype;
  const getData = getter(proto, 'data');
  const getOrigin = getter(proto, 'origin');
  const getSource = getter(proto, 'source');
  const getPorts = getter(proto, 'ports');
  const getHref = getter(win.Location?.prototype, 'href') ?? ofObject(getDesc(win.location, 'href')?.get);
  const loc = win.location;
  const listen = win.addEventListener;
  if (!getData || !getOrigin || !getSource) {
    return;
  }

  // The last source seen and its relation (a burst comes from one window). A WindowProxy keeps its
  // relation across navigations; a removed child frame sends nothing more.
  let lastSource: unknown = undefined;
  let lastRelation: WindowRelation | undefined;
  const relationOf = (s: unknown): WindowRelation | undefined => {
    if (s === null || s === undefined) {
      return undefined;
    }
    if (s !== lastSource) {
      lastSource = s;
      lastRelation = relationTo(s);
    }
    return lastRelation;
  };

  // The fields shared by this frame's deliveries, written again only when its URL changes (pushState, fragment).
  let href: string | null = null;
  let shared = '';

  // A plain Event named 'message' has no MessageEvent fields: read as the isolated world did (undefined, '').
  const read = (g: ((self: unknown) => unknown) | undefined, e: Event): unknown => {
    try {
      return g ? g(e) : undefined;
    } catch {
      return undefined;
    }
  };

  const onMessage = (e: Event) => {
    try {
      const cfg = config();
      if (cfg.paused) {
        return;
      }
      const time = now();
      const data = read(getData, e);
      const d = dataJson(data, isSvcEmbed(data) ? cfg.maxBytes : Math.min(cfg.maxBytes, FOREIGN_MAX_BYTES));
      const h = getHref ? String(getHref(loc)) : String(loc.href);
      if (h !== href) {
        href = h;
        shared = head('receive', h);
      }
      let json = open(time, shared) + text('origin', String(read(getOrigin, e) ?? ''));
      const from = relationOf(read(getSource, e));
      if (from) {
        json += text('from', from);
      }
      if (d.originalSize !== undefined) {
        json += field('originalSize', String(d.originalSize));
      }
      const ports = read(getPorts, e) as ArrayLike<unknown> | null | undefined;
      if (ports && ports.length) {
        json += field('transfer', String(ports.length));
      }
      sink(json + close(d.json), time);
    } catch {
      /* never disturb the page */
    }
  };
  Reflect.apply(listen, win, ['message', onMessage, true]);
}
