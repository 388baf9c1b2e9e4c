import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BackgroundToPanel, BackgroundToRelay, RawRecord, RelayToBackground } from '../shared/messages.ts';
import { stamp, type Body } from '../shared/channel.ts';
import { LIVE_DELAY_MS, IDLE_MS } from './pending-batches.ts';
import { PanelFanout } from './panel-fanout.ts';
import { RecordIntake, type RecordsBatch } from './record-intake.ts';
import { RelayPort } from './relay-port.ts';
import { TabStorage } from './tab-storage.ts';
import { TabLog, newState } from './tablog.ts';
import { fakePort, fakeStore, holdCommits, relayBatchOf } from '../../test/helpers/background-fakes.ts';

const TAB = 7;
const HOST = 'https://host.example';
const EMBED_URL = 'https://acme.example.com/embed/dashboard';

const post = (n: number): RawRecord => ({
  time: 1000 + n,
  kind: 'post',
  frameUrl: `${HOST}/`,
  origin: HOST,
  data: { n },
});
const batch = (n: number, ...records: number[]): RecordsBatch =>
  stamp<RelayToBackground>({
    type: 'records',
    docId: 'doc-0',
    batch: n,
    ...relayBatchOf(records.map(post)),
  }) as RecordsBatch;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A tab's intake over a real log, storage (on the fake store) and fan-out, with one panel and one relay. */
async function setup(opts: { paused?: boolean; panel?: boolean; maxRecords?: number } = {}) {
  const store = fakeStore();
  // (judgements cost no time by the log's clock: the share of the time they may take, tablog.test.ts's, never
  // defers one here; by the real clock a judgement over 1 ms on a loaded core did, and the limit's was heard early)
  const log = new TabLog(newState(TAB, { paused: !!opts.paused, maxRecords: opts.maxRecords ?? 50_000 }), [], 1, {
    clock: () => 0,
  });
  const storage = new TabStorage(TAB, store, () => log);
  const panels = new PanelFanout(
    TAB,
    {
      maxBytes: () => 4096,
      readyTimeoutMs: () => 10_000,
      captureMessage: async () => ({ type: 'capture', scope: { all: null, sites: [] }, sites: [] }),
    },
    () => log,
  );
  const heard: Array<Body<BackgroundToPanel>> = [];
  if (opts.panel !== false) {
    await panels.subscribe({ send: (b) => heard.push(b) });
  }
  /** What the session's chain was asked to run, run at once. */
  let chained = 0;
  const intake = new RecordIntake({
    log: () => log,
    storage,
    panels,
    later: (fn) => {
      chained++;
      fn();
    },
    afterWrites: (fn) => {
      void intake.stored().then(() => {
        intake.process();
        fn();
      });
    },
  });
  /** The relay's port (again after it was closed: the relay connects anew and sends what is not acknowledged). */
  const connect = () => {
    const port = fakePort<RelayToBackground, BackgroundToRelay>('capture');
    const relay = new RelayPort(port.port, TAB, 0);
    relay.hello(HOST, 'full');
    return { port, relay, acks: () => port.sent.flatMap((m) => (m.type === 'ack' ? [m.batch] : [])) };
  };
  const { port, relay } = connect();
  return {
    store,
    log,
    intake,
    relay,
    port,
    connect,
    chained: () => chained,
    acks: () => port.sent.flatMap((m) => (m.type === 'ack' ? [m.batch] : [])),
    heardRecords: () => heard.flatMap((m) => (m.type === 'records' ? m.records.map((r) => r.data) : [])),
    heard,
  };
}

describe('record intake: a relay batch', () => {
  it('is stored and acknowledged at once, and joins the log (and the panels) when processed', async () => {
    const t = await setup();
    await t.intake.accept(t.relay, batch(1, 1, 2));
    expect(t.acks()).toEqual([1]);
    expect(t.store.rawBatches(TAB)).toHaveLength(1);
    expect(t.log.records.size).toBe(0);
    t.intake.process();
    expect([...t.log.records.values()].map((r) => r.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(t.heardRecords()).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('that came already (a resend after a reconnection) is acknowledged again, not stored or added twice', async () => {
    const t = await setup();
    await t.intake.accept(t.relay, batch(1, 1, 2));
    await t.intake.accept(t.relay, batch(1, 1, 2));
    t.intake.process();
    expect(t.acks()).toEqual([1, 1]);
    expect(t.store.rawBatches(TAB)).toHaveLength(1);
    expect(t.log.records.size).toBe(2);
  });

  it.each([
    ['the tab is paused', { paused: true }, false],
    ['the relay left the scope', {}, true],
  ])('is acknowledged and dropped when %s', async (_why, opts, outOfScope) => {
    const t = await setup(opts);
    if (outOfScope) {
      t.relay.rescope(null);
    }
    await t.intake.accept(t.relay, batch(1, 1));
    t.intake.process();
    expect(t.acks()).toEqual([1]);
    expect(t.store.rawBatches(TAB)).toEqual([]);
    expect(t.log.records.size).toBe(0);
    expect(t.heardRecords()).toEqual([]);
  });

  it('whose storage fails is not acknowledged; its port is closed; its resend is stored and added once', async () => {
    const t = await setup();
    vi.spyOn(t.store, 'commit').mockRejectedValueOnce(new Error('QuotaExceededError'));
    await expect(t.intake.accept(t.relay, batch(1, 1, 2))).rejects.toThrow(/Quota/);
    expect(t.acks()).toEqual([]);
    expect(t.port.closed).toBe(true);
    const back = t.connect();
    await t.intake.accept(back.relay, batch(1, 1, 2));
    t.intake.process();
    expect(back.acks()).toEqual([1]);
    expect(t.store.rawBatches(TAB)).toHaveLength(1);
    expect(t.log.records.size).toBe(2);
  });

  it.each([
    ['a panel watches', true, LIVE_DELAY_MS],
    ['no panel watches', false, IDLE_MS],
  ])('is processed on the session chain when due: %s', async (_why, panel, due) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const t = await setup({ panel });
    await t.intake.accept(t.relay, batch(1, 1));
    vi.advanceTimersByTime(due - 1);
    expect(t.log.records.size).toBe(0);
    vi.advanceTimersByTime(1);
    expect(t.chained()).toBe(1);
    expect(t.log.records.size).toBe(1);
  });

  it('past the buffer bound, a snapshot of the log replaces the stored batches', async () => {
    const t = await setup({ maxRecords: 100 });
    await t.intake.accept(t.relay, batch(1, ...Array.from({ length: 1001 }, (_, i) => i)));
    expect(t.store.rawBatches(TAB)).toHaveLength(1);
    t.intake.process();
    await vi.waitFor(() => expect(t.store.commits.at(-1)?.batch?.value.kind).toBe('snapshot'));
    expect(t.store.rawBatches(TAB)).toEqual([]);
    const restored = await new TabStorage(TAB, t.store, () => t.log).restore(10_000);
    expect(restored?.records.size).toBe(t.log.records.size);
  });
});

/** Batch 1 accepted while its storage fails, then `next` accepted and stored. */
async function failFirstThenStore(t: Awaited<ReturnType<typeof setup>>, next: RecordsBatch): Promise<void> {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const commit = t.store.commit;
  vi.spyOn(t.store, 'commit').mockRejectedValueOnce(new Error('QuotaExceededError'));
  const first = t.intake.accept(t.relay, batch(1, 1));
  t.store.commit = commit;
  const second = t.intake.accept(t.relay, next);
  await expect(first).rejects.toThrow(/Quota/);
  await second;
}

describe('record intake: batches in a burst', () => {
  it('are written one after another without waiting for the one before, and acknowledged only once stored', async () => {
    const t = await setup();
    const gate = holdCommits(t.store);
    const accepted = [1, 2, 3].map((n) => t.intake.accept(t.relay, batch(n, n)));
    await new Promise((r) => setTimeout(r, 0));
    expect(gate.held).toBe(3);
    expect(t.acks()).toEqual([]);
    await gate.release();
    expect(t.acks()).toEqual([1]);
    t.intake.process();
    expect([...t.log.records.values()].map((r) => r.data)).toEqual([{ n: 1 }]);
    await gate.release();
    await gate.release();
    await Promise.all(accepted);
    expect(t.acks()).toEqual([1, 2, 3]);
    t.intake.process();
    expect([...t.log.records.values()].map((r) => r.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(t.store.rawBatches(TAB)).toHaveLength(3);
  });

  it('whose storage fails, is not acknowledged while the next one is written; its resend is stored once', async () => {
    const t = await setup();
    const other = stamp<RelayToBackground>({ ...batch(1, 2), docId: 'doc-1' }) as RecordsBatch;
    await failFirstThenStore(t, other);
    expect(t.acks()).toEqual([]); // (the port closed at the failure: the relay sends both again)
    const back = t.connect();
    await t.intake.accept(back.relay, batch(1, 1));
    await t.intake.accept(back.relay, other);
    expect(back.acks()).toEqual([1, 1]);
    t.intake.process();
    expect(t.store.rawBatches(TAB)).toHaveLength(2);
    expect(t.log.records.size).toBe(2);
  });

  it('whose storage fails is not let go by the next batch’s acknowledgement: both come again, each stored once', async () => {
    const t = await setup();
    await failFirstThenStore(t, batch(2, 2)); // the same document's next batch: stored
    // An acknowledgement of batch 2 would let the relay drop batch 1 (link.ts): none is sent, the port is closed.
    expect(t.acks()).toEqual([]);
    expect(t.port.closed).toBe(true);
    const back = t.connect();
    await t.intake.accept(back.relay, batch(1, 1));
    await t.intake.accept(back.relay, batch(2, 2));
    expect(back.acks()).toEqual([1, 2]);
    t.intake.process();
    // (batch 2 joined the log when stored, batch 1 when it came again)
    expect([...t.log.records.values()].map((r) => r.data)).toEqual([{ n: 2 }, { n: 1 }]);
    expect(t.store.rawBatches(TAB)).toHaveLength(2);
  });

  it('sent again while it is being written is acknowledged only once stored, and not if that fails', async () => {
    const t = await setup();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const gate = holdCommits(t.store);
    const first = t.intake.accept(t.relay, batch(1, 1));
    const again = t.intake.accept(t.relay, batch(1, 1));
    await new Promise((r) => setTimeout(r, 0));
    expect(t.acks()).toEqual([]);
    await gate.release();
    await Promise.all([first, again]);
    expect(t.acks()).toEqual([1, 1]);
    vi.spyOn(t.store, 'commit').mockRejectedValueOnce(new Error('QuotaExceededError'));
    const failing = t.intake.accept(t.relay, batch(2, 2));
    const resent = t.intake.accept(t.relay, batch(2, 2));
    await expect(failing).rejects.toThrow(/Quota/);
    await expect(resent).rejects.toThrow(/Quota/);
    expect(t.acks()).toEqual([1, 1]);
    t.intake.process();
    expect(t.log.records.size).toBe(1);
  });

  it('past the buffer bound: the snapshot waits for the batches being written, and keeps them', async () => {
    const t = await setup({ maxRecords: 100 });
    const gate = holdCommits(t.store);
    const big = t.intake.accept(t.relay, batch(1, ...Array.from({ length: 1001 }, (_, i) => i)));
    await gate.release();
    await big;
    const next = t.intake.accept(t.relay, batch(2, 5000));
    await new Promise((r) => setTimeout(r, 0));
    t.intake.process();
    expect(t.store.commits.some((c) => c.batch?.value.kind === 'snapshot')).toBe(false);
    await gate.release();
    await next;
    await vi.waitFor(() => expect(gate.held).toBe(1));
    await gate.release();
    expect(t.store.commits.at(-1)?.batch?.value.kind).toBe('snapshot');
    expect(t.store.rawBatches(TAB)).toEqual([]);
    const restored = await new TabStorage(TAB, t.store, () => t.log).restore(10_000);
    expect([...(restored?.records.values() ?? [])].at(-1)?.data).toEqual({ n: 5000 });
  });
});

describe('record intake: a navigation record', () => {
  it('joins the log at once, stored with its number, and the panels hear it', async () => {
    const t = await setup();
    await t.intake.accept(t.relay, batch(1, 1));
    t.intake.process();
    await t.intake.navigation({ frameId: 0, url: `${HOST}/next`, time: 2000 });
    const nav = [...t.log.records.values()].at(-1);
    expect(nav).toMatchObject({ seq: 2, navigation: true, frameUrl: `${HOST}/next` });
    expect(t.store.rawBatches(TAB).at(-1)).toMatchObject({ kind: 'raw', seq0: 2, frameId: 0 });
    expect(t.heardRecords().at(-1)).toEqual({ url: `${HOST}/next` });
  });

  it.each([
    ['the tab is paused', true, false],
    ['the tab is gone', false, true],
  ])('does not join when %s', async (_why, paused, closed) => {
    const t = await setup({ paused });
    if (closed) {
      t.intake.close();
    }
    await t.intake.navigation({ frameId: 0, url: `${HOST}/next`, time: 2000 });
    expect(t.log.records.size).toBe(0);
    expect(t.store.rawBatches(TAB)).toEqual([]);
  });
});

describe('record intake: limits', () => {
  it('an embed that never says ready is judged again once its limit passes, and the panels hear of it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const t = await setup();
    t.log.setReadyTimeout(10_000);
    t.log.setFrame({ frameId: 0, parentFrameId: -1, url: `${HOST}/` });
    t.log.setFrame({ frameId: 3, parentFrameId: 0, url: EMBED_URL });
    await t.intake.navigation({ frameId: 0, url: `${HOST}/`, time: Date.now() });
    await t.intake.navigation({ frameId: 3, url: EMBED_URL, time: Date.now() });
    const embed = [...t.log.records.values()].at(-1)!;
    vi.advanceTimersByTime(9000);
    expect(t.heard.some((m) => m.type === 'update')).toBe(false);
    vi.advanceTimersByTime(1100);
    expect(t.chained()).toBe(1);
    const updated = t.heard.flatMap((m) => (m.type === 'update' ? m.records : []));
    expect(updated.find((r) => r.seq === embed.seq)?.issues.map((i) => i.rule)).toContain('silence.never-ready');
  });

  it('none is watched once the tab is gone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const t = await setup();
    t.log.setFrame({ frameId: 3, parentFrameId: 0, url: EMBED_URL });
    await t.intake.navigation({ frameId: 3, url: EMBED_URL, time: Date.now() });
    t.intake.close();
    vi.advanceTimersByTime(60_000);
    expect(t.chained()).toBe(0);
  });
});
