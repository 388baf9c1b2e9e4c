/**
 * A tab's durable copy (db.ts): the stored batches and the tab's meta. It numbers the stored batches, knows which
 * batch of each relay document is stored already (a resend after a reconnection is stored once), which top
 * document the log belongs to, and when a snapshot should replace the stored batches (compaction). It is the only
 * writer of that state; the tab's session decides what to store and when.
 */
import type { ClassifiedRecord, TabState } from '../shared/messages.ts';
import type { Commit, StoredBatch, TabMeta, loadTab } from './db.ts';
import type { ReadySessions } from '../protocol/session.ts';
import { TabLog, newState, type TabLogView } from './tablog.ts';
import { readBatch, readOwnBatch } from './batch.ts';
import type { RelayBatch } from './pending-batches.ts';

/** Documents whose last batch number is kept (duplicate batches after a reconnection are dropped). */
const MAX_DOCS = 500;
/** Pages the log left whose late records are still known as theirs. */
const MAX_LEFT = 50;
/** Pages the tab left whose embed sessions are kept, for a return from the back/forward cache. */
const MAX_SHOWN_AGAIN = 10;
/** Top documents being prerendered whose start is kept. */
const MAX_PRERENDERS = 20;

/** What the storage needs of db.ts (injected: unit tests give fakes). */
export interface TabStore {
  load(tabId: number): ReturnType<typeof loadTab>;
  commit(c: Commit): Promise<void>;
}

/** What the replay must not rebuild: settings, page URL, a hand-set tenant origin. */
function settingsOf(s: TabState): Partial<TabState> {
  return {
    preserveLog: s.preserveLog,
    paused: s.paused,
    maxRecords: s.maxRecords,
    pageUrl: s.pageUrl,
    ...(s.tenantOriginSource === 'manual'
      ? { tenantOrigin: s.tenantOrigin, tenantOriginSource: 'manual' as const }
      : {}),
  };
}

function keepLast(docs: Record<string, number>): Record<string, number> {
  const entries = Object.entries(docs);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - MAX_DOCS)));
}

export class TabStorage {
  private meta: Omit<TabMeta, 'state' | 'frames'>;
  /** Number of the next stored batch. */
  private nextBatch = 1;
  /** Records stored in raw batches since the last snapshot (compaction past the buffer bound). */
  private sinceSnapshot = 0;
  private closed = false;
  /** By relay document: its batches taken whose storage failed (at or below its last batch, and not stored). */
  private readonly failed = new Map<string, Set<number>>();

  constructor(
    private readonly tabId: number,
    private readonly store: TabStore,
    /** The tab's log as it is now (the session replaces it when it restores one). */
    private readonly log: () => TabLogView,
  ) {
    this.meta = { tabId, docBatches: {} };
  }

  /**
   * The stored log, replayed (numbering, classification and pairing come out as they were), judged with
   * `readyTimeoutMs`; null when nothing is stored or it cannot be read.
   */
  async restore(readyTimeoutMs: number): Promise<TabLog | null> {
    let loaded: Awaited<ReturnType<typeof loadTab>> = null;
    try {
      loaded = await this.store.load(this.tabId);
    } catch (e) {
      console.warn('embed-inspector: could not load tab log', e);
    }
    if (!loaded) {
      return null;
    }
    const tabId = this.tabId;
    const { meta, batches } = loaded;
    this.meta = {
      tabId,
      docBatches: meta.docBatches ?? {},
      topDocumentId: meta.topDocumentId,
      leftPages: meta.leftPages ?? [],
      readyWhenLeft: meta.readyWhenLeft ?? [],
      prerenders: meta.prerenders ?? [],
    };
    this.failed.clear();
    for (const [docId, ns] of Object.entries(meta.failedBatches ?? {})) {
      this.failed.set(docId, new Set(ns));
    }
    const keep = settingsOf(meta.state);
    const first = batches[0]?.[1];
    const log =
      first?.kind === 'snapshot'
        ? new TabLog({ ...first.state, ...keep }, JSON.parse(first.json) as ClassifiedRecord[], first.nextSeq, {
            sessionBase: first.session ?? null,
          })
        : new TabLog(newState(tabId, keep));
    log.setReadyTimeout(readyTimeoutMs);
    for (const f of meta.frames ?? []) {
      log.setFrame(f);
    }
    let replayed = false;
    for (const [n, b] of batches) {
      this.nextBatch = n + 1;
      if (b.kind !== 'raw') {
        continue;
      }
      if (b.seq0 !== undefined) {
        // (batches stored before processing continue the numbering; never below a seq already given)
        log.continueNumberingAt(b.seq0);
      }
      try {
        const own = b.own ?? b.seq0 !== undefined;
        const raws = own
          ? readOwnBatch(b.frameId, b.json)
          : readBatch({ frameId: b.frameId, origin: b.origin ?? null }, b.json, b.lines).records;
        this.sinceSnapshot += raws.length;
        // (judged once below: judging the page after each of up to `maxRecords` replayed records' batches made a
        // restore quadratic — 10 s for a capped log of 39,600 records, in Node)
        log.add(raws, false);
        replayed = true;
      } catch (e) {
        console.warn('embed-inspector: unreadable stored batch', n, e);
      }
    }
    if (replayed) {
      log.diagnose();
    }
    return log;
  }

  /** The top document the log belongs to now is `documentId`: false when it was already (once per document). */
  enterDocument(documentId: string | undefined): boolean {
    if (documentId && documentId === this.meta.topDocumentId) {
      return false;
    }
    this.meta.topDocumentId = documentId;
    if (documentId) {
      this.unleave(documentId); // (a page back from the back/forward cache is the tab's page again)
    }
    return true;
  }

  /** The page `documentId` is not one the log left (`leave`) any more: it is shown again. */
  unleave(documentId: string): void {
    if (this.meta.leftPages?.includes(documentId)) {
      this.meta.leftPages = this.meta.leftPages.filter((d) => d !== documentId);
    }
  }

  /**
   * The log left the page `documentId` without preserve log: what its frames send later is not kept. Stored with the
   * next write (a worker that stops before knows the page again from its top relay's hello). The last MAX_LEFT
   * pages are kept: what a page says as it goes comes within a moment.
   */
  leave(documentId: string): void {
    const left = (this.meta.leftPages ?? []).filter((d) => d !== documentId);
    this.meta.leftPages = [...left.slice(Math.max(0, left.length - MAX_LEFT + 1)), documentId];
  }

  /**
   * The tab left the page `documentId` with the embed sessions `ready` ready (whatever preserve log): a page shown
   * again from the back/forward cache goes on with them. The last MAX_SHOWN_AGAIN pages are kept.
   */
  rememberReady(documentId: string, ready: ReadySessions, at: number): void {
    const kept = (this.meta.readyWhenLeft ?? []).filter(([d]) => d !== documentId);
    this.meta.readyWhenLeft = [...kept.slice(Math.max(0, kept.length - MAX_SHOWN_AGAIN + 1)), [documentId, ready, at]];
  }

  /** When the tab left the page `documentId` (epoch ms); undefined: not known. */
  leftAtOf(documentId: string): number | undefined {
    return this.meta.readyWhenLeft?.find(([d]) => d === documentId)?.[2];
  }

  /** The embed sessions ready when the tab left the page `documentId`, taken (once); undefined: not a page it left. */
  takeReady(documentId: string): ReadySessions | undefined {
    const found = this.meta.readyWhenLeft?.find(([d]) => d === documentId)?.[1];
    if (found) {
      this.meta.readyWhenLeft = this.meta.readyWhenLeft?.filter(([d]) => d !== documentId);
    }
    return found;
  }

  /** The browser began to prerender the top document `documentId` at `time` (the last MAX_PRERENDERS kept). */
  prerendered(documentId: string, time: number): void {
    const kept = (this.meta.prerenders ?? []).filter(([d]) => d !== documentId);
    this.meta.prerenders = [...kept.slice(Math.max(0, kept.length - MAX_PRERENDERS + 1)), [documentId, time]];
  }

  /** When the browser began to prerender the top document `documentId`, taken (once); undefined: not known. */
  takePrerendered(documentId: string): number | undefined {
    const found = this.meta.prerenders?.find(([d]) => d === documentId)?.[1];
    if (found !== undefined) {
      this.meta.prerenders = this.meta.prerenders?.filter(([d]) => d !== documentId);
    }
    return found;
  }

  /** The log left the page `documentId` without preserve log (`leave`). */
  hasLeft(documentId: string): boolean {
    return this.meta.leftPages?.includes(documentId) ?? false;
  }
  get topDocumentId(): string | undefined {
    return this.meta.topDocumentId;
  }

  /**
   * A relay's batch `batch` of document `docId`: `store` runs unless that batch is stored already (at or below the
   * document's last batch taken, and not one whose storage failed). A failed batch is sent again by the relay (see
   * record-intake.ts), and that must not count as a repeat, whatever later batch of the document was stored
   * meanwhile (writes share transactions, db.ts: several may fail together).
   */
  async once(docId: string, batch: number, store: () => Promise<void>): Promise<void> {
    const failed = this.failed.get(docId);
    if (batch <= (this.meta.docBatches[docId] ?? 0) && !failed?.has(batch)) {
      return;
    }
    if (failed?.delete(batch) && !failed.size) {
      this.failed.delete(docId);
    }
    if (batch > (this.meta.docBatches[docId] ?? 0)) {
      this.rememberBatch(docId, batch);
    }
    try {
      await store();
    } catch (e) {
      this.failed.set(docId, (this.failed.get(docId) ?? new Set()).add(batch));
      throw e;
    }
  }

  /** Batch `batch` of document `docId` was taken without being stored (left out): not taken again. */
  taken(docId: string, batch: number): void {
    if (batch > (this.meta.docBatches[docId] ?? 0)) {
      this.rememberBatch(docId, batch);
    }
  }

  /** A new log: only the last documents' batch numbers are kept. */
  newLog(): void {
    this.meta.docBatches = keepLast(this.meta.docBatches);
  }

  /** Store a relay's batch as it came (read again, and checked again, when the log is restored). */
  storeRelayBatch({ frame, json, lines }: RelayBatch): Promise<void> {
    const value: StoredBatch = {
      kind: 'raw',
      frameId: frame.frameId,
      origin: frame.origin,
      json,
      ...(lines?.length ? { lines } : {}),
    };
    return this.commit({ meta: this.metaOf(), batch: { n: this.nextBatch++, value } });
  }

  /** Store raw records the background wrote itself (numbered from `seq0`, already in the log). */
  storeOwn(frameId: number, json: string, seq0: number): Promise<void> {
    const value: StoredBatch = { kind: 'raw', own: true, seq0, frameId, json };
    return this.commit({ meta: this.metaOf(), batch: { n: this.nextBatch++, value } });
  }

  /** `n` records went into raw batches since the last snapshot. */
  counted(n: number): void {
    this.sinceSnapshot += n;
  }

  /** Compaction: past the buffer bound, a snapshot replaces every stored batch. */
  snapshotDue(): boolean {
    return this.sinceSnapshot > Math.max(this.log().state.maxRecords, 1000);
  }

  /** Replace every stored batch by one snapshot of the held records (a new log, Clear, compaction). */
  writeSnapshot(): Promise<void> {
    this.sinceSnapshot = 0;
    const log = this.log();
    const value: StoredBatch = {
      kind: 'snapshot',
      nextSeq: log.nextSeq,
      state: { ...log.state },
      json: JSON.stringify([...log.records.values()]),
      ...(log.sessionBase ? { session: log.sessionBase } : {}),
    };
    return this.commit({ meta: this.metaOf(), clear: true, batch: { n: this.nextBatch++, value } });
  }

  /** Persist settings and state. */
  persist(): Promise<void> {
    return this.commit({ meta: this.metaOf() });
  }

  /** The tab is gone: nothing is written any more (the registry deletes its log: nothing may write it back). */
  close(): void {
    this.closed = true;
  }

  private metaOf(): TabMeta {
    const log = this.log();
    // A copy: the commit may clone it after later batches were taken.
    return {
      ...this.meta,
      docBatches: { ...this.meta.docBatches },
      leftPages: [...(this.meta.leftPages ?? [])],
      readyWhenLeft: (this.meta.readyWhenLeft ?? []).map(([d, r, at]) => [d, structuredClone(r), at]),
      prerenders: (this.meta.prerenders ?? []).map(([d, t]) => [d, t]),
      ...(this.failed.size
        ? { failedBatches: Object.fromEntries([...this.failed].map(([d, ns]) => [d, [...ns]])) }
        : {}),
      state: { ...log.state },
      frames: [...log.frames.values()],
    };
  }

  private commit(c: Commit): Promise<void> {
    return this.closed ? Promise.resolve() : this.store.commit(c);
  }

  private rememberBatch(docId: string, batch: number): void {
    this.meta.docBatches[docId] = batch;
    if (Object.keys(this.meta.docBatches).length > MAX_DOCS * 2) {
      this.meta.docBatches = keepLast(this.meta.docBatches);
    }
  }
}
