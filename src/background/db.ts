/**
 * Durable per-tab logs in IndexedDB (the MV3 service worker is stopped at any time: memory is not
 * storage; chrome.storage.session is capped at 10 MB, too small for 50,000 messages).
 *
 * The log is stored as it arrived: one entry per batch, the relay's JSON string as is (one cheap put per
 * batch instead of one per record), plus now and then a snapshot of the held records that replaces the
 * batches before it (compaction). Loading replays the batches through the TabLog, which is deterministic:
 * numbering, classification, pairing and bounds come out the same. The writes asked for while a transaction is in
 * flight are committed together in the next one (write-queue.ts).
 *   batches: key [tabId, n] → StoredBatch
 *   tabs:    key tabId      → TabMeta
 */
import type { TabState } from '../shared/messages.ts';
import type { SessionState } from '../protocol/session.ts';
import type { FrameInfo } from './pairing.ts';
import type { ReadySessions } from '../protocol/session.ts';
import { WriteQueue } from './write-queue.ts';

export interface TabMeta {
  tabId: number;
  /** Settings, page URL and a hand-set tenant origin (counters are rebuilt by the replay). */
  state: TabState;
  /** Last stored batch per relay document (duplicate batches after a reconnection are ignored). */
  docBatches: Record<string, number>;
  /** Batches at or below a document's last whose storage failed: not repeats when they come again. */
  failedBatches?: Record<string, number[]>;
  /** The top document the log belongs to (Chrome's documentId), to start a new log exactly once. */
  topDocumentId?: string;
  /** The last pages (top documents) the log left without preserve log: what their frames say late is left out. */
  leftPages?: string[];
  /** The last pages (top documents) the tab left, each with its embed sessions ready then (protocol/session.ts). */
  readyWhenLeft?: Array<[string, ReadySessions, number?]>;
  /** Top documents the browser began to prerender, and when (a page's navigation is placed then: tab-navigation.ts). */
  prerenders?: Array<[string, number]>;
  frames: FrameInfo[];
}

export type StoredBatch =
  /**
   * Records of one frame, numbered from seq0 (absent: after the batch before). `own`: written by the background
   * itself (navigations; a JSON array of RawRecord, with seq0); else a relay's batch as it came (its JSON entries,
   * the `lines` of the page's world beside them, and the frame's `origin` the port gave), checked again as it is read
   * (batch.ts). A batch stored before `own` existed is the background's when it has seq0.
   */
  | {
      kind: 'raw';
      seq0?: number;
      frameId: number;
      json: string;
      own?: boolean;
      lines?: readonly string[];
      origin?: string | null;
    }
  /**
   * The held records (JSON array of ClassifiedRecord) and the state's counters at that point; `session`: the
   * session checker's state where the held records start (after a Clear).
   */
  | { kind: 'snapshot'; nextSeq: number; state: TabState; json: string; session?: SessionState };

const DB_NAME = 'embed-inspector';
let dbPromise: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  dbPromise ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 2);
    req.onupgradeneeded = () => {
      const db = req.result;
      for (const name of [...db.objectStoreNames]) {
        db.deleteObjectStore(name);
      }
      db.createObjectStore('batches');
      db.createObjectStore('tabs', { keyPath: 'tabId' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      dbPromise = null;
      reject(req.error);
    };
  });
  return dbPromise;
}

const tabRange = (tabId: number) => IDBKeyRange.bound([tabId, -Infinity], [tabId, Infinity]);
const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });

export async function loadTab(tabId: number): Promise<{ meta: TabMeta; batches: Array<[number, StoredBatch]> } | null> {
  await writes.settled(); // (reads see every write asked for before them)
  const db = await open();
  const tx = db.transaction(['tabs', 'batches'], 'readonly');
  const metaReq = tx.objectStore('tabs').get(tabId);
  const keysReq = tx.objectStore('batches').getAllKeys(tabRange(tabId));
  const valsReq = tx.objectStore('batches').getAll(tabRange(tabId));
  await done(tx);
  const meta = metaReq.result as TabMeta | undefined;
  if (!meta) {
    return null;
  }
  const keys = keysReq.result as unknown as Array<[number, number]>;
  const vals = valsReq.result as StoredBatch[];
  return { meta, batches: keys.map((k, i) => [k[1], vals[i]]) };
}

export interface Commit {
  meta: TabMeta;
  /** Append this batch under number n. */
  batch?: { n: number; value: StoredBatch };
  /** Delete every batch of the tab first (a new log, or a compaction that writes a snapshot). */
  clear?: boolean;
}

type Write = { commit: Commit } | { deleteTab: number };

/** One write's requests, in the transaction of its group; a tab's meta is put once, the last one asked for. */
function apply(w: Write, batches: IDBObjectStore, tabs: IDBObjectStore, metas: Map<number, TabMeta>): void {
  if ('deleteTab' in w) {
    batches.delete(tabRange(w.deleteTab));
    tabs.delete(w.deleteTab);
    metas.delete(w.deleteTab);
    return;
  }
  const { meta, batch, clear } = w.commit;
  if (clear) {
    batches.delete(tabRange(meta.tabId));
  }
  if (batch) {
    batches.put(batch.value, [meta.tabId, batch.n]);
  }
  metas.delete(meta.tabId); // (re-inserted: the metas are put in the order last asked for)
  metas.set(meta.tabId, meta);
}

/** The writes asked for while a transaction is in flight go together in the next one (write-queue.ts). */
const writes = new WriteQueue<Write>(async (ws) => {
  const db = await open();
  const tx = db.transaction(['tabs', 'batches'], 'readwrite');
  const batches = tx.objectStore('batches');
  const tabs = tx.objectStore('tabs');
  const metas = new Map<number, TabMeta>();
  try {
    for (const w of ws) {
      apply(w, batches, tabs, metas);
    }
    for (const meta of metas.values()) {
      tabs.put(meta);
    }
  } catch (e) {
    tx.abort(); // (a value that cannot be stored: none of these writes is, and each is asked for again)
    throw e;
  }
  await done(tx);
});

/** Resolves once durable, in the order asked for (merged with the writes asked for meanwhile). */
export function commit(c: Commit): Promise<void> {
  return writes.write({ commit: c });
}

export function deleteTab(tabId: number): Promise<void> {
  return writes.write({ deleteTab: tabId });
}

/** Every stored log's meta (stale-logs.ts). */
export async function listMetas(): Promise<TabMeta[]> {
  await writes.settled();
  const db = await open();
  const tx = db.transaction('tabs', 'readonly');
  const req = tx.objectStore('tabs').getAll();
  await done(tx);
  return req.result as TabMeta[];
}

export async function listTabIds(): Promise<number[]> {
  await writes.settled();
  const db = await open();
  const tx = db.transaction('tabs', 'readonly');
  const req = tx.objectStore('tabs').getAllKeys();
  await done(tx);
  return (req.result as number[]).slice();
}
