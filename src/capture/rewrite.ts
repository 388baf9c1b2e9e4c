/**
 * A document rewritten by `document.open()` (an about:blank frame filled by `document.write`, as some ad and widget
 * loaders do), or by `document.write`/`writeln` on a closed document (which opens it), keeps its window and the
 * capture's scripts in it, but loses every event listener of its window and document, the relay's included (HTML's
 * document open steps).
 *
 * In full mode the MAIN world wraps the three on its realm's `Document.prototype` (looking native, as the hook's
 * other functions do) and says so, for its own document only:
 * - `before` an `open()`: the posts this frame made so far leave at the address they were made at (the rewrite gives
 *   the document its caller's address);
 * - `after` each call, thrown or not: the relay adds its listeners again (relay.ts `listenPage`). After `open()` that is
 *   before the page's next statement, so the relay's delivery listener is the window's first again, before any
 *   listener the written scripts add, and hears what they dispatch. After `write`, its written scripts ran already.
 * A page calls them on a frame's document through that document, so with that frame's realm's functions: its own
 * wrapper, when it is captured. A document the page makes (`createHTMLDocument`) holds no listener of ours.
 */
import { clean, markNative } from './native.ts';

export interface RewriteSink {
  before(): void;
  after(): void;
}

const apply = Reflect.apply;
const getDesc = Object.getOwnPropertyDescriptor;
const defineProp = Object.defineProperty;

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
        if (own && opens) {
          tell(sink.before);
        }
        try {
          return apply(orig, this, args);
        } catch (e) {
          throw clean(e, wrapped);
        } finally {
          if (own) {
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
