/**
 * What a navigation means for a tab's log: a new top document starts a new log (unless preserve log is on), once
 * per document, whether the browser's navigation event or the top relay's hello tells it first; a document that
 * left the capture scope ends the log; every frame's navigation joins the frame tree and becomes a record, placed
 * before what the new document did (frame-navs.ts). The session runs these on its chain.
 */
import type { CaptureMode, RelayToBackground } from '../shared/messages.ts';
import { originOf } from '../protocol/origin.ts';
import { FrameNavs, type FrameNav } from './frame-navs.ts';
import { parentFrameOf, topDocumentNow } from './tab-relays.ts';
import type { TabLog } from './tablog.ts';
import type { ReadySessions } from '../protocol/session.ts';

/** What the navigation part does through the session (its log, storage and chain). */
export interface NavigationSession {
  readonly tabId: number;
  log(): TabLog;
  /** The top document the log belongs to (tab-storage.ts keeps it). */
  topDocumentId(): string | undefined;
  /** The top document the log belongs to is now `documentId`: false when it was already. */
  enterDocument(documentId: string | undefined): boolean;
  /** The log leaves the page `documentId` without preserve log: what its frames send later is not kept. */
  leave(documentId: string): void;
  /** The tab left the page `documentId` at `at` (epoch ms) with the embed sessions `ready` ready. */
  rememberReady(documentId: string, ready: ReadySessions, at: number): void;
  /** The embed sessions ready when the tab left the page `documentId`, taken; undefined: not a page it left. */
  takeReady(documentId: string): ReadySessions | undefined;
  /**
   * When the browser began to prerender the top document `documentId`, taken (once); undefined: it did not, or it
   * is not known.
   */
  takePrerendered(documentId: string): number | undefined;
  /** A new, empty log (stored, published). */
  newLog(pageUrl: string | null): Promise<void>;
  /** Add a navigation record to the log (stored, published). */
  place(nav: FrameNav): Promise<void>;
  /** Run a navigation record that waited too long for its relay, on the session's chain. */
  placeLater(nav: FrameNav): void;
  frameMode(origin: string | null): CaptureMode | null;
}

export interface Navigation {
  frameId: number;
  parentFrameId?: number;
  url: string;
  documentId?: string;
  time: number;
}

export class TabNavigation {
  /** Subframe navigation records waiting for their document's relay (frame-navs.ts). */
  private readonly navs: FrameNavs;

  constructor(private readonly session: NavigationSession) {
    this.navs = new FrameNavs((nav) => session.placeLater(nav));
  }

  /**
   * A relay of frame `frameId` said hello: the frame joins the tree; the top frame's may start the log. `browser`:
   * what the browser said of the relay's document as its port opened (Chromium). False: the relay is of a page the
   * tab left (its top frame reconnecting as it goes), not the frame's relay now.
   */
  async hello(
    frameId: number,
    hello: Extract<RelayToBackground, { type: 'hello' }>,
    browser: { documentId?: string; lifecycle?: string; opaque?: boolean } = {},
  ): Promise<boolean> {
    const { documentId } = browser;
    if (frameId === 0 && !(await this.shown(documentId, browser.lifecycle))) {
      return false;
    }
    const known = this.session.log().frames.get(frameId)?.parentFrameId ?? -1;
    const parentFrameId = frameId === 0 ? -1 : await parentFrameOf(this.session.tabId, frameId, known);
    this.session
      .log()
      .setFrame({ frameId, parentFrameId, url: hello.frameUrl, ...(browser.opaque ? { opaque: true } : {}) });
    if (frameId !== 0 && hello.start !== undefined) {
      for (const n of this.navs.started(frameId, hello.frameUrl, hello.start)) {
        await this.session.place(n);
      }
    }
    if (hello.isTop && frameId === 0) {
      // Chrome: the navigation event may come later (or never, if the worker was asleep): start the log here.
      if (documentId && documentId !== this.session.topDocumentId()) {
        await this.topDocument(hello.frameUrl, documentId, hello.time);
      } else {
        this.session.log().pageSeen(hello.frameUrl);
      }
    }
    return true;
  }

  /** A document committed in one of the tab's frames (its page is in scope). */
  async navigated(nav: Navigation): Promise<void> {
    if (nav.frameId === 0) {
      await this.topDocument(nav.url, nav.documentId, nav.time);
      return;
    }
    const log = this.session.log();
    log.setFrame({
      frameId: nav.frameId,
      parentFrameId: nav.parentFrameId ?? log.frames.get(nav.frameId)?.parentFrameId ?? 0,
      url: nav.url,
    });
    const relayComing = this.session.frameMode(originOf(nav.url)) !== null;
    for (const n of this.navs.committed({ frameId: nav.frameId, url: nav.url, time: nav.time }, relayComing)) {
      await this.session.place(n);
    }
  }

  /** The top document left the capture scope: the log ends (kept as it was with preserve log). */
  async leftScope(documentId: string | undefined): Promise<void> {
    const before = this.session.topDocumentId();
    const ready = this.session.log().readySessions();
    if (!this.session.enterDocument(documentId)) {
      return;
    }
    if (before !== undefined && before !== documentId) {
      this.session.rememberReady(before, ready, Date.now());
    }
    this.session.log().forgetFrames();
    if (!this.session.log().state.preserveLog) {
      this.leave(before);
      await this.session.newLog(null);
    }
  }

  /**
   * A top frame's document is the one the tab shows, as far as the browser says: not one whose port opened as it
   * was left (documentLifecycle 'pending_deletion', 'cached'), nor one when the tab's top frame shows another now (a
   * worker's queued hello, heard after the next page's commit, must not take the log back to it).
   */
  private async shown(documentId: string | undefined, lifecycle: string | undefined): Promise<boolean> {
    if (lifecycle !== undefined && lifecycle !== 'active') {
      return false;
    }
    if (!documentId || documentId === this.session.topDocumentId()) {
      return true;
    }
    // (the port's lifecycle is as it opened: a page left since, its hello heard late, is not the tab's page)
    const now = await topDocumentNow(this.session.tabId);
    return now === undefined || now.documentId === documentId;
  }

  /**
   * The page `documentId` at `url`, which the log left, is the tab's page again (the back/forward cache gave it
   * back) before its navigation was heard: its log starts now, its navigation placed at `time`, with `frames` (its
   * subframes whose relays said hello already).
   */
  async shownAgain(
    url: string,
    documentId: string,
    time: number,
    frames: Array<{ frameId: number; url: string }>,
  ): Promise<void> {
    await this.topDocument(url, documentId, time);
    // Its frames whose relays said hello before (into the page's log it had left for): the page's again.
    for (const f of frames) {
      const known = this.session.log().frames.get(f.frameId)?.parentFrameId ?? 0;
      const parentFrameId = await parentFrameOf(this.session.tabId, f.frameId, known);
      this.session.log().setFrame({ frameId: f.frameId, parentFrameId, url: f.url });
    }
  }

  /** The tab is gone: no record waits any more. */
  close(): void {
    this.navs.releaseAll();
  }

  /** The page `before` is left without preserve log (not when the browser named neither page: nothing is known). */
  private leave(before: string | undefined): void {
    if (before !== undefined && before !== this.session.topDocumentId()) {
      this.session.leave(before);
    }
  }

  /** A new top-level document: a new log unless preserve log is on. Once per document. */
  private async topDocument(url: string, documentId: string | undefined, time: number): Promise<void> {
    // A prerendered page's activation: without preserve log its new log starts when its prerender did, so that what
    // it did while prerendered comes after its navigation (with preserve log, that would put what the page before
    // did meanwhile into this page: there the navigation is its activation).
    const at = time;
    const began = documentId === undefined ? undefined : this.session.takePrerendered(documentId);
    if (began !== undefined && !this.session.log().state.preserveLog) {
      time = Math.min(began, time);
    }
    const before = this.session.topDocumentId();
    const ready = this.session.log().readySessions();
    if (!this.session.enterDocument(documentId)) {
      return;
    }
    if (before !== undefined && before !== documentId) {
      this.session.rememberReady(before, ready, at);
    }
    // The same document again: the browser showed it from its back/forward cache.
    const again = documentId === undefined ? undefined : this.session.takeReady(documentId);
    this.session.log().newTopFrame(url);
    if (!this.session.log().state.preserveLog) {
      this.leave(before);
      await this.session.newLog(url); // an empty snapshot: the new log
    }
    // (with preserve log, the navigation record starts the new page in the log: TabLog.newPage)
    await this.session.place({ frameId: 0, url, time, ...(again ? { restored: again } : {}) });
  }
}
