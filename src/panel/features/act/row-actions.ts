/**
 * The act feature's part of the timeline's row menu: copy as code (the same code as the "Replay & code" tab) and
 * replay (re-send an action as captured, simulate an event again: only where it re-creates the sender, see
 * recreate.ts).
 */
import type { ClassifiedRecord } from '../../../shared/messages.ts';
import type { RowMenuFeature } from '../../ui/row-menu-context.ts';
import { copyToClipboard } from '../../ui/clipboard.ts';
import type { ActController } from './act-controller.ts';
import { actionSnippet, listenerSnippet } from './copy-as-code.ts';
import { recreateOf } from './recreate.ts';

export const TENANT_PLACEHOLDER = 'https://YOUR-TENANT.example.com';

/** The svc-embed direction of a record, when it has one. */
function directionOf(r: ClassifiedRecord): 'action' | 'event' | undefined {
  const d = r.data as { direction?: unknown } | null;
  if (r.navigation || r.verdict === 'foreign' || !d || typeof d !== 'object') {
    return undefined;
  }
  return d.direction === 'action' || d.direction === 'event' ? d.direction : undefined;
}

/** The code "Copy as code" gives for a record: the host's sending code for an action, a listener for an event. */
export function codeFor(r: ClassifiedRecord, tenantOrigin: string | null): string | null {
  const dir = directionOf(r);
  if (!dir) {
    return null;
  }
  const opts = { tenantOrigin: tenantOrigin ?? TENANT_PLACEHOLDER };
  const type = (r.data as { type?: unknown }).type;
  return dir === 'action' ? actionSnippet(r.data, opts) : listenerSnippet(typeof type === 'string' ? type : null, opts);
}

export function actRowMenu(act: ActController): RowMenuFeature {
  const tenant = () => act.target().tenantOrigin ?? act.store.log.state.tenantOrigin;
  const again = (r: ClassifiedRecord) => recreateOf(r, { tenantOrigin: tenant(), hostOrigin: act.target().hostOrigin });
  return {
    items(r) {
      const dir = directionOf(r);
      const a = again(r);
      return {
        copyCode: {
          label: 'Copy as code',
          disabled: dir ? undefined : 'not an svc-embed action or event: no code to generate',
        },
        replay: {
          label: a?.side === 'event' ? 'Simulate again' : 'Re-send as captured',
          disabled: !a
            ? 'not an svc-embed action or event: nothing to replay'
            : (a.thirdOrigin ?? act.target().blocked ?? undefined),
        },
      };
    },
    async run(id, r) {
      if (id === 'copy-code') {
        const code = codeFor(r, tenant());
        if (code === null) {
          return 'No code for this record';
        }
        return (await copyToClipboard(code)) ? 'Code copied' : 'Copy failed';
      }
      const a = again(r);
      if (!a || a.thirdOrigin) {
        return 'Not sent: this record cannot be sent again as its sender sent it';
      }
      const res = await act.send(a.side, r.data);
      return res.ok
        ? a.side === 'action'
          ? 'Re-sent as captured'
          : 'Emitted again from the embed frame'
        : `Not sent: ${res.error}`;
    },
  };
}
