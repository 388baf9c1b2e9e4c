/**
 * A document rewritten by `document.open()` (an about:blank frame filled by `document.write`, as some ad and widget
 * loaders do), or by `document.write`/`writeln` on a closed document (which opens it), keeps its window and the
 * capture's scripts in it, but loses every event listener of its window and document, the relay's included (HTML's
 * document open steps).
 *
 * In full mode the MAIN world wraps the three on its realm's `Document.prototype` (looking native, as the hook's
 * other functions do) and says so, for its own document only:
 * - `before` an `open()`, or a write on a document no longer loading: the posts this frame holds, already read, leave
 *   at the address they were made at (the rewrite gives the document its caller's address);
 * - `after` an `open()`, or a write that replaced the document's root: the relay adds its listeners again (relay.ts
 *   `listenPage`). After `open()` that is before the page's next statement, so the relay's delivery listener is the
 *   window's first again, before any listener the written scripts add, and hears what they dispatch. After a write
 *   that opened the document, its written scripts ran already.
 * Nothing here runs page code: the root and the ready state are read with the getters kept now. A page calls them on
 * a frame's document through that document, so with that frame's realm's functions: its own wrapper, when it is
 * captured. Another frame's function called on it (`Document.prototype.open.call(frameDocument)`) is not seen. A
 * document the page makes (`createHTMLDocument`) holds no listener of ours.
 */
import { clean, markNative } from './native.ts';

export interface RewriteSink {
  before(): void;
  after(): void;
}

const apply = Reflect.apply;
const getDesc = Object.getOwnPropertyDescriptor;
const defineProp = Object.defineProperty;

/** A getter of `proto`'s, kept now; one that returns undefined where the browser has none. */
function keptGetter(proto: object | undefined, name: string): (self: unknown) => unknown {
  const g = proto ? getDesc(proto, name)?.get : undefined;
  return (self) => {
    try {
      return g ? apply(g, self, []) : undefined;
    } catch {
      return undefined;
    }
  };
}

export function patchRewrites(
  win: Window & typeof globalThis,
  patches: Array<{ obj: object; prop: PropertyKey; desc: PropertyDescriptor }>,
  sink: RewriteSink,
): void {
  const proto = win.Document?.prototype;
  if (!proto) {
    return;
  }
  const doc = win.document;
  const rootOf = keptGetter(proto, 'documentElement');
  const stateOf = keptGetter(proto, 'readyState');
  const tell = (fn: () => void) => {
    try {
      fn();
    } catch {
      /* never disturb the page */
    }
  };
  for (const name of ['open', 'write', 'writeln'] as const) {
    const desc = getDesc(proto, name);
    if (!desc || typeof desc.value !== 'function' || !desc.configurable) {
      continue;
    }
    const orig = desc.value as (...a: unknown[]) => unknown;
    const opens = name === 'open';
    const wrapped = {
      [name](this: unknown, ...args: unknown[]) {
        // (with three arguments open() is window.open(): nothing rewritten)
        const own = this === doc && !(opens && args.length > 2);
        const root = own && !opens ? rootOf(doc) : undefined;
        if (own && (opens || stateOf(doc) !== 'loading')) {
          tell(sink.before);
        }
        try {
          return apply(orig, this, args);
        } catch (e) {
          throw clean(e, wrapped); // (as postMessage's: hook.ts makePost)
        } finally {
          if (own && (opens || rootOf(doc) !== root)) {
            tell(sink.after);
          }
        }
      },
    }[name];
    markNative(wrapped, undefined, orig);
    defineProp(proto, name, { ...desc, value: wrapped });
    patches.push({ obj: proto, prop: name, desc });
  }
}
