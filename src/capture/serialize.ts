/**
 * One message's data as JSON text for a capture record, serialized once.
 *
 * Fast path: a cheap structural check (own enumerable keys of plain objects and dense plain arrays; strings,
 * booleans, finite non -0 numbers, null; no `$ei` key, no repeated object, depth <= 64) proves that the
 * capture encoding (protocol/encoding.ts) would keep the value as it is; then `JSON.stringify` alone gives
 * the record's text. The check walks keys, not bytes: a 10 KB string costs one `typeof`. Anything else, or
 * JSON text over the size cap, goes through the full encoder (tagged values, references, truncation).
 * The natives are captured when the module loads (document_start, before any page script), and a page that
 * puts a `toJSON` on Object/Array prototypes only loses the fast path.
 */
import { encode } from '../protocol/encoding.ts';

const TAG = '$ei';
const stringify = JSON.stringify;
const getProto = Object.getPrototypeOf;
const keysOf = Object.keys;
const isArray = Array.isArray;
const getDesc = Object.getOwnPropertyDescriptor;
const OBJ = Object.prototype;
const ARR = Array.prototype;
const MAX_DEPTH = 64;

/**
 * The prototypes of plain data: this realm's, or another realm's whose objects are read through a transparent
 * wrapper (Firefox: the page's, see deliveries.ts).
 */
export interface Protos {
  obj: object;
  /**
   * The realm's array prototype; null until the walk meets an array, whose prototype it then is. Only for data the
   * browser's structured clone made in that realm (a delivered message), whose arrays have the realm's own
   * `Array.prototype`: naming the realm's `Array` would define that global on its window (Firefox, deliveries.ts).
   */
  arr: object | null;
}
const OWN: Protos = { obj: OBJ, arr: ARR };
/** The prototypes of the walk in progress. */
let protos: Protos = OWN;

export interface DataJson {
  /** JSON text of the encoded data. */
  json: string;
  /** Set when the data was over the cap and is kept truncated: its encoded size. */
  originalSize?: number;
}

// Objects met on the current walk (a repeated one takes the full encoder, which writes a Ref). A message holds
// a few objects: the first SMALL are compared one by one, which spares each fresh object the identity hash a
// Set would give it; past that, a Set.
// In the MAIN world these are the page's prototypes, and a page script may later put a setter on an index of
// `Array.prototype` or replace a method of `Set.prototype`: the slots are made own now (before any page script), so
// an assignment never reaches a setter of the page's, and the Set's methods are the ones found now.
const SMALL = 16;
const few: object[] = [];
for (let i = 0; i < SMALL; i++) {
  few[i] = undefined as unknown as object;
}
let fewCount = 0;
const many = new Set<object>();
/** Whether the walk noted objects in `many` (then it is cleared after the walk). */
let manyUsed = false;
const apply = Reflect.apply;
const { has: setHas, add: setAdd, clear: setClear } = Set.prototype;
/** Note an object of the walk; false when the walk met it already. */
function firstVisit(o: object): boolean {
  for (let i = 0; i < fewCount; i++) {
    if (few[i] === o) {
      return false;
    }
  }
  if (fewCount < SMALL) {
    few[fewCount++] = o;
    return true;
  }
  if (apply(setHas, many, [o])) {
    return false;
  }
  apply(setAdd, many, [o]);
  manyUsed = true;
  return true;
}
function forget(): void {
  for (let i = 0; i < fewCount; i++) {
    few[i] = undefined as unknown as object;
  }
  fewCount = 0;
  if (manyUsed) {
    manyUsed = false;
    apply(setClear, many, []);
  }
}

function plain(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
      walkChars += (v as string).length;
      return true;
    case 'boolean':
      return true;
    case 'number':
      return v - v === 0 && (v !== 0 || 1 / v > 0);
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) {
    return true;
  }
  if (depth > MAX_DEPTH || !firstVisit(v as object)) {
    return false;
  }
  if (isArray(v)) {
    arrays = true;
    if (!isArrayProto(getProto(v))) {
      return false;
    }
    for (let i = 0; i < v.length; i++) {
      if (!(i in v) || !plain(v[i], depth + 1)) {
        return false;
      }
    }
    return true;
  }
  if (getProto(v) !== protos.obj) {
    return false;
  }
  const keys = keysOf(v as object);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    walkChars += k.length;
    if (k === TAG || !plain((v as Record<string, unknown>)[k], depth + 1)) {
      return false;
    }
  }
  return true;
}

/** Characters of the strings and keys the walk in progress met (`plainJson`'s `long`). */
let walkChars = 0;

/** What `plainJson` gives for plain data at least `long` characters long: not JSON text (no JSON starts with `#`). */
export const LONG_DATA = '#long';

// Whether the walk met an array (only then does JSON.stringify look at the array prototype's `toJSON`).
let arrays = false;

/** `p` is the walk's array prototype (learnt here if the realm's is not known yet: Protos.arr). */
function isArrayProto(p: object | null): boolean {
  if (p === protos.arr) {
    return true;
  }
  if (protos.arr === null && p !== null) {
    protos.arr = p;
    return true;
  }
  return false;
}

// A walk in progress: a page getter read during it may start another (a post from inside the getter); that one
// takes the full encoder rather than share the objects noted by the outer walk.
let walking = false;

/** Never throws. `maxBytes`: cap of the encoded size (UTF-16 units of JSON, as encoding.ts counts). */
export function dataJson(data: unknown, maxBytes: number): DataJson {
  const json = plainJson(data, maxBytes, OWN);
  if (json !== null) {
    return { json };
  }
  return encoded(data, maxBytes);
}

/**
 * The fast path alone: the JSON text of data the check proves plain (with the prototypes of `realm`), at most
 * `maxBytes` long; else null. Of another realm's data, reads nothing but own data properties and the two prototypes'
 * own `toJSON` slots (no getter of that realm runs), and calls nothing of that realm but what JSON.stringify
 * looks up: a `toJSON` on plain data's prototypes, which the check proves absent. `long`: plain data whose strings
 * and keys hold at least this many characters is not written: LONG_DATA instead. Never throws.
 */
export function plainJson(
  data: unknown,
  maxBytes: number,
  realm: Protos = OWN,
  long = Number.POSITIVE_INFINITY,
): string | null {
  try {
    let ok = false;
    if (!walking) {
      walking = true;
      protos = realm;
      arrays = false;
      walkChars = 0;
      try {
        // Another realm's prototypes are read only as far as JSON.stringify will look: the object prototype's
        // `toJSON` (its own prototype is null, and immutable), and the array prototype's and what it inherits
        // from only when the data holds an array (each read is a call across compartments in Firefox).
        ok =
          realm === OWN
            ? (OBJ as { toJSON?: unknown }).toJSON === undefined &&
              (ARR as { toJSON?: unknown }).toJSON === undefined &&
              plain(data, 0)
            : getDesc(realm.obj, 'toJSON') === undefined &&
              plain(data, 0) &&
              (!arrays ||
                (realm.arr !== null &&
                  getDesc(realm.arr, 'toJSON') === undefined &&
                  getProto(realm.arr) === realm.obj));
      } finally {
        forget();
        protos = OWN;
        walking = false;
      }
    }
    if (ok && walkChars >= long) {
      return LONG_DATA;
    }
    if (ok) {
      const json = stringify(data);
      if (json.length <= maxBytes) {
        return json;
      }
    }
  } catch {
    /* a getter threw or a proxy refused: take the careful path */
  }
  return null;
}

/**
 * A copy in this world of another realm's data that is plain by `plain`'s walk but for its primitives (any number,
 * `undefined`: the hand-over's `dataJson` of the copy decides what they take), with the record size it will count
 * for (escapes not counted); null where the data is anything else, or its text could reach `maxBytes` (every
 * character escaped): then it is read as it is. Reads what the check reads (own enumerable keys, own data
 * properties, the two prototypes) and shares the data's strings. Never throws.
 */
export function plainCopy(data: unknown, realm: Protos, maxBytes: number): { data: unknown; chars: number } | null {
  if (walking) {
    return null;
  }
  walking = true;
  protos = realm;
  copyChars = 0;
  copyWorst = 0;
  try {
    const copy = copyOf(data, 0);
    return copy === NOT_PLAIN || copyWorst > maxBytes ? null : { data: copy, chars: copyChars };
  } catch {
    return null;
  } finally {
    forget();
    protos = OWN;
    walking = false;
  }
}

/**
 * A copy of this realm's data (the MAIN world's posts: this realm is the page's) that `plain` accepts as it is, with
 * the record size it will count for; null for anything else (then `dataJson` writes the data at once), or where its
 * text could reach `maxBytes`. A snapshot that shares the data's strings, for `copyJson` to write later with the
 * same text as the data's now: the same keys in the same order, the same values. It reads what `plain` reads (a
 * page getter in the data runs here, and not again when the copy is written) and builds the copy without any
 * setter of the page's prototypes running (a key the prototype has is defined, not assigned). Never throws.
 */
export function ownCopy(data: unknown, maxBytes: number): { data: unknown; chars: number } | null {
  strict = true;
  try {
    return plainCopy(data, OWN, maxBytes);
  } finally {
    strict = false;
  }
}

/**
 * The text of an `ownCopy`: JSON.stringify's, without walking it again (the copy is plain but for the prototypes'
 * `toJSON`, read here without running any getter); where a prototype has a `toJSON` by now, the encoder's, as
 * `dataJson` writes it then. The same text as the data had when copied. Never throws.
 */
export function copyJson(copy: unknown): string {
  return noToJson() ? stringify(copy) : encoded(copy, Number.MAX_SAFE_INTEGER).json;
}

/**
 * JSON text of an encoded value (plain objects, arrays and JSON primitives) that no `toJSON` changes: in the MAIN
 * world the encoder's objects have the page's prototypes, and a page may give them a `toJSON` (Prototype.js's
 * `Array.prototype.toJSON`), which JSON.stringify would call. Only strings and numbers go through JSON.stringify, which
 * looks up no `toJSON` for a primitive.
 */
function written(v: unknown): string {
  if (v === null || typeof v !== 'object') {
    return stringify(v) ?? 'null';
  }
  let out: string;
  if (isArray(v)) {
    out = '[';
    for (let i = 0; i < v.length; i++) {
      out += (i ? ',' : '') + written(v[i]);
    }
    return `${out}]`;
  }
  out = '{';
  const keys = keysOf(v);
  for (let i = 0; i < keys.length; i++) {
    out += `${i ? ',' : ''}${stringify(keys[i])}:${written((v as Record<string, unknown>)[keys[i]])}`;
  }
  return `${out}}`;
}

/** This realm's object and array prototypes have no `toJSON` (read without running a getter). Never throws. */
function noToJson(): boolean {
  try {
    return getDesc(OBJ, 'toJSON') === undefined && getDesc(ARR, 'toJSON') === undefined && getProto(ARR) === OBJ;
  } catch {
    return false;
  }
}

// An object, not a Symbol: the MAIN world runs this at document_start, and reading the name `Symbol` there would
// define that built-in on a Firefox window earlier than the page does (the order of its own names).
const NOT_PLAIN = { notPlain: true };
const defineProp = Object.defineProperty;
// The copy in progress: the record size it will take, and the longest text it can take (`\uXXXX` escapes).
let copyChars = 0;
let copyWorst = 0;
/** The copy takes only `plain`'s primitives (no `undefined`, only finite numbers but -0): `ownCopy`. */
let strict = false;
const NewArray = Array;
/** An own data property as assignment makes it; the descriptor has no prototype, so none of the page's is read. */
function defineData(o: object, k: PropertyKey, value: unknown): void {
  defineProp(o, k, {
    __proto__: null,
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  } as PropertyDescriptor);
}

function copyOf(v: unknown, depth: number): unknown {
  if (v === null || typeof v !== 'object') {
    const t = typeof v;
    if (t === 'string') {
      copyChars += (v as string).length + 3;
      copyWorst += 6 * (v as string).length + 3;
    } else if ((t === 'number' || t === 'boolean' || t === 'undefined' || v === null) && (!strict || plain(v, 0))) {
      copyChars += 8;
      copyWorst += 26;
    } else {
      return NOT_PLAIN;
    }
    return v;
  }
  if (depth > MAX_DEPTH || !firstVisit(v)) {
    return NOT_PLAIN;
  }
  const proto = getProto(v);
  if (isArray(v)) {
    if (!isArrayProto(proto)) {
      return NOT_PLAIN;
    }
    const n = v.length;
    const out = new NewArray(n);
    for (let i = 0; i < n; i++) {
      if (!(i in v)) {
        return NOT_PLAIN;
      }
      const x = copyOf(v[i], depth + 1);
      if (x === NOT_PLAIN) {
        return x;
      }
      // A hole of `out` reads through to the prototypes: an index they have is defined (no setter runs).
      if (i in out) {
        defineData(out, i, x);
      } else {
        out[i] = x;
      }
    }
    copyChars += 2;
    copyWorst += 2;
    return out;
  }
  if (proto !== protos.obj) {
    return NOT_PLAIN;
  }
  const keys = keysOf(v);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k === TAG) {
      return NOT_PLAIN;
    }
    const x = copyOf((v as Record<string, unknown>)[k], depth + 1);
    if (x === NOT_PLAIN) {
      return x;
    }
    // `__proto__`, and any name the prototypes have (the page's, in the MAIN world: it may have a setter), is defined.
    if (k in out) {
      defineData(out, k, x);
    } else {
      out[k] = x;
    }
    copyChars += k.length + 4;
    copyWorst += 6 * k.length + 4;
  }
  copyChars += 2;
  copyWorst += 2;
  return out;
}

/** The full encoder's JSON text (tagged values, references, truncation). */
function encoded(data: unknown, maxBytes: number): DataJson {
  const enc = encode(data, { maxBytes });
  let json: string | undefined;
  try {
    json = noToJson() ? stringify(enc.value) : written(enc.value);
  } catch {
    /* impossible for encoded values; keep a marker */
  }
  const out: DataJson = { json: json ?? '{"$ei":"Unknown","kind":"Unreadable"}' };
  if (enc.truncated) {
    out.originalSize = enc.size;
  }
  return out;
}
