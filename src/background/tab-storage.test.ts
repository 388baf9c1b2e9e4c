import { describe, expect, it, vi } from 'vitest';
import type { RawRecord } from '../shared/messages.ts';
import { TabStorage } from './tab-storage.ts';
import { TabLog, newState } from './tablog.ts';
import { fakeStore } from '../../test/helpers/background-fakes.ts';

const TAB = 7;
const HOST = 'https://host.example';

const raw = (n: number): RawRecord => ({
  time: 1000 + n,
  kind: 'post',
  frameUrl: `${HOST}/`,
  origin: HOST,
  data: { n },
});

function setup(store = fakeStore()) {
  let log = new TabLog(newState(TAB));
  const storage = new TabStorage(TAB, store, () => log);
  return {
    store,
    storage,
    log: () => log,
    /** Records of frame 0 into the log and into storage, as the session adds them. */
    add: async (...ns: number[]) => {
      const seq0 = log.nextSeq;
      const raws = ns.map(raw);
      log.add(raws.map((r) => ({ ...r, frameId: 0 })));
      storage.counted(raws.length);
      await storage.storeOwn(0, JSON.stringify(raws), seq0);
    },
    /** A new worker finds the stored log. */
    restart: async () => {
      const again = setup(store);
      const restored = await again.storage.restore(15_000);
      if (restored) {
        log = restored;
      }
      return { ...again, restored };
    },
  };
}

describe('tab storage', () => {
  it('stores a relay batch once, whatever number of times it comes', async () => {
    const { storage, store } = setup();
    const store1 = vi.fn(async () => {});
    await storage.once('doc-1', 1, store1);
    await storage.once('doc-1', 1, store1);
    await storage.once('doc-1', 2, store1);
    await storage.once('doc-2', 1, store1);
    expect(store1).toHaveBeenCalledTimes(3);
    expect(store.commits).toEqual([]); // (the session stores; the storage only counts)
  });

  it('does not count a batch whose storage failed: its resend is stored', async () => {
    const { storage } = setup();
    await storage.once('doc-1', 1, async () => {});
    await expect(
      storage.once('doc-1', 2, async () => {
        throw new Error('QuotaExceededError');
      }),
    ).rejects.toThrow(/Quota/);
    const again = vi.fn(async () => {});
    await storage.once('doc-1', 2, again);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('batches of one document that failed together (one transaction) are each stored when they come again', async () => {
    const { storage } = setup();
    await storage.once('doc-1', 1, async () => {});
    let fail = (_e: Error) => {};
    const together = new Promise<void>((_, reject) => {
      fail = reject;
    });
    const second = storage.once('doc-1', 2, () => together);
    const third = storage.once('doc-1', 3, () => together);
    fail(new Error('QuotaExceededError'));
    await expect(second).rejects.toThrow(/Quota/);
    await expect(third).rejects.toThrow(/Quota/);
    const again = vi.fn(async () => {});
    await storage.once('doc-1', 2, again);
    await storage.once('doc-1', 3, again);
    expect(again).toHaveBeenCalledTimes(2);
  });

  it('a batch stored after an earlier one failed still counts: its resend is not stored twice', async () => {
    const { storage } = setup();
    let fail = (_e: Error) => {};
    const first = storage.once(
      'doc-1',
      1,
      () =>
        new Promise<void>((_, reject) => {
          fail = reject;
        }),
    );
    let store = () => {};
    const second = storage.once(
      'doc-1',
      2,
      () =>
        new Promise<void>((resolve) => {
          store = resolve;
        }),
    );
    fail(new Error('QuotaExceededError'));
    await expect(first).rejects.toThrow(/Quota/);
    store();
    await second;
    const again = vi.fn(async () => {});
    await storage.once('doc-1', 2, again);
    expect(again).not.toHaveBeenCalled();
  });

  it('a batch whose storage failed is still not a repeat for a new worker', async () => {
    const t = setup();
    await t.add(1);
    await t.storage.once('doc-1', 1, async () => {});
    await expect(
      t.storage.once('doc-1', 2, async () => {
        throw new Error('QuotaExceededError');
      }),
    ).rejects.toThrow(/Quota/);
    await t.storage.once('doc-1', 3, async () => {});
    await t.storage.persist(); // (the meta goes with the next write that succeeds)
    const { storage } = await t.restart();
    const again = vi.fn(async () => {});
    for (const n of [1, 2, 3]) {
      await storage.once('doc-1', n, again);
    }
    expect(again).toHaveBeenCalledTimes(1); // batch 2 only
    await storage.once('doc-1', 2, again);
    expect(again).toHaveBeenCalledTimes(1); // stored now: a repeat
  });

  it('a new worker finds the records, the settings and the frames as they were', async () => {
    const t = setup();
    t.log().setPreserveLog(true);
    t.log().setFrame({ frameId: 3, parentFrameId: 0, url: 'https://acme.example.com/embed/x' });
    await t.add(1, 2);
    await t.storage.writeSnapshot();
    await t.add(3);
    const { restored } = await t.restart();
    expect(restored?.state).toMatchObject({ preserveLog: true, tabId: TAB });
    expect([...(restored?.records.values() ?? [])].map((r) => [r.seq, (r.data as { n: number }).n])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(restored?.frames.get(3)?.url).toBe('https://acme.example.com/embed/x');
    expect(restored?.readyTimeoutMs).toBe(15_000);
  });

  it('a restore judges the page once, after the replay, and gives the records the issues the live log gave', async () => {
    // A host page with two embeds: one says ready and streams AI queries (some never answered), the other never says
    // ready; the host sends actions, some to "*". The page is judged after each of the live log's batches; the
    // restore replays the same batches and judges once.
    const t = setup();
    const live = t.log();
    const TENANT = 'https://acme.svc-embed.example';
    const embed = (n: number) => `${TENANT}/embed/dashboard/d${n}`;
    live.setFrame({ frameId: 3, parentFrameId: 0, url: embed(3) });
    live.setFrame({ frameId: 4, parentFrameId: 0, url: embed(4) });
    let time = 1_000;
    const post = (frameUrl: string, origin: string, targetOrigin: string, data: unknown): RawRecord => ({
      time: time++,
      kind: 'post',
      frameUrl,
      origin,
      targetOrigin,
      data,
    });
    const env = (direction: string, type: string, payload: unknown, surface = 'dashboard') => ({
      source: 'svc-embed',
      direction,
      type,
      payload,
      timestamp: time,
      surface,
    });
    const batch = async (frameId: number, raws: RawRecord[]) => {
      const seq0 = live.nextSeq;
      live.add(structuredClone(raws).map((r) => ({ ...r, frameId })));
      t.storage.counted(raws.length);
      await t.storage.storeOwn(frameId, JSON.stringify(raws), seq0);
    };
    await batch(3, [post(embed(3), TENANT, HOST, env('event', 'svc:event:ready', {}))]);
    for (let k = 0; k < 40; k++) {
      await batch(3, [
        post(
          embed(3),
          TENANT,
          HOST,
          env('event', 'svc:event:ai-query', { queryId: `q${k}`, status: 'submitted' }, 'chat'),
        ),
        ...(k % 3
          ? [
              post(
                embed(3),
                TENANT,
                HOST,
                env('event', 'svc:event:ai-query', { queryId: `q${k}`, status: 'completed' }, 'chat'),
              ),
            ]
          : []),
      ]);
      await batch(0, [post(`${HOST}/`, HOST, k % 5 ? TENANT : '*', env('action', 'svc:action:refresh', {}))]);
      await batch(4, [post(embed(4), TENANT, HOST, env('event', 'svc:event:view', { name: `v${k}` }))]);
    }
    const held = (log: TabLog) =>
      [...log.records.values()].map((r) => ({
        seq: r.seq,
        verdict: r.verdict,
        pairedWith: r.pairedWith,
        issues: r.issues.map((i) => `${i.rule}: ${i.message}`),
      }));
    // (a silence's text says how long ago its record came, by the clock when it is judged: held still, so that
    // the live judgment and the restore's fall in the same second)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      live.diagnose();
      const before = held(live);
      expect(before.length).toBeGreaterThan(140);
      expect(before.some((r) => r.issues.some((i) => i.startsWith('silence.')))).toBe(true);
      const { restored } = await t.restart();
      expect(restored && held(restored)).toEqual(before);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a snapshot replaces every stored batch (compaction, Clear, a new log)', async () => {
    const t = setup();
    await t.add(1);
    await t.add(2);
    expect(t.store.rawBatches(TAB)).toHaveLength(2);
    await t.storage.writeSnapshot();
    expect(t.store.rawBatches(TAB)).toHaveLength(0);
    expect(t.store.commits.at(-1)).toMatchObject({ clear: true, batch: { value: { kind: 'snapshot', nextSeq: 3 } } });
  });

  it('a snapshot is due past the buffer bound, never below 1000 records', async () => {
    const { storage, log } = setup();
    log().setMaxRecords(2000);
    storage.counted(2000);
    expect(storage.snapshotDue()).toBe(false);
    storage.counted(1);
    expect(storage.snapshotDue()).toBe(true);
    await storage.writeSnapshot();
    log().setMaxRecords(100);
    storage.counted(1000);
    expect(storage.snapshotDue()).toBe(false);
    storage.counted(1);
    expect(storage.snapshotDue()).toBe(true);
    await storage.writeSnapshot();
    expect(storage.snapshotDue()).toBe(false);
  });

  it('enters each top document once', () => {
    const { storage } = setup();
    expect(storage.enterDocument('doc-a')).toBe(true);
    expect(storage.enterDocument('doc-a')).toBe(false);
    expect(storage.topDocumentId).toBe('doc-a');
    expect(storage.enterDocument('doc-b')).toBe(true);
    expect(storage.enterDocument(undefined)).toBe(true); // (Firefox gives no document id)
  });

  it('nothing is restored from an empty store, and a store that cannot load is logged, not fatal', async () => {
    const t = setup();
    expect((await t.restart()).restored).toBeNull();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const broken = new TabStorage(
      TAB,
      { load: async () => Promise.reject(new Error('no db')), commit: async () => {} },
      t.log,
    );
    expect(await broken.restore(15_000)).toBeNull();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('writes nothing once the tab is closed', async () => {
    const t = setup();
    t.storage.close();
    await t.add(1);
    await t.storage.writeSnapshot();
    await t.storage.persist();
    expect(t.store.commits).toEqual([]);
  });
});
