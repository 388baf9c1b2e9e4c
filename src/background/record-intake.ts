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
import { PendingBatches, type FrameRecord } from './pending-batches.ts';
import type { RelayPort } from './relay-port.ts';
import type { TabStorage } from './tab-storage.ts';
import type { AddResult, TabLog } from './tablog.ts';

export type RecordsBatch = Extract<RelayToBackground, { type: 'records' }>;

/** What the intake works with: the session's log, storage and panels, and its chain. */
export interface IntakeSession {
  /** The tab's log as it is now (the session replaces it when it restores one). */
  log(): TabLog;
  readonly storage: Pick<TabStorage, 'once' | 'storeRaw' | 'counted' | 'snapshotDue' | 'writeSnapshot'>;
  readonly panels: Pick<PanelFanout, 'live' | 'added' | 'update'>;
  /** Run `fn` on the session's chain (a timer ran out). */
  later(fn: () => void): void;
}

/** The relay end of an accepted batch: its frame, whether it is in scope, its acknowledgement. */
export type BatchSender = Pick<RelayPort, 'frameId' | 'outOfScope' | 'ack'>;

export class RecordIntake {
  private readonly pending = new PendingBatches(() => this.session.later(() => this.process()));
  private readonly limits = new LimitTimer(() => this.session.later(() => this.rediagnose()));
  private closed = false;

  constructor(private readonly session: IntakeSession) {}

  /**
   * A relay's batch (JSON text of raw records of its frame, numbered per document): stored as is unless the tab
   * is paused, the relay left the scope meanwhile or the batch came already; pending until due (or processed now,
   * past the pending bound). Acknowledged once stored; not acknowledged when storing fails (the relay sends it
   * again), so the resend is neither lost nor doubled.
   */
  async accept(relay: BatchSender, batch: RecordsBatch): Promise<void> {
    if (!relay.outOfScope) {
      const { storage, panels } = this.session;
      await storage.once(batch.docId, batch.batch, async () => {
        if (this.session.log().state.paused) {
          return;
        }
        await storage.storeRaw(relay.frameId, batch.json);
        // Pending only once durable: a batch whose storage failed is not in the log either.
        if (this.pending.add(relay.frameId, batch.json, panels.live)) {
          this.process();
        }
      });
    }
    relay.ack(batch.batch);
  }

  /**
   * Parse, classify, pair and publish the pending batches. They are added together: the log orders them by
   * capture time, whatever order they came in (each frame's records stay in the frame's order). Their batches are
   * stored already; past the bound a snapshot replaces them.
   */
  process(): void {
    const raws = this.pending.take();
    if (!raws) {
      return;
    }
    this.session.storage.counted(raws.length);
    this.published(this.session.log().add(raws));
    if (this.session.storage.snapshotDue()) {
      void this.session.storage.writeSnapshot().catch((e) => console.warn('embed-inspector: snapshot', e));
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
      : storage.storeRaw(frameId, JSON.stringify(raws), seq0);
    this.published(res);
    await stored;
  }

  private published(res: AddResult): void {
    this.limits.watch(this.session.log().nextDiagnosis);
    this.session.panels.added(res);
  }
}
