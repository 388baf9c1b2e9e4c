/**
 * The logs no tab owns any more. Chromium and Firefox number tabs anew in each browser session, and a browser that
 * quits tells the worker of no tab closing: the logs of the session before stay stored under ids that new tabs take
 * (a new tab 7 would open on the old tab 7's log, paused if that one was). The first worker of a browser session
 * (no mark in `storage.session`, which the browser empties as it starts, and as the extension is reloaded or
 * updated) deletes each stored log whose tab is gone or shows another page than the one its log ended on. An
 * extension update keeps the tabs and their documents: their logs stay.
 */
import type { TabMeta } from './db.ts';

/** Set in `storage.session` by the first worker of a browser session. */
const MARK = 'ei-browser-session';

export interface StaleLogDeps {
  /** `storage.session`. */
  mark: { get(key: string): Promise<Record<string, unknown>>; set(items: Record<string, unknown>): Promise<void> };
  /** Every stored log's meta. */
  metas(): Promise<TabMeta[]>;
  remove(tabId: number): Promise<void>;
  /** What the tab's top frame shows now (`documentId`: Chromium's), or null when there is no such tab. */
  shows(tabId: number): Promise<{ documentId?: string; url: string } | null>;
}

/** Delete the logs of an earlier browser session (once per browser session); resolves with the tabs deleted. */
export async function dropStaleLogs(deps: StaleLogDeps): Promise<number[]> {
  if ((await deps.mark.get(MARK))[MARK]) {
    return [];
  }
  const dropped: number[] = [];
  for (const meta of await deps.metas()) {
    const now = await deps.shows(meta.tabId).catch(() => null);
    // (Chromium names each document; Firefox does not: there the page's address tells)
    const same =
      now !== null &&
      (meta.topDocumentId && now.documentId ? now.documentId === meta.topDocumentId : now.url === meta.state.pageUrl);
    if (!same) {
      await deps.remove(meta.tabId);
      dropped.push(meta.tabId);
    }
  }
  await deps.mark.set({ [MARK]: true });
  return dropped;
}
