/**
 * MAIN-world post hook: sees the posts this frame makes to other windows, with their target origin, while
 * the page keeps seeing the same objects and behaviour wherever the platform allows it.
 *
 * `postMessage` is an own property of each window, and a cross-origin window's `postMessage` is the
 * browser's, so the only place to see a post to a cross-origin window is the window object the page posts
 * through. The `contentWindow` (iframe, frame, object), `parent`, `opener`, `MessageEvent.prototype.source`
 * getters and `open()` hand out one Proxy per such window whose `postMessage` reports the call and runs the
 * target's own `postMessage`, as the page would have read it (same function, realm, return value,
 * exceptions, transfer). Identity holds among the hooked paths: the same Proxy every time, and `event.source`
 * maps the real window back to it.
 *
 * What holds and why:
 * - Same-origin windows are handed out as they are (see `wrapWindow`): their realm is captured too, and the
 *   page reaches them through `top`, `frames[i]` and `defaultView` as well. Posts to them are recorded as
 *   deliveries on the other side. The one exception is a child or popup still on its initial about:blank.
 * - This window's own `postMessage` is not replaced: a frame's posts to itself are recorded as deliveries.
 * - The traps forward to the real window with the caller's receiver, so inherited lookups
 *   (`Object.create(w).location`) behave as on the window itself. Methods and accessors (functions without a
 *   `prototype`) read through a Proxy come back as one stable wrapper each, so that `proxy.close()` calls the
 *   native with the real window as `this`; constructors and the page's own classic functions come back as
 *   they are. A wrapper's result that is a proxied window comes back as its Proxy. Errors thrown through a
 *   Proxy keep the native's stack.
 * - Not coverable (the platform gives no hook): `window.top`, `frames[i]`, `window[i]`, `window[name]`,
 *   `document.defaultView` give the real window, so `iframe.contentWindow === frames[0]` is false where the
 *   child is proxied. docs/capture-modes.md lists each such expression; receive-only mode has none of them.
 */
import type { WindowRelation } from '../shared/messages.ts';
import { clean, markNative, installToStringMask } from './native.ts';
import { patchRewrites } from './rewrite.ts';

/** Called after each post through a proxied window; `early` is what `snapshot` returned before the call. */
export type PostSink = (
  relation: WindowRelation,
  args: unknown[],
  error: unknown,
  target: Window,
  early: unknown,
) => void;
/** Called before a post whose arguments carry a transfer list (the transfer detaches the data). */
export type PostSnapshot = (args: unknown[]) => unknown;

interface Patch {
  obj: object;
  prop: PropertyKey;
  desc: PropertyDescriptor;
}

export interface Hook {
  /** Restore every original property (receive-only mode). Proxies already handed out keep working. */
  uninstall(): void;
}

const getDesc = Object.getOwnPropertyDescriptor;
const defineProp = Object.defineProperty;
const hasOwn = Object.prototype.hasOwnProperty;
const apply = Reflect.apply;
// Captured at document_start: the traps must not call anything the page can replace later.
const {
  get: rGet,
  set: rSet,
  has: rHas,
  deleteProperty: rDelete,
  getOwnPropertyDescriptor: rGetDesc,
  defineProperty: rDefine,
  ownKeys: rOwnKeys,
  getPrototypeOf: rGetProto,
  setPrototypeOf: rSetProto,
  isExtensible: rIsExtensible,
  preventExtensions: rPreventExtensions,
} = Reflect;
const sameValue = Object.is;
/** A transfer list is present: `(msg, origin, transfer)` or `(msg, {transfer})`. */
const hasTransfer = (args: unknown[]): boolean => {
  const a = args[1];
  if (a !== null && typeof a === 'object') {
    try {
      return (a as { transfer?: unknown }).transfer != null;
    } catch {
      return false;
    }
  }
  return args.length > 2 && args[2] != null;
};

/** The hook's state in one window: each proxied window's Proxy and back, the windows left plain, method wrappers. */
interface Registry {
  readonly proxyOf: WeakMap<object, object>;
  readonly realOf: WeakMap<object, object>;
  /** Windows handed out as they are (same-origin ones, see `wrapWindow`): they stay so, for identity. */
  readonly plain: WeakSet<object>;
  /** A Proxy's real window; anything else as it is. */
  unwrap(x: unknown): unknown;
  /** A proxied window's Proxy; anything else as it is. */
  rewrap(x: unknown): unknown;
  /** The stable wrapper of a method read from a proxied window; constructors and classic functions as they are. */
  methodOf(v: object): object;
}

/** What the hook of one window works with: its window, registry, patches and the capture's callbacks. */
interface HookContext {
  readonly win: Window & typeof globalThis;
  readonly reg: Registry;
  readonly patches: Patch[];
  readonly relationTo: (w: unknown) => WindowRelation;
  readonly sink: PostSink;
  readonly snapshot: PostSnapshot;
}

/** One proxied window: what its traps forward to and check against. */
interface Proxied {
  readonly real: Window;
  /** The Proxy's target (see `proxyFor`): mirrors the non-configurable properties the page has seen. */
  readonly shadow: Window;
  readonly mirror: (prop: PropertyKey, d: PropertyDescriptor | undefined) => PropertyDescriptor | undefined;
  /** The window's `postMessage` as the Proxy hands it out. */
  readonly post: (...args: unknown[]) => unknown;
  readonly reg: Registry;
  /** The Proxy (set once made). */
  proxy: Window;
}

export function installHook(
  win: Window & typeof globalThis,
  relationTo: (w: unknown) => WindowRelation,
  sink: PostSink,
  snapshot: PostSnapshot,
  rewritten?: () => void,
): Hook {
  const ctx: HookContext = { win, reg: makeRegistry(), patches: [], relationTo, sink, snapshot };
  installToStringMask(win, ctx.patches);
  patchWindowPaths(ctx);
  if (rewritten) {
    patchRewrites(win, ctx.patches, rewritten);
  }
  return {
    uninstall() {
      for (const p of ctx.patches.splice(0).reverse()) {
        try {
          defineProp(p.obj, p.prop, p.desc);
        } catch {
          /* ignore */
        }
      }
    },
  };
}

function makeRegistry(): Registry {
  const proxyOf = new WeakMap<object, object>();
  const realOf = new WeakMap<object, object>();
  const unwrap = (x: unknown) => (x !== null && typeof x === 'object' ? (realOf.get(x) ?? x) : x);
  const rewrap = (x: unknown) => (x !== null && typeof x === 'object' ? (proxyOf.get(x) ?? x) : x);
  // Methods read through a Proxy are called with `this` = the Proxy; natives need the real window.
  const fnHandler: ProxyHandler<(...a: unknown[]) => unknown> = {
    apply: (fn, self, args) => rewrap(apply(fn, unwrap(self), args)),
  };
  const wrappers = new WeakMap<object, object>();
  const methodOf = (v: object): object => {
    if (hasOwn.call(v, 'prototype')) {
      return v;
    }
    let b = wrappers.get(v);
    if (!b) {
      b = new Proxy(v as (...a: unknown[]) => unknown, fnHandler);
      wrappers.set(v, b);
      markNative(b, undefined, v);
    }
    return b;
  };
  return { proxyOf, realOf, plain: new WeakSet<object>(), unwrap, rewrap, methodOf };
}

/**
 * `w`'s location and its own `href` getter where `w` is same-origin; null where it is cross-origin (its location's
 * `href` has a setter only); undefined where neither can be told so. Read without the SecurityError a cross-origin
 * read throws: one costs ~25 µs, the first in a frame several ms (its stack trace, in code not run before). The
 * window's `location` and the Location's `href` are unforgeable: no page code runs.
 */
export function locationHref(w: object): { loc: object; get: (this: unknown) => unknown } | null | undefined {
  try {
    const loc = (w as Window).location as unknown;
    const d = loc !== null && typeof loc === 'object' ? rGetDesc(loc, 'href') : undefined;
    if (d) {
      return typeof d.get === 'function' ? { loc: loc as object, get: d.get } : null;
    }
  } catch {
    /* told below */
  }
  return undefined;
}
const sameOrigin = (w: object): boolean => {
  const h = locationHref(w);
  if (h !== undefined) {
    return h !== null;
  }
  try {
    return (w as Window).document !== undefined;
  } catch {
    return false;
  }
};
const initialBlank = (w: object): boolean => {
  try {
    return (w as Window).document.URL === 'about:blank';
  } catch {
    return false;
  }
};

/** The `postMessage` a proxied window hands out: the target's own, then the call noted (`sink`). */
function makePost(ctx: HookContext, real: Window, relation: WindowRelation) {
  const { reg, relationTo, sink, snapshot } = ctx;
  const { postMessage } = {
    postMessage(this: unknown, ...args: unknown[]) {
      // What the page would have called: the target's own postMessage (a same-origin target's, in its
      // realm; a cross-origin one's, the browser's), with the real window as `this`.
      const target = this === undefined || this === null ? real : (reg.unwrap(this) as Window);
      const early = hasTransfer(args) ? snapshot(args) : undefined;
      let error: unknown;
      try {
        return apply(rGet(target, 'postMessage', target) as (...a: unknown[]) => unknown, target, args);
      } catch (e) {
        error = e;
        throw clean(e, postMessage);
      } finally {
        try {
          sink(target === real ? relation : relationTo(target), args, error, target, early);
        } catch {
          /* never disturb the page */
        }
      }
    },
  };
  defineProp(postMessage, 'length', { value: 1 });
  return markNative(postMessage, 'postMessage');
}

/**
 * The shadow's mirror: `d` (the real window's descriptor of `prop`) as the Proxy may report it. Only
 * non-configurable properties live on the shadow: answer compatibly with it (a navigated same-origin window may
 * report new accessors for the same names; the page sees the first ones).
 */
function shadowMirror(shadow: Window): Proxied['mirror'] {
  return (prop, d) => {
    const s = getDesc(shadow, prop);
    if (!s) {
      if (d && !d.configurable) {
        try {
          defineProp(shadow, prop, d);
        } catch {
          /* keep d */
        }
      }
      return d;
    }
    if (d && !d.configurable && 'get' in s === 'get' in d) {
      if ('get' in s) {
        if (s.get === d.get && s.set === d.set) {
          return d;
        }
      } else if (s.writable) {
        try {
          defineProp(shadow, prop, d);
        } catch {
          /* keep */
        }
        return d;
      } else if (!d.writable && sameValue(s.value, d.value)) {
        return d;
      }
    }
    return s;
  };
}

/** The Proxy of `real`, made once and registered both ways. */
function proxyFor(ctx: HookContext, real: Window, relation: WindowRelation): Window {
  // The Proxy's target is a shadow object, not the window: after every trap the engine checks the result
  // against the target's own property, and that lookup on a cross-origin WindowProxy (security checks)
  // costs more than the post itself. Every trap forwards to the real window; the shadow only mirrors the
  // non-configurable properties the page has seen, so that the invariants hold (a property the window
  // reports as non-configurable must exist on the target).
  const shadow = {} as Window;
  const w: Proxied = {
    real,
    shadow,
    mirror: shadowMirror(shadow),
    post: makePost(ctx, real, relation),
    reg: ctx.reg,
    proxy: null as unknown as Window,
  };
  const handler: ProxyHandler<Window> = { ...readTraps(w), ...writeTraps(w), ...shapeTraps(w) };
  const proxy = new Proxy(shadow, handler);
  w.proxy = proxy;
  ctx.reg.proxyOf.set(real, proxy);
  ctx.reg.realOf.set(proxy, real);
  return proxy;
}

/** The traps that read a property: `get` and `getOwnPropertyDescriptor`. */
function readTraps(w: Proxied): ProxyHandler<Window> {
  const { real, shadow, mirror, post, reg } = w;
  const traps: ProxyHandler<Window> = {
    get(_, prop, receiver) {
      const proxy = w.proxy;
      if (prop === 'postMessage' && receiver === proxy) {
        return post;
      }
      let v: unknown;
      try {
        v = rGet(real, prop, receiver === proxy ? real : receiver); // inherited lookup: as on the window
      } catch (e) {
        throw clean(e, traps.get);
      }
      if (receiver !== proxy) {
        return v;
      }
      // The window itself, read from the Proxy (`.window`, `.self`, `.frames`, and `.top` or `.parent` where they
      // are the same window): the Proxy, so that the page keeps one object for it on every hooked path.
      if (v === real) {
        return proxy;
      }
      if (typeof v === 'function') {
        const s = getDesc(shadow, prop);
        if (s && !s.configurable && s.writable === false) {
          return v; // invariant: the very value
        }
        return reg.methodOf(v);
      }
      return v;
    },
    getOwnPropertyDescriptor(_, prop) {
      let d: PropertyDescriptor | undefined;
      try {
        d = mirror(prop, rGetDesc(real, prop));
      } catch (e) {
        throw clean(e, traps.getOwnPropertyDescriptor);
      }
      // A method reads the same through the descriptor as through `get`; an accessor's functions, called with
      // the Proxy as `this`, run on the real window.
      if (d?.configurable) {
        if (typeof d.value === 'function') {
          d.value = prop === 'postMessage' ? post : reg.methodOf(d.value);
        }
        if (typeof d.get === 'function') {
          d.get = reg.methodOf(d.get) as () => unknown;
        }
        if (typeof d.set === 'function') {
          d.set = reg.methodOf(d.set) as (v: unknown) => void;
        }
      }
      return d;
    },
  };
  return traps;
}

/** The traps that write: `set`, `deleteProperty`, `defineProperty`. */
function writeTraps(w: Proxied): ProxyHandler<Window> {
  const { real, mirror } = w;
  const traps: ProxyHandler<Window> = {
    set(_, prop, value, receiver) {
      try {
        return rSet(real, prop, value, receiver === w.proxy ? real : receiver);
      } catch (e) {
        throw clean(e, traps.set);
      }
    },
    deleteProperty(_, prop) {
      try {
        return rDelete(real, prop);
      } catch (e) {
        throw clean(e, traps.deleteProperty);
      }
    },
    defineProperty(_, prop, d) {
      let ok: boolean;
      try {
        ok = rDefine(real, prop, d);
      } catch (e) {
        throw clean(e, traps.defineProperty);
      }
      if (ok && d.configurable === false) {
        mirror(prop, rGetDesc(real, prop));
      }
      return ok;
    },
  };
  return traps;
}

/** The traps of the window's shape: its keys, `in`, its prototype and extensibility. */
function shapeTraps(w: Proxied): ProxyHandler<Window> {
  const { real, shadow } = w;
  const traps: ProxyHandler<Window> = {
    has(_, prop) {
      try {
        return rHas(real, prop);
      } catch (e) {
        throw clean(e, traps.has);
      }
    },
    ownKeys() {
      let keys: Array<string | symbol>;
      try {
        keys = rOwnKeys(real);
      } catch (e) {
        throw clean(e, traps.ownKeys);
      }
      const mirrored = rOwnKeys(shadow);
      for (let i = 0; i < mirrored.length; i++) {
        let found = false;
        for (let j = 0; j < keys.length && !found; j++) {
          found = keys[j] === mirrored[i];
        }
        if (!found) {
          keys[keys.length] = mirrored[i];
        }
      }
      return keys;
    },
    getPrototypeOf() {
      try {
        return rGetProto(real);
      } catch (e) {
        throw clean(e, traps.getPrototypeOf);
      }
    },
    setPrototypeOf(_, p) {
      try {
        return rSetProto(real, p);
      } catch (e) {
        throw clean(e, traps.setPrototypeOf);
      }
    },
    isExtensible() {
      let e: boolean;
      try {
        e = rIsExtensible(real);
      } catch (err) {
        throw clean(err, traps.isExtensible);
      }
      if (!e) {
        rPreventExtensions(shadow);
      }
      return e;
    },
    preventExtensions() {
      let ok: boolean;
      try {
        ok = rPreventExtensions(real);
      } catch (e) {
        throw clean(e, traps.preventExtensions);
      }
      if (ok) {
        rPreventExtensions(shadow);
      }
      return ok;
    },
  };
  return traps;
}

/**
 * The window as the page gets it from a hooked path: its one Proxy, or itself, decided once per window (so that
 * identity holds however often the page reads it). A cross-origin window gets a Proxy: its posts can be seen
 * nowhere else. A same-origin window is handed out as it is (its realm is captured too, and the page reaches
 * it through `top`, `frames[i]`, `defaultView` and its own globals as well), except a child or a popup still
 * on its initial about:blank, read through `contentWindow` or `open()`: the page keeps that reference while
 * the frame loads another origin (an embed created by script), and only the Proxy sees the posts made then.
 */
function wrapWindow(ctx: HookContext, w: unknown, path: 'child' | 'open' | 'parent' | 'opener' | 'source'): unknown {
  const { reg } = ctx;
  if (w === null || typeof w !== 'object' || w === ctx.win || reg.plain.has(w)) {
    return w;
  }
  const known = reg.proxyOf.get(w);
  if (known) {
    return known;
  }
  if (reg.realOf.has(w)) {
    return w;
  }
  if (sameOrigin(w) && !((path === 'child' || path === 'open') && initialBlank(w))) {
    reg.plain.add(w);
    return w;
  }
  const r =
    path === 'child' ? 'child' : path === 'parent' ? 'parent' : path === 'opener' ? 'opener' : ctx.relationTo(w);
  return proxyFor(ctx, w as Window, r);
}

/** Replace the getter `prop` of `obj` by one that hands out `wrap` of what the original returns. */
function patchGetter(
  patches: Patch[],
  obj: object | undefined,
  prop: string,
  wrap: (v: unknown, self: unknown) => unknown,
): void {
  if (!obj) {
    return;
  }
  const desc = getDesc(obj, prop);
  if (!desc?.get || !desc.configurable) {
    return;
  }
  const orig = desc.get;
  const getter = getDesc(
    {
      get [prop]() {
        let v: unknown;
        try {
          v = apply(orig, this, []);
        } catch (e) {
          throw clean(e, getter);
        } // (a brand check: not a window)
        return wrap(v, this);
      },
    },
    prop,
  )!.get!;
  markNative(getter, undefined, orig);
  defineProp(obj, prop, { ...desc, get: getter });
  patches.push({ obj, prop, desc });
}

/** Hook the paths that hand out windows: `contentWindow`, `parent`, `opener`, `MessageEvent#source`, `open()`. */
function patchWindowPaths(ctx: HookContext): void {
  const { win, patches } = ctx;
  const child = (w: unknown) => wrapWindow(ctx, w, 'child');
  patchGetter(patches, win.HTMLIFrameElement?.prototype, 'contentWindow', child);
  patchGetter(patches, win.HTMLFrameElement?.prototype, 'contentWindow', child);
  patchGetter(patches, win.HTMLObjectElement?.prototype, 'contentWindow', child);
  patchGetter(patches, win, 'parent', (w, self) => (self === win ? wrapWindow(ctx, w, 'parent') : w));
  patchGetter(patches, win, 'opener', (w, self) => (self === win ? wrapWindow(ctx, w, 'opener') : w));
  patchGetter(patches, win.MessageEvent?.prototype, 'source', (s) => {
    if (s === null || typeof s !== 'object' || s === win) {
      return s;
    }
    try {
      if ((s as Window).window !== s) {
        return s;
      }
    } catch {
      return s;
    } // MessagePort, ServiceWorker
    return wrapWindow(ctx, s, 'source');
  });
  const openDesc = getDesc(win, 'open');
  if (openDesc && typeof openDesc.value === 'function' && openDesc.configurable) {
    const origOpen = openDesc.value as (...a: unknown[]) => unknown;
    const { open } = {
      open(this: unknown, ...args: unknown[]) {
        return wrapWindow(ctx, apply(origOpen, ctx.reg.unwrap(this), args), 'open');
      },
    };
    markNative(open, undefined, origOpen);
    defineProp(win, 'open', { ...openDesc, value: open });
    patches.push({ obj: win, prop: 'open', desc: openDesc });
  }
}
