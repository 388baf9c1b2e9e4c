/**
 * One tab's session: the coordinator of the tab's parts, each the only writer of its state:
 * - the log (tablog.ts: order, classification, pairing, bound);
 * - its durable copy (tab-storage.ts) and the batches stored but not yet in the log (pending-batches.ts);
 * - the relays of its frames (tab-relays.ts) and the sends waiting for a frame's answer (send-routing.ts);
 * - the panels subscribed to it (panel-fanout.ts).
 * Whoever changes a tab (a relay, a panel, a navigation, the automation API) calls the session's methods: the
 * same checks (input-checks.ts), storage and publication on every path.
 *
 * Every operation runs in order on the session's chain, after the stored log is loaded (an MV3 worker is stopped
 * at any time: memory is only a copy). A relay's batch is acknowledged only once stored.
 */
import type { CaptureMode, ClassifiedRecord, RawRecord, RelayToBackground, TabState } from '../shared/messages.ts';
import type { Body } from '../shared/channel.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { TabLog, newState } from './tablog.ts';
import type { RelayPort } from './relay-port.ts';
import { navigationRecord, type FrameNav } from './frame-navs.ts';
import { TabNavigation, type Navigation } from './tab-navigation.ts';
import { checkOptions, checkTenantOrigin, warnDropped } from './input-checks.ts';
import { PendingBatches, type FrameRecord } from './pending-batches.ts';
import { TabStorage, type TabStore } from './tab-storage.ts';
import { TabRelays, configOf } from './tab-relays.ts';
import { SendRouting, type PostResult, type SendReply, type SendRequest } from './send-routing.ts';
import { LimitTimer } from './limit-timer.ts';
import { PanelFanout, type FanoutHost, type PanelSink } from './panel-fanout.ts';

/** A tab's frames changed: its panels get its sites anew once the frames settle for this long. */
export const CAPTURE_NOTICE_MS = 250;

/** What a session needs from the rest of the background (injected: unit tests give fakes). */
export interface SessionHost extends FanoutHost {
  readonly store: TabStore;
  setMaxBytes(maxBytes: number): Promise<void>;
  setReadyTimeout(ms: number): Promise<void>;
  /** The mode a frame of `origin` is captured in now (null: out of scope). */
  frameMode(origin: string | null): CaptureMode | null;
}

export class TabSession {
  private log: TabLog;
  private readonly storage: TabStorage;
  private readonly pending = new PendingBatches(() => void this.run(() => {}));
  private readonly relays = new TabRelays();
  private readonly sends: SendRouting;
  private readonly panels: PanelFanout;
  private chain: Promise<unknown>;
  /** Resolves once the stored log is loaded (never rejects). */
  private readonly restored: Promise<void>;
  private readonly limits = new LimitTimer(() => void this.run(() => this.rediagnose()));
  private captureTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly navigation: TabNavigation;

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
    this.navigation = new TabNavigation({
      tabId,
      log: () => this.log,
      topDocumentId: () => this.storage.topDocumentId,
      enterDocument: (id) => this.storage.enterDocument(id),
      newLog: (pageUrl) => this.newLog(pageUrl),
      place: (nav) => this.addNavigation(nav),
      placeLater: (nav) => void this.run(() => this.addNavigation(nav)),
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
  count(): Promise<number> {
    return this.run(() => this.log.records.size);
  }
  exportCapture(createdBy?: string): Promise<CaptureFile> {
    return this.run(() => this.log.exportCapture(createdBy));
  }

  /**
   * Every frame of the tab hands over what it holds now (its outbox, the MAIN world's posts); resolves once those
   * records are in the log, so a reader sees everything the page did before the call. A frame that does not answer
   * within SETTLE_TIMEOUT_MS (a stale script, a frame going away) is not waited for longer.
   */
  async settle(): Promise<void> {
    await Promise.all(await this.run(() => this.relays.handOver()));
    // The batches came before each answer, so they are stored; reading processes them.
    await this.run(() => undefined);
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
   * Set preserve log, pause, the buffer bound (evicting at once) and the extension-wide size cap. Checked first
   * (`checkOptions`: a wrong value rejects and changes nothing); the frames get their config, the panels the
   * state, or a snapshot when records were evicted. Resolves with the state once stored.
   */
  setOptions(options: unknown): Promise<TabState> {
    return this.run(async () => {
      const o = checkOptions(options);
      if (o.preserveLog !== undefined) {
        this.log.setPreserveLog(o.preserveLog);
      }
      if (o.paused !== undefined) {
        this.log.setPaused(o.paused);
      }
      const removed = o.maxRecords !== undefined ? this.log.setMaxRecords(o.maxRecords) : [];
      if (o.maxBytes !== undefined) {
        await this.host.setMaxBytes(o.maxBytes);
      }
      if (o.readyTimeoutMs !== undefined) {
        await this.host.setReadyTimeout(o.readyTimeoutMs);
      }
      this.relays.pushConfig(this.log.state, this.host.maxBytes());
      if (removed.length) {
        this.panels.snapshot();
      } else {
        this.panels.state();
      }
      await this.storage.persist();
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
      this.rediagnose();
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
    clearTimeout(this.captureTimer);
    this.captureTimer = setTimeout(() => {
      this.captureTimer = undefined;
      void this.run(() => this.panels.capture());
    }, CAPTURE_NOTICE_MS);
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
    documentId: string | undefined,
  ): Promise<void> {
    return this.run(async () => {
      this.relays.attach(relay);
      await this.navigation.hello(relay.frameId, hello, documentId);
      relay.config(configOf(this.log.state, relay.mode, this.host.maxBytes()));
    });
  }

  /** A relay's port closed. */
  detachRelay(relay: RelayPort): Promise<void> {
    return this.run(() => this.relays.detach(relay));
  }

  /**
   * A relay's batch (JSON text of raw records of its frame, numbered per document): stored as is unless the tab
   * is paused, the relay left the scope meanwhile or the batch came already (a resend after a reconnection);
   * processed later (pending-batches.ts). Acknowledged once stored; not acknowledged when storing fails (the
   * relay sends it again).
   */
  ingest(relay: RelayPort, batch: Extract<RelayToBackground, { type: 'records' }>): Promise<void> {
    return this.run(
      async () => {
        if (!relay.outOfScope) {
          await this.storage.once(batch.docId, batch.batch, async () => {
            if (this.log.state.paused) {
              return;
            }
            await this.storage.storeRaw(relay.frameId, batch.json);
            // Pending only once durable: a batch whose storage failed is not in the log either, so its resend is not doubled.
            if (this.pending.add(relay.frameId, batch.json, this.panels.live)) {
              this.processPending();
            }
          });
        }
        relay.ack(batch.batch);
      },
      { lazy: true },
    );
  }

  // ------------------------------------------------------------------------------------------ navigation

  /**
   * A document committed in one of the tab's frames (its page is in scope): a new top document starts a new log
   * unless preserve log is on, once per document; any navigation becomes a record.
   */
  navigated(nav: Navigation): Promise<void> {
    return this.run(() => this.navigation.navigated(nav));
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
  }

  /** The tab is gone: no more timers and no more writes; queued work finishes (the registry deletes its log). */
  close(): void {
    this.closed = true;
    this.storage.close();
    this.pending.close();
    this.navigation.close();
    clearTimeout(this.captureTimer);
    this.limits.close();
  }

  // ------------------------------------------------------------------------------------------ private

  /**
   * Run `fn` on the chain (after everything queued before it). The pending batches are processed first, so `fn`
   * sees the whole log; `lazy` (ingestion only) leaves them pending.
   */
  private run<T>(fn: () => Promise<T> | T, opts: { lazy?: boolean } = {}): Promise<T> {
    const next = this.chain.then(() => {
      if (!opts.lazy) {
        this.processPending();
      }
      return fn();
    });
    this.chain = next.catch((e) => console.warn('embed-inspector:', e));
    return next;
  }

  private async restore(): Promise<void> {
    const log = await this.storage.restore(this.host.readyTimeoutMs());
    if (log) {
      this.log = log;
      // The worker may have slept past a limit: judge what did not happen now.
      this.log.diagnose();
      this.limits.watch(this.log.nextDiagnosis);
    }
  }

  /** Judge what did not happen again now; the panels get the records that changed; the next limit is watched. */
  private rediagnose(): void {
    this.panels.update(this.log.diagnose());
    this.limits.watch(this.log.nextDiagnosis);
  }

  /**
   * Parse, classify, pair and publish the pending batches. They are added together: the log orders them by
   * capture time, whatever order they came in (each frame's records stay in the frame's order).
   */
  private processPending(): void {
    const raws = this.pending.take();
    if (raws) {
      this.addProcessed(raws);
    }
  }

  private addProcessed(raws: FrameRecord[]): void {
    this.storage.counted(raws.length);
    this.published(this.log.add(raws));
    // Compaction, past the bound: the snapshot replaces every stored batch, processed now.
    if (this.storage.snapshotDue()) {
      void this.storage.writeSnapshot().catch((e) => console.warn('embed-inspector: snapshot', e));
    }
  }

  /** Add raw records of one frame to the log and to storage (compacting past the bound); publish; resolve when durable. */
  private async addRecords(frameId: number, raws: RawRecord[]): Promise<void> {
    if (this.log.state.paused) {
      return;
    }
    const seq0 = this.log.nextSeq;
    const res = this.log.add(raws.map((r) => ({ ...r, frameId })));
    this.storage.counted(raws.length);
    const stored = this.storage.snapshotDue()
      ? this.storage.writeSnapshot()
      : this.storage.storeRaw(frameId, JSON.stringify(raws), seq0);
    this.published(res);
    await stored;
  }

  private async addNavigation(nav: FrameNav): Promise<void> {
    if (!this.closed) {
      await this.addRecords(nav.frameId, [navigationRecord(nav)]);
    }
  }

  private published(res: ReturnType<TabLog['add']>): void {
    this.limits.watch(this.log.nextDiagnosis);
    this.panels.added(res);
  }

  /** A new log (a new top document, or the page left the scope): stored empty, and the panels get it. */
  private async newLog(pageUrl: string | null): Promise<void> {
    this.log.reset(pageUrl);
    this.storage.newLog();
    await this.storage.writeSnapshot();
    this.panels.snapshot();
  }
}
