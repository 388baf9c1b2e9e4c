/**
 * Where a window sits relative to this frame's window: itself, its parent, its opener, one of its child
 * frames, or another window. Read with the platform getters captured when the finder is made (at
 * document_start, before the hook or any page script replaces them), so that the answer is about the real
 * windows. Used for a post's target (hook.ts) and a delivery's source (deliveries.ts).
 */
import type { WindowRelation } from '../shared/messages.ts';

const getDesc = Object.getOwnPropertyDescriptor;
const apply = Reflect.apply;

const getterOf = (obj: object, prop: string): ((this: unknown) => unknown) | undefined =>
  (getDesc(obj, prop) ?? getDesc(Object.getPrototypeOf(obj) ?? {}, prop))?.get as
    | ((this: unknown) => unknown)
    | undefined;

export function relationFinder(win: Window & typeof globalThis): (w: unknown) => WindowRelation {
  const getParent = getterOf(win, 'parent');
  const getOpener = getterOf(win, 'opener');
  const getLength = getterOf(win, 'length');
  const read = (g: ((this: unknown) => unknown) | undefined): unknown => (g ? apply(g, win, []) : undefined);
  return (w) => {
    if (w === win) {
      return 'self';
    }
    try {
      if (w === read(getParent)) {
        return 'parent';
      }
      if (w === read(getOpener)) {
        return 'opener';
      }
      const n = Number(read(getLength)) || 0;
      for (let i = 0; i < n; i++) {
        if ((win as unknown as Record<number, unknown>)[i] === w) {
          return 'child';
        }
      }
    } catch {
      /* keep 'other' */
    }
    return 'other';
  };
}
