/**
 * The length of `JSON.stringify(v)` without building the string. The grid's Size column asks for it for every
 * row that comes into view; building each message's JSON only to measure it made a garbage string of the message's
 * size for each of them (up to the size cap, 1 MB by default).
 *
 * Exact for what records hold (plain objects, arrays, strings, numbers, booleans, null): escapes, lone surrogates,
 * skipped `undefined` properties and `null` array holes count as `JSON.stringify` counts them. Anything else
 * (a `toJSON` method, a class instance, a cycle, a very deep value or a huge array, a BigInt) is left to
 * `JSON.stringify` itself, so the result does not differ from it; like the code it replaces, a value that cannot be encoded is 0.
 */
const MAX_DEPTH = 200;
/** Longer arrays are left to JSON.stringify (a message under the size cap has far fewer items). */
const MAX_ITEMS = 1_000_000;
class Fallback extends Error {}
const FALLBACK = new Fallback();

export function encodedLength(v: unknown): number {
  try {
    return valueLength(v, 0) ?? 0;
  } catch (e) {
    if (e !== FALLBACK) {
      return 0;
    }
    try {
      return (JSON.stringify(v) ?? '').length;
    } catch {
      return 0;
    }
  }
}

/** Length of one value's JSON, or undefined when JSON.stringify would skip it (undefined, functions, symbols). */
function valueLength(v: unknown, depth: number): number | undefined {
  switch (typeof v) {
    case 'string':
      return stringLength(v);
    case 'number':
      return Number.isFinite(v) ? numberLength(v) : 4;
    case 'boolean':
      return v ? 4 : 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      throw FALLBACK; // JSON.stringify throws: 0, as before
  }
  if (v === null) {
    return 4;
  }
  if (depth > MAX_DEPTH) {
    throw FALLBACK; // a cycle, or deep enough to let JSON.stringify decide
  }
  const o = v as Record<string, unknown>;
  if (Array.isArray(o)) {
    // (a huge, mostly empty array: JSON.stringify decides, and cannot encode it; nothing to walk on this thread)
    if (Object.getPrototypeOf(o) !== Array.prototype || typeof o.toJSON === 'function' || o.length > MAX_ITEMS) {
      throw FALLBACK;
    }
    let n = 2 + Math.max(0, o.length - 1);
    for (let k = 0; k < o.length; k++) {
      n += valueLength(o[k], depth + 1) ?? 4;
    }
    return n;
  }
  const proto = Object.getPrototypeOf(o);
  if ((proto !== Object.prototype && proto !== null) || typeof o.toJSON === 'function') {
    throw FALLBACK;
  }
  let n = 2,
    count = 0;
  for (const key of Object.keys(o)) {
    const len = valueLength(o[key], depth + 1);
    if (len === undefined) {
      continue;
    }
    n += stringLength(key) + 1 + len;
    count++;
  }
  return n + Math.max(0, count - 1);
}

function stringLength(s: string): number {
  let n = s.length + 2;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) {
      continue;
    }
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x0c || c === 0x0a || c === 0x0d || c === 0x09) {
      n += 1;
    } else if (c < 0x20) {
      n += 5; // \u00XX
    } else if (c <= 0xdbff && k + 1 < s.length && (s.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
      k++; // a pair: as is
    } else {
      n += 5; // a lone surrogate: \uXXXX
    }
  }
  return n;
}

function numberLength(x: number): number {
  if (Number.isInteger(x) && Math.abs(x) < 1e21) {
    if (x === 0) {
      return 1; // -0 too
    }
    let n = x < 0 ? 1 : 0;
    for (let a = Math.abs(x); a >= 1; a = Math.floor(a / 10)) {
      n++;
    }
    return n;
  }
  return String(x).length;
}
