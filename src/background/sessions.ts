/**
 * The registry of tab sessions (tab-session.ts), one per tab opened in this worker, and what applies to every tab:
 * the size cap of one captured message (chrome.storage.local `settings` = {maxBytes}) and which tabs show a page
 * in the capture scope. Its methods are the only writers of both.
 */
import { DEFAULT_READY_TIMEOUT_MS } from '../protocol/diagnose.ts';
import { DEFAULT_MAX_BYTES } from '../protocol/encoding.ts';
import type { CaptureMode } from '../shared/messages.ts';
import { findBrowserApi } from '../shared/browser-api.ts';
import { TabSession, type SessionHost } from './tab-session.ts';

/** Smallest size cap accepted: below it even an envelope would not fit. */
const MIN_MAX_BYTES = 1024;

export interface SessionsDeps {
  store: SessionHost['store'] & {
    remove(tabId: number): Promise<void>;
    tabIds(): Promise<number[]>;
  };
  frameMode(origin: string | null): CaptureMode | null;
  captureMessage: SessionHost['captureMessage'];
}

export class Sessions {
  private readonly sessions = new Map<number, TabSession>();
  /** Tabs whose top document is in the capture scope (seen since the worker started): their frames' navigations are recorded. */
  private readonly scoped = new Set<number>();
  private maxBytesNow = DEFAULT_MAX_BYTES;
  private readyTimeoutNow = DEFAULT_READY_TIMEOUT_MS;
  private readonly host: SessionHost;
  /** Tabs with a stored log when first asked (read once per worker); tabs opened since are in `sessions`. */
  private stored: Promise<Set<number>> | null = null;
  private openChanged: () => void = () => {};
  /**
   * Tabs closed while this worker ran (a browser session never gives an id twice): what their frames still send, a
   * leaving page's last hand-over heard after the tab's removal, is acknowledged and stored nowhere.
   */
  private readonly closed = new Set<number>();
  /** The stored settings read (`loadSettings`): a tab's log is restored, and judged, with them. */
  private settingsRead: Promise<void> = Promise.resolve();
  /** The logs of an earlier browser session dropped (`dropStale`): no tab opens on one. */
  private staleDropped: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SessionsDeps) {
    this.host = {
      store: deps.store,
      maxBytes: () => this.maxBytesNow,
      setMaxBytes: (n) => this.setMaxBytes(n),
      readyTimeoutMs: () => this.readyTimeoutNow,
      setReadyTimeout: (n) => this.setReadyTimeout(n),
      frameMode: (o) => deps.frameMode(o),
      captureMessage: (tabId) => deps.captureMessage(tabId),
      started: () => this.started(),
    };
  }

  /** The tab's session, opened (its stored log loaded) on first use. */
  get(tabId: number): TabSession {
    let s = this.sessions.get(tabId);
    if (!s) {
      s = new TabSession(tabId, this.host);
      this.sessions.set(tabId, s);
      if (this.sessions.size === 1) {
        this.openChanged();
      }
    }
    return s;
  }
  /** The tab's session if one is open in this worker (a capture script or a panel reached it since it started). */
  peek(tabId: number): TabSession | undefined {
    return this.sessions.get(tabId);
  }
  /** Whether any tab's session is open in this worker. */
  anyOpen(): boolean {
    return this.sessions.size > 0;
  }
  /** `fn` runs when the first session opens and when a tab is forgotten. */
  onOpenChange(fn: () => void): void {
    this.openChanged = fn;
  }
  /** Whether any tab has a log: a session open in this worker, or a log an earlier worker stored. */
  async anyLog(): Promise<boolean> {
    const stored = await this.storedTabs();
    return this.sessions.size > 0 || stored.size > 0;
  }
  /** The tab was closed while this worker ran (`forget`). */
  isClosed(tabId: number): boolean {
    return this.closed.has(tabId);
  }
  has(tabId: number): boolean {
    return this.sessions.has(tabId);
  }
  all(): TabSession[] {
    return [...this.sessions.values()];
  }
  /** Tabs with a stored log (those of an earlier browser session dropped first). */
  async tabIds(): Promise<number[]> {
    await this.started();
    return this.deps.store.tabIds();
  }

  /**
   * The tab is gone: its session closes and its stored log is deleted. A tab with no session in this worker and no
   * stored log costs no write (most closed tabs: nothing of theirs was captured).
   */
  async forget(tabId: number): Promise<void> {
    this.closed.add(tabId);
    this.scoped.delete(tabId);
    const session = this.sessions.get(tabId);
    this.sessions.delete(tabId);
    const stored = await this.storedTabs();
    if (session || stored.has(tabId)) {
      session?.close();
      await session?.drain(); // its queued work ends before the log is deleted (and writes nothing: it is closed)
      try {
        await this.deps.store.remove(tabId);
      } catch {
        /* ignore */
      }
      stored.delete(tabId);
    }
    this.openChanged();
  }

  private storedTabs(): Promise<Set<number>> {
    this.stored ??= this.started()
      .then(() => this.deps.store.tabIds())
      .then(
        (ids) => new Set(ids),
        () => new Set(),
      );
    return this.stored;
  }

  isScoped(tabId: number): boolean {
    return this.scoped.has(tabId);
  }
  /** The tab's top document is in the capture scope (true) or not (false). */
  setScoped(tabId: number, inScope: boolean): void {
    if (inScope) {
      this.scoped.add(tabId);
    } else {
      this.scoped.delete(tabId);
    }
  }

  maxBytes(): number {
    return this.maxBytesNow;
  }

  /** Set the size cap of one captured message for the whole extension; every tab's frames get it. */
  async setMaxBytes(maxBytes: number): Promise<void> {
    if (typeof maxBytes !== 'number' || !Number.isFinite(maxBytes)) {
      throw new TypeError(`maxBytes: a finite number is expected, not ${JSON.stringify(maxBytes)}`);
    }
    this.maxBytesNow = Math.max(MIN_MAX_BYTES, Math.floor(maxBytes));
    await this.saveSettings();
    for (const s of this.sessions.values()) {
      s.maxBytesChanged();
    }
  }

  readyTimeoutMs(): number {
    return this.readyTimeoutNow;
  }

  /**
   * Set how long an embed has to say ready (a dashboard to load, an AI query its answer) for the whole extension,
   * clamped to 1 s … 10 min; every tab is judged again with it.
   */
  async setReadyTimeout(ms: number): Promise<void> {
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      throw new TypeError(`readyTimeoutMs: a finite number is expected, not ${JSON.stringify(ms)}`);
    }
    this.readyTimeoutNow = Math.min(600_000, Math.max(1000, Math.floor(ms)));
    await this.saveSettings();
    for (const s of this.sessions.values()) {
      s.readyTimeoutChanged();
    }
  }

  private async saveSettings(): Promise<void> {
    await findBrowserApi()
      ?.storage?.local.set({ settings: { maxBytes: this.maxBytesNow, readyTimeoutMs: this.readyTimeoutNow } })
      .catch(() => {});
  }

  /** Resolves once the settings are read and the logs of an earlier browser session dropped (never rejects). */
  private started(): Promise<void> {
    return Promise.all([this.settingsRead, this.staleDropped]).then(() => {});
  }

  /**
   * Drop the stored logs no tab owns any more (`drop`: stale-logs.ts; at start, not awaited, as `loadSettings`):
   * the tabs' sessions open after it.
   */
  dropStale(drop: () => Promise<unknown>): Promise<void> {
    this.staleDropped = Promise.resolve()
      .then(drop)
      .then(
        () => {},
        (e) => console.warn('embed-inspector: stored logs not checked', e),
      );
    return this.staleDropped;
  }

  /**
   * Load the stored settings (at start, not awaited: what woke the worker, a panel's subscribe or a frame's hello,
   * is heard at once, and the tabs' sessions wait for them).
   */
  loadSettings(): Promise<void> {
    this.settingsRead = this.readSettings();
    return this.settingsRead;
  }

  private async readSettings(): Promise<void> {
    try {
      const v = await findBrowserApi()?.storage?.local.get('settings');
      const s = (v as { settings?: { maxBytes?: number; readyTimeoutMs?: number } } | undefined)?.settings;
      if (s?.maxBytes && Number.isFinite(s.maxBytes)) {
        this.maxBytesNow = s.maxBytes;
      }
      if (s?.readyTimeoutMs && Number.isFinite(s.readyTimeoutMs)) {
        this.readyTimeoutNow = s.readyTimeoutMs;
      }
    } catch {
      /* defaults */
    }
  }
}
