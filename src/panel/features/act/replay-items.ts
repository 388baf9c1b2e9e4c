/**
 * What a replay sends: the svc-embed messages of a set of records, once each (a post and its delivery are one
 * message: the post is kept; a delivery whose post is not in the set stands for it). Actions always; events
 * when asked (they are simulated from the embed frame). Pure.
 */
import type { ClassifiedRecord } from '../../../shared/messages.ts';

export interface ReplayItem {
  seq: number;
  time: number;
  side: 'action' | 'event';
  type: string;
  data: unknown;
}

export function replayItems(
  records: readonly ClassifiedRecord[],
  opts: { includeEvents?: boolean } = {},
): ReplayItem[] {
  const chosen = new Set(records.map((r) => r.seq));
  const posts = new Set(records.filter((r) => r.kind === 'post').map((r) => r.seq));
  const out: ReplayItem[] = [];
  for (const r of records) {
    if (r.navigation || r.verdict === 'foreign') {
      continue;
    }
    const d = r.data as { direction?: unknown; type?: unknown } | null;
    if (!d || typeof d !== 'object') {
      continue;
    }
    const side = d.direction === 'action' ? 'action' : d.direction === 'event' ? 'event' : null;
    if (!side || (side === 'event' && !opts.includeEvents)) {
      continue;
    }
    if (r.kind === 'receive' && r.pairedWith !== undefined && chosen.has(r.pairedWith) && posts.has(r.pairedWith)) {
      continue;
    }
    out.push({ seq: r.seq, time: r.time, side, type: typeof d.type === 'string' ? d.type : '?', data: r.data });
  }
  return out;
}

/** The data to send for a replayed step: as captured, or with a fresh envelope timestamp. */
export function replayData(item: ReplayItem, freshTimestamp: boolean, now = Date.now()): unknown {
  if (!freshTimestamp) {
    return item.data;
  }
  const d = item.data;
  if (d && typeof d === 'object' && !Array.isArray(d) && typeof (d as { timestamp?: unknown }).timestamp === 'number') {
    return { ...(d as object), timestamp: now };
  }
  return d;
}
