/**
 * Binary search over an ascending sequence of numbers read through `at` (a record log's seqs, a typed array): the
 * index whose value is `key`, -1 when none. One search for every reader of records by seq, so each keeps only
 * its own fallback for an order that is not ascending.
 */
export function findSorted(n: number, at: (i: number) => number, key: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = at(mid);
    if (v === key) {
      return mid;
    }
    if (v < key) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}
