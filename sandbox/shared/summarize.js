// A short, safe text for any message value: survives Date, Map, ArrayBuffer, cycles and 5 MB strings.

/**
 * @param {unknown} value
 * @param {number} [max] characters kept
 * @returns {string}
 */
export function summarize(value, max = 240) {
  const seen = new WeakSet();
  let budget = max * 2;
  /** @param {unknown} v @param {number} depth @returns {string} */
  const walk = (v, depth) => {
    if (budget <= 0) {
      return '…';
    }
    if (typeof v === 'string') {
      const s = v.length > 80 ? `${JSON.stringify(v.slice(0, 60))}…(${v.length} chars)` : JSON.stringify(v);
      budget -= s.length;
      return s;
    }
    if (v === null || typeof v !== 'object') {
      const s = typeof v === 'bigint' ? `${v}n` : typeof v === 'function' ? 'function' : String(v);
      budget -= s.length;
      return s;
    }
    if (seen.has(v)) {
      return '[cycle]';
    }
    seen.add(v);
    if (v instanceof Date) {
      return `Date(${Number.isNaN(v.getTime()) ? 'invalid' : v.toISOString()})`;
    }
    if (v instanceof Map) {
      return `Map(${v.size})`;
    }
    if (v instanceof Set) {
      return `Set(${v.size})`;
    }
    if (v instanceof ArrayBuffer) {
      return `ArrayBuffer(${v.byteLength} bytes)`;
    }
    if (ArrayBuffer.isView(v)) {
      return `${v.constructor.name}(${v.byteLength} bytes)`;
    }
    if (v instanceof RegExp) {
      return String(v);
    }
    if (depth > 3) {
      return Array.isArray(v) ? '[…]' : '{…}';
    }
    if (Array.isArray(v)) {
      const items = v.slice(0, 8).map((x) => walk(x, depth + 1));
      if (v.length > 8) {
        items.push(`…${v.length - 8} more`);
      }
      return `[${items.join(', ')}]`;
    }
    const entries = Object.entries(v)
      .slice(0, 12)
      .map(([k, x]) => `${k}: ${walk(x, depth + 1)}`);
    return `{${entries.join(', ')}}`;
  };
  const text = walk(value, 0);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
