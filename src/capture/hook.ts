/**
 * MAIN-world post hook: sees every postMessage this frame makes to another window, with its target origin,
 * while the page keeps seeing the same objects and behaviour.
 *
 * `postMessage` is an own property of each window, so wrapping our own only sees self posts. Cross-window
 * posts go through WindowProxies the page got from `iframe.contentWindow`, `parent`, `opener`,
 * `event.source` or `window.open()`: those getters hand out one Proxy per real window whose `postMessage`
 * reports the call, then calls the native function with the exact arguments (same return value, same
 * exceptions, same transfer). Identity holds: the same Proxy every time, and `event.source` maps the real
 * window back to it. Not covered (the browser does not allow it): `window.top`, `frames[i]`, `window[i]`;
 * their posts still appear as `receive` on the other side.
 */
import type { WindowRelation } from '../shared/messages.ts';
import { markNative, installToStringMask } from './native.ts';

export type PostSink = (relation: WindowRelation, args: unknown[], error: unknown, target: Window) => void;

interface Patch { obj: object; prop: PropertyKey; desc: PropertyDescriptor }

export interface Hook {
  /** Restore every original property (receive-only mode). Proxies already handed out keep working. */
  uninstall(): void;
}

const getDesc = Object.getOwnPropertyDescriptor;
const defineProp = Object.defineProperty;
const apply = Reflect.apply;
// Captured at document_start: the traps must not call anything the page can replace later.
const { get: rGet, set: rSet, has: rHas, deleteProperty: rDelete, getOwnPropertyDescriptor: rGetDesc, defineProperty: rDefine,
  ownKeys: rOwnKeys, getPrototypeOf: rGetProto, setPrototypeOf: rSetProto, isExtensible: rIsExtensible,
  preventExtensions: rPreventExtensions } = Reflect;
const sameValue = Object.is;

export function installHook(win: Window & typeof globalThis, sink: PostSink): Hook {
  const patches: Patch[] = [];
  const nativePost = win.postMessage as (...a: unknown[]) => void;
  const proxyOf = new WeakMap<object, object>();
  const realOf = new WeakMap<object, object>();
  const relationOf = new WeakMap<object, WindowRelation>();
  const boundOf = new WeakMap<object, Map<unknown, unknown>>();
  installToStringMask(win, patches);

  const parentDesc = getDesc(win, 'parent');
  const openerDesc = getDesc(win, 'opener');
  const realParent = () => (parentDesc?.get ? apply(parentDesc.get, win, []) : null) as Window | null;
  const realOpener = () => (openerDesc?.get ? apply(openerDesc.get, win, []) : null) as Window | null;

  const relationTo = (w: object): WindowRelation => {
    if (w === win) return 'self';
    if (w === realParent()) return 'parent';
    try { if (w === realOpener()) return 'opener'; } catch { /* ignore */ }
    try { for (let i = 0; i < win.length; i++) if ((win as unknown as Record<number, unknown>)[i] === w) return 'child'; } catch { /* ignore */ }
    return 'other';
  };

  const unwrap = (x: unknown) => (x && typeof x === 'object' ? realOf.get(x) ?? x : x);
  // Methods read through a Proxy are called with `this` = the Proxy; natives need the real window.
  const fnHandler: ProxyHandler<(...a: unknown[]) => unknown> = {
    apply: (fn, self, args) => apply(fn, unwrap(self), args),
  };

  /** `real` null: the window's own postMessage, which posts to `this` (the window itself when called bare). */
  const makePost = (real: Window | null, relation: WindowRelation) => {
    const { postMessage } = {
      postMessage(this: unknown, ...args: unknown[]) {
        const target = (real ?? (this === undefined || this === null ? win : unwrap(this))) as Window;
        let error: unknown;
        try {
          return apply(nativePost, target, args);
        } catch (e) {
          error = e;
          throw e;
        } finally {
          try { sink(real || target === win ? relation : relationTo(target), args, error, target); } catch { /* never disturb the page */ }
        }
      },
    };
    defineProp(postMessage, 'length', { value: 1 });
    return markNative(postMessage, 'postMessage');
  };

  const proxyFor = (real: Window, relation: WindowRelation): Window => {
    const known = proxyOf.get(real);
    if (known) return known as Window;
    const post = makePost(real, relation);
    let proxy: Window;
    // The Proxy's target is a shadow object, not the window: after every trap the engine checks the result
    // against the target's own property, and that lookup on a cross-origin WindowProxy (security checks)
    // cost several µs per `w.postMessage` call, more than the post itself. Every trap forwards to the real
    // window; the shadow only mirrors the non-configurable properties the page has seen, so that the
    // invariants hold (a property the window reports as non-configurable must exist on the target).
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
      get(_, prop) {
        if (prop === 'postMessage') return post;
        const v = rGet(real, prop);
        if (v === real) return proxy; // .window, .self, .frames
        if (typeof v === 'function') {
          const s = getDesc(shadow, prop);
          if (s && !s.configurable && s.writable === false) return v; // invariant: the very value
          let cache = boundOf.get(real);
          if (!cache) boundOf.set(real, (cache = new Map()));
          let b = cache.get(v);
          if (!b) { b = new Proxy(v as (...a: unknown[]) => unknown, fnHandler); cache.set(v, b); markNative(b as object, undefined, v as object); }
          return b;
        }
        return v;
      },
      set: (_, prop, value) => rSet(real, prop, value),
      has: (_, prop) => rHas(real, prop),
      deleteProperty: (_, prop) => rDelete(real, prop),
      getOwnPropertyDescriptor: (_, prop) => mirror(prop, rGetDesc(real, prop)),
      defineProperty(_, prop, d) {
        const ok = rDefine(real, prop, d);
        if (ok && d.configurable === false) mirror(prop, rGetDesc(real, prop));
        return ok;
      },
      ownKeys() {
        const keys = rOwnKeys(real);
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
    proxy = new Proxy(shadow, handler);
    proxyOf.set(real, proxy);
    realOf.set(proxy, real);
    relationOf.set(proxy, relation);
    return proxy;
  };
  const wrapWindow = (w: unknown, relation?: WindowRelation): unknown => {
    if (w === null || typeof w !== 'object' || w === win) return w;
    if (realOf.has(w)) return w;
    return proxyFor(w as Window, relation ?? relationTo(w));
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

  // Self posts: the window's own postMessage.
  const selfDesc = getDesc(win, 'postMessage');
  if (selfDesc && selfDesc.configurable) {
    const selfPost = makePost(null, 'self');
    defineProp(win, 'postMessage', { ...selfDesc, value: selfPost });
    patches.push({ obj: win, prop: 'postMessage', desc: selfDesc });
  }
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
