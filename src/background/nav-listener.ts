/**
 * Which navigations reach the background. A listener of `webNavigation.onCommitted` wakes the worker (or keeps it
 * busy) for every navigation of every tab, of every site: with the capture off, that was the only thing of ours a
 * page load paid (issue 47). So the listener follows what the background needs:
 * - nothing captured and no tab's log open in this worker: no listener at all (no page load wakes the worker);
 * - sites captured, no tab's log open: only those sites' navigations (an event filter, by scheme and host);
 * - a tab's log open, or every site captured: every navigation (a captured page's frames of other sites join its
 *   frame tree, and a page that left the scope ends its tab's log).
 * The listener is added unfiltered at start, synchronously (an event that woke the worker reaches it), and narrowed
 * once the stored scope is known; a wider listener is added before the narrower one is removed, so no event falls
 * between them.
 *
 * `tabs.onRemoved` follows the same way: it deletes a closed tab's stored log, so it listens only while some tab has
 * a log (a session open in this worker, or a log an earlier worker stored).
 */
import type { Scope } from './scope-model.ts';

interface UrlFilter {
  schemes?: string[];
  hostEquals?: string;
}
/** 'none': no listener; 'every': unfiltered; else an event filter. */
export type NavFilter = 'none' | 'every' | { url: UrlFilter[] };

/** The navigations the background must see for `scope`, with `logsOpen` tabs' logs open in this worker. */
export function navFilterOf(scope: Scope, logsOpen: boolean): NavFilter {
  if (logsOpen || scope.all !== null) {
    return 'every';
  }
  const url: UrlFilter[] = [];
  for (const origin of Object.keys(scope.sites)) {
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      return 'every';
    }
    // An IPv6 host is written with brackets in Chromium's filter and without in Firefox's: by scheme only there.
    const host = u.hostname.startsWith('[') ? undefined : u.hostname;
    url.push({ schemes: [u.protocol.slice(0, -1)], ...(host ? { hostEquals: host } : {}) });
  }
  return url.length ? { url } : 'none';
}

const keyOf = (f: NavFilter) => (typeof f === 'string' ? f : JSON.stringify(f));

interface NavEvent<T> {
  addListener(cb: (d: T) => void, filter?: { url: UrlFilter[] }): void;
  removeListener(cb: (d: T) => void): void;
}

/** The one listener of `event` (`onCommitted`, `onRemoved`), calling `handle`, registered as `set` last said. */
export class FollowedListener<T> {
  private current: { key: string; cb: (d: T) => void } | null = null;

  constructor(
    private readonly event: NavEvent<T> | undefined,
    private readonly handle: (d: T) => void,
  ) {
    this.set('every');
  }

  set(filter: NavFilter): void {
    const key = keyOf(filter);
    if (!this.event || key === (this.current?.key ?? 'none')) {
      return;
    }
    const before = this.current;
    this.current = null;
    if (filter !== 'none') {
      const cb = (d: T) => this.handle(d);
      if (filter === 'every') {
        this.event.addListener(cb);
      } else {
        this.event.addListener(cb, filter);
      }
      this.current = { key, cb };
    }
    if (before) {
      this.event.removeListener(before.cb);
    }
  }
}
