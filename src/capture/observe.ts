/** Small pure helpers shared by the two capture scripts. */

/** Foreign messages (no svc-embed marker) are kept with this smaller size cap, so noise stays cheap. */
export const FOREIGN_MAX_BYTES = 64 * 1024;

/** The svc-embed marker, checked before any other work (the protocol's own check). */
export { isSvcEmbed } from '../protocol/marker.ts';

/** The target origin of a postMessage call: `(msg, targetOrigin, transfer)` or `(msg, {targetOrigin, transfer})`. */
export function postTargetOrigin(args: unknown[]): string {
  const a = args[1];
  try {
    if (a === undefined || a === null) {
      return '/'; // the options overload, default "/"
    }
    if (typeof a !== 'object') {
      return String(a);
    }
    if (a && typeof a === 'object') {
      const t = (a as { targetOrigin?: unknown }).targetOrigin;
      return t === undefined ? '/' : String(t);
    }
  } catch {
    /* ignore */
  }
  return '/';
}

/** How many objects were transferred with the message. */
export function transferCount(args: unknown[]): number {
  try {
    const a = args[1];
    const list = a && typeof a === 'object' ? (a as { transfer?: unknown }).transfer : args[2];
    return Array.isArray(list) ? list.length : 0;
  } catch {
    return 0;
  }
}

export function errorText(e: unknown): string {
  try {
    if (e && typeof e === 'object' && 'name' in e) {
      return `${String((e as Error).name)}: ${String((e as Error).message)}`;
    }
    return String(e);
  } catch {
    return 'unknown error';
  }
}
