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

export function recreateOf(
  r: ClassifiedRecord,
  origins: { tenantOrigin: string | null; hostOrigin: string | null },
): Recreate | null {
  const d = r.data as { direction?: unknown } | null;
  if (r.navigation || r.verdict === 'foreign' || !d || typeof d !== 'object') {
    return null;
  }
  if (d.direction === 'action') {
    const host = origins.hostOrigin;
    return {
      side: 'action',
      label: '↻ Re-send as captured',
      thirdOrigin:
        host && r.origin !== host
          ? `Posted from ${r.origin}, not from the host page (${host}): Embed Inspector sends actions from the host page, so a re-send would come from another sender.`
          : undefined,
    };
  }
  if (d.direction === 'event') {
    const tenant = origins.tenantOrigin;
    return {
      side: 'event',
      label: '↻ Simulate again',
      thirdOrigin:
        tenant && r.origin !== tenant
          ? `Sent from ${r.origin}, not from the embed (${tenant}): Embed Inspector simulates events from the embed frame, so it would come from another sender.`
          : undefined,
    };
  }
  return null;
}
