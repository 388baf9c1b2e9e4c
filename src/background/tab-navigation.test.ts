import { describe, expect, it } from 'vitest';
import type { RelayToBackground } from '../shared/messages.ts';
import { stamp } from '../shared/channel.ts';
import type { FrameNav } from './frame-navs.ts';
import { TabNavigation } from './tab-navigation.ts';
import { TabLog, newState } from './tablog.ts';
import type { ReadySessions } from '../protocol/session.ts';
import { useFakeApi } from '../../test/helpers/background-fakes.ts';

const TAB = 7;
const HOST = 'https://host.example';
const EMBED_URL = 'https://acme.example.com/embed/dashboard';

const fake = useFakeApi();

/** A session as the navigation part sees it: it records the new logs and the navigation records placed. */
function setup(opts: { preserveLog?: boolean; captured?: string[] } = {}) {
  const log = new TabLog(newState(TAB, { preserveLog: !!opts.preserveLog }));
  let top: string | undefined;
  const readyWhenLeft = new Map<string, ReadySessions>();
  const prerenders = new Map<string, number>();
  const events: string[] = [];
  const times: number[] = [];
  const nav = new TabNavigation({
    tabId: TAB,
    log: () => log,
    topDocumentId: () => top,
    enterDocument: (id) => {
      const fresh = !id || id !== top;
      top = id;
      return fresh;
    },
    leave: (id) => events.push(`left ${id}`),
    rememberReady: (id, ready) => readyWhenLeft.set(id, ready),
    takePrerendered: (id) => {
      const t = prerenders.get(id);
      prerenders.delete(id);
      return t;
    },
    takeReady: (id) => {
      const r = readyWhenLeft.get(id);
      readyWhenLeft.delete(id);
      return r;
    },
    newLog: async (pageUrl) => {
      log.reset(pageUrl);
      events.push(`new log ${pageUrl}`);
    },
    place: async (n: FrameNav) => {
      events.push(`record ${n.frameId} ${n.url}${n.restored ? ` restored ${n.restored.map(([k]) => k)}` : ''}`);
      times.push(n.time);
    },
    placeLater: (n) => events.push(`late ${n.frameId}`),
    frameMode: (origin) => (origin && (opts.captured ?? []).includes(origin) ? 'full' : null),
  });
  return { nav, events, times, prerenders, log: () => log };
}

type Hello = Extract<RelayToBackground, { type: 'hello' }>;
const hello = (url: string, isTop: boolean, start?: number) =>
  stamp<Hello>({ type: 'hello', docId: 'd', frameUrl: url, isTop, time: 5, start });

describe('tab navigation', () => {
  it('a new top document starts a new log and its record, once per document', async () => {
    const t = setup();
    await t.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a', time: 1 });
    await t.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a', time: 2 });
    await t.nav.hello(0, hello(`${HOST}/a`, true), { documentId: 'doc-a' });
    expect(t.events).toEqual([`new log ${HOST}/a`, `record 0 ${HOST}/a`]);
  });

  it('without preserve log, the page before is left; with it, or where the browser names no page, none is', async () => {
    const t = setup();
    fake.env.shows.set(0, { documentId: 'doc-b', url: `${HOST}/b` }); // (shown: the browser says so)
    await t.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a', time: 1 });
    await t.nav.hello(0, hello(`${HOST}/b`, true), { documentId: 'doc-b' });
    await t.nav.leftScope('doc-c');
    await t.nav.navigated({ frameId: 0, url: `${HOST}/d`, time: 2 });
    await t.nav.navigated({ frameId: 0, url: `${HOST}/e`, time: 3 });
    expect(t.events.filter((e) => e.startsWith('left'))).toEqual(['left doc-a', 'left doc-b', 'left doc-c']);
    const p = setup({ preserveLog: true });
    await p.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a', time: 1 });
    await p.nav.navigated({ frameId: 0, url: `${HOST}/b`, documentId: 'doc-b', time: 2 });
    await p.nav.leftScope('doc-c');
    expect(p.events.filter((e) => e.startsWith('left'))).toEqual([]);
  });

  it('with preserve log, a new top document goes on in the same log', async () => {
    const t = setup({ preserveLog: true });
    await t.nav.navigated({ frameId: 0, url: `${HOST}/b`, documentId: 'doc-b', time: 1 });
    expect(t.events).toEqual([`record 0 ${HOST}/b`]);
  });

  it("the top relay's hello starts the log when the navigation event has not come", async () => {
    const t = setup();
    fake.env.shows.set(0, { documentId: 'doc-c', url: `${HOST}/c` });
    await t.nav.hello(0, hello(`${HOST}/c`, true), { documentId: 'doc-c' });
    expect(t.events).toEqual([`new log ${HOST}/c`, `record 0 ${HOST}/c`]);
    expect(t.log().frames.get(0)).toMatchObject({ parentFrameId: -1, url: `${HOST}/c` });
  });

  it('a late top hello of a page the tab left takes nothing back, unless the browser shows it again', async () => {
    for (const preserveLog of [false, true]) {
      const t = setup({ preserveLog });
      await t.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a', time: 1 });
      await t.nav.navigated({ frameId: 0, url: `${HOST}/b`, documentId: 'doc-b', time: 2 });
      fake.env.shows.set(0, { documentId: 'doc-b', url: `${HOST}/b` });
      // Page A's top frame: a port opened while A was shown, its hello heard after B's commit; one opened as it went.
      await t.nav.hello(0, hello(`${HOST}/a`, true), { documentId: 'doc-a', lifecycle: 'active' });
      await t.nav.hello(0, hello(`${HOST}/x`, true), { documentId: 'doc-x', lifecycle: 'pending_deletion' });
      const placed = t.events.filter((e) => e.startsWith('record'));
      expect(placed).toEqual([`record 0 ${HOST}/a`, `record 0 ${HOST}/b`]);
      expect(t.log().frames.get(0)?.url).toBe(`${HOST}/b`);
      // Back to A from the back/forward cache, its hello first: the browser shows A.
      fake.env.shows.set(0, { documentId: 'doc-a', url: `${HOST}/a` });
      await t.nav.hello(0, hello(`${HOST}/a`, true), { documentId: 'doc-a', lifecycle: 'active' });
      expect(t.events.filter((e) => e.startsWith('record')).slice(2)).toEqual([`record 0 ${HOST}/a restored `]);
    }
  });

  it('a prerendered page’s navigation, without preserve log, is placed when its prerender began', async () => {
    for (const preserveLog of [false, true]) {
      const t = setup({ preserveLog });
      await t.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a', time: 1 });
      t.prerenders.set('doc-p', 50);
      await t.nav.navigated({ frameId: 0, url: `${HOST}/p`, documentId: 'doc-p', time: 90 });
      // Its top relay's hello before the activation's commit: the same.
      t.prerenders.set('doc-q', 3);
      await t.nav.hello(0, hello(`${HOST}/q`, true), { documentId: 'doc-q', lifecycle: 'active' });
      expect(t.times).toEqual([1, preserveLog ? 90 : 50, preserveLog ? 5 : 3]);
      // Its start is used once: back to it from the back/forward cache later, it is placed at that commit.
      await t.nav.navigated({ frameId: 0, url: `${HOST}/p`, documentId: 'doc-p', time: 200 });
      expect(t.times.at(-1)).toBe(200);
    }
  });

  it('a page the tab goes back to (the same document) is marked restored, with its ready sessions then', async () => {
    for (const preserveLog of [false, true]) {
      const t = setup({ preserveLog });
      await t.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a', time: 1 });
      await t.nav.navigated({ frameId: 0, url: `${HOST}/b`, documentId: 'doc-b', time: 2 });
      await t.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a', time: 3 });
      await t.nav.navigated({ frameId: 0, url: `${HOST}/a`, documentId: 'doc-a2', time: 4 }); // (a new load)
      expect(t.events.filter((e) => e.startsWith('record'))).toEqual([
        `record 0 ${HOST}/a`,
        `record 0 ${HOST}/b`,
        `record 0 ${HOST}/a restored `,
        `record 0 ${HOST}/a`,
      ]);
    }
  });

  it('a top hello without a document id only makes the page known', async () => {
    const t = setup();
    await t.nav.hello(0, hello(`${HOST}/d`, true), undefined);
    expect(t.events).toEqual([]);
    expect(t.log().state.pageUrl).toBe(`${HOST}/d`);
  });

  it("a subframe joins the tree with the browser's parent; an uncaptured frame's record is placed at once", async () => {
    const t = setup();
    await t.nav.navigated({ frameId: 5, parentFrameId: 0, url: 'https://ads.example/x', time: 3 });
    expect(t.events).toEqual(['record 5 https://ads.example/x']);
    fake.env.parents.set(6, 5);
    await t.nav.hello(6, hello(EMBED_URL, false));
    expect(t.log().frames.get(6)).toMatchObject({ parentFrameId: 5, url: EMBED_URL });
  });

  it("a captured subframe's record waits for its relay's hello and takes the earlier time", async () => {
    const t = setup({ captured: ['https://acme.example.com'] });
    await t.nav.navigated({ frameId: 3, parentFrameId: 0, url: EMBED_URL, time: 3000 });
    expect(t.events).toEqual([]);
    await t.nav.hello(3, hello(EMBED_URL, false, 2990));
    expect(t.events).toEqual([`record 3 ${EMBED_URL}`]);
    t.nav.close();
  });

  it('leaving the scope forgets the frames and ends the log, unless preserve log is on', async () => {
    for (const preserveLog of [false, true]) {
      const t = setup({ preserveLog });
      t.log().setFrame({ frameId: 3, parentFrameId: 0, url: EMBED_URL });
      await t.nav.leftScope('doc-out');
      await t.nav.leftScope('doc-out');
      expect(t.events, String(preserveLog)).toEqual(preserveLog ? [] : ['new log null']);
      expect(t.log().frames.size).toBe(0);
    }
  });
});
