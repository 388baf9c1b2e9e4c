/**
 * MAIN-world post hook: sees the posts this frame makes to other windows, with their target origin, while
 * the page keeps seeing the same objects and behaviour wherever the platform allows it.
 *
 * `postMessage` is an own property of each window, and a cross-origin window's `postMessage` is the
 * browser's, so the only place to see a cross-window post is the window object the page posts through.
 * The `contentWindow` (iframe, frame, object), `parent`, `opener`, `MessageEvent.prototype.source` getters
 * and `open()` hand out one Proxy per real window whose `postMessage` reports the call and runs the target's
 * own `postMessage`, as the page would have read it (same function, realm, return value, exceptions,
 * transfer). Identity holds among the hooked paths: the same Proxy every time, and `event.source` maps the
 * real window back to it.
 *
 * What holds and why:
 * - Ancestors and openers that are same-origin with this window are never proxied: the page reaches them
 *   through `top`, `frames[i]` and `document.defaultView` as well, which no hook covers, and their origin
 *   cannot change while this document lives. A same-origin document (an iframe's initial about:blank, a
 *   popup) therefore sees its opener and parent exactly as without us, and so does a host reading
 *   `iframe.contentWindow.parent`. Posts to them are recorded as deliveries on the other side.
 * - This window's own `postMessage` is not replaced: a frame's posts to itself are recorded as deliveries.
 *   Replacing it would change the window's own property, and a same-origin caller's post would run our
 *   function in the wrong realm.
 * - The traps forward to the real window with the caller's receiver, so inherited lookups
 *   (`Object.create(w).location`) behave as on the window itself. Methods (functions without a
 *   `prototype`) read through a Proxy come back as one stable wrapper each, so that `proxy.close()` calls
 *   the native with the real window as `this`; constructors and the page's own classic functions come
 *   back as they are. A wrapper's result that is a proxied window comes back as its Proxy.
 * - Not coverable (the platform gives no hook): `window.top`, `frames[i]`, `window[i]`, `window[name]`,
 *   `document.defaultView`: they give the real window, so `iframe.contentWindow === frames[0]` is false
 *   where the child is proxied. README lists each such expression; receive-only mode has none of them.
 */
import type { WindowRelation } from '../shared/messages.ts';
import { markNative, installToStringMask } from './native.ts';

/** Called after each post through a proxied window; `early` is what `snapshot` returned before the call. */
export type PostSink = (relation: WindowRelation, args: unknown[], error: unknown, target: Window, early: unknown) => void;
/** Called before a post whose arguments carry a transfer list (the transfer detaches the data). */
export type PostSnapshot = (args: unknown[]) => unknown;

interface Patch { obj: object; prop: PropertyKey; desc: PropertyDescriptor }

export interface Hook {
  /** Restore every original property (receive-only mode). Proxies already handed out keep working. */
  uninstall(): void;
}

const getDesc = Object.getOwnPropertyDescriptor;
const defineProp = Object.defineProperty;
const hasOwn = Object.prototype.hasOwnProperty;
const apply = Reflect.apply;
// Captured at document_start: the traps must not call anything the page can replace later.
const { get: rGet, set: rSet, has: rHas, deleteProperty: rDelete, getOwnPropertyDescriptor: rGetDesc, defineProperty: rDefine,
  ownKeys: rOwnKeys, getPrototypeOf: rGetProto, setPrototypeOf: rSetProto, isExtensible: rIsExtensible,
  preventExtensions: rPreventExtensions } = Reflect;
const sameValue = Object.is;
// V8 and recent Gecko: re-capture an error's stack without our frame, as if the native had thrown it.
const captureStack = (Error as { captureStackTrace?: (o: object, fn?: unknown) => void }).captureStackTrace;

/** The error with its stack taken again from `fn`'s caller: as thrown by the native, without our frames. */
const clean = (e: unknown, fn: unknown): unknown => {
  if (captureStack && e !== null && typeof e === 'object') { try { captureStack(e, fn); } catch { /* keep */ } }
  return e;
};

/** A transfer list is present: `(msg, origin, transfer)` or `(msg, {transfer})`. */
const hasTransfer = (args: unknown[]): boolean => {
  const a = args[1];
  if (a !== null && typeof a === 'object') {
    try { return (a as { transfer?: unknown }).transfer != null; } catch { return false; }
  }
  return args.length > 2 && args[2] != null;
};

export function installHook(win: Window & typeof globalThis, relationTo: (w: unknown) => WindowRelation, sink: PostSink, snapshot: PostSnapshot): Hook {
  const patches: Patch[] = [];
  const proxyOf = new WeakMap<object, object>();
  const realOf = new WeakMap<object, object>();
  /** Windows handed out as they are (same-origin ancestors and openers): they stay so, for identity. */
  const plain = new WeakSet<object>();
  installToStringMask(win, patches);

  const sameOrigin = (w: object): boolean => {
    try { return (w as Window).document !== undefined; } catch { return false; }
  };

  const unwrap = (x: unknown) => (x !== null && typeof x === 'object' ? realOf.get(x) ?? x : x);
  const rewrap = (x: unknown) => (x !== null && typeof x === 'object' ? proxyOf.get(x) ?? x : x);
  // Methods read through a Proxy are called with `this` = the Proxy; natives need the real window.
  const fnHandler: ProxyHandler<(...a: unknown[]) => unknown> = {
    apply: (fn, self, args) => rewrap(apply(fn, unwrap(self), args)),
  };
  const wrappers = new WeakMap<object, object>();
  /** The stable wrapper of a method read from a proxied window; constructors and classic functions as they are. */
  const methodOf = (v: object): object => {
    if (hasOwn.call(v, 'prototype')) return v;
    let b = wrappers.get(v);
    if (!b) { b = new Proxy(v as (...a: unknown[]) => unknown, fnHandler); wrappers.set(v, b); markNative(b, undefined, v); }
    return b;
  };

  const makePost = (real: Window, relation: WindowRelation) => {
    const { postMessage } = {
      postMessage(this: unknown, ...args: unknown[]) {
        // What the page would have called: the target's own postMessage (a same-origin target's, in its
        // realm; a cross-origin one's, the browser's), with the real window as `this`.
        const target = this === undefined || this === null ? real : (unwrap(this) as Window);
        const early = hasTransfer(args) ? snapshot(args) : undefined;
        let error: unknown;
        try {
          return apply(rGet(target, 'postMessage', target) as (...a: unknown[]) => unknown, target, args);
        } catch (e) {
          error = e;
          throw clean(e, postMessage);
        } finally {
          try { sink(target === real ? relation : relationTo(target), args, error, target, early); } catch { /* never disturb the page */ }
        }
      },
    };
    defineProp(postMessage, 'length', { value: 1 });
    return markNative(postMessage, 'postMessage');
  };

  const proxyFor = (real: Window, relation: WindowRelation): Window => {
    const post = makePost(real, relation);
    let proxy: Window;
    // The Proxy's target is a shadow object, not the window: after every trap the engine checks the result
    // against the target's own property, and that lookup on a cross-origin WindowProxy (security checks)
    // costs more than the post itself. Every trap forwards to the real window; the shadow only mirrors the
    // non-configurable properties the page has seen, so that the invariants hold (a property the window
    // reports as non-configurable must exist on the target).
    const shadow = {} as Window;
    const mirror = (prop: PropertyKey, d: PropertyDescriptor | undefined): PropertyDescriptor | undefined => {
      const s = getDesc(shadow, prop);
      if (!s) {
        if (d && !d.configurable) { try { defineProp(shadow, prop, d); } catch { /* keep d */ } }
        return d;
      }
      // Only non-configurable properties live on the shadow: answer compatibly with it (a navigated
      // same-origin window may report new accessors for the same names; the page sees the first ones).
      if (d && !d.configurable && ('get' in s) === ('get' in d)) {
        if ('get' in s) { if (s.get === d.get && s.set === d.set) return d; }
        else if (s.writable) { try { defineProp(shadow, prop, d); } catch { /* keep */ } return d; }
        else if (!d.writable && sameValue(s.value, d.value)) return d;
      }
      return s;
    };
    const handler: ProxyHandler<Window> = {
      get(_, prop, receiver) {
        if (prop === 'postMessage' && receiver === proxy) return post;
        let v: unknown;
        try {
          v = rGet(real, prop, receiver === proxy ? real : receiver); // inherited lookup: as on the window
        } catch (e) { throw clean(e, handler.get); }
        if (receiver !== proxy) return v;
        if (v === real) return proxy; // .window, .self, .frames
        if (typeof v === 'function') {
          const s = getDesc(shadow, prop);
          if (s && !s.configurable && s.writable === false) return v; // invariant: the very value
          return methodOf(v);
        }
        return v;
      },
      set(_, prop, value, receiver) {
        try { return rSet(real, prop, value, receiver === proxy ? real : receiver); } catch (e) { throw clean(e, handler.set); }
      },
      has: (_, prop) => rHas(real, prop),
      deleteProperty: (_, prop) => rDelete(real, prop),
      getOwnPropertyDescriptor(_, prop) {
        let d: PropertyDescriptor | undefined;
        try { d = mirror(prop, rGetDesc(real, prop)); } catch (e) { throw clean(e, handler.getOwnPropertyDescriptor); }
        // A method reads the same through the descriptor as through `get`.
        if (d && d.configurable && typeof d.value === 'function') d.value = prop === 'postMessage' ? post : methodOf(d.value);
        return d;
      },
      defineProperty(_, prop, d) {
        let ok: boolean;
        try { ok = rDefine(real, prop, d); } catch (e) { throw clean(e, handler.defineProperty); }
        if (ok && d.configurable === false) mirror(prop, rGetDesc(real, prop));
        return ok;
      },
      ownKeys() {
        let keys: Array<string | symbol>;
        try { keys = rOwnKeys(real); } catch (e) { throw clean(e, handler.ownKeys); }
        const mirrored = rOwnKeys(shadow);
        for (let i = 0; i < mirrored.length; i++) {
          let found = false;
          for (let j = 0; j < keys.length && !found; j++) found = keys[j] === mirrored[i];
          if (!found) keys[keys.length] = mirrored[i];
        }
        return keys;
      },
      getPrototypeOf: () => rGetProto(real),
      setPrototypeOf: (_, p) => rSetProto(real, p),
      isExtensible() {
        const e = rIsExtensible(real);
        if (!e) rPreventExtensions(shadow);
        return e;
      },
      preventExtensions() {
        const ok = rPreventExtensions(real);
        if (ok) rPreventExtensions(shadow);
        return ok;
      },
    };
    // (`has`, `deleteProperty` and the prototype traps throw only for cross-origin windows, whose errors
    // callers rarely read; they forward as they are.)
    proxy = new Proxy(shadow, handler);
    proxyOf.set(real, proxy);
    realOf.set(proxy, real);
    return proxy;
  };
  /** The window as the page gets it from a hooked path: its one Proxy, or itself. */
  const wrapWindow = (w: unknown, relation?: WindowRelation): unknown => {
    if (w === null || typeof w !== 'object' || w === win || plain.has(w)) return w;
    const known = proxyOf.get(w);
    if (known) return known;
    if (realOf.has(w)) return w;
    const r = relation ?? relationTo(w);
    if ((r === 'parent' || r === 'opener') && sameOrigin(w)) { plain.add(w); return w; }
    return proxyFor(w as Window, r);
  };

  const patchGetter = (obj: object | undefined, prop: string, wrap: (v: unknown, self: unknown) => unknown) => {
    if (!obj) return;
    const desc = getDesc(obj, prop);
    if (!desc?.get || !desc.configurable) return;
    const orig = desc.get;
    const getter = getDesc({ get [prop]() { return wrap(apply(orig, this, []), this); } }, prop)!.get!;
    markNative(getter, undefined, orig);
    defineProp(obj, prop, { ...desc, get: getter });
    patches.push({ obj, prop, desc });
  };

  const child = (w: unknown) => wrapWindow(w, 'child');
  patchGetter(win.HTMLIFrameElement?.prototype, 'contentWindow', child);
  patchGetter(win.HTMLFrameElement?.prototype, 'contentWindow', child);
  patchGetter(win.HTMLObjectElement?.prototype, 'contentWindow', child);
  patchGetter(win, 'parent', (w, self) => (self === win ? wrapWindow(w, 'parent') : w));
  patchGetter(win, 'opener', (w, self) => (self === win ? wrapWindow(w, 'opener') : w));
  patchGetter(win.MessageEvent?.prototype, 'source', (s) => {
    if (s === null || typeof s !== 'object' || s === win) return s;
    try { if ((s as Window).window !== s) return s; } catch { return s; } // MessagePort, ServiceWorker
    return wrapWindow(s);
  });
  const openDesc = getDesc(win, 'open');
  if (openDesc && typeof openDesc.value === 'function' && openDesc.configurable) {
    const origOpen = openDesc.value as (...a: unknown[]) => unknown;
    const { open } = { open(this: unknown, ...args: unknown[]) { return wrapWindow(apply(origOpen, unwrap(this), args), 'other'); } };
    markNative(open, undefined, origOpen);
    defineProp(win, 'open', { ...openDesc, value: open });
    patches.push({ obj: win, prop: 'open', desc: openDesc });
  }

  return {
    uninstall() {
      for (const p of patches.splice(0).reverse()) {
        try { defineProp(p.obj, p.prop, p.desc); } catch { /* ignore */ }
      }
    },
  };
}
