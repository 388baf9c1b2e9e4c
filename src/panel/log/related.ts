/**
 * Questions about a record and its neighbours in the log (the detail pane and the summary bar ask them): its
 * post/delivery pair, the previous record of its frame, the events that followed an action, the action an event
 * followed, and the session's timing facts. Read-only: they read the log through its accessors.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import type { RecordLog } from './record-log.ts';

/** Records within this window after an action count as "the events that followed it". */
const FOLLOW_WINDOW_MS = 10_000;

/** The delivery of a post, or the post of a delivery (-1 when none). */
export function paired(log: RecordLog, index: number): number {
  const p = index >= 0 && index < log.count ? log.at(index).pairedWith : undefined;
  return p === undefined ? -1 : log.indexOfSeq(p);
}

/** The previous record of the same frame, -1 when none (a backward scan: only for the selected record). */
export function previousInFrame(log: RecordLog, index: number): number {
  if (index < 0 || index >= log.count) {
    return -1;
  }
  const url = log.at(index).frameUrl;
  for (let j = index - 1; j >= 0; j--) {
    if (log.at(j).frameUrl === url) {
      return j;
    }
  }
  return -1;
}

/** For an action: the events that followed it (until the next action, within FOLLOW_WINDOW_MS); one record per post/delivery pair. */
export function followingEvents(log: RecordLog, index: number, limit = 25): number[] {
  if (index < 0 || index >= log.count || log.metaAt(index).direction !== 'action') {
    return [];
  }
  const a = log.at(index);
  const pair = paired(log, index);
  const out: number[] = [];
  const seen = new Set<number>();
  for (let j = index + 1; j < log.count && out.length < limit; j++) {
    const r = log.at(j);
    if (r.time - a.time > FOLLOW_WINDOW_MS) {
      break;
    }
    const m = log.metaAt(j);
    if (m.direction === 'action' && j !== pair) {
      break;
    }
    if (m.direction !== 'event') {
      continue;
    }
    if (r.pairedWith !== undefined && seen.has(r.pairedWith)) {
      continue;
    }
    seen.add(r.seq);
    out.push(j);
  }
  return out;
}

/** For an event: the action it followed (the latest action within FOLLOW_WINDOW_MS before it), -1 when none. */
export function precedingAction(log: RecordLog, index: number): number {
  if (index < 0 || index >= log.count || log.metaAt(index).direction !== 'event') {
    return -1;
  }
  const e = log.at(index);
  for (let j = index - 1; j >= 0; j--) {
    const r = log.at(j);
    if (e.time - r.time > FOLLOW_WINDOW_MS) {
      return -1;
    }
    if (log.metaAt(j).direction === 'action') {
      const pj = paired(log, j);
      return pj >= 0 && pj < j && log.at(pj).kind === 'post' ? pj : j; // prefer the post
    }
  }
  return -1;
}

export interface SessionFacts {
  readySeq: number | null;
  timeToReady: number | null;
  readyFrom: 'embed navigation' | 'first record' | null;
  loaded: { loadDurationMs: number | null; widgetCount: number | null; seq: number } | null;
  surface: string;
  /** No `ready`, and the embed reported that it could not start (a fatal `error` before `ready`): that error. */
  startFailure: { seq: number; message: string } | null;
}

/**
 * The current page's first fatal `error` before `ready` (rule session.failed-before-ready), looked for only while no
 * ready is seen (with preserve log, a page before's failure is that page's: its divider tells it).
 */
function startFailure(log: RecordLog): SessionFacts['startFailure'] {
  for (let i = log.pageStart; i < log.count; i++) {
    if (log.metaAt(i).type !== 'svc:event:error') {
      continue; // (metas are shared objects: the scan does not read the records)
    }
    const issue = log.at(i).issues.find((x) => x.rule === 'session.failed-before-ready' && !x.sender);
    if (issue) {
      return { seq: log.at(i).seq, message: issue.message };
    }
  }
  return null;
}

/** Time to `ready` (from the embed frame's navigation when captured, else from the first record) and the load facts. */
/** Index of the current page's first record: the last top-level navigation's, else 0. */
export function pageStartIndex(log: RecordLog): number {
  return log.pageStart;
}

export function sessionFacts(log: RecordLog): SessionFacts {
  const readyIndex = log.readyIndex;
  const ready = readyIndex >= 0 ? log.at(readyIndex) : undefined;
  let timeToReady: number | null = null;
  let readyFrom: SessionFacts['readyFrom'] = null;
  if (ready) {
    const readyPost = ready.kind === 'post' ? ready : log.bySeq(ready.pairedWith ?? null);
    const embedUrl = readyPost?.frameUrl;
    let nav: ClassifiedRecord | undefined;
    if (embedUrl) {
      for (let i = readyIndex - 1; i >= 0; i--) {
        const r = log.at(i);
        if (r.navigation && r.frameUrl === embedUrl) {
          nav = r;
          break;
        }
      }
    }
    const from = nav ?? log.at(pageStartIndex(log));
    timeToReady = ready.time - from.time;
    readyFrom = nav ? 'embed navigation' : 'first record';
  }
  let loaded: SessionFacts['loaded'] = null;
  if (log.loadedIndex >= 0) {
    const r = log.at(log.loadedIndex);
    const p = (r.data as { payload?: Record<string, unknown> } | null)?.payload ?? {};
    loaded = {
      seq: r.seq,
      loadDurationMs: typeof p.loadDurationMs === 'number' ? p.loadDurationMs : null,
      widgetCount: typeof p.widgetCount === 'number' ? p.widgetCount : null,
    };
  }
  return {
    readySeq: ready?.seq ?? null,
    timeToReady,
    readyFrom,
    loaded,
    surface: ready ? log.metaAt(readyIndex).surface : '',
    startFailure: ready ? null : startFailure(log),
  };
}

/** The session of one page (preserve log): what its summary said, for the divider record that starts it. */
export interface PageSession {
  url: string;
  records: number;
  /** ms from the page's start to its first ready, null when none came. */
  timeToReady: number | null;
  loaded: { loadDurationMs: number | null; widgetCount: number | null } | null;
  errors: number;
  warnings: number;
}

/** The page that starts at record `index` (a top-level navigation), up to the next one. */
export function pageSession(log: RecordLog, index: number): PageSession {
  const start = log.at(index);
  const out: PageSession = {
    url: String((start.data as { url?: unknown } | null)?.url ?? start.frameUrl),
    records: 0,
    timeToReady: null,
    loaded: null,
    errors: 0,
    warnings: 0,
  };
  for (let i = index; i < log.count; i++) {
    const r = log.at(i);
    if (i > index && r.navigation && r.frameId === 0) {
      break;
    }
    out.records++;
    for (const x of r.issues) {
      if (!x.sender) {
        out.errors += x.severity === 'error' ? 1 : 0;
        out.warnings += x.severity === 'warning' ? 1 : 0;
      }
    }
    const type = log.metaAt(i).type;
    if (type === 'svc:event:ready' && out.timeToReady === null) {
      out.timeToReady = r.time - start.time;
    } else if (type === 'svc:event:dashboard-loaded' && out.loaded === null) {
      const p = (r.data as { payload?: Record<string, unknown> } | null)?.payload ?? {};
      out.loaded = {
        loadDurationMs: typeof p.loadDurationMs === 'number' ? p.loadDurationMs : null,
        widgetCount: typeof p.widgetCount === 'number' ? p.widgetCount : null,
      };
    }
  }
  return out;
}
