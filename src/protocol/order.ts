/**
 * The order of a log: causal first, then capture time. Pure; used by the background (as records arrive), by
 * `checkRecords` (capture files, the command line, the panel's imported files) and by library users.
 *
 * Three rules, in this priority:
 * 1. Records of one frame keep the order in which the frame saw them (their order in the input: a frame's
 *    records reach the background in its outbox's order). Frames are told apart by `frameId`; navigation
 *    records and records without a frame id belong to no frame's sequence.
 * 2. A post comes before its delivery (the two name each other in `pairedWith`), whatever the clocks say:
 *    `time` is `performance.timeOrigin + performance.now()` of the capturing process, and the clocks of two
 *    processes may disagree by a little.
 * 3. Otherwise by `time`; equal times keep their input order.
 * That is, among the records whose predecessors (rules 1 and 2) are placed, the earliest comes next. When the
 * input is already in that order it is returned as is (in a copy). A pairing that contradicts a frame's own order
 * (a cycle: only a wrong pairing makes one) gives way to the frame's order.
 */

export interface Orderable {
  time: number;
  kind?: string;
  seq?: number;
  frameId?: number;
  navigation?: boolean;
  pairedWith?: number;
}

/** The records in causal order (a new array; the records themselves are not touched). */
export function causalOrder<T extends Orderable>(records: readonly T[]): T[] {
  const n = records.length;
  if (n < 2) {
    return records.slice();
  }
  // The post that must precede each delivery, by index (-1: none in the input).
  const bySeq = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const s = records[i].seq;
    if (typeof s === 'number') {
      bySeq.set(s, i);
    }
  }
  const postOf = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const r = records[i];
    if (r.kind !== 'receive' || r.pairedWith === undefined || r.navigation) {
      continue;
    }
    const j = bySeq.get(r.pairedWith);
    if (j !== undefined && j !== i && records[j].kind === 'post') {
      postOf[i] = j;
    }
  }
  if (inOrder(records, postOf)) {
    return records.slice();
  }
  return topological(records, postOf);
}

const key = (r: Orderable): number => (Number.isFinite(r.time) ? r.time : 0);

/** Times never decrease and every post precedes its delivery: the input is its own causal order. */
function inOrder(records: readonly Orderable[], postOf: Int32Array): boolean {
  let last = -Infinity;
  for (let i = 0; i < records.length; i++) {
    const t = key(records[i]);
    if (t < last || postOf[i] > i) {
      return false;
    }
    last = t;
  }
  return true;
}

/** Kahn's algorithm with a heap by (time, input index): the earliest record whose predecessors are placed. */
function topological<T extends Orderable>(records: readonly T[], postOf: Int32Array): T[] {
  const n = records.length;
  const chainNext = new Int32Array(n).fill(-1);
  const deliveryOf = new Int32Array(n).fill(-1);
  const chainPrev = new Int32Array(n).fill(-1);
  const waiting = new Uint8Array(n); // predecessors not placed yet (0–2)
  const lastOfFrame = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const r = records[i];
    if (r.frameId !== undefined && !r.navigation) {
      const prev = lastOfFrame.get(r.frameId);
      if (prev !== undefined) {
        chainNext[prev] = i;
        chainPrev[i] = prev;
        waiting[i]++;
      }
      lastOfFrame.set(r.frameId, i);
    }
    if (postOf[i] >= 0) {
      deliveryOf[postOf[i]] = i;
      waiting[i]++;
    }
  }
  const time = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    time[i] = key(records[i]);
  }
  const less = (a: number, b: number) => time[a] < time[b] || (time[a] === time[b] && a < b);
  const heap: number[] = [];
  const push = (i: number) => {
    let k = heap.length;
    heap.push(i);
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (!less(i, heap[p])) {
        break;
      }
      heap[k] = heap[p];
      k = p;
    }
    heap[k] = i;
  };
  const pop = (): number => {
    const top = heap[0];
    const last = heap.pop()!;
    const m = heap.length;
    if (m) {
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        if (l >= m) {
          break;
        }
        const c = l + 1 < m && less(heap[l + 1], heap[l]) ? l + 1 : l;
        if (!less(heap[c], last)) {
          break;
        }
        heap[k] = heap[c];
        k = c;
      }
      heap[k] = last;
    }
    return top;
  };
  for (let i = 0; i < n; i++) {
    if (waiting[i] === 0) {
      push(i);
    }
  }
  const placed = new Uint8Array(n);
  const out: T[] = [];
  const release = (i: number) => {
    if (i >= 0 && --waiting[i] === 0) {
      push(i);
    }
  };
  while (out.length < n) {
    if (!heap.length) {
      // A cycle: free the earliest record held only by its post (its frame's predecessor is placed).
      let best = -1;
      for (let i = 0; i < n; i++) {
        if (!placed[i] && postOf[i] >= 0 && !placed[postOf[i]] && (chainPrev[i] < 0 || placed[chainPrev[i]])) {
          if (best < 0 || less(i, best)) {
            best = i;
          }
        }
      }
      deliveryOf[postOf[best]] = -1;
      postOf[best] = -1;
      release(best);
    }
    const i = pop();
    placed[i] = 1;
    out.push(records[i]);
    release(chainNext[i]);
    release(deliveryOf[i]);
  }
  return out;
}
