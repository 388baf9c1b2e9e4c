/**
 * The first (oldest-inserted) `n` keys of a Map, read in one pass, for callers that evict them.
 * Deleting the first key one at a time (`map.delete(map.keys().next().value)` in a loop) is quadratic in V8:
 * the deleted slots stay at the front of the table, and every new `keys()` walks over them.
 */
export function oldestKeys<K>(map: Map<K, unknown>, n: number): K[] {
  const out: K[] = [];
  if (n <= 0) {
    return out;
  }
  for (const k of map.keys()) {
    out.push(k);
    if (out.length >= n) {
      break;
    }
  }
  return out;
}
