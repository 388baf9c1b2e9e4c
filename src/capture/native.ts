/**
 * Makes the functions the hook installs look native: `Function.prototype.toString` answers for them what
 * it answers for the functions they replace (`function postMessage() { [native code] }`), and answers for
 * itself like the original.
 */
const masks = new WeakMap<object, string>();
let origToString: (this: unknown) => string = Function.prototype.toString;

/** Register `fn` as looking like `like` (a native it replaces), or like a native named `name`. */
export function markNative<T extends object>(fn: T, name?: string, like?: object): T {
  let text = `function ${name ?? ''}() { [native code] }`;
  if (like) { try { text = Reflect.apply(origToString, like, []); } catch { /* keep default */ } }
  masks.set(fn, text);
  return fn;
}

/** Install the mask on this window's Function.prototype.toString (once). Records the patch for uninstall. */
export function installToStringMask(win: typeof globalThis, patches: Array<{ obj: object; prop: PropertyKey; desc: PropertyDescriptor }>): void {
  const proto = win.Function.prototype;
  const desc = Object.getOwnPropertyDescriptor(proto, 'toString');
  if (!desc || typeof desc.value !== 'function' || !desc.configurable) return;
  origToString = desc.value;
  const masked = new Proxy(desc.value as (...a: unknown[]) => string, {
    apply(target, self, args) {
      const text = self !== null && (typeof self === 'function' || typeof self === 'object') ? masks.get(self as object) : undefined;
      return text !== undefined ? text : Reflect.apply(target, self, args);
    },
  });
  masks.set(masked, Reflect.apply(origToString, desc.value, []));
  Object.defineProperty(proto, 'toString', { ...desc, value: masked });
  patches.push({ obj: proto, prop: 'toString', desc });
}
