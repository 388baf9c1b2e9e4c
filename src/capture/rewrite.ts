/**
 * A document rewritten by `document.open()` (an about:blank frame filled by `document.write`, as some ad and widget
 * loaders do) keeps its window and the capture's scripts in it, but loses every event listener of its window and
 * document, the relay's included (HTML's document open steps).
 *
 * In full mode the MAIN world wraps `open` on its realm's `Document.prototype` (looking native, as the hook's other
 * functions do) and, when it was called on the frame's own document, says so as it returns, thrown or not
 * (`rewritten`): the relay adds its listeners again (relay.ts `listenPage`) before the page's next statement, so its
 * delivery listener is the window's first again, before any listener the written scripts add, and hears what they
 * dispatch. A page calls `open` on a frame's document through that document, so with that frame's realm's function:
 * its own wrapper, when it is captured.
 *
 * Not wrapped: `write` and `writeln`. A write on a closed document opens it too, but the scripts it writes run within
 * the call, and a wrapper's frame would be in their stacks (a page's error reports would name the extension). `open`
 * runs no page script but what removing the old document runs (a child frame's `pagehide` and `unload` listeners,
 * custom elements' `disconnectedCallback`: docs/capture-modes.md says what they see). Not seen either: another
 * frame's `open` called on this document (`Document.prototype.open.call(frame.contentDocument)`).
 */
import { clean, markNative } from './native.ts';

const apply = Reflect.apply;
const getDesc = Object.getOwnPropertyDescriptor;
const defineProp = Object.defineProperty;

export function patchRewrites(
  win: Window & typeof globalThis,
  patches: Array<{ obj: object; prop: PropertyKey; desc: PropertyDescriptor }>,
  rewritten: () => void,
): void {
  const proto = win.Document?.prototype;
  const desc = proto ? getDesc(proto, 'open') : undefined;
  if (!proto || !desc || typeof desc.value !== 'function' || !desc.configurable) {
    return;
  }
  const doc = win.document;
  const orig = desc.value as (...a: unknown[]) => unknown;
  const { open } = {
    open(this: unknown, ...args: unknown[]) {
      // (with three arguments open() is window.open(): nothing rewritten)
      const own = this === doc && args.length < 3;
      try {
        return apply(orig, this, args);
      } catch (e) {
        throw clean(e, open); // (as postMessage's: hook.ts makePost)
      } finally {
        if (own) {
          try {
            rewritten();
          } catch {
            /* never disturb the page */
          }
        }
      }
    },
  };
  markNative(open, undefined, orig);
  defineProp(proto, 'open', { ...desc, value: open });
  patches.push({ obj: proto, prop: 'open', desc });
}
