/**
 * Group commit for the log's storage (db.ts). An IndexedDB transaction has a fixed cost, mostly in the browser's
 * process: 1.0–1.6 ms of its CPU and 0.4–0.6 ms of the worker's for a transaction of one small batch, 3.6–4.6 and
 * 1.5–1.6 ms for sixteen batches in one (this machine, `node bench/worker-costs.mjs`). The writes that come while a
 * transaction is in flight wait for it anyway (transactions on the same stores run one at a time), so they are
 * merged into the next one: nothing waits longer than it did, and a burst pays fewer transactions (issue 47: the
 * capture lag after 5,000 messages 5–9% shorter).
 *
 * - Writes are applied in the order they were asked for, and each resolves once its transaction completed;
 * - a failed transaction rejects every write it held (a relay's batch is then not acknowledged: it is sent again);
 * - a read waits for the writes asked for before it (`settled`), as it would have behind their transactions.
 */
export class WriteQueue<W> {
  private queue: Array<{ write: W; resolve: () => void; reject: (e: unknown) => void }> = [];
  private flying = false;
  /** Settles when the last write asked for so far settled. */
  private last: Promise<void> = Promise.resolve();

  /** `run`: one transaction applying these writes in order; resolves once it completed. */
  constructor(private readonly run: (writes: W[]) => Promise<void>) {}

  /** Resolves once `write` is committed (with the writes merged with it); rejects when its transaction failed. */
  write(write: W): Promise<void> {
    const p = new Promise<void>((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
    });
    this.last = p.catch(() => undefined);
    if (!this.flying) {
      this.flying = true;
      // (after this task's other writes: they join the first transaction)
      queueMicrotask(() => void this.drain());
    }
    return p;
  }

  /** Settles once every write asked for before the call settled (never rejects). */
  settled(): Promise<void> {
    return this.last;
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const held = this.queue;
      this.queue = [];
      try {
        await this.run(held.map((h) => h.write));
        for (const h of held) {
          h.resolve();
        }
      } catch (e) {
        for (const h of held) {
          h.reject(e);
        }
      }
    }
    this.flying = false;
  }
}
