/**
 * How records join a tab's log. A relay's batch is accepted: stored as it came, once (a resend after a reconnection
 * is not stored again), unless the tab is paused or the relay left the scope, then acknowledged; it waits in the
 * pending batches (pending-batches.ts) until they are due. A navigation record joins the log at once. Whatever joins
 * is counted towards compaction (past the bound a snapshot replaces the stored batches) and published: the panels
 * get what changed, and the limit timer (limit-timer.ts) the log's next limit, when the tab is judged again.
 *
 * This part holds the pending batches and the limit timer; the tab's session runs its methods on its chain.
 */
import type { RawRecord, RelayToBackground } from '../shared/messages.ts';
import { navigationRecord, type FrameNav } from './frame-navs.ts';
import { LimitTimer } from './limit-timer.ts';
import type { PanelFanout } from './panel-fanout.ts';
import type { FrameRecord } from './batch.ts';
import { PendingBatches } from './pending-batches.ts';
import type { RelayPort } from './relay-port.ts';
import type { TabStorage } from './tab-storage.ts';
import type { AddResult, TabLog } from './tablog.ts';

export type RecordsBatch = Extract<RelayToBackground, { type: 'records' }>;

/** What the intake works with: the session's log, storage and panels, and its chain. */
export interface IntakeSession {
  /** The tab's log as it is now (the session replaces it when it restores one). */
  log(): TabLog;
  readonly storage: Pick<
    TabStorage,
    'once' | 'storeRelayBatch' | 'storeOwn' | 'counted' | 'snapshotDue' | 'writeSnapshot'
  >;
  readonly panels: Pick<PanelFanout, 'live' | 'added' | 'update'>;
  /**
   * Run `fn` on the session's chain (a timer ran out, or the pending batches are past their bound), without
   * waiting for the batches still being written: it processes those stored so far.
   */
  later(fn: () => void): void;
  /** Run `fn` on the session's chain once the batches accepted before it are stored and processed. */
  afterWrites(fn: () => void): void;
}

/** The relay end of an accepted batch: its frame, whether it is in scope, its acknowledgement. */
export type BatchSender = Pick<RelayPort, 'frameId' | 'origin' | 'outOfScope' | 'ack' | 'resend'> &
  Partial<Pick<RelayPort, 'since'>>;

export class RecordIntake {
  private readonly pending = new PendingBatches(() => this.session.later(() => this.process()));
  private readonly limits = new LimitTimer(() => this.session.later(() => this.rediagnose()));
  /** The accepted batches' writes, in order, and how many have not ended. */
  private writes: Promise<void> = Promise.resolve();
  private writing = 0;
  /** The writes not ended yet, by relay document and batch number. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** A snapshot waits for the batches being written (the session processes them, and it is written then). */
  private compacting = false;
  private closed = false;

  constructor(private readonly session: IntakeSession) {}

  /**
   * A relay's batch (JSON text of raw records of its frame, numbered per document): stored as is unless the tab
   * is paused, the relay left the scope meanwhile or the batch came already; pending until due (or processed soon,
   * past the pending bound). Its storage starts now and the session's chain goes on without waiting for it: the
   * tab's writes complete in the order they were started (db.ts: those asked for while a transaction is in flight
   * share the next one), so a burst's batches are written while the next ones arrive. Resolves once stored and
   * acknowledged; when storing fails it rejects, unacknowledged, and the relay's port is closed (the relay sends
   * again every batch not acknowledged), so the resend is neither lost nor doubled.
   */
  accept(relay: BatchSender, batch: RecordsBatch): Promise<void> {
    if (relay.outOfScope) {
      relay.ack(batch.batch);
      return Promise.resolve();
    }
    const { storage } = this.session;
    // (the relay's own JSON, and the page's lines beside it: read and checked when processed, batch.ts)
    const lines = Array.isArray(batch.lines) && batch.lines.length ? { lines: batch.lines } : {};
    const relayBatch = {
      frame: { frameId: relay.frameId, origin: relay.origin },
      json: typeof batch.json === 'string' ? batch.json : '[]',
      ...lines,
    };
    let kept = false;
    // A resend of a batch still being written (the relay reconnected meanwhile) is stored once: it stands or
    // falls with that write.
    const key = `${batch.docId} ${batch.batch}`;
    const write =
      this.inFlight.get(key) ??
      storage.once(batch.docId, batch.batch, () => {
        if (this.session.log().state.paused) {
          return Promise.resolve();
        }
        kept = true;
        return storage.storeRelayBatch(relayBatch);
      });
    if (kept) {
      this.inFlight.set(key, write);
    }
    // In the order accepted: pending and acknowledged only once durable (and after every batch before it).
    this.writing++;
    const done = this.writes
      .then(async () => {
        try {
          await write;
        } catch (e) {
          relay.resend(); // (before the next batch's acknowledgement lets the relay drop this one)
          throw e;
        }
        if (kept && this.pending.add(relayBatch, this.session.panels.live)) {
          this.session.later(() => this.process());
        }
        relay.ack(batch.batch);
      })
      .finally(() => {
        this.writing--;
        if (this.inFlight.get(key) === write) {
          this.inFlight.delete(key);
        }
      });
    this.writes = done.catch((e) => console.warn('embed-inspector:', e));
    return done;
  }

  /** Resolves once every batch accepted so far is stored (and pending) or its storage failed; never rejects. */
  stored(): Promise<void> {
    return this.writes;
  }

  /**
   * Parse, classify, pair and publish the pending batches. They are added together: the log orders them by
   * capture time, whatever order they came in (each frame's records stay in the frame's order). Their batches are
   * stored already; past the bound a snapshot replaces them, once no batch is being written (a snapshot replaces
   * every stored batch, and one still being written is not in the log yet: the snapshot then waits for it).
   */
  process(): void {
    const raws = this.pending.take();
    if (!raws) {
      return;
    }
    this.session.storage.counted(raws.length);
    this.published(this.session.log().add(raws));
    if (!this.session.storage.snapshotDue()) {
      return;
    }
    if (this.writing === 0) {
      void this.session.storage.writeSnapshot().catch((e) => console.warn('embed-inspector: snapshot', e));
    } else if (!this.compacting) {
      this.compacting = true;
      this.session.afterWrites(() => {
        this.compacting = false;
      });
    }
  }

  /** A navigation record joins the log (unless paused, or the tab is gone); resolves once it is stored. */
  async navigation(nav: FrameNav): Promise<void> {
    if (!this.closed) {
      await this.add(nav.frameId, [navigationRecord(nav)]);
    }
  }

  /** Judge what did not happen again now; the panels get the records that changed; the next limit is watched. */
  rediagnose(): void {
    this.session.panels.update(this.session.log().diagnose());
    this.limits.watch(this.session.log().nextDiagnosis);
  }

  /** The tab is gone: no timer runs and no record joins any more. */
  close(): void {
    this.closed = true;
    this.pending.close();
    this.limits.close();
  }

  /** Raw records of one frame into the log and into storage (numbered from the log's next seq); published. */
  private async add(frameId: number, raws: RawRecord[]): Promise<void> {
    const log = this.session.log();
    if (log.state.paused) {
      return;
    }
    const storage = this.session.storage;
    const seq0 = log.nextSeq;
    const res = log.add(raws.map((r): FrameRecord => ({ ...r, frameId })));
    storage.counted(raws.length);
    const stored = storage.snapshotDue()
      ? storage.writeSnapshot()
      : storage.storeOwn(frameId, JSON.stringify(raws), seq0);
    this.published(res);
    await stored;
  }

  private published(res: AddResult): void {
    this.limits.watch(this.session.log().nextDiagnosis);
    this.session.panels.added(res);
  }
}
