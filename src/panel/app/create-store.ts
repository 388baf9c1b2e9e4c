/**
 * The record log, the timeline view over it and the store that links them to the background, made together: by
 * the composition root (create-app.ts) and by the unit tests.
 */
import { RecordLog } from '../log/record-log.ts';
import { TimelineView, type KeyValueStorage } from '../timeline/timeline-view.ts';
import { PanelStore } from '../ui/panel-store.ts';

export type { KeyValueStorage } from '../timeline/timeline-view.ts';

export interface StoreOptions {
  /** How live batches are scheduled (default: next animation frame, with a timer fallback when hidden). */
  schedule?: (fn: () => void) => void;
  /** Where filter state persists (default: none). */
  storage?: KeyValueStorage | null;
  /** The storage key; a per-tab key is derived from it when a tab id is known. */
  storageKey?: string;
  tabId?: number | null;
}

export function createStore(opts: StoreOptions = {}): PanelStore {
  const log = new RecordLog({ schedule: opts.schedule });
  return new PanelStore({ log, timeline: new TimelineView(log, opts), schedule: opts.schedule });
}
