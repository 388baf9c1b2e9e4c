/**
 * What the UI hears of: every event of the record log, the timeline view and the link, summed up as a `Change` by
 * one table (`CHANGES`), the one place that says which part of the UI an event touches (ui/bridge.ts turns each
 * name into a Solid signal). The feed hears the log and the view itself, so a live batch reaches the UI from the
 * view without passing through the store again.
 */
import type { LogEvents, RecordLog } from '../log/record-log.ts';
import type { TimelineEvents, TimelineView } from '../timeline/timeline-view.ts';

/**
 * What changed, named by the part of the UI that shows it (each name but `records` and `cleared` is a signal of
 * ui/bridge.ts).
 */
export interface Change {
  /** The log holds other records or rewrote some in place (a snapshot, a load, a trim, a clear, a reorder). */
  records?: boolean;
  /** The view's order, or what its rows show. */
  view?: boolean;
  /** A live batch was applied: the number of rows it added at the end of the view (0 when the filters hide them). */
  appended?: number;
  /** The log's contents and the tab state: counts, frames, session facts, linked records, limits. */
  state?: boolean;
  /** The selected record, or where it is. */
  selection?: boolean;
  filters?: boolean;
  /** The connection to the background. */
  status?: boolean;
  /** The capture scope, the tab's sites, scope change results and notes. */
  capture?: boolean;
  /** The user cleared the log (the REST calls follow the same rule). */
  cleared?: boolean;
}

/** Events of the link itself (connection, capture scope, command outcomes). */
export interface LinkEvents {
  status: Record<string, never>;
  capture: Record<string, never>;
}

/**
 * Every event the UI hears of, and what it changes. The view handles each change of the log's records before
 * anyone else (it subscribes to the log first) and sends one event for it, so the log's record events (`batch`,
 * `reordered`, `replaced`, `synced`) have no row: the view's `appended` and `rebuilt` stand for them.
 */
const CHANGES = {
  timeline: {
    appended: (e) =>
      e.updated
        ? { view: true, appended: e.count, state: true, selection: true }
        : { view: true, appended: e.count, state: true },
    rebuilt: (e) =>
      e.replaced
        ? { records: true, view: true, state: true, selection: true }
        : { view: true, state: true, selection: true },
    filters: () => ({ view: true, filters: true }),
    timeBase: () => ({ view: true }),
    columns: () => ({ view: true }),
    selection: () => ({ selection: true }),
  } satisfies { [K in keyof TimelineEvents]: (e: TimelineEvents[K]) => Change },
  log: {
    state: () => ({ state: true }),
    cleared: () => ({ cleared: true }),
  } satisfies {
    [K in Exclude<keyof LogEvents, 'batch' | 'reordered' | 'replaced' | 'synced'>]: (e: LogEvents[K]) => Change;
  },
  link: {
    status: () => ({ status: true, capture: true }),
    capture: () => ({ capture: true }),
  } satisfies { [K in keyof LinkEvents]: (e: LinkEvents[K]) => Change },
};

export class ChangeFeed {
  private listeners = new Set<(c: Change) => void>();

  constructor(log: RecordLog, timeline: TimelineView) {
    for (const [type, change] of Object.entries(CHANGES.timeline)) {
      timeline.on(type as keyof TimelineEvents, (e) => this.tell((change as (e: unknown) => Change)(e)));
    }
    for (const [type, change] of Object.entries(CHANGES.log)) {
      log.on(type as keyof LogEvents, (e) => this.tell((change as (e: unknown) => Change)(e)));
    }
  }

  /** Hear of every change; returns the function that stops it. */
  onChange(fn: (c: Change) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  /** An event of the link itself. */
  link(type: keyof LinkEvents): void {
    this.tell(CHANGES.link[type]());
  }
  private tell(c: Change): void {
    for (const fn of this.listeners) {
      fn(c);
    }
  }
}
