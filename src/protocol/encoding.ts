/**
 * The capture encoding: turns any structured-clone value into a JSON-safe value (decode.ts turns it back).
 *
 * Plain JSON values (null, booleans, finite numbers, strings, arrays, plain objects) are kept as they are.
 * Everything else becomes a tagged object `{"$ei": <Tag>, ...}` (docs/capture-format.md lists every tag):
 *   undefined, NaN/±Infinity/-0 (Number), BigInt, Date, RegExp, Map, Set, ArrayBuffer, typed arrays and
 *   DataView (base64), Blob/File (size and type only), Error, a repeated or cyclic reference (Ref),
 *   an object whose own key is "$ei" (Object, escaped), anything else (Unknown, with its class name),
 *   and a value over the size cap (Truncated).
 * Pure and total: never throws, whatever it is given.
 */
import { bytesToBase64 } from './base64.ts';

export const TAG = '$ei';

export type EncodedTag =
  | 'undefined'
  | 'Number'
  | 'BigInt'
  | 'Date'
  | 'RegExp'
  | 'Map'
  | 'Set'
  | 'ArrayBuffer'
  | 'TypedArray'
  | 'Blob'
  | 'Error'
  | 'Ref'
  | 'Object'
  | 'Unknown'
  | 'Truncated'
  | 'Symbol'
  | 'Function';

export interface EncodeOptions {
  /** Cap on the encoded size in bytes (approximate UTF-16 length of the JSON); default 1 MB. */
  maxBytes?: number;
  /** Max nesting depth kept; deeper values become `Truncated`. Default 200. */
  maxDepth?: number;
}

export interface Encoded {
  value: unknown;
  /** Approximate size of the encoded JSON in bytes (of the full value when truncated). */
  size: number;
  truncated: boolean;
}

export const DEFAULT_MAX_BYTES = 1_000_000;
const PREVIEW_CHARS = 2_000;

const toStringTag = (v: object): string => {
  try {
    const s = Object.prototype.toString.call(v);
    // Plain objects, the common case, without building a new string.
    return s === '[object Object]' ? 'Object' : s.slice(8, -1);
  } catch {
    return 'Object';
  }
};
const className = (v: object): string => {
  try {
    const proto = Object.getPrototypeOf(v);
    const name = proto?.constructor?.name;
    return typeof name === 'string' && name ? name : toStringTag(v);
  } catch {
    return 'Object';
  }
};

class Encoder {
  size = 0;
  over = false;
  private seen = new Map<object, string>();
  constructor(
    private maxBytes: number,
    private maxDepth: number,
  ) {}

  enc(v: unknown, path: string, depth: number): unknown {
    switch (typeof v) {
      case 'string':
        this.size += v.length + 2;
        return v;
      case 'boolean':
        this.size += 5;
        return v;
      case 'number':
        this.size += 8;
        if (Number.isFinite(v) && !Object.is(v, -0)) {
          return v;
        }
        return { [TAG]: 'Number', v: Object.is(v, -0) ? '-0' : String(v) };
      case 'undefined':
        this.size += 16;
        return { [TAG]: 'undefined' };
      case 'bigint':
        this.size += 20;
        return { [TAG]: 'BigInt', v: v.toString() };
      case 'symbol':
        this.size += 16;
        return { [TAG]: 'Symbol', v: String(v.description ?? '') };
      case 'function':
        this.size += 16;
        return { [TAG]: 'Function' };
    }
    if (v === null) {
      this.size += 4;
      return null;
    }
    return this.object(v as object, path, depth);
  }

  /** An object: a reference to one seen before, a cut at the depth or size cap, else its encoding. */
  private object(o: object, path: string, depth: number): unknown {
    const prior = this.seen.get(o);
    if (prior !== undefined) {
      this.size += prior.length + 16;
      return { [TAG]: 'Ref', path: prior };
    }
    if (depth >= this.maxDepth) {
      this.over = true;
      return { [TAG]: 'Truncated', reason: 'depth' };
    }
    this.seen.set(o, path);
    if (this.size > this.maxBytes * 4) {
      this.over = true;
      return null;
    } // far past the cap: stop counting
    try {
      if (Array.isArray(o)) {
        const out = new Array(o.length);
        this.size += 2;
        for (let i = 0; i < o.length; i++) {
          out[i] = this.enc(o[i], `${path}[${i}]`, depth + 1);
          this.size += 1;
        }
        return out;
      }
      return this.tagged(o, toStringTag(o), path, depth);
    } catch (err) {
      return { [TAG]: 'Unknown', kind: 'Unreadable', message: safeMessage(err) };
    }
  }

  /** An object other than an array, by its tag (`Object`, `Date`, `Map`…). */
  private tagged(o: object, tag: string, path: string, depth: number): unknown {
    switch (tag) {
      case 'Object': {
        const proto = Object.getPrototypeOf(o);
        if (proto === Object.prototype || proto === null) {
          return this.plain(o as Record<string, unknown>, path, depth);
        }
        break;
      }
      case 'Date': {
        const t = (o as Date).getTime();
        this.size += 40;
        return { [TAG]: 'Date', v: Number.isNaN(t) ? 'Invalid Date' : new Date(t).toISOString() };
      }
      case 'RegExp':
        this.size += 40;
        return { [TAG]: 'RegExp', source: (o as RegExp).source, flags: (o as RegExp).flags };
      case 'Map':
      case 'Set':
        return this.collection(o as Map<unknown, unknown> | Set<unknown>, tag, path, depth);
      case 'ArrayBuffer':
      case 'SharedArrayBuffer': {
        const bytes = new Uint8Array(o as ArrayBuffer);
        this.size += Math.ceil((bytes.length * 4) / 3) + 30;
        if (this.size > this.maxBytes) {
          this.over = true;
          return null;
        }
        return { [TAG]: 'ArrayBuffer', v: bytesToBase64(bytes) };
      }
      case 'Blob':
      case 'File':
        this.size += 60;
        return {
          [TAG]: 'Blob',
          kind: tag,
          size: (o as Blob).size,
          type: (o as Blob).type,
          ...(tag === 'File' ? { name: (o as File).name } : {}),
        };
      case 'Error':
      case 'DOMException':
        this.size += 60;
        return { [TAG]: 'Error', name: String((o as Error).name), message: String((o as Error).message) };
    }
    return this.other(o, tag, path, depth);
  }

  /** A Map's entries or a Set's items. */
  private collection(o: Map<unknown, unknown> | Set<unknown>, tag: 'Map' | 'Set', path: string, depth: number) {
    const out: unknown[] = [];
    let i = 0;
    if (tag === 'Map') {
      for (const [k, val] of o as Map<unknown, unknown>) {
        out.push([this.enc(k, `${path}.<key ${i}>`, depth + 1), this.enc(val, `${path}.<value ${i}>`, depth + 1)]);
        i++;
      }
    } else {
      for (const item of o as Set<unknown>) {
        out.push(this.enc(item, `${path}.<item ${i++}>`, depth + 1));
      }
    }
    this.size += 20;
    return { [TAG]: tag, v: out };
  }

  /** Typed arrays and views, boxed primitives, MessagePort, ImageBitmap, class instances with an odd prototype… */
  private other(o: object, tag: string, path: string, depth: number): unknown {
    if (ArrayBuffer.isView(o)) {
      const view = o as ArrayBufferView;
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      this.size += Math.ceil((bytes.length * 4) / 3) + 40;
      if (this.size > this.maxBytes) {
        this.over = true;
        return null;
      }
      return { [TAG]: 'TypedArray', kind: tag, v: bytesToBase64(bytes) };
    }
    this.size += 40;
    if (tag === 'String' || tag === 'Number' || tag === 'Boolean') {
      return { [TAG]: 'Unknown', kind: tag, v: String((o as { valueOf(): unknown }).valueOf()) };
    }
    // A class instance: structured clone delivers its own enumerable properties as a plain object.
    if (tag === 'Object') {
      return this.plain(o as Record<string, unknown>, path, depth);
    }
    return { [TAG]: 'Unknown', kind: className(o) };
  }

  private plain(o: Record<string, unknown>, path: string, depth: number): unknown {
    const out: Record<string, unknown> = {};
    this.size += 2;
    for (const k of Object.keys(o)) {
      let val: unknown;
      try {
        val = o[k];
      } catch (err) {
        val = { [TAG]: 'Unknown', kind: 'Getter threw', message: safeMessage(err) };
      }
      this.size += k.length + 4;
      out[k] = this.enc(
        val,
        /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`,
        depth + 1,
      );
      if (this.over && this.size > this.maxBytes * 4) {
        break;
      }
    }
    if (Object.hasOwn(o, TAG)) {
      return { [TAG]: 'Object', v: out };
    }
    return out;
  }
}

function safeMessage(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'unknown error';
  }
}

/**
 * Fast path: the size of a value that is plain JSON already (no undefined, NaN, -0, `$ei` key, shared or
 * cyclic reference, exotic object), or -1. One walk, no allocation beyond the seen-set: the hot path of
 * capture, where nearly every message is a plain envelope.
 */
function plainJsonSize(v: unknown, depth: number, seen: Set<object>, budget: number): number {
  switch (typeof v) {
    case 'string':
      return v.length + 2;
    case 'boolean':
      return 5;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0) ? 8 : -1;
    case 'object':
      break;
    default:
      return -1;
  }
  if (v === null) {
    return 4;
  }
  if (depth > 64 || seen.has(v as object)) {
    return -1;
  }
  seen.add(v as object);
  let size = 2;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) {
      return -1;
    }
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) {
        return -1;
      }
      const s = plainJsonSize(v[i], depth + 1, seen, budget - size);
      if (s < 0) {
        return -1;
      }
      size += s + 1;
      if (size > budget) {
        return -1;
      }
    }
    return size;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) {
    return -1;
  }
  for (const k in v as object) {
    if (!Object.hasOwn(v, k)) {
      return -1;
    }
    if (k === TAG) {
      return -1;
    }
    const s = plainJsonSize((v as Record<string, unknown>)[k], depth + 1, seen, budget - size);
    if (s < 0) {
      return -1;
    }
    size += s + k.length + 4;
    if (size > budget) {
      return -1;
    }
  }
  return size;
}

/** Encode any value for a capture record. Never throws. Plain JSON values are returned as they are (not copied). */
export function encode(value: unknown, options: EncodeOptions = {}): Encoded {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  try {
    const fast = plainJsonSize(value, 0, new Set(), maxBytes);
    if (fast >= 0) {
      return { value, size: fast, truncated: false };
    }
  } catch {
    /* a getter threw or a proxy refused: take the careful path */
  }
  const e = new Encoder(maxBytes, options.maxDepth ?? 200);
  let out: unknown;
  try {
    out = e.enc(value, '$', 0);
  } catch (err) {
    return { value: { [TAG]: 'Unknown', kind: 'Unreadable', message: safeMessage(err) }, size: 0, truncated: true };
  }
  if (!e.over && e.size <= maxBytes) {
    return { value: out, size: e.size, truncated: false };
  }
  return { value: truncationMarker(out, e.size), size: e.size, truncated: true };
}

/** The marker kept in place of a message over the size cap: its size, and a text preview of its start. */
export function truncationMarker(encodedValue: unknown, size: number): unknown {
  let preview = '';
  try {
    preview = previewText(encodedValue, PREVIEW_CHARS);
  } catch {
    /* keep empty */
  }
  const keep: Record<string, unknown> = { [TAG]: 'Truncated', originalSize: size, preview };
  // Keep the envelope fields so the record is still recognisable and classifiable.
  if (encodedValue && typeof encodedValue === 'object' && !Array.isArray(encodedValue)) {
    const env = encodedValue as Record<string, unknown>;
    // Every primitive envelope field is kept as it was (a string up to 200 characters), so that the kept
    // fields are judged as the original ones; `payload` is what the cap cut.
    for (const k of ['source', 'direction', 'type', 'timestamp', 'surface']) {
      if (!(k in env)) {
        continue;
      }
      const v = env[k];
      if (v === null || typeof v === 'number' || typeof v === 'boolean') {
        keep[k] = v;
      } else if (typeof v === 'string') {
        keep[k] = v.slice(0, 200);
      }
    }
  }
  return keep;
}

function previewText(v: unknown, max: number): string {
  let out = '';
  const walk = (x: unknown): void => {
    if (out.length >= max) {
      return;
    }
    if (x === null || typeof x !== 'object') {
      out += typeof x === 'string' ? JSON.stringify(x.slice(0, max)) : String(x);
      return;
    }
    if (Array.isArray(x)) {
      out += '[';
      for (const i of x) {
        walk(i);
        out += ',';
        if (out.length >= max) {
          break;
        }
      }
      out += ']';
      return;
    }
    out += '{';
    for (const [k, val] of Object.entries(x)) {
      out += `${JSON.stringify(k)}:`;
      walk(val);
      out += ',';
      if (out.length >= max) {
        break;
      }
    }
    out += '}';
  };
  walk(v);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** Is this value one of the encoding's tagged objects? Returns the tag, or undefined. */
export function tagOf(v: unknown): EncodedTag | undefined {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const t = (v as Record<string, unknown>)[TAG];
    if (typeof t === 'string') {
      return t as EncodedTag;
    }
  }
  return undefined;
}

/**
 * A short name for the type of a value, raw or encoded: 'string', 'number', 'boolean', 'null', 'array',
 * 'object', or the class it was ('Date', 'Map', 'undefined', 'NaN', 'BigInt'…). Never throws.
 */
export function typeName(v: unknown): string {
  try {
    if (v === null) {
      return 'null';
    }
    if (Array.isArray(v)) {
      return 'array';
    }
    const t = typeof v;
    if (t === 'number') {
      return Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? 'number' : 'Infinity';
    }
    if (t !== 'object') {
      return t;
    }
    // tagOf(v), for an object already known not to be an array.
    const tagged = (v as Record<string, unknown>)[TAG];
    const tag = typeof tagged === 'string' ? (tagged as EncodedTag) : undefined;
    if (tag) {
      const e = v as Record<string, unknown>;
      if (tag === 'Number') {
        return String(e.v).replace('-', '') === 'Infinity' ? 'Infinity' : String(e.v);
      }
      if (tag === 'TypedArray' || tag === 'Unknown' || tag === 'Blob') {
        return String(e.kind ?? tag);
      }
      if (tag === 'Object') {
        return 'object';
      }
      if (tag === 'Truncated') {
        return 'truncated value';
      }
      if (tag === 'Ref') {
        return 'repeated reference';
      }
      return tag;
    }
    const st = toStringTag(v as object);
    if (st !== 'Object') {
      return st;
    }
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null ? 'object' : className(v as object);
  } catch {
    return 'unreadable';
  }
}

/** Is this a plain object (raw, or encoded-escaped)? Used by the validator for "payload is an object". */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeName(v) === 'object';
}

/** Own properties of a plain object, raw or `$ei:Object`-escaped. */
export function plainEntries(v: unknown): Record<string, unknown> {
  const tag = tagOf(v);
  if (tag === 'Object') {
    return ((v as Record<string, unknown>).v ?? {}) as Record<string, unknown>;
  }
  return v as Record<string, unknown>;
}
