/**
 * One tab's session: the coordinator of the tab's parts, each the only writer of its state:
 * - the log (tablog.ts: order, classification, pairing, bound) and its durable copy (tab-storage.ts);
 * - how records join the log (record-intake.ts: a relay's batch stored once and pending until due, a navigation's
 *   record; published, its limits watched);
 * - the relays of its frames (tab-relays.ts) and the sends waiting for a frame's answer (send-routing.ts);
 * - what a navigation does to the log (tab-navigation.ts);
 * - the panels subscribed to it (panel-fanout.ts), told of the tab's sites once its frames settle (capture-notice.ts).
 * Whoever changes a tab (a relay, a panel, a navigation, the automation API) calls the session's methods: the
 * same checks (input-checks.ts), storage and publication on every path.
 *
 * Every operation runs in order on the session's chain, after the stored log is loaded (an MV3 worker is stopped
 * at any time: memory is only a copy). A relay's batch is acknowledged only once stored.
 */
import type { CaptureMode, ClassifiedRecord, RelayToBackground, SettleResult, TabState } from '../shared/messages.ts';
import type { Body } from '../shared/channel.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { TabLog, newState } from './tablog.ts';
import type { RelayPort } from './relay-port.ts';
import { TabNavigation, type Navigation } from './tab-navigation.ts';
import { checkOptions, checkTenantOrigin, warnDropped } from './input-checks.ts';
import { applyOptions, type ExtensionSettings } from './tab-options.ts';
import { RecordIntake, type BatchSender, type RecordsBatch } from './record-intake.ts';
import { TabStorage, type TabStore } from './tab-storage.ts';
import { frameIdsOf, TabRelays, configOf, topDocumentNow } from './tab-relays.ts';
import { originOf } from '../protocol/origin.ts';
import { SendRouting, type PostResult, type SendReply, type SendRequest } from './send-routing.ts';
import { PanelFanout, type FanoutHost, type PanelSink } from './panel-fanout.ts';
import { CaptureNotice } from './capture-notice.ts';

/** What a session needs from the rest of the background (injected: unit tests give fakes). */
export interface SessionHost extends FanoutHost, ExtensionSettings {
  readonly store: TabStore;
  /**
   * Resolves once the extension-wide settings are read from storage and the logs of an earlier browser session
   * dropped (never rejects).
   */
  started(): Promise<void>;
  /** The mode a frame of `origin` is captured in now (null: out of scope). */
  frameMode(origin: string | null): CaptureMode | null;
}

export class TabSession {
  private log: TabLog;
  private readonly storage: TabStorage;
  private readonly intake: RecordIntake;
  private readonly relays = new TabRelays();
  private readonly sends: SendRouting;
  private readonly panels: PanelFanout;
  private readonly navigation: TabNavigation;
  private readonly notice = new CaptureNotice(() => void this.run(() => this.panels.capture()));
  private chain: Promise<unknown>;
  /** Resolves once the stored log is loaded (never rejects). */
  private readonly restored: Promise<void>;

  constructor(
    readonly tabId: number,
    private readonly host: SessionHost,
  ) {
    this.log = new TabLog(newState(tabId));
    this.log.setReadyTimeout(host.readyTimeoutMs());
    const log = () => this.log;
    this.storage = new TabStorage(tabId, host.store, log);
    this.sends = new SendRouting(tabId, log, (frameId) => this.relays.get(frameId), warnDropped);
    this.panels = new PanelFanout(tabId, host, log);
    this.intake = new RecordIntake({
      log,
      storage: this.storage,
      panels: this.panels,
      later: (fn) => void this.run(fn, { wait: false }),
      afterWrites: (fn) => void this.run(fn),
    });
    this.navigation = new TabNavigation({
      tabId,
      log,
      topDocumentId: () => this.storage.topDocumentId,
      enterDocument: (id) => {
        if (id !== undefined && this.storage.hasLeft(id)) {
          this.enterAgain(id);
        }
        return this.storage.enterDocument(id);
      },
      leave: (id) => this.storage.leave(id),
      rememberReady: (id, ready, at) => this.storage.rememberReady(id, ready, at),
      takeReady: (id) => this.storage.takeReady(id),
      takePrerendered: (id) => this.storage.takePrerendered(id),
      newLog: (pageUrl) => this.newLog(pageUrl),
      place: (nav) => this.intake.navigation(nav),
      placeLater: (nav) => void this.run(() => this.intake.navigation(nav)),
      frameMode: (origin) => this.host.frameMode(origin),
    });
    this.restored = this.restore().catch((e) => console.warn('embed-inspector: could not restore tab', tabId, e));
    this.chain = this.restored;
  }

  // ------------------------------------------------------------------------------------------ reading

  /** The tab's state (settings and counters). */
  state(): Promise<TabState> {
    return this.run(() => ({ ...this.log.state }));
  }
  records(): Promise<ClassifiedRecord[]> {
    return this.run(() => [...this.log.records.values()]);
  }
  /** The records in the log, those of the batches stored so far included (a batch still being written is not). */
  count(): Promise<number> {
    return this.run(() => this.log.records.size, { wait: false });
  }
  exportCapture(createdBy?: string): Promise<CaptureFile> {
    return this.run(() => this.log.exportCapture(createdBy));
  }
  /** When the diagnosis next judges what did not happen (epoch ms, a limit runs out then), or null: none is left. */
  nextLimit(): Promise<number | null> {
    return this.run(() => this.log.nextDiagnosis);
  }

  /**
   * Every frame of the tab hands over what it holds now (its outbox, the MAIN world's posts); resolves once those
   * records are in the log, so a reader sees everything the page did before the call. A frame that does not answer
   * within SETTLE_TIMEOUT_MS of its last batch (a page stuck in a long task) is not waited for longer: it counts
   * as silent, and the caller may settle again. `within` (ms) bounds the whole wait (a caller whose own time ends
   * sooner): the frames that have not handed over by then count as silent.
   */
  async settle(within = Number.POSITIVE_INFINITY): Promise<SettleResult> {
    // The frames asked that have a relay of ours (-1: none asked yet), and how many of them answered so far.
    let frames = -1;
    let answered = 0;
    const done = (async () => {
      const frameIds = await frameIdsOf(this.tabId);
      const asked = await this.run(() => this.relays.handOver({ tabId: this.tabId, frameIds }));
      frames = asked.length;
      const counted = (a: Promise<boolean | null>) =>
        a.then((ok) => {
          frames -= ok === null ? 1 : 0; // (no relay: not a frame to wait for)
          answered += ok ? 1 : 0;
          return ok;
        });
      const answers = await Promise.all(asked.map(counted));
      // The batches came before each answer, so they are stored; reading processes them.
      await this.run(() => undefined);
      return { frames, silent: answers.filter((a) => a === false).length };
    })();
    if (!Number.isFinite(within)) {
      return done;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<SettleResult>((resolve) => {
      timer = setTimeout(
        () => {
          // (not asked yet: the chain was busy; all answered: their batches are not stored yet)
          const asked = frames < 0 ? Math.max(1, this.relays.size) : frames;
          resolve({ frames: asked, silent: Math.max(1, asked - answered) });
        },
        Math.max(0, within),
      );
    });
    try {
      return await Promise.race([done, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A burst a frame received ended and it is handing it over: the tab's other frames in full mode hand over
   * what they hold now (tab-relays.ts `askHandOver`), so that the posts of a burst are stored as soon as its
   * receiver is done, not when the sender's own longer quiet period ends.
   */
  received(from: RelayPort): void {
    this.relays.askHandOver(from);
  }

  /** A relay answered a `settle` hand-over: its batches were handed to this chain before this call. */
  flushed(id: string): void {
    const done = this.relays.flushed(id);
    if (done) {
      void this.run(done);
    }
  }

  // ------------------------------------------------------------------------------------------ settings

  /**
   * Set preserve log, pause, the buffer bound (evicting at once), the extension-wide size cap and ready limit.
   * Checked first (`checkOptions`: a wrong value rejects and changes nothing), applied (tab-options.ts); the frames
   * get their config, the panels the state, or a snapshot when records were evicted. Resolves with the state once
   * stored.
   */
  setOptions(options: unknown): Promise<TabState> {
    return this.run(async () => {
      const bound = this.log.state.maxRecords;
      const removed = await applyOptions(this.log, this.host, checkOptions(options));
      this.relays.pushConfig(this.log.state, this.host.maxBytes());
      if (removed.length) {
        this.panels.snapshot();
      } else {
        this.panels.state();
      }
      if (this.log.state.maxRecords !== bound) {
        // (the stored batches replayed under another bound would hold other records: a restart must find these)
        await this.storage.writeSnapshot();
      } else {
        await this.storage.persist();
      }
      return { ...this.log.state };
    });
  }

  /**
   * Set the tenant origin by hand, or null: back to the inferred one. Checked first (`checkTenantOrigin`); the
   * log is re-classified and the panels get a snapshot. Resolves with the state once stored.
   */
  setTenantOrigin(origin: unknown): Promise<TabState> {
    return this.run(async () => {
      this.log.setTenantOrigin(checkTenantOrigin(origin));
      this.panels.snapshot();
      await this.storage.persist();
      return { ...this.log.state };
    });
  }

  /** Clear: the log is emptied (the embed sessions go on); the panels get the empty snapshot. */
  clear(): Promise<void> {
    return this.run(async () => {
      this.log.clear();
      this.panels.snapshot();
      await this.storage.writeSnapshot();
    });
  }

  /** The extension-wide ready limit changed: the tab is judged again with it; the panels get what changed. */
  readyTimeoutChanged(): void {
    void this.run(() => {
      this.log.setReadyTimeout(this.host.readyTimeoutMs());
      this.intake.rediagnose();
      this.panels.state();
    });
  }

  /** The extension-wide size cap changed: every frame gets it (once the log is loaded, not after queued work). */
  maxBytesChanged(): void {
    void this.restored.then(() => this.relays.pushConfig(this.log.state, this.host.maxBytes()));
  }

  // ------------------------------------------------------------------------------------------ panels

  /** A panel subscribes: the snapshot, then the capture scope and the tab's sites, then live messages. */
  subscribe(panel: PanelSink): Promise<void> {
    return this.run(() => this.panels.subscribe(panel));
  }

  unsubscribe(panel: PanelSink): Promise<void> {
    return this.run(() => this.panels.unsubscribe(panel));
  }

  /** The tab's frames changed (a navigation): its panels get its sites anew, once the frames settle. */
  framesChanged(): void {
    this.notice.framesChanged();
  }

  /** The scope changed: frames whose site left it stop recording at once; the panels get the new scope. */
  rescope(): Promise<void> {
    return this.run(async () => {
      this.relays.rescope((o) => this.host.frameMode(o), this.log.state, this.host.maxBytes());
      this.relays.pushConfig(this.log.state, this.host.maxBytes());
      await this.panels.capture();
    });
  }

  /** Post as the host page or as the embed, from the frame that must appear as the sender (send-routing.ts). */
  send(msg: Body<SendRequest>, reply: SendReply): Promise<void> {
    return this.run(() => this.sends.route(msg, reply));
  }

  /** A relay answered a send (on whichever port of the tab it has now). */
  sendResult(result: PostResult): void {
    this.sends.answered(result);
  }

  // ------------------------------------------------------------------------------------------ relays

  /** A relay in scope said hello: its frame joins the tab (the first hello of a new top document starts the log). */
  attachRelay(
    relay: RelayPort,
    hello: Extract<RelayToBackground, { type: 'hello' }>,
    browser: { documentId?: string; lifecycle?: string; page?: Promise<string | undefined>; opaque?: boolean } = {},
  ): Promise<void> {
    return this.run(async () => {
      const live = this.relays.get(relay.frameId);
      this.relays.attach(relay);
      relay.page = await browser.page;
      if (!(await this.navigation.hello(relay.frameId, hello, browser)) && live) {
        this.relays.attach(live); // (a page the tab left: the frame's relay stays the shown page's)
      }
      relay.config(configOf(this.log.state, relay.mode, this.host.maxBytes()));
    });
  }

  /** A relay's port closed. */
  detachRelay(relay: RelayPort): Promise<void> {
    return this.run(() => this.relays.detach(relay));
  }

  /** A relay's batch: stored once and acknowledged, processed later (record-intake.ts); queued work waits for it. */
  ingest(relay: RelayPort, batch: RecordsBatch): Promise<void> {
    this.relays.progress(relay); // (a frame handing over a long burst is still answering a settle)
    return this.accept(relay, batch, () => relay.page); // (known once its hello ran on the chain)
  }

  /**
   * A batch a frame left in storage as it went (spill.ts), from `sender`, of a frame in the page `page` (as its seal
   * names it): accepted as its port's would have been.
   */
  ingestSpilled(sender: BatchSender, batch: RecordsBatch, page: string | null): Promise<void> {
    return this.accept(sender, batch, () => page ?? undefined);
  }

  /**
   * A batch from a frame in the page `page()` (undefined: the browser could not tell). One of a page the log has left
   * without preserve log, which the browser does not show again, is acknowledged and left out: a new page's log
   * starts empty, and what the frames of the page before say late (their last posts and deliveries, handed over as
   * they go, often after the navigation) is not the new page's. Judged there, it would read as sent before its
   * embed's ready.
   */
  private accept(relay: BatchSender, batch: RecordsBatch, page: () => string | undefined): Promise<void> {
    let stored: Promise<void> = Promise.resolve();
    // The chain goes on once the batch's storage has started; the returned promise, once it is stored.
    const started = this.run(
      async () => {
        const p = page();
        if (p !== undefined && this.storage.hasLeft(p)) {
          const now = await topDocumentNow(this.tabId);
          if (now?.documentId !== p) {
            this.storage.taken(batch.docId, batch.batch); // (not stored again if it comes again)
            relay.ack(batch.batch); // (so that the relay lets it go)
            return;
          }
          if (!(await this.shownAgain(p, now.url, relay.since))) {
            relay.resend(); // (sent again later: not acknowledged, not lost)
            return;
          }
        }
        stored = this.intake.accept(relay, batch);
      },
      { lazy: true },
    );
    const result = started.then(() => stored);
    result.catch(() => {}); // a failure is reported by the intake; a caller that does not wait is not told again
    return result;
  }

  // ------------------------------------------------------------------------------------------ navigation

  /**
   * A document committed in one of the tab's frames (its page is in scope): a new top document starts a new log
   * unless preserve log is on, once per document; any navigation becomes a record.
   */
  navigated(nav: Navigation): Promise<void> {
    return this.run(() => this.navigation.navigated(nav));
  }

  /** The browser began to prerender the top document `documentId` at `time` (tab-navigation.ts `topDocument`). */
  prerendered(documentId: string, time: number): Promise<void> {
    return this.run(() => {
      this.storage.prerendered(documentId, time);
      return this.storage.persist(); // (a prerender may be opened after the worker stopped)
    });
  }

  /**
   * The tab's top document left the capture scope: its log ends there (kept as it was with preserve log), and
   * nothing of the new page is recorded, its address included.
   */
  leftScope(documentId: string | undefined): Promise<void> {
    return this.run(() => this.navigation.leftScope(documentId));
  }

  /** Resolves once the work queued so far has run. */
  async drain(): Promise<void> {
    await this.chain;
    await this.intake.stored();
  }

  /** The tab is gone: no more timers and no more writes; queued work finishes (the registry deletes its log). */
  close(): void {
    this.storage.close();
    this.intake.close();
    this.navigation.close();
    this.notice.close();
  }

  // ------------------------------------------------------------------------------------------ private

  /**
   * Run `fn` on the chain (after everything queued before it). The batches accepted before it are stored and the
   * pending ones processed first, so `fn` sees the whole log; `wait: false` (a count, a timer) processes the
   * batches stored so far without waiting for the others; `lazy` (ingestion only) neither waits nor processes.
   */
  private run<T>(fn: () => Promise<T> | T, opts: { lazy?: boolean; wait?: boolean } = {}): Promise<T> {
    const next = this.chain.then(async () => {
      if (!opts.lazy) {
        if (opts.wait !== false) {
          await this.intake.stored();
        }
        this.intake.process();
      }
      return fn();
    });
    this.chain = next.catch((e) => console.warn('embed-inspector:', e));
    return next;
  }

  private async restore(): Promise<void> {
    await this.host.started(); // (a waking worker: the user's limit and cap, not the defaults; no stale log)
    this.log.setReadyTimeout(this.host.readyTimeoutMs());
    const log = await this.storage.restore(this.host.readyTimeoutMs());
    if (log) {
      this.log = log;
      // The worker may have slept past a limit: judge what did not happen now (no panel is subscribed yet).
      this.intake.rediagnose();
    }
  }

  /**
   * The page `page` at `url`, which the log left, is shown again (the back/forward cache) and a batch of it came
   * before its navigation was heard: its log starts now (what is pending joins the log it came to first), with its
   * frames whose relays said hello already. Its navigation is placed when the tab left it, before all it does now
   * (with preserve log, when the relay heard said hello, `since`: the page between came in the meantime). False when
   * that could not be stored.
   */
  private async shownAgain(page: string, url: string, since: number | undefined): Promise<boolean> {
    const left = this.log.state.preserveLog ? undefined : this.storage.leftAtOf(page);
    try {
      await this.intake.stored();
      this.intake.process();
      if (this.host.frameMode(originOf(url)) === null) {
        await this.navigation.leftScope(page);
        return true;
      }
      const frames = [...this.relays.all()].flatMap((r) =>
        r.page === page && r.frameId !== 0 && r.frameUrl !== undefined ? [{ frameId: r.frameId, url: r.frameUrl }] : [],
      );
      await this.navigation.shownAgain(url, page, left ?? Math.min(Date.now(), since ?? Date.now()), frames);
      return true;
    } catch (e) {
      console.warn('embed-inspector: could not start the log of a page shown again', e);
      return false;
    }
  }

  /**
   * The page `documentId`, left, is shown again (the back/forward cache): its frames' records are kept from now on,
   * and the stored meta says so at once (a worker that stops before the next write must not drop them).
   */
  private enterAgain(documentId: string): void {
    this.storage.unleave(documentId);
    this.storage.persist().catch((e) => console.warn('embed-inspector: could not store the tab', e));
  }

  /** A new log (a new top document, or the page left the scope): stored empty, and the panels get it. */
  private async newLog(pageUrl: string | null): Promise<void> {
    this.log.reset(pageUrl);
    this.storage.newLog();
    await this.storage.writeSnapshot();
    this.panels.snapshot();
  }
}
