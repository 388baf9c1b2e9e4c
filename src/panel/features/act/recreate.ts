/**
 * Whether a captured svc-embed message can be sent again as its sender sent it. Embed Inspector sends actions
 * from the host page and simulates events from the embed frame, so a re-send re-creates the sender only when
 * the record was posted by that origin: an action posted by the host page's origin, an event by the tenant
 * origin. A record from a third origin is not offered (a re-send would come from another sender). Pure.
 */
import type { ClassifiedRecord } from '../../../shared/messages.ts';

export interface Recreate {
  side: 'action' | 'event';
  /** The button's words. */
  label: string;
  /** Why it is not offered: the record's sender is an origin Embed Inspector cannot send from. */
  thirdOrigin?: string;
}

/** Per direction: the button, the origin that sends it, and why another sender is not offered. */
const SIDES = {
  action: {
    label: '↻ Re-send as captured',
    sender: 'hostOrigin',
    why: (from: string, own: string) =>
      `Posted from ${from}, not from the host page (${own}): Embed Inspector sends actions from the host page, so a re-send would come from another sender.`,
  },
  event: {
    label: '↻ Simulate again',
    sender: 'tenantOrigin',
    why: (from: string, own: string) =>
      `Sent from ${from}, not from the embed (${own}): Embed Inspector simulates events from the embed frame, so it would come from another sender.`,
  },
} as const;

export function recreateOf(
  r: ClassifiedRecord,
  origins: { tenantOrigin: string | null; hostOrigin: string | null },
): Recreate | null {
  const d = r.data as { direction?: unknown } | null;
  if (r.navigation || r.verdict === 'foreign' || !d || typeof d !== 'object') {
    return null;
  }
  const side = d.direction === 'action' || d.direction === 'event' ? d.direction : null;
  if (!side) {
    return null;
  }
  const { label, sender, why } = SIDES[side];
  const own = origins[sender];
  return { side, label, thirdOrigin: own && r.origin !== own ? why(r.origin, own) : undefined };
}
