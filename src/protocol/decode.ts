/** The capture encoding's inverse: rebuild real values from an encoded one (used to replay captured messages). */
import { base64ToBytes } from './base64.ts';
import { tagOf } from './encoding.ts';

/** Rebuild real values from an encoded one (for replaying captured messages). Never throws. */
export function decode(v: unknown): unknown {
  const root = { value: undefined as unknown };
  const refs: Array<[Record<string, unknown> | unknown[], string | number, string]> = [];
  const byPath = new Map<string, unknown>();
  const dec = (x: unknown, path: string): unknown => {
    if (x === null || typeof x !== 'object') {
      return x;
    }
    if (Array.isArray(x)) {
      const out: unknown[] = [];
      byPath.set(path, out);
      x.forEach((item, i) => {
        const r = dec(item, `${path}[${i}]`);
        if (isRef(item)) {
          refs.push([out, i, String((item as Record<string, unknown>).path)]);
        }
        out.push(r);
      });
      return out;
    }
    const e = x as Record<string, unknown>;
    const tag = tagOf(e);
    try {
      switch (tag) {
        case undefined:
        case 'Object': {
          const src = tag === 'Object' ? (e.v as Record<string, unknown>) : e;
          const out: Record<string, unknown> = {};
          byPath.set(path, out);
          for (const [k, val] of Object.entries(src ?? {})) {
            setOwn(out, k, dec(val, /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`));
            if (isRef(val)) {
              refs.push([out, k, String((val as Record<string, unknown>).path)]);
            }
          }
          return out;
        }
        case 'undefined':
          return undefined;
        case 'Number':
          return e.v === '-0' ? -0 : Number(e.v);
        case 'BigInt':
          return BigInt(String(e.v));
        case 'Date':
          return new Date(String(e.v));
        case 'RegExp':
          return new RegExp(String(e.source), String(e.flags));
        case 'Map': {
          const m = new Map();
          byPath.set(path, m);
          (e.v as unknown[][]).forEach(([k, val], i) => {
            m.set(dec(k, `${path}.<key ${i}>`), dec(val, `${path}.<value ${i}>`));
          });
          return m;
        }
        case 'Set': {
          const s = new Set();
          byPath.set(path, s);
          (e.v as unknown[]).forEach((item, i) => {
            s.add(dec(item, `${path}.<item ${i}>`));
          });
          return s;
        }
        case 'ArrayBuffer':
          return base64ToBytes(String(e.v)).slice().buffer;
        case 'TypedArray': {
          const bytes = base64ToBytes(String(e.v)).slice();
          const Ctor = (globalThis as Record<string, unknown>)[String(e.kind)] as
            | (new (
                b: ArrayBuffer,
              ) => unknown)
            | undefined;
          if (e.kind === 'DataView') {
            return new DataView(bytes.buffer);
          }
          return typeof Ctor === 'function' ? new Ctor(bytes.buffer) : bytes;
        }
        case 'Error': {
          const err = new Error(String(e.message));
          err.name = String(e.name);
          return err;
        }
        case 'Ref':
          return undefined; // patched below
        default:
          return e; // Blob, Unknown, Truncated, Symbol, Function: kept as their description
      }
    } catch {
      return e;
    }
  };
  root.value = dec(v, '$');
  for (const [holder, key, path] of refs) {
    const target = byPath.get(path);
    setOwn(holder as Record<string | number, unknown>, key, target);
  }
  return root.value;
}
const isRef = (x: unknown) => tagOf(x) === 'Ref';
/**
 * `o[k] = v` as an own property: a captured key named `__proto__` (JSON.parse makes it an own key) would otherwise
 * set the rebuilt object's prototype and vanish from what a replay sends.
 */
function setOwn(o: Record<string | number, unknown>, k: string | number, v: unknown): void {
  if (k === '__proto__') {
    Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  } else {
    o[k] = v;
  }
}
