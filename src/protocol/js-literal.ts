/**
 * Values as JavaScript source: the literal a generated test or a "Copy as code" snippet writes for a decoded
 * message. Strings are written with JSON.stringify and odd keys quoted (`__proto__` computed), so whatever a capture
 * holds the literal evaluates to the same value and injects nothing. Pure.
 */

const str = (s: string) => JSON.stringify(s);
const IDENT = /^[A-Za-z_$][\w$]*$/;
/** An object literal's key for `k`: bare when it is an identifier; `__proto__` computed, so it stays an own key. */
const propertyKey = (k: string) => (k === '__proto__' ? `[${str(k)}]` : IDENT.test(k) ? k : str(k));
/**
 * A JS literal for a decoded value: on one line when it fits in `width` columns after `indent`, else one entry per
 * line (each entry again on one line when it fits). JSON values, and the few others a capture decodes to
 * (undefined, NaN, BigInt, Date, Map, Set, RegExp).
 */
export function literal(value: unknown, indent = '', width = 100): string {
  if (value === undefined) {
    return 'undefined';
  }
  if (typeof value === 'bigint') {
    return `${value}n`;
  }
  if (typeof value === 'number') {
    return Number.isNaN(value)
      ? 'NaN'
      : Object.is(value, -0)
        ? '-0'
        : Number.isFinite(value)
          ? String(value)
          : value > 0
            ? 'Infinity'
            : '-Infinity';
  }
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'undefined';
  }
  if (value instanceof Date) {
    return `new Date(${str(Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString())})`;
  }
  if (value instanceof RegExp) {
    return `new RegExp(${str(value.source)}, ${str(value.flags)})`;
  }
  if (value instanceof Map) {
    return `new Map(${literal([...value], indent, width - 8)})`;
  }
  if (value instanceof Set) {
    return `new Set(${literal([...value], indent, width - 8)})`;
  }
  const isArray = Array.isArray(value);
  const entries: [string | null, unknown][] = isArray
    ? value.map((x) => [null, x])
    : Object.entries(value as Record<string, unknown>);
  if (!entries.length) {
    return isArray ? '[]' : '{}';
  }
  const flatItems = entries.map(([k, x]) => `${k === null ? '' : `${propertyKey(k)}: `}${literal(x, '', Infinity)}`);
  const flat = isArray ? `[${flatItems.join(', ')}]` : `{ ${flatItems.join(', ')} }`;
  if (flat.length <= width - indent.length) {
    return flat;
  }
  const inner = `${indent}  `;
  const items = entries.map(([k, x]) => {
    const prefix = k === null ? '' : `${propertyKey(k)}: `;
    return `${inner}${prefix}${literal(x, inner, width - prefix.length)},`;
  });
  return `${isArray ? '[' : '{'}\n${items.join('\n')}\n${indent}${isArray ? ']' : '}'}`;
}
