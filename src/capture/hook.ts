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

export function installHook(
  win: Window & typeof globalThis,
  relationTo: (w: unknown) => WindowRelation,
  sink: PostSink,
  snapshot: PostSnapshot,
): Hook {
  const patches: Patch[] = [];
  const proxyOf = new WeakMap<object, object>();
  const realOf = new WeakMap<object, object>();
  /** Windows handed out as they are (same-origin ones, see `wrapWindow`): they stay so, for identity. */
  const plain = new WeakSet<object>();
  installToStringMask(win, patches);

  const sameOrigin = (w: object): boolean => {
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

  const unwrap = (x: unknown) => (x !== null && typeof x === 'object' ? (realOf.get(x) ?? x) : x);
  const rewrap = (x: unknown) => (x !== null && typeof x === 'object' ? (proxyOf.get(x) ?? x) : x);
  // Methods read through a Proxy are called with `this` = the Proxy; natives need the real window.
  const fnHandler: ProxyHandler<(...a: unknown[]) => unknown> = {
    apply: (fn, self, args) => rewrap(apply(fn, unwrap(self), args)),
  };
  const wrappers = new WeakMap<object, object>();
  /** The stable wrapper of a method read from a proxied window; constructors and classic functions as they are. */
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
        if (d && !d.configurable) {
          try {
            defineProp(shadow, prop, d);
          } catch {
            /* keep d */
          }
        }
        return d;
      }
      // Only non-configurable properties live on the shadow: answer compatibly with it (a navigated
      // same-origin window may report new accessors for the same names; the page sees the first ones).
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
    const handler: ProxyHandler<Window> = {
      get(_, prop, receiver) {
        if (prop === 'postMessage' && receiver === proxy) {
          return post;
        }
        let v: unknown;
        try {
          v = rGet(real, prop, receiver === proxy ? real : receiver); // inherited lookup: as on the window
        } catch (e) {
          throw clean(e, handler.get);
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
          return methodOf(v);
        }
        return v;
      },
      set(_, prop, value, receiver) {
        try {
          return rSet(real, prop, value, receiver === proxy ? real : receiver);
        } catch (e) {
          throw clean(e, handler.set);
        }
      },
      has(_, prop) {
        try {
          return rHas(real, prop);
        } catch (e) {
          throw clean(e, handler.has);
        }
      },
      deleteProperty(_, prop) {
        try {
          return rDelete(real, prop);
        } catch (e) {
          throw clean(e, handler.deleteProperty);
        }
      },
      getOwnPropertyDescriptor(_, prop) {
        let d: PropertyDescriptor | undefined;
        try {
          d = mirror(prop, rGetDesc(real, prop));
        } catch (e) {
          throw clean(e, handler.getOwnPropertyDescriptor);
        }
        // A method reads the same through the descriptor as through `get`; an accessor's functions, called with
        // the Proxy as `this`, run on the real window.
        if (d?.configurable) {
          if (typeof d.value === 'function') {
            d.value = prop === 'postMessage' ? post : methodOf(d.value);
          }
          if (typeof d.get === 'function') {
            d.get = methodOf(d.get) as () => unknown;
          }
          if (typeof d.set === 'function') {
            d.set = methodOf(d.set) as (v: unknown) => void;
          }
        }
        return d;
      },
      defineProperty(_, prop, d) {
        let ok: boolean;
        try {
          ok = rDefine(real, prop, d);
        } catch (e) {
          throw clean(e, handler.defineProperty);
        }
        if (ok && d.configurable === false) {
          mirror(prop, rGetDesc(real, prop));
        }
        return ok;
      },
      ownKeys() {
        let keys: Array<string | symbol>;
        try {
          keys = rOwnKeys(real);
        } catch (e) {
          throw clean(e, handler.ownKeys);
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
          throw clean(e, handler.getPrototypeOf);
        }
      },
      setPrototypeOf(_, p) {
        try {
          return rSetProto(real, p);
        } catch (e) {
          throw clean(e, handler.setPrototypeOf);
        }
      },
      isExtensible() {
        let e: boolean;
        try {
          e = rIsExtensible(real);
        } catch (err) {
          throw clean(err, handler.isExtensible);
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
          throw clean(e, handler.preventExtensions);
        }
        if (ok) {
          rPreventExtensions(shadow);
        }
        return ok;
      },
    };
    proxy = new Proxy(shadow, handler);
    proxyOf.set(real, proxy);
    realOf.set(proxy, real);
    return proxy;
  };
  /**
   * The window as the page gets it from a hooked path: its one Proxy, or itself, decided once per window (so that
   * identity holds however often the page reads it). A cross-origin window gets a Proxy: its posts can be seen
   * nowhere else. A same-origin window is handed out as it is (its realm is captured too, and the page reaches
   * it through `top`, `frames[i]`, `defaultView` and its own globals as well), except a child or a popup still
   * on its initial about:blank, read through `contentWindow` or `open()`: the page keeps that reference while
   * the frame loads another origin (an embed created by script), and only the Proxy sees the posts made then.
   */
  const wrapWindow = (w: unknown, path: 'child' | 'open' | 'parent' | 'opener' | 'source'): unknown => {
    if (w === null || typeof w !== 'object' || w === win || plain.has(w)) {
      return w;
    }
    const known = proxyOf.get(w);
    if (known) {
      return known;
    }
    if (realOf.has(w)) {
      return w;
    }
    if (sameOrigin(w) && !((path === 'child' || path === 'open') && initialBlank(w))) {
      plain.add(w);
      return w;
    }
    const r = path === 'child' ? 'child' : path === 'parent' ? 'parent' : path === 'opener' ? 'opener' : relationTo(w);
    return proxyFor(w as Window, r);
  };

  const patchGetter = (obj: object | undefined, prop: string, wrap: (v: unknown, self: unknown) => unknown) => {
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
  };

  const child = (w: unknown) => wrapWindow(w, 'child');
  patchGetter(win.HTMLIFrameElement?.prototype, 'contentWindow', child);
  patchGetter(win.HTMLFrameElement?.prototype, 'contentWindow', child);
  patchGetter(win.HTMLObjectElement?.prototype, 'contentWindow', child);
  patchGetter(win, 'parent', (w, self) => (self === win ? wrapWindow(w, 'parent') : w));
  patchGetter(win, 'opener', (w, self) => (self === win ? wrapWindow(w, 'opener') : w));
  patchGetter(win.MessageEvent?.prototype, 'source', (s) => {
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
    return wrapWindow(s, 'source');
  });
  const openDesc = getDesc(win, 'open');
  if (openDesc && typeof openDesc.value === 'function' && openDesc.configurable) {
    const origOpen = openDesc.value as (...a: unknown[]) => unknown;
    const { open } = {
      open(this: unknown, ...args: unknown[]) {
        return wrapWindow(apply(origOpen, unwrap(this), args), 'open');
      },
    };
    markNative(open, undefined, origOpen);
    defineProp(win, 'open', { ...openDesc, value: open });
    patches.push({ obj: win, prop: 'open', desc: openDesc });
  }

  return {
    uninstall() {
      for (const p of patches.splice(0).reverse()) {
        try {
          defineProp(p.obj, p.prop, p.desc);
        } catch {
          /* ignore */
        }
      }
    },
  };
}
