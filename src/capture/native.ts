/**
 * Makes the functions the hook installs look native: `Function.prototype.toString` answers for them what
 * it answers for the functions they replace (`function postMessage() { [native code] }`), and answers for
 * itself like the original.
 */
/**
 * What toString answers for each function the hook made: its text, or what it is written from on the first ask (a
 * native's name, or the function it replaces): nothing is read at document_start beyond the function's mark.
 */
const masks = new WeakMap<object, string | { name: string; like: object | undefined }>();
const apply = Reflect.apply;
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
 * What follows `function <name>(` in this engine's text of a native (V8: `) { [native code] }`, SpiderMonkey: the
 * body on its own indented line), read once from a native it has, before any page script (the page could replace
 * what reading it calls).
 */
let nativeTail: string | null = null;
function readNativeTail(): string {
  try {
    const sample = apply(origToString, Math.max, []) as string;
    if (sample.startsWith('function max(')) {
      return sample.slice('function max('.length);
    }
  } catch {
    /* the usual layout */
  }
  return ') { [native code] }';
}

/** Register `fn` as looking like `like` (a native it replaces), or like a native named `name`. */
export function markNative<T extends object>(fn: T, name?: string, like?: object): T {
  masks.set(fn, { name: name ?? '', like });
  return fn;
}

/** The text toString gives for a marked function (written on the first ask), or undefined for any other. */
function maskOf(fn: object): string | undefined {
  const m = masks.get(fn);
  if (m === undefined || typeof m === 'string') {
    return m;
  }
  let text: string | undefined;
  if (m.like) {
    try {
      text = apply(origToString, m.like, []) as string;
    } catch {
      /* keep default */
    }
  }
  text ??= `function ${m.name}(${(nativeTail ??= readNativeTail())}`;
  masks.set(fn, text);
  return text;
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
  nativeTail ??= readNativeTail();
  const handler: ProxyHandler<(...a: unknown[]) => string> = {
    apply(target, self, args) {
      const text =
        self !== null && (typeof self === 'function' || typeof self === 'object') ? maskOf(self as object) : undefined;
      if (text !== undefined) {
        return text;
      }
      try {
        return apply(target, self, args);
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
