/**
 * The capture scope as the panel sees it (pure, over the store): is the inspected tab captured, which of its
 * sites are not, and the commands that change the scope. The background (background/scope.ts) is the one writer.
 */
import type { CaptureMode, ScopeChange, TabSite } from '../../shared/messages.ts';
import type { PanelStore } from './panel-store.ts';

export interface TabCapture {
  /** The tab's page origin, null when the tab shows no web page (a browser page, a file). */
  top: TabSite | null;
  /** The tab's sites that are not captured (page first). */
  missing: TabSite[];
  /** The page is not captured: nothing of ours runs in it. */
  off: boolean;
  /** The mode the page is captured in (null when off). */
  mode: CaptureMode | null;
  /** The tab's sites that are captured. */
  captured: TabSite[];
}

export function tabCapture(store: PanelStore): TabCapture | null {
  const c = store.capture;
  if (!c) {
    return null;
  }
  const top = c.sites.find((s) => s.top) ?? null;
  return {
    top,
    missing: c.sites.filter((s) => s.mode === null),
    off: !top || top.mode === null,
    mode: top?.mode ?? null,
    captured: c.sites.filter((s) => s.mode !== null),
  };
}

/** Rules that need the post itself (its target origin, whether the browser delivered it): not checked in receive-only. */
export const RECEIVE_ONLY_UNCHECKED: ReadonlyArray<{ rule: string; what: string }> = [
  { rule: 'origin.action-target', what: 'the target origin of actions' },
  { rule: 'origin.action-wildcard', what: 'actions posted to "*"' },
  { rule: 'origin.dropped', what: 'posts the browser dropped' },
];

let counter = 0;
const newId = () => `cap-${Date.now().toString(36)}-${(++counter).toString(36)}`;

/**
 * Change the scope. Host access is asked for first, from the click that called this (the browser wants the user's
 * gesture), for the sites being turned on. Resolves with an error sentence, or null once the scripts are registered.
 */
export function changeScope(
  store: PanelStore,
  change: ScopeChange,
  opts: { reload?: boolean } = {},
): Promise<string | null> {
  const t = store.transportInfo;
  if (!t?.live || t.tabId === null) {
    return Promise.resolve('Not attached to a tab.');
  }
  const turningOn =
    change.op === 'add' ? change.sites : change.op === 'all' && change.mode !== null ? ('<all_urls>' as const) : null;
  const access = turningOn && t.requestHostAccess ? t.requestHostAccess(turningOn) : Promise.resolve(true);
  return access.then((granted) => {
    if (!granted) {
      return "The browser did not grant access to these sites, so nothing can run there. Allow the extension on them (the browser's extension settings), then try again.";
    }
    const id = newId();
    return new Promise<string | null>((resolve) => {
      let done = false;
      const finish = (v: string | null) => {
        if (!done) {
          done = true;
          off();
          clearTimeout(timer);
          resolve(v);
        }
      };
      const off = store.onChange((c) => {
        if (c.capture && store.captureResult?.id === id) {
          finish(store.captureResult.ok ? null : (store.captureResult.error ?? 'the scope could not be changed'));
        }
      });
      const timer = setTimeout(() => finish('No answer from the extension.'), 10_000);
      store.command({ type: 'set-capture', id, change, ...(opts.reload ? { reload: true } : {}) });
    });
  });
}

/** Set the mode of the tab's captured sites (takes effect when the page loads again). */
export function setTabMode(store: PanelStore, mode: CaptureMode): Promise<string | null> {
  const tc = tabCapture(store);
  const sites = tc?.captured.filter((s) => s.mode !== mode).map((s) => s.origin) ?? [];
  if (!sites.length) {
    return Promise.resolve(null);
  }
  return changeScope(store, { op: 'mode', sites, mode }).then((err) => {
    if (!err) {
      store.noteCapture(
        `${mode === 'receive-only' ? 'Receive-only' : 'Full capture'} for ${sites.join(', ')} takes effect when the page reloads.`,
      );
    }
    return err;
  });
}
