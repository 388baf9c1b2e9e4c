/**
 * Makes the functions the hook installs look native: `Function.prototype.toString` answers for them what
 * it answers for the functions they replace (`function postMessage() { [native code] }`), and answers for
 * itself like the original.
 */
const masks = new WeakMap<object, string>();
// V8 and recent Gecko: re-capture an error's stack without our frames, as if the native had thrown it.
const captureStack = (Error as { captureStackTrace?: (o: object, fn?: unknown) => void }).captureStackTrace;

/** The error with its stack taken again from `fn`'s caller: as thrown by the native, without our frames. */
export function clean(e: unknown, fn: unknown): unknown {
  if (captureStack && e !== null && typeof e === 'object') {
    try {
      captureStack(e, fn);
    } catch {
      /* keep */
    }
  }
  return e;
}
let origToString: (this: unknown) => string = Function.prototype.toString;

/**
 * What this engine answers for a native function named `name`: its own layout, read from a native it has
 * (V8: `function f() { [native code] }`, SpiderMonkey: the body on its own indented line).
 */
function nativeText(name: string): string {
  try {
    const sample = Reflect.apply(origToString, Math.max, []) as string;
    if (sample.startsWith('function max(')) {
      return `function ${name}(${sample.slice('function max('.length)}`;
    }
  } catch {
    /* the usual layout */
  }
  return `function ${name}() { [native code] }`;
}

/** Register `fn` as looking like `like` (a native it replaces), or like a native named `name`. */
export function markNative<T extends object>(fn: T, name?: string, like?: object): T {
  let text = nativeText(name ?? '');
  if (like) {
    try {
      text = Reflect.apply(origToString, like, []);
    } catch {
      /* keep default */
    }
  }
  masks.set(fn, text);
  return fn;
}

/** Install the mask on this window's Function.prototype.toString (once). Records the patch for uninstall. */
export function installToStringMask(
  win: typeof globalThis,
  patches: Array<{ obj: object; prop: PropertyKey; desc: PropertyDescriptor }>,
): void {
  const proto = win.Function.prototype;
  const desc = Object.getOwnPropertyDescriptor(proto, 'toString');
  if (!desc || typeof desc.value !== 'function' || !desc.configurable) {
    return;
  }
  origToString = desc.value;
  const handler: ProxyHandler<(...a: unknown[]) => string> = {
    apply(target, self, args) {
      const text =
        self !== null && (typeof self === 'function' || typeof self === 'object')
          ? masks.get(self as object)
          : undefined;
      if (text !== undefined) {
        return text;
      }
      try {
        return Reflect.apply(target, self, args);
      } catch (e) {
        throw clean(e, handler.apply);
      }
    },
  };
  const masked = new Proxy(desc.value as (...a: unknown[]) => string, handler);
  masks.set(masked, Reflect.apply(origToString, desc.value, []));
  Object.defineProperty(proto, 'toString', { ...desc, value: masked });
  patches.push({ obj: proto, prop: 'toString', desc });
}
