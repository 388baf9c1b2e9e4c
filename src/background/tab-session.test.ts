import { describe, expect, it, vi } from 'vitest';
import {
  MESSAGES_VERSION,
  type BackgroundToPanel,
  type BackgroundToRelay,
  type CaptureMode,
  type PanelToBackground,
  type RawRecord,
  type RelayReply,
  type RelayToBackground,
} from '../shared/messages.ts';
import type { Runtime } from '../shared/browser-api.ts';
import { stamp, type Body } from '../shared/channel.ts';
import { Sessions } from './sessions.ts';
import { onCapturePort } from './relays.ts';
import { onPanelPort } from './panels.ts';
import { SETTLE_TIMEOUT_MS } from './tab-relays.ts';
import { useFakeApi, fakePort, fakeStore, holdCommits, relayBatchOf } from '../../test/helpers/background-fakes.ts';
import { EMPTY_SCOPE } from './scope-model.ts';
import { dropStaleLogs } from './stale-logs.ts';

const TAB = 7;
const HOST = 'https://host.example';
const TENANT = 'https://acme.example.com';
const EMBED_URL = `${TENANT}/embed/dashboard`;

const fake = useFakeApi();

function setup(
  opts: { store?: ReturnType<typeof fakeStore>; modes?: Record<string, CaptureMode>; ready?: Promise<void> } = {},
) {
  const store = opts.store ?? fakeStore();
  const modes: Record<string, CaptureMode> = opts.modes ?? { [HOST]: 'full', [TENANT]: 'full' };
  const frameMode = (origin: string | null) => (origin ? (modes[origin] ?? null) : null);
  const sessions = new Sessions({
    store,
    frameMode,
    captureMessage: async () => ({
      type: 'capture',
      scope: { all: null, sites: [] },
      sites: [],
    }),
  });
  const scope = { ready: opts.ready ?? Promise.resolve(), frameMode };

  /** A relay of `frameId` (a new document: a new docId) connects and says hello. */
  /** (`documentId`: the browser's name of that document, as Chromium gives it.) */
  const relay = (
    frameId: number,
    url: string,
    docId = `doc-${frameId}-${Math.random()}`,
    start?: number,
    documentId?: string,
    documentLifecycle?: string,
  ) => {
    const r = fakePort<BackgroundToRelay, BackgroundToRelay>('capture', {
      tab: { id: TAB } as Runtime.MessageSender['tab'],
      frameId,
      origin: new URL(url).origin,
      documentId,
      documentLifecycle,
    } as Runtime.MessageSender);
    onCapturePort(r.port, sessions, scope);
    const say = (m: Body<RelayToBackground>) => r.deliver(stamp<RelayToBackground>(m) as never);
    say({ type: 'hello', docId, frameUrl: url, isTop: frameId === 0, time: start ?? 1, start } as never);
    return {
      ...r,
      docId,
      say,
      batch: (batch: number, records: RawRecord[]) =>
        say({ type: 'records', docId, batch, ...relayBatchOf(records) } as never),
      acks: () => (r.sent as BackgroundToRelay[]).flatMap((m) => (m.type === 'ack' ? [m.batch] : [])),
      isClosed: () => r.closed,
      posts: () => (r.sent as BackgroundToRelay[]).filter((m) => m.type === 'post'),
      configs: () => (r.sent as BackgroundToRelay[]).flatMap((m) => (m.type === 'config' ? [m.config] : [])),
    };
  };

  /** A panel connects and subscribes to the tab. */
  const panel = () => {
    const p = fakePort<PanelToBackground, BackgroundToPanel>('panel');
    onPanelPort(p.port, sessions, { updateScope: async () => EMPTY_SCOPE });
    const say = (m: Record<string, unknown>) =>
      p.deliver(stamp<PanelToBackground>({ ...m, tabId: TAB } as unknown as Body<PanelToBackground>));
    say({ type: 'subscribe' });
    return {
      ...p,
      say,
      last: <T extends BackgroundToPanel['type']>(type: T) =>
        p.sent.filter((m): m is Extract<BackgroundToPanel, { type: T }> => m.type === type).at(-1),
      count: (type: BackgroundToPanel['type']) => p.sent.filter((m) => m.type === type).length,
    };
  };

  /** Let the gates and chains run, then wait for the tab's chain. */
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 0));
    }
    await sessions.get(TAB).state();
  };
  return { sessions, store, relay, panel, settle, session: () => sessions.get(TAB) };
}

const post = (i: number, time = 1000 + i): RawRecord => ({
  time,
  kind: 'post',
  frameUrl: `${HOST}/`,
  origin: HOST,
  targetOrigin: TENANT,
  target: 'child',
  data: { source: 'svc-embed', direction: 'action', type: 'svc:action:refresh', payload: {}, timestamp: i },
});

async function withRecords(t: ReturnType<typeof setup>, n: number) {
  const top = t.relay(0, `${HOST}/`);
  await t.settle();
  top.batch(
    1,
    Array.from({ length: n }, (_, i) => post(i)),
  );
  await t.settle();
  return top;
}

// ------------------------------------------------------------------------------------------ tests

describe('tab session: options, on the panel path and the automation path alike', () => {
  it('coerces booleans and clamps the bound on both paths', async () => {
    const t = setup();
    const p = t.panel();
    p.say({ type: 'set-options', options: { preserveLog: 1, paused: '' } });
    await t.settle();
    expect(await t.session().state()).toMatchObject({ preserveLog: true, paused: false });
    const s = await t.session().setOptions({ preserveLog: 0, maxRecords: 12.7 });
    expect(s).toMatchObject({ preserveLog: false, maxRecords: 100 });
    expect(p.last('state')?.state).toMatchObject({ preserveLog: false, maxRecords: 100 });
  });

  it('refuses a wrong value whole: the automation API rejects, the panel path changes nothing', async () => {
    const t = setup();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(t.session().setOptions({ paused: true, maxRecords: 'many' })).rejects.toThrow(/maxRecords/);
    await expect(t.session().setOptions({ maxBytes: Number.NaN })).rejects.toThrow(/maxBytes/);
    await expect(t.session().setOptions(null)).rejects.toThrow(TypeError);
    const p = t.panel();
    p.say({ type: 'set-options', options: { paused: true, maxRecords: 'many' } });
    await t.settle();
    expect(await t.session().state()).toMatchObject({ paused: false, maxRecords: 50_000 });
    expect(warn).toHaveBeenCalled();
  });

  it('also refuses what is not a setting (the automation API once wrote any state field)', async () => {
    const t = setup();
    await t.session().setOptions({ tabId: 99, tenantOrigin: 'https://x.example', paused: true });
    expect(await t.session().state()).toMatchObject({ tabId: TAB, tenantOrigin: null, paused: true });
  });

  it('re-sends the snapshot when a smaller bound evicts records, on both paths', async () => {
    for (const path of ['panel', 'automation'] as const) {
      const t = setup();
      await withRecords(t, 150);
      const p = t.panel();
      await t.settle();
      const snapshots = p.count('snapshot');
      if (path === 'panel') {
        p.say({ type: 'set-options', options: { maxRecords: 120 } });
        await t.settle();
      } else {
        await t.session().setOptions({ maxRecords: 120 });
      }
      expect(p.count('snapshot'), path).toBe(snapshots + 1);
      expect(p.last('snapshot')?.records.length, path).toBe(120);
      expect(await t.session().count(), path).toBe(120);
    }
  });

  it('sends the state, not a snapshot, when nothing is evicted', async () => {
    const t = setup();
    await withRecords(t, 3);
    const p = t.panel();
    await t.settle();
    const snapshots = p.count('snapshot');
    await t.session().setOptions({ paused: true });
    expect(p.count('snapshot')).toBe(snapshots);
    expect(p.last('state')?.state.paused).toBe(true);
  });

  it('pause reaches every frame of the tab as config, and stores nothing more', async () => {
    const t = setup();
    const top = await withRecords(t, 2);
    await t.session().setOptions({ paused: true });
    expect(top.configs().at(-1)).toMatchObject({ paused: true, receiveOnly: false });
    top.batch(2, [post(10)]);
    await t.settle();
    expect(top.acks()).toEqual([1, 2]);
    expect(await t.session().count()).toBe(2);
  });

  it('the size cap is checked, stored and pushed to every frame', async () => {
    const t = setup();
    const top = await withRecords(t, 1);
    await t.sessions.setMaxBytes(500.5);
    await t.settle();
    expect(top.configs().at(-1)?.maxBytes).toBe(1024);
    const p = t.panel();
    p.say({ type: 'set-options', options: { maxBytes: 4096 } });
    await t.settle();
    expect(top.configs().at(-1)?.maxBytes).toBe(4096);
    expect(p.last('state')?.state.maxBytes).toBe(4096);
    await expect(t.sessions.setMaxBytes(Number.POSITIVE_INFINITY)).rejects.toThrow(TypeError);
    expect(t.sessions.maxBytes()).toBe(4096);
  });
});

describe('tab session: tenant origin', () => {
  it('normalizes a hand-set origin on both paths and re-sends the snapshot', async () => {
    const t = setup();
    await withRecords(t, 2);
    const p = t.panel();
    await t.settle();
    const snapshots = p.count('snapshot');
    const s = await t.session().setTenantOrigin('https://Acme.example.com:443/x');
    expect(s).toMatchObject({ tenantOrigin: TENANT, tenantOriginSource: 'manual' });
    expect(p.count('snapshot')).toBe(snapshots + 1);
    p.say({ type: 'set-tenant-origin', origin: 'https://other.example/' });
    await t.settle();
    expect(p.last('snapshot')?.state).toMatchObject({ tenantOrigin: 'https://other.example' });
    p.say({ type: 'set-tenant-origin', origin: null });
    await t.settle();
    expect((await t.session().state()).tenantOriginSource).not.toBe('manual');
  });

  it('refuses what is not an origin: rejects for automation, leaves the state for the panel', async () => {
    const t = setup();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await t.session().setTenantOrigin(TENANT);
    await expect(t.session().setTenantOrigin('not an origin')).rejects.toThrow(/not an origin/);
    await expect(t.session().setTenantOrigin(42 as unknown as string)).rejects.toThrow(/not an origin/);
    const p = t.panel();
    p.say({ type: 'set-tenant-origin', origin: 'about:blank' });
    await t.settle();
    expect(await t.session().state()).toMatchObject({ tenantOrigin: TENANT, tenantOriginSource: 'manual' });
    expect(warn).toHaveBeenCalled();
  });

  it('is kept across a worker restart (restored from storage)', async () => {
    const t = setup();
    await withRecords(t, 4);
    await t.session().setTenantOrigin(TENANT);
    await t.session().setOptions({ preserveLog: true });
    const again = setup({ store: t.store });
    expect(await again.session().state()).toMatchObject({ tenantOrigin: TENANT, preserveLog: true });
    expect(await again.session().count()).toBe(4);
  });
});

describe('tab session: clear and navigation', () => {
  it("a panel's subscribe is acknowledged as it is read, before the tab's log is read; the snapshot follows", async () => {
    const t = setup();
    await withRecords(t, 3);
    const p = t.panel(); // (a new worker: the tab's log is read from the store after this)
    expect(p.sent.map((m) => m.type)).toEqual(['subscribed']);
    expect(p.sent[0]).toMatchObject({ type: 'subscribed', tabId: TAB });
    await t.settle();
    expect(p.sent.map((m) => m.type).slice(0, 2)).toEqual(['subscribed', 'snapshot']);
    expect(p.last('snapshot')?.records).toHaveLength(3);
  });

  it('clear empties the log, sends the empty snapshot and stores it', async () => {
    const t = setup();
    await withRecords(t, 5);
    const p = t.panel();
    await t.settle();
    p.say({ type: 'clear' });
    await t.settle();
    expect(p.last('snapshot')?.records).toEqual([]);
    expect(await t.session().count()).toBe(0);
    expect(t.store.commits.at(-1)).toMatchObject({ clear: true, batch: { value: { kind: 'snapshot' } } });
    expect(await setup({ store: t.store }).session().count()).toBe(0);
  });

  it('a new top document starts a new log, once per document; with preserve log the log goes on', async () => {
    const t = setup();
    await withRecords(t, 3);
    const p = t.panel();
    await t.settle();
    await t.session().navigated({ frameId: 0, url: `${HOST}/next`, documentId: 'doc-a', time: 5000 });
    expect((await t.session().records()).map((r) => r.navigation)).toEqual([true]);
    expect(p.last('snapshot')?.records).toEqual([]);
    await t.session().navigated({ frameId: 0, url: `${HOST}/next`, documentId: 'doc-a', time: 5001 });
    expect(await t.session().count()).toBe(1);
    await t.session().setOptions({ preserveLog: true });
    await t.session().navigated({ frameId: 0, url: `${HOST}/third`, documentId: 'doc-b', time: 6000 });
    expect(await t.session().count()).toBe(2);
    expect((await t.session().state()).pageUrl).toBe(`${HOST}/third`);
  });

  describe('what the frames of a page left say late (the browser names their page)', () => {
    const event = (i: number): RawRecord => ({
      time: 2000 + i,
      kind: 'post',
      frameUrl: EMBED_URL,
      origin: TENANT,
      targetOrigin: HOST,
      target: 'parent',
      data: { source: 'svc-embed', direction: 'event', type: 'svc:event:ready', payload: {}, timestamp: i },
    });
    /** Page A: its top frame and its embed (frame 3); then the tab goes to page B. */
    async function leftPageA(t: ReturnType<typeof setup>) {
      fake.env.documents.set('embed-a', { parentFrameId: 0, parentDocumentId: 'top-a' });
      fake.env.documents.set('embed-b', { parentFrameId: 0, parentDocumentId: 'top-b' });
      fake.env.shows.set(0, { documentId: 'top-a', url: `${HOST}/a` }); // (A shown)
      const top = t.relay(0, `${HOST}/a`, 'relay-top-a', undefined, 'top-a');
      const embed = t.relay(3, EMBED_URL, 'relay-embed-a', undefined, 'embed-a');
      await t.settle();
      await t.session().navigated({ frameId: 0, url: `${HOST}/b`, documentId: 'top-b', time: 5000 });
      fake.env.shows.set(0, { documentId: 'top-b', url: `${HOST}/b` }); // (B shown)
      return { top, embed };
    }
    const messages = async (t: ReturnType<typeof setup>) =>
      (await t.session().records()).filter((r) => !r.navigation).map((r) => `${r.frameId}:${r.frameUrl}`);

    it('is acknowledged and left out of the new page’s log, after a worker restart too', async () => {
      const t = setup();
      const { top, embed } = await leftPageA(t);
      embed.batch(1, [event(1)]);
      top.batch(1, [post(1)]);
      await t.settle();
      // Judged in page B, these would read as sent before its embed's ready.
      expect(await messages(t)).toEqual([]);
      expect([embed.acks(), top.acks()]).toEqual([[1], [1]]);
      // The new page's frames are kept, and so is a frame whose page the browser cannot name (Firefox).
      const embedB = t.relay(4, EMBED_URL, 'relay-embed-b', undefined, 'embed-b');
      const unnamed = t.relay(5, EMBED_URL, 'relay-unnamed');
      await t.settle();
      embedB.batch(1, [event(2)]);
      unnamed.batch(1, [event(3)]);
      await t.settle();
      expect(await messages(t)).toEqual([`4:${EMBED_URL}`, `5:${EMBED_URL}`]);
      // A worker that starts again knows the page left (the embed of page A reconnects as it goes).
      const again = setup({ store: t.store });
      const late = again.relay(3, EMBED_URL, 'relay-embed-a', undefined, 'embed-a');
      await again.settle();
      late.batch(2, [event(4)]);
      await again.settle();
      expect(await messages(again)).toEqual([`4:${EMBED_URL}`, `5:${EMBED_URL}`]);
      expect(late.acks()).toEqual([2]);
    });

    it('is left out when its frame reconnects as it goes: hello and batches together', async () => {
      const t = setup();
      await leftPageA(t);
      // (a new port's hello and its batches come at once: the page is the browser's answer, awaited on the chain)
      const late = t.relay(3, EMBED_URL, 'relay-embed-a', undefined, 'embed-a');
      late.batch(1, [event(1)]);
      await t.settle();
      expect(await messages(t)).toEqual([]);
      expect(late.acks()).toEqual([1]);
    });

    it('is left out when it comes from storage (a spill sealed with that page)', async () => {
      const t = setup();
      await leftPageA(t);
      const sender = { frameId: 3, origin: TENANT, outOfScope: false, ack() {}, resend() {} };
      const batch = {
        v: MESSAGES_VERSION as typeof MESSAGES_VERSION,
        type: 'records' as const,
        docId: 'relay-embed-a',
        batch: 1,
        ...relayBatchOf([event(1)]),
      };
      await t.session().ingestSpilled(sender, batch, 'top-a');
      await t.session().ingestSpilled(sender, { ...batch, docId: 'relay-unknown' }, null);
      expect(await messages(t)).toEqual([`3:${EMBED_URL}`]);
    });

    it('once the browser shows that page again, starts its log first; what was left out is not taken', async () => {
      const t = setup();
      const { embed } = await leftPageA(t);
      embed.batch(1, [event(1)]); // (left out: A is not shown)
      await t.settle();
      // Back to A from the back/forward cache; its embed's batches come before the navigation is heard.
      fake.env.shows.set(0, { documentId: 'top-a', url: `${HOST}/a` });
      const back = t.relay(3, EMBED_URL, 'relay-embed-a', 9000, 'embed-a');
      back.batch(1, [event(1)]); // (sent again: its ack went to a port the cache closed)
      back.batch(2, [{ ...event(2), time: 9001 }]);
      await t.settle();
      await t.session().navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'top-a', time: 9500 });
      await t.settle();
      // A's log (restored), then batch 2 (batch 1 was of A's visit before); A's commit, heard late, changes nothing.
      const recs = await t.session().records();
      expect(recs.map((r) => (r.navigation ? `nav ${r.frameId} ${r.frameUrl}` : `${r.frameId}`))).toEqual([
        `nav 0 ${HOST}/a`,
        '3',
      ]);
      expect((recs[0].data as { restored?: boolean }).restored).toBe(true);
      expect(back.acks()).toEqual([1, 2]);
      // The stored meta says so at once: a worker that starts now keeps A's records.
      const again = setup({ store: t.store });
      const after = again.relay(3, EMBED_URL, 'relay-embed-a', undefined, 'embed-a');
      after.batch(3, [event(3)]);
      await again.settle();
      expect((await messages(again)).length).toBe(2);
    });

    it('places the navigation of a page shown again before all it does then, whichever frame is heard first', async () => {
      const t = setup();
      fake.env.documents.set('embed-a', { parentFrameId: 0, parentDocumentId: 'top-a' });
      fake.env.shows.set(0, { documentId: 'top-a', url: `${HOST}/a` });
      const embed = t.relay(3, EMBED_URL, 'relay-embed-a', undefined, 'embed-a');
      t.relay(0, `${HOST}/a`, 'relay-top-a', undefined, 'top-a');
      await t.settle();
      embed.batch(1, [event(0)]); // (its ready, in A's first visit)
      await t.settle();
      await t.session().navigated({ frameId: 0, url: `${HOST}/b`, documentId: 'top-b', time: 5000 });
      fake.env.shows.set(0, { documentId: 'top-a', url: `${HOST}/a` }); // (back to A from the cache)
      // The embed's relay restarts at 9005 and is heard first; the host acted at 9001, in its own pageshow.
      const back = t.relay(3, EMBED_URL, 'relay-embed-a', 9005, 'embed-a');
      back.batch(2, [{ ...event(2), data: { ...(event(2).data as object), type: 'svc:event:view' }, time: 9006 }]);
      await t.settle();
      // A same-origin frame of the page says hello after; the host's action goes to its embed.
      fake.env.parents.set(3, 0);
      fake.env.parents.set(4, 0);
      fake.env.documents.set('inner-a', { parentFrameId: 0, parentDocumentId: 'top-a' });
      t.relay(4, `${HOST}/inner`, 'relay-inner-a', 9003, 'inner-a');
      const top = t.relay(0, `${HOST}/a`, 'relay-top-a', 9002, 'top-a');
      top.batch(1, [post(1, 9001)]);
      await t.settle();
      const recs = await t.session().records();
      expect(recs.map((r) => (r.navigation ? 'nav' : `${r.kind} ${r.frameId}`))).toEqual(['nav', 'post 0', 'post 3']);
      expect(recs.flatMap((r) => r.issues.map((i) => i.rule)).filter((x) => x.includes('before-ready'))).toEqual([]);
      // The embed (heard before A's log started) is still A's frame: the action to its origin was not dropped.
      expect(recs.find((r) => r.kind === 'post' && r.frameId === 0)?.dropped).not.toBe(true);
    });

    it('is kept with preserve log, and when the tab goes back to that page (the back/forward cache)', async () => {
      const p = setup();
      await p.session().setOptions({ preserveLog: true });
      const kept = await leftPageA(p);
      kept.embed.batch(1, [event(1)]);
      await p.settle();
      expect(await messages(p)).toEqual([`3:${EMBED_URL}`]);
      const t = setup();
      const { embed } = await leftPageA(t);
      await t.session().navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'top-a', time: 6000 });
      embed.batch(1, [event(1)]);
      await t.settle();
      expect(await messages(t)).toEqual([`3:${EMBED_URL}`]);
    });
  });

  it('a frame navigation is a record and joins the frame tree', async () => {
    const t = setup();
    await withRecords(t, 1);
    await t.session().navigated({ frameId: 4, parentFrameId: 0, url: EMBED_URL, time: 3000 });
    t.relay(4, EMBED_URL, undefined, 3001);
    await t.settle();
    const recs = await t.session().records();
    expect(recs.at(-1)).toMatchObject({ navigation: true, frameId: 4, frameUrl: EMBED_URL, time: 3000 });
    // A frame whose site is not captured has no relay: its record is placed at once, with the browser's time.
    await t.session().navigated({ frameId: 5, parentFrameId: 0, url: 'https://ads.example/x', time: 3500 });
    expect((await t.session().records()).at(-1)).toMatchObject({ navigation: true, frameId: 5, time: 3500 });
  });

  it("a frame's navigation comes before what its document did, whatever time the browser gave the commit", async () => {
    // The browser stamps an embed's commit when it handles it, which on a busy machine is after the embed posted
    // ready from its first script. Placed by that time, the navigation came after the ready and restarted the
    // embed's session: the host's next action was flagged as sent before ready.
    const t = setup();
    const top = t.relay(0, `${HOST}/`);
    await t.settle();
    await t.session().navigated({ frameId: 4, parentFrameId: 0, url: EMBED_URL, time: 3000 });
    const embed = t.relay(4, EMBED_URL, undefined, 2990); // document_start, in the embed's clock
    await t.settle();
    const ready = { source: 'svc-embed', direction: 'event', type: 'svc:event:ready', payload: {}, timestamp: 7 };
    embed.batch(1, [
      {
        time: 2995,
        kind: 'post',
        frameUrl: EMBED_URL,
        origin: TENANT,
        targetOrigin: HOST,
        target: 'parent',
        data: ready,
      },
    ]);
    top.batch(1, [
      { time: 2998, kind: 'receive', frameUrl: `${HOST}/`, origin: TENANT, from: 'child', data: ready },
      post(1, 3100),
    ]);
    await t.settle();
    const recs = await t.session().records();
    expect(recs.map((r) => (r.navigation ? 'navigation' : `${r.kind} ${(r.data as { type: string }).type}`))).toEqual([
      'navigation',
      'post svc:event:ready',
      'receive svc:event:ready',
      'post svc:action:refresh',
    ]);
    expect(recs[0].time).toBe(2990);
    expect(recs.at(-1)?.issues.map((i) => i.rule)).not.toContain('session.action-before-ready');
  });

  it('leaving the scope ends the log (kept with preserve log)', async () => {
    const t = setup();
    await withRecords(t, 2);
    await t.session().leftScope('doc-out');
    expect(await t.session().count()).toBe(0);
    expect((await t.session().state()).pageUrl).toBeNull();

    const k = setup();
    await withRecords(k, 2);
    await k.session().setOptions({ preserveLog: true });
    await k.session().leftScope('doc-out');
    expect(await k.session().count()).toBe(2);
  });

  it('a closed tab is forgotten: its stored log is deleted', async () => {
    const t = setup();
    await withRecords(t, 2);
    await t.sessions.forget(TAB);
    expect(t.sessions.has(TAB)).toBe(false);
    expect(await t.store.tabIds()).toEqual([]);
  });

  it('a closed tab whose log an earlier worker stored is deleted; a tab with no log costs no write', async () => {
    const t = setup();
    await withRecords(t, 2);
    const later = setup({ store: t.store }); // the worker restarted: no session open, the log stored
    const removed: number[] = [];
    const remove = t.store.remove;
    t.store.remove = async (id: number) => {
      removed.push(id);
      await remove(id);
    };
    await later.sessions.forget(TAB + 1);
    await later.sessions.forget(TAB);
    expect(removed).toEqual([TAB]);
    expect(await t.store.tabIds()).toEqual([]);
  });

  it('work queued when the tab closes does not write its log back', async () => {
    const t = setup();
    const top = await withRecords(t, 2);
    top.batch(2, [post(2)]); // queued on the session, not yet stored
    void t.session().setOptions({ paused: false });
    await t.sessions.forget(TAB);
    await new Promise((r) => setTimeout(r, 0));
    expect(await t.store.tabIds()).toEqual([]);
  });
});

describe('tab session: what did not happen', () => {
  it('an embed frame that never says ready is diagnosed once its limit passes, and the panel hears of it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const t = setup({ modes: { [HOST]: 'full' } }); // the tenant's site is not captured: no relay will come
      const p = t.panel();
      await vi.advanceTimersByTimeAsync(10);
      await t.session().navigated({ frameId: 0, url: `${HOST}/`, time: Date.now() });
      await t
        .session()
        .navigated({ frameId: 3, parentFrameId: 0, url: `${EMBED_URL}/x?session=s-1`, time: Date.now() });
      await vi.advanceTimersByTimeAsync(1000);
      const nav = (await t.session().records()).find((r) => r.navigation && r.frameId === 3)!;
      expect(nav.issues).toEqual([]);
      await vi.advanceTimersByTimeAsync(8900);
      expect(p.sent.some((m) => m.type === 'update' && m.records.some((r) => r.seq === nav.seq))).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      const updated = p.sent.flatMap((m) => (m.type === 'update' ? m.records : []));
      const hit = updated.find((r) => r.seq === nav.seq);
      expect(hit?.issues.map((i) => i.rule)).toEqual(['silence.never-ready']);
      expect(hit?.issues[0].message).toMatch(/loaded 10 s ago and never said ready/);
      expect(hit?.issues[0].message).not.toContain('s-1');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('relay routing in the background', () => {
  const ADS = 'https://ads.example';
  async function twoFrames() {
    const t = setup({ modes: { [HOST]: 'full', [TENANT]: 'full', [ADS]: 'receive-only' } });
    fake.env.parents.set(3, 0);
    const top = t.relay(0, `${HOST}/`);
    const embed = t.relay(3, EMBED_URL);
    const p = t.panel();
    await t.settle();
    // The host got the embed's ready: the tenant origin is the embed frame's (protocol/tenant.ts).
    const ready = { source: 'svc-embed', direction: 'event', type: 'svc:event:ready', payload: {}, timestamp: 7 };
    top.batch(1, [{ time: 5, kind: 'receive', frameUrl: `${HOST}/`, origin: TENANT, from: 'child', data: ready }]);
    await t.settle();
    return { t, top, embed, p };
  }
  const send = (from: 'host' | 'embed', id: string, frameUrl?: string) => ({
    type: 'send',
    id,
    from,
    frameUrl,
    data: { type: 'svc:action:refresh' },
    targetOrigin: '*',
  });

  it("sends as the embed from the embed frame's port, as the host from the top frame's", async () => {
    const { t, top, embed, p } = await twoFrames();
    p.say(send('embed', 's1', EMBED_URL));
    await t.settle();
    expect(embed.posts()).toMatchObject([{ id: 's1', target: 'parent' }]);
    expect(top.posts()).toEqual([]);
    p.say(send('host', 's2', EMBED_URL));
    await t.settle();
    expect(top.posts()).toMatchObject([{ id: 's2', target: 'child', childUrl: EMBED_URL }]);
    expect(embed.posts().length).toBe(1);
    // The frame's answer comes back to the panel, whichever port of the tab it comes on.
    embed.say({ type: 'post-result', id: 's1', ok: true } as never);
    top.say({ type: 'post-result', id: 's2', ok: false, error: 'no such frame' } as never);
    expect(p.sent.filter((m) => m.type === 'send-result')).toMatchObject([
      { id: 's1', ok: true },
      { id: 's2', ok: false, error: 'no such frame' },
    ]);
    expect(fake.env.sendMessage).not.toHaveBeenCalled();
  });

  it('picks the embed frame by origin, else the embed frame of the tenant origin; never another frame', async () => {
    const { t, embed, p } = await twoFrames();
    fake.env.parents.set(5, 0);
    const other = t.relay(5, `${ADS}/frame`);
    await t.settle();
    p.say(send('embed', 'by-origin', `${TENANT}/other/page`));
    await t.settle();
    p.say(send('embed', 'by-tenant'));
    await t.settle();
    expect(embed.posts().map((m) => m.type === 'post' && m.id)).toEqual(['by-origin', 'by-tenant']);
    p.say(send('embed', 'named', `${ADS}/frame`));
    await t.settle();
    expect(p.last('send-result')).toMatchObject({
      id: 'named',
      ok: false,
      error: 'no embed frame on the tenant origin in this tab',
    });
    expect(other.posts()).toEqual([]);
  });

  it("falls back to tabs.sendMessage to the frame when its port closed, and relays the frame's reply", async () => {
    const { t, embed, p } = await twoFrames();
    embed.close();
    fake.env.sendMessage.mockImplementationOnce(async () =>
      stamp<RelayToBackground>({ type: 'post-result', id: 's3', ok: true }),
    );
    p.say(send('embed', 's3', EMBED_URL));
    await t.settle();
    expect(fake.env.sendMessage).toHaveBeenCalledTimes(1);
    expect(fake.env.sendMessage.mock.calls[0][0]).toBe(TAB);
    expect(fake.env.sendMessage.mock.calls[0][1]).toMatchObject({ type: 'post', id: 's3', target: 'parent' });
    expect(fake.env.sendMessage.mock.calls[0][2]).toEqual({ frameId: 3 });
    expect(p.last('send-result')).toMatchObject({ id: 's3', ok: true });
    // No capture script answers: the panel is told why.
    p.say(send('embed', 's4', EMBED_URL));
    await t.settle();
    expect(p.last('send-result')).toMatchObject({
      id: 's4',
      ok: false,
      error: expect.stringMatching(/no capture script/),
    });
  });

  it('a relay gone before the scope was loaded (a waking worker) is not attached: sends take the fallback', async () => {
    let loaded = () => {};
    const t = setup({ ready: new Promise<void>((r) => (loaded = r)) });
    fake.env.parents.set(3, 0);
    const p = t.panel();
    const embed = t.relay(3, EMBED_URL); // its hello waits for the scope
    embed.close();
    loaded();
    await t.settle();
    await t.session().setTenantOrigin(TENANT);
    fake.env.sendMessage.mockImplementationOnce(async () =>
      stamp<RelayToBackground>({ type: 'post-result', id: 's5', ok: true }),
    );
    p.say(send('embed', 's5', EMBED_URL));
    await t.settle();
    expect(fake.env.sendMessage).toHaveBeenCalledTimes(1);
    expect(p.last('send-result')).toMatchObject({ id: 's5', ok: true });
  });

  it('a port closed in the middle of the post fails the send at once', async () => {
    const { t, embed, p } = await twoFrames();
    embed.port.disconnect(); // (the disconnect event has not come yet)
    p.say(send('embed', 's5', EMBED_URL));
    await t.settle();
    expect(p.last('send-result')).toMatchObject({ id: 's5', ok: false, error: 'the frame is gone' });
  });

  it('settle asks every frame to hand over and resolves once the batches sent before its answer are in the log', async () => {
    const t = setup();
    const top = t.relay(0, `${HOST}/`);
    const embed = t.relay(3, EMBED_URL);
    await t.settle();
    let settled = false;
    const done = t
      .session()
      .settle()
      .then(() => {
        settled = true;
      });
    await t.settle();
    const flushes = (r: typeof top) =>
      (r.sent as BackgroundToRelay[]).flatMap((m) => (m.type === 'flush' ? [m.id] : []));
    expect(flushes(top)).toHaveLength(1);
    expect(flushes(embed)).toHaveLength(1);
    // The top frame answers after a batch it held; the embed has not answered yet: not settled.
    top.batch(1, [post(1), post(2)]);
    top.say({ type: 'flushed', id: flushes(top)[0] } as never);
    await t.settle();
    expect(settled).toBe(false);
    embed.say({ type: 'flushed', id: flushes(embed)[0] } as never);
    await done;
    expect(await t.session().count()).toBe(2);
  });

  // The worker stopped while the page was quiet: a frame holding records it has not sent has no port (it connects when
  // its own timer sends, later still in a hidden tab). Settle reaches it by tabs.sendMessage; it answers on the port it
  // opens, after the batches of that hand-over. A frame with no relay (out of scope) cannot be asked: not waited for.
  it('settle reaches a frame whose port closed, and waits for the batches it hands over on the port it opens', async () => {
    // What the embed received: the host's post, as its relay records it.
    const got = (i: number): RawRecord => ({
      ...post(i),
      kind: 'receive',
      frameUrl: EMBED_URL,
      origin: HOST,
      from: 'parent',
    });
    const before = setup();
    const top = before.relay(0, `${HOST}/`, 'doc-top');
    top.batch(1, [post(1), post(2)]);
    before.relay(3, EMBED_URL, 'doc-embed').batch(1, [got(1)]);
    await before.settle();
    // The worker stopped; the new one has the stored log and no port. Frame 4 has no relay (not in scope).
    const t = setup({ store: before.store });
    fake.env.frames.push(0, 3, 4);
    let embed: ReturnType<typeof t.relay> | undefined;
    fake.env.sendMessage.mockImplementation(async (_tab, raw, opts) => {
      const msg = raw as BackgroundToRelay;
      if (opts?.frameId === 4 || msg.type !== 'flush') {
        throw new Error('Could not establish connection. Receiving end does not exist.');
      }
      if (opts?.frameId === 3) {
        // The embed held a delivery: it connects again, hands it over, then answers.
        setTimeout(() => {
          embed = t.relay(3, EMBED_URL, 'doc-embed');
          embed.batch(2, [got(2)]);
          embed.say({ type: 'flushed', id: msg.id } as never);
        }, 20);
      } else {
        setTimeout(() => t.relay(0, `${HOST}/`, 'doc-top').say({ type: 'flushed', id: msg.id } as never), 5);
      }
      return stamp<RelayReply>({ type: 'flushing', id: msg.id });
    });
    const result = await t.session().settle();
    expect(fake.env.sendMessage.mock.calls.map((c) => [c[2], (c[1] as BackgroundToRelay).type])).toEqual([
      [{ frameId: 0 }, 'flush'],
      [{ frameId: 3 }, 'flush'],
      [{ frameId: 4 }, 'flush'],
    ]);
    expect(result).toEqual({ frames: 2, silent: 0 }); // (frame 4 has no relay: not waited for)
    expect(await t.session().count()).toBe(4);
    expect(embed?.acks()).toEqual([2]);
  });

  it.each([
    ['a frame in scope', TENANT, 1],
    ['a frame out of scope', 'https://elsewhere.example', 0],
  ])('a burst a frame received ended (%s): the frames that may hold posts hand over', async (_what, origin, n) => {
    const t = setup();
    const top = t.relay(0, `${HOST}/`);
    const embed = t.relay(3, `${origin}/embed/dashboard`);
    await t.settle();
    embed.say({ type: 'received' } as never);
    await t.settle();
    const handOvers = (r: typeof top) => (r.sent as BackgroundToRelay[]).filter((m) => m.type === 'hand-over');
    expect(handOvers(top)).toHaveLength(n);
    expect(handOvers(embed)).toHaveLength(0);
  });

  it('settle does not wait for a frame that never answers past its limit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const t = setup();
      t.relay(0, `${HOST}/`);
      await vi.advanceTimersByTimeAsync(10);
      let settled = false;
      const done = t
        .session()
        .settle()
        .then(() => {
          settled = true;
        });
      await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS - 100);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      await done;
      expect(settled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('settle within a bound ends by it while a frame still hands over a flood, and counts that frame silent', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const t = setup();
      const top = t.relay(0, `${HOST}/`);
      const embed = t.relay(3, EMBED_URL);
      await vi.advanceTimersByTimeAsync(10);
      let result: unknown;
      const done = t
        .session()
        .settle(5_000)
        .then((r) => {
          result = r;
        });
      await vi.advanceTimersByTimeAsync(10);
      const flush = (r: typeof top) =>
        (r.sent as BackgroundToRelay[]).find((m) => m.type === 'flush') as { id: string };
      top.say({ type: 'flushed', id: flush(top).id } as never);
      // The embed goes on handing over batches (each one more SETTLE_TIMEOUT_MS for it): the bound ends the wait.
      for (let i = 1; i <= 4; i++) {
        embed.batch(i, [post(i)]);
        await vi.advanceTimersByTimeAsync(1_000);
        expect(result).toBeUndefined();
      }
      embed.batch(5, [post(5)]);
      await vi.advanceTimersByTimeAsync(1_000);
      await done;
      expect(result).toEqual({ frames: 2, silent: 1 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('stores a resent batch once (after a reconnection) and acknowledges every copy', async () => {
    const t = setup();
    const top = t.relay(0, `${HOST}/`, 'doc-1');
    await t.settle();
    top.batch(1, [post(1)]);
    top.batch(2, [post(2)]);
    await t.settle();
    // The worker "stopped" before the acks arrived: the relay reconnects with the same document and resends.
    const again = t.relay(0, `${HOST}/`, 'doc-1');
    again.batch(1, [post(1)]);
    again.batch(2, [post(2)]);
    again.batch(3, [post(3)]);
    await t.settle();
    expect(top.acks()).toEqual([1, 2]);
    expect(again.acks()).toEqual([1, 2, 3]);
    expect(t.store.rawBatches(TAB).length).toBe(3);
    expect(await t.session().count()).toBe(3);
  });

  it("writes a burst's batches without waiting for each to be stored, and acknowledges each once stored", async () => {
    const store = fakeStore();
    const t = setup({ store });
    const top = t.relay(0, `${HOST}/`, 'doc-1');
    await t.settle();
    const gate = holdCommits(store);
    top.batch(1, [post(1)]);
    top.batch(2, [post(2)]);
    await vi.waitFor(() => expect(gate.held).toBe(2));
    expect(top.acks()).toEqual([]);
    await gate.release();
    expect(top.acks()).toEqual([1]);
    expect(await t.session().count()).toBe(1);
    const all = t.session().records();
    await gate.release();
    expect((await all).map((r) => (r.data as { timestamp: number }).timestamp)).toEqual([1, 2]);
    expect(top.acks()).toEqual([1, 2]);
  });

  it('a batch whose storage failed is not acknowledged, and its resend is stored once', async () => {
    const store = fakeStore();
    const t = setup({ store });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const top = t.relay(0, `${HOST}/`, 'doc-1');
    await t.settle();
    const commit = store.commit;
    store.commit = async () => {
      throw new Error('QuotaExceededError');
    };
    top.batch(1, [post(1)]);
    await t.settle();
    store.commit = commit;
    expect(top.acks()).toEqual([]);
    expect(warn).toHaveBeenCalled();
    // Its port is closed: the relay connects again and sends every batch not acknowledged; the failed one is taken,
    // stored and acknowledged, once.
    expect(top.isClosed()).toBe(true);
    const back = t.relay(0, `${HOST}/`, 'doc-1');
    back.batch(1, [post(1)]);
    await t.settle();
    expect(back.acks()).toEqual([1]);
    expect(store.rawBatches(TAB).length).toBe(1);
    expect(await t.session().count()).toBe(1);
  });

  it('a frame out of scope is paused, its batches acknowledged and not stored, and opens no log', async () => {
    const t = setup({ modes: { [HOST]: 'full' } });
    const out = t.relay(0, 'https://elsewhere.example/');
    out.batch(1, [post(1)]);
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    expect(out.configs()).toMatchObject([{ paused: true }]);
    expect(out.acks()).toEqual([1]);
    expect(t.sessions.has(TAB)).toBe(false);
    out.close();
    expect(t.sessions.has(TAB)).toBe(false);
  });

  it('a scope change pauses the frames whose site left it; the others get their new mode', async () => {
    const modes: Record<string, CaptureMode> = { [HOST]: 'full', [TENANT]: 'full' };
    const t = setup({ modes });
    fake.env.parents.set(3, 0);
    const top = t.relay(0, `${HOST}/`);
    const embed = t.relay(3, EMBED_URL);
    await t.settle();
    delete modes[TENANT];
    modes[HOST] = 'receive-only';
    await t.session().rescope();
    expect(embed.configs().at(-1)).toMatchObject({ paused: true });
    expect(top.configs().at(-1)).toMatchObject({ paused: false, receiveOnly: true });
    embed.batch(1, [post(1)]);
    await t.settle();
    expect(embed.acks()).toEqual([1]);
    expect(t.store.rawBatches(TAB).length).toBe(0);
  });
});

describe('tab session: what a waking worker and a leaving page leave as it was', () => {
  it('a panel that wakes the worker gets the stored settings, and the log is judged with them', async () => {
    // (the browser's storage answers a moment later; the panel's subscribe, which woke the worker, comes at once)
    const api = fake.env.api as unknown as { storage: { local: { get: () => Promise<unknown> } } };
    api.storage.local.get = () =>
      new Promise((r) => setTimeout(() => r({ settings: { maxBytes: 4096, readyTimeoutMs: 60_000 } }), 5));
    const t = setup({ modes: { [HOST]: 'full' } }); // (the tenant's site is not captured: no relay will come)
    void t.sessions.loadSettings();
    const p = t.panel();
    await t.settle();
    expect(p.last('snapshot')?.state).toMatchObject({ maxBytes: 4096, readyTimeoutMs: 60_000 });
    const top = t.relay(0, `${HOST}/`);
    await t.settle();
    expect(top.configs().at(-1)).toMatchObject({ maxBytes: 4096 });
    // an embed that has not said ready is judged at the user's limit, not the default's 10 s
    const at = Date.now();
    await t.session().navigated({ frameId: 3, parentFrameId: 0, url: `${EMBED_URL}/x`, time: at });
    expect((await t.session().nextLimit())! - at).toBeGreaterThan(50_000);
  });

  it("a leaving page's top relay, heard after the shown page's, does not take the frame's place", async () => {
    const t = setup();
    fake.env.shows.set(0, { documentId: 'top-b', url: `${HOST}/b` });
    const b = t.relay(0, `${HOST}/b`, 'relay-b', undefined, 'top-b', 'active');
    await t.settle();
    // page A, left, hands over as it goes: its port opens as its document is pending deletion, then closes
    const a = t.relay(0, `${HOST}/a`, 'relay-a', undefined, 'top-a', 'pending_deletion');
    await t.settle();
    a.close();
    await t.settle();
    const before = b.configs().length;
    await t.session().setOptions({ paused: true });
    expect(b.configs().slice(before).at(-1)).toMatchObject({ paused: true });
  });

  it("a new browser session's tab does not open on the log its id had in the session before", async () => {
    const t = setup();
    const a = t.relay(0, `${HOST}/a`, 'a', undefined, 'doc-a');
    await t.settle();
    a.batch(1, [post(1), post(2)]);
    await t.settle();
    await t.session().setOptions({ paused: true, preserveLog: true });
    // the browser quit (no tab closed for the worker) and started again: a new tab 7 shows another document
    const u = setup({ store: t.store });
    const session = { get: async () => ({}), set: async () => {} };
    const shows = async () => ({ documentId: 'doc-b', url: `${HOST}/b` });
    void u.sessions.dropStale(() =>
      dropStaleLogs({ mark: session, metas: u.store.metas, remove: u.store.remove, shows }),
    );
    const p = u.panel();
    await u.settle();
    expect(p.last('snapshot')?.records).toEqual([]);
    const b = u.relay(0, `${HOST}/b`, 'b', undefined, 'doc-b');
    await u.settle();
    b.batch(1, [post(3)]);
    await u.settle();
    expect(await u.session().state()).toMatchObject({ paused: false });
    expect((await u.session().records()).filter((r) => !r.navigation)).toHaveLength(1);
  });

  it("a closed tab's page, handing over as it goes after the tab's removal was heard, writes no log back", async () => {
    const t = setup();
    const a = t.relay(0, `${HOST}/a`);
    await t.settle();
    a.batch(1, [post(1)]);
    await t.settle();
    await t.sessions.forget(TAB); // tabs.onRemoved
    a.batch(2, [post(2)]); // the page's last hand-over, at pagehide, heard after
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(a.acks()).toContain(2);
    expect(await t.store.tabIds()).toEqual([]);
    expect(t.sessions.has(TAB)).toBe(false);
  });

  it('a raised bound does not bring evicted records back after a restart', async () => {
    const t = setup();
    const top = t.relay(0, `${HOST}/`);
    await t.settle();
    await t.session().setOptions({ maxRecords: 100 });
    for (let b = 0; b < 6; b++) {
      top.batch(
        b + 1,
        Array.from({ length: 50 }, (_, i) => post(b * 50 + i)),
      );
    }
    await t.settle();
    await t.session().setOptions({ maxRecords: 1000 });
    const held = (await t.session().records()).map((r) => r.seq);
    const { dropped } = await t.session().state();
    expect(held).toHaveLength(100);
    const again = setup({ store: t.store });
    expect((await again.session().records()).map((r) => r.seq)).toEqual(held);
    expect((await again.session().state()).dropped).toBe(dropped);
  });
});
