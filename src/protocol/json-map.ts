/**
 * A JSON value rebuilt with each string mapped: iterative (a value nested however deep is mapped all the way down,
 * with no stack to run out of), and a `__proto__` key kept as data (an own property), never as a prototype. Pure.
 */

/** An own, enumerable property (a `__proto__` key stays data, never the object's prototype). */
export function put(out: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') {
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  } else {
    out[k] = v;
  }
}

/**
 * `v` with every string `s` as `str(s)`; `byKey(k, x)`, where it returns something other than undefined, replaces a
 * property's value whole. Keys are kept.
 */
export function mapJson(
  v: unknown,
  str: (s: string) => string,
  byKey?: (key: string, value: unknown) => unknown,
): unknown {
  if (v === null || typeof v !== 'object') {
    return typeof v === 'string' ? str(v) : v;
  }
  const root: { v: unknown } = { v: undefined };
  const stack: Array<[unknown, (x: unknown) => void]> = [[v, (x) => (root.v = x)]];
  while (stack.length) {
    const [x, set] = stack.pop()!;
    if (x === null || typeof x !== 'object') {
      set(typeof x === 'string' ? str(x) : x);
    } else if (Array.isArray(x)) {
      const out: unknown[] = new Array(x.length);
      set(out);
      for (let i = 0; i < x.length; i++) {
        stack.push([x[i], (r) => (out[i] = r)]);
      }
    } else {
      const out: Record<string, unknown> = {};
      set(out);
      for (const [k, y] of Object.entries(x as Record<string, unknown>)) {
        const whole = byKey?.(k, y);
        put(out, k, whole);
        if (whole === undefined) {
          stack.push([y, (r) => put(out, k, r)]);
        }
      }
    }
  }
  return root.v;
}

/** Whether a JSON value nests deeper than `max` levels (walked iteratively). */
export function deeperThan(v: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') {
      continue;
    }
    if (d >= max) {
      return true;
    }
    for (const y of Array.isArray(x) ? x : Object.values(x as Record<string, unknown>)) {
      if (y !== null && typeof y === 'object') {
        stack.push([y, d + 1]);
      }
    }
  }
  return false;
}

/** An own property's value, or undefined (never one inherited: `__proto__`, `constructor` are data here). */
export function own<T>(o: Record<string, T>, k: string): T | undefined {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}
