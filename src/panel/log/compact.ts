/**
 * Records reach the panel as copies: the background's messages are structured clones, a capture file is parsed
 * JSON. Every record then has its own copy of every string (the frame URL, origins, the message type) and a
 * post and its delivery each have their own copy of the same message. At 100,000 records that is several
 * hundred thousand long-lived objects more than there are facts, and the major GC's pause (which lands in a
 * scroll frame) grows with their number.
 *
 * `Compactor.record` folds the repeats of one record, in place: its strings and its envelope's short fields are
 * replaced by an equal string seen before, and when its message has the same values as its paired record's
 * (key order is not compared: the background pairs on equal encoded text) it takes that record's message object.
 * (Frame URLs are shared by the log as records arrive: it looks each frame up anyway.) The log runs it in idle
 * time over the records held (`compactSome`), and on each update as it arrives. What a reader sees does not
 * change: a record's or an envelope's string is only ever replaced by an equal one.
 * A message bigger than `MAX_COMPARED` nodes is not compared (it stays a copy): the comparison must fit in an
 * idle slice.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';

/** Distinct values remembered per field (a log has a handful of origins and types). */
const RECENT = 16;
/** Messages nested deeper than this are not compared (they stay separate copies). */
const MAX_DEPTH = 24;
/** Nor messages of more than this many values (objects, arrays and leaves). */
export const MAX_COMPARED = 2_000;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Same JSON value: primitives by `Object.is`, arrays item by item, plain objects by their own enumerable keys
 * and values. Key order is not compared (no key lists are allocated). Past `maxNodes` values visited, or
 * `MAX_DEPTH` levels, the answer is false (the values are kept apart).
 */
export function sameValue(a: unknown, b: unknown, maxNodes = Infinity): boolean {
  left = maxNodes;
  return same(a, b, 0);
}
let left = 0;
function same(a: unknown, b: unknown, depth: number): boolean {
  if (--left < 0) {
    return false;
  }
  if (a === b) {
    return a !== 0 || Object.is(a, b);
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return Object.is(a, b);
  }
  if (depth > MAX_DEPTH) {
    return false;
  }
  const arr = Array.isArray(a);
  if (arr !== Array.isArray(b)) {
    return false;
  }
  if (arr) {
    const x = a as unknown[],
      y = b as unknown[];
    if (x.length !== y.length) {
      return false;
    }
    for (let i = 0; i < x.length; i++) {
      if (!same(x[i], y[i], depth + 1)) {
        return false;
      }
    }
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) {
    return false;
  }
  const x = a as Record<string, unknown>,
    y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    if (!hasOwn.call(x, k)) {
      continue;
    }
    if (!hasOwn.call(y, k) || !same(x[k], y[k], depth + 1)) {
      return false;
    }
    n++;
  }
  for (const k in y) {
    if (hasOwn.call(y, k) && --n < 0) {
      return false;
    }
  }
  return n === 0;
}

/**
 * The last few distinct values of one field: a value equal to one of them is replaced by it (string equality
 * of a short list is cheaper than hashing every string into a map, and the values of a field repeat).
 */
class Recent {
  private vals: string[] = [];
  private next = 0;
  constructor(private readonly size = RECENT) {}
  get(s: string): string {
    const vals = this.vals;
    for (let i = 0; i < vals.length; i++) {
      if (vals[i] === s) {
        return vals[i];
      }
    }
    if (vals.length < this.size) {
      vals.push(s);
    } else {
      vals[this.next] = s;
      this.next = (this.next + 1) % this.size;
    }
    return s;
  }
}

export class Compactor {
  private origin = new Recent();
  private targetOrigin = new Recent();
  private targetUrl = new Recent();
  private small = new Recent(2 * RECENT); // kind, verdict, target, from, source, direction: ~17 values in all
  private type = new Recent();
  private surface = new Recent();

  /** Forget the values seen (the log was replaced). */
  reset(): void {
    Object.assign(this, new Compactor());
  }

  /**
   * Fold the repeats of `r` into shared values, in place. `twin`: a record held already whose message is
   * likely the same (its paired record, or the record `r` replaces).
   */
  record(r: ClassifiedRecord, twin?: ClassifiedRecord): void {
    const small = this.small;
    r.origin = this.origin.get(r.origin);
    r.kind = small.get(r.kind) as ClassifiedRecord['kind'];
    r.verdict = small.get(r.verdict) as ClassifiedRecord['verdict'];
    if (typeof r.targetOrigin === 'string') {
      r.targetOrigin = this.targetOrigin.get(r.targetOrigin);
    }
    if (typeof r.targetUrl === 'string') {
      r.targetUrl = this.targetUrl.get(r.targetUrl);
    }
    if (typeof r.target === 'string') {
      r.target = small.get(r.target) as ClassifiedRecord['target'];
    }
    if (typeof r.from === 'string') {
      r.from = small.get(r.from) as ClassifiedRecord['from'];
    }
    if (
      twin &&
      twin.data !== r.data &&
      twin.originalSize === r.originalSize &&
      sameValue(twin.data, r.data, MAX_COMPARED)
    ) {
      r.data = twin.data;
      return;
    }
    const d = r.data;
    if (d && typeof d === 'object' && !Array.isArray(d) && Object.isExtensible(d)) {
      const env = d as Record<string, unknown>;
      try {
        if (typeof env.source === 'string') {
          env.source = small.get(env.source);
        }
        if (typeof env.direction === 'string') {
          env.direction = small.get(env.direction);
        }
        if (typeof env.type === 'string') {
          env.type = this.type.get(env.type);
        }
        if (typeof env.surface === 'string') {
          env.surface = this.surface.get(env.surface);
        }
      } catch {
        /* a read-only field: keep it as it is */
      }
    }
  }
}
