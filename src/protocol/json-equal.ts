/**
 * Whether two values read from JSON (`JSON.parse`: plain objects, arrays, strings, finite numbers, booleans, null)
 * are the same JSON, compared in place: no text is built. True only when `JSON.stringify` of both would give the
 * same text (the same keys in the same order, the same values); false when they differ, or when it cannot tell
 * cheaply (NaN, nesting deeper than `MAX_DEPTH`, anything JSON does not hold): the caller then compares the texts.
 */
const MAX_DEPTH = 64;

export function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) {
    return typeof a !== 'object' || a === null; // (one object twice: its text is one, but it may not be plain)
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth >= MAX_DEPTH) {
    return false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) {
      return false;
    }
    for (let i = 0; i < a.length; i++) {
      if (!sameJson(a[i], b[i], depth + 1)) {
        return false;
      }
    }
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) {
    return false;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) {
    return false;
  }
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) {
      return false;
    }
  }
  return true;
}

const isPlain = (o: object): boolean => {
  const p = Object.getPrototypeOf(o);
  return p === Object.prototype || p === null;
};
