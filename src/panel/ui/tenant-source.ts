/** Where the tenant origin came from, in the words the toolbar shows (its tag) and says (its title). */
import type { TabState } from '../../shared/messages.ts';
import { shownUrl } from '../log/protocol.ts';

export function tenantSource(
  source: TabState['tenantOriginSource'],
  frame?: string,
): { tag: string; title: string } | null {
  switch (source) {
    case 'manual':
      return { tag: 'set by hand', title: 'set by hand' };
    case 'file':
      return { tag: 'from the file', title: 'named by the imported capture file' };
    case 'embed-frame':
      return {
        tag: 'inferred',
        title: frame ? `inferred from the embed frame at ${shownUrl(frame)}` : 'inferred from the embed frame',
      };
    default:
      return null;
  }
}
