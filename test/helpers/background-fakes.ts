/**
 * Fakes of what the background's parts are given (storage, a runtime Port, the browser API), for their unit tests:
 * each keeps what the background did to it, so a test asserts what a user of the other end would see.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { setBrowserApi, type BrowserApi, type Runtime } from '../../src/shared/browser-api.ts';
import type { Commit, StoredBatch, TabMeta } from '../../src/background/db.ts';
import type { RawRecord } from '../../src/shared/messages.ts';

/**
 * Raw records as a relay sends them (batch.ts): what it wrote itself in its JSON; a post of the MAIN world's (a post
 * not injected) as an entry that stands for a line of its facts beside the JSON.
 */
export function relayBatchOf(records: readonly RawRecord[]): { json: string; lines?: string[] } {
  const lines: string[] = [];
  const entries = records.map((r) => {
    if (r.kind !== 'post' || r.injected) {
      return r;
    }
    const { kind: _kind, frameUrl, origin: _origin, ...facts } = r;
    lines.push(JSON.stringify(facts));
    return { kind: 'post', frameUrl, line: true };
  });
  return { json: JSON.stringify(entries), ...(lines.length ? { lines } : {}) };
}

/** An in-memory db.ts: what a stopped worker would find again. */
export function fakeStore() {
  const tabs = new Map<number, TabMeta>();
  const batches = new Map<number, Map<number, StoredBatch>>();
  const commits: Commit[] = [];
  return {
    commits,
    async load(tabId: number) {
      const meta = tabs.get(tabId);
      if (!meta) {
        return null;
      }
      const b = [...(batches.get(tabId) ?? new Map()).entries()].sort((x, y) => x[0] - y[0]);
      return { meta: structuredClone(meta), batches: structuredClone(b) };
    },
    async commit(c: Commit) {
      commits.push(c);
      const id = c.meta.tabId;
      if (c.clear) {
        batches.delete(id);
      }
      if (c.batch) {
        const m = batches.get(id) ?? new Map<number, StoredBatch>();
        m.set(c.batch.n, structuredClone(c.batch.value));
        batches.set(id, m);
      }
      tabs.set(id, structuredClone(c.meta));
    },
    async remove(tabId: number) {
      tabs.delete(tabId);
      batches.delete(tabId);
    },
    async tabIds() {
      return [...tabs.keys()];
    },
    async metas() {
      return [...tabs.values()].map((m) => structuredClone(m));
    },
    rawBatches: (tabId: number) => [...(batches.get(tabId)?.values() ?? [])].filter((b) => b.kind === 'raw'),
  };
}

/** The store's commits wait until released, one by one in the order they came (an IndexedDB under load). */
export function holdCommits(store: ReturnType<typeof fakeStore>) {
  const commit = store.commit;
  const held: Array<() => void> = [];
  store.commit = (c) =>
    new Promise<void>((resolve, reject) => {
      held.push(() => commit(c).then(resolve, reject));
    });
  return {
    get held() {
      return held.length;
    },
    /** Let the first held commit complete. */
    async release() {
      held.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

/** A runtime Port: keeps what the background posts to it; `deliver` plays the other end. */
export function fakePort<In, Out>(name: string, sender?: Runtime.MessageSender) {
  const onMessage: Array<(m: unknown) => void> = [];
  const onDisconnect: Array<() => void> = [];
  const p = {
    sent: [] as Out[],
    closed: false,
    deliver(m: In) {
      for (const fn of onMessage) {
        fn(m);
      }
    },
    /** The other end went away. */
    close() {
      p.closed = true;
      for (const fn of onDisconnect) {
        fn();
      }
    },
    port: {
      name,
      sender,
      postMessage(m: Out) {
        if (p.closed) {
          throw new Error('Attempting to use a disconnected port object');
        }
        p.sent.push(m);
      },
      disconnect() {
        p.closed = true;
      },
      onMessage: { addListener: (fn: (m: unknown) => void) => onMessage.push(fn) },
      onDisconnect: { addListener: (fn: () => void) => onDisconnect.push(fn) },
    } as unknown as Runtime.Port,
  };
  return p;
}

export function fakeApi() {
  const sendMessage = vi.fn(async (_tabId: number, _msg: unknown, _opts?: { frameId?: number }): Promise<unknown> => {
    throw new Error('Could not establish connection. Receiving end does not exist.');
  });
  const parents = new Map<number, number>();
  /** The tab's frames as the browser lists them (webNavigation.getAllFrames), by id. */
  const frames: number[] = [];
  /** The documents the browser knows (getFrame by documentId): each one's parent frame and parent document. */
  const documents = new Map<string, { parentFrameId: number; parentDocumentId?: string }>();
  /** The document each frame shows now, and its address (getFrame by frameId). */
  const shows = new Map<number, { documentId: string; url: string }>();
  const api = {
    tabs: { sendMessage, reload: vi.fn(async () => {}) },
    webNavigation: {
      getFrame: async ({ frameId, documentId }: { frameId?: number; documentId?: string }) => {
        if (documentId !== undefined) {
          const d = documents.get(documentId);
          return d ? { documentId, ...d } : null;
        }
        if (frameId !== undefined && shows.has(frameId)) {
          return { parentFrameId: parents.get(frameId) ?? -1, ...shows.get(frameId) };
        }
        return frameId !== undefined && parents.has(frameId) ? { parentFrameId: parents.get(frameId) } : null;
      },
      getAllFrames: async () => frames.map((frameId) => ({ frameId, parentFrameId: parents.get(frameId) ?? -1 })),
    },
    storage: { local: { set: vi.fn(async () => {}), get: async () => ({}) } },
  };
  return { api: api as unknown as BrowserApi, sendMessage, parents, frames, documents, shows };
}

/**
 * A fresh fake browser API for each test of the calling file (installed before it, removed after it, with real timers
 * and mocks restored): `fake.env` is the current test's.
 */
export function useFakeApi(): { readonly env: ReturnType<typeof fakeApi> } {
  const holder = { env: fakeApi() };
  beforeEach(() => {
    holder.env = fakeApi();
    setBrowserApi(holder.env.api);
  });
  afterEach(() => {
    setBrowserApi(null);
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  return holder;
}
