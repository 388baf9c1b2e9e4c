/**
 * vitest 5 targets Node 22: its reporter calls Map.groupBy, which Node 20 lacks, and then hides every failure.
 * These machines run Node 20, so supply it (the same semantics as the standard one). Imported by vitest's configs.
 */
if (typeof (Map as unknown as { groupBy?: unknown }).groupBy !== 'function') {
  (Map as unknown as { groupBy: unknown }).groupBy = <T, K>(items: Iterable<T>, key: (item: T, i: number) => K) => {
    const out = new Map<K, T[]>();
    let i = 0;
    for (const item of items) {
      const k = key(item, i++);
      const list = out.get(k);
      if (list) {
        list.push(item);
      } else {
        out.set(k, [item]);
      }
    }
    return out;
  };
}
