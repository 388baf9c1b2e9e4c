// A frame that goes away: what it holds still leaves, and a frame that holds nothing tells the browser nothing.
// A page-lifecycle listener (pagehide, unload, beforeunload) changes what the browser does with a frame that goes:
// Chromium then keeps its process alive after a navigation (and reuses it), where it would end it at once.
import type { CDPSession, Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import { MESSAGES_VERSION, SPILL_PREFIX } from '../../src/shared/messages.ts';
import { vi } from 'vitest';
import { describe, expect, it, test, type Launcher } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import {
  firefoxRecords,
  messagesOnly,
  records,
  settled,
  stopWorkerAsIdle,
  tabIdOf,
  waitForRecords,
} from '../helpers/capture.ts';

const HOST = `<!doctype html><script>
  window.got = 0;
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got++; if (e.data && e.data.listening) window.listening = true; });
  const env = (i, p = '/h/') => ({ source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path: p + i }, timestamp: Date.now() });
  window.send = (n, p) => { const w = document.querySelector('iframe').contentWindow; for (let i = 0; i < n; i++) w.postMessage(env(i, p), '{{EMBED}}'); };
  window.bye = (n) => { const w = document.querySelector('iframe').contentWindow; for (let i = 0; i < n; i++) w.postMessage({ ...env(i), payload: { path: '/bye/' + i, last: i === n - 1 } }, '{{EMBED}}'); };
  window.leaveWith = (n) => document.querySelector('iframe').contentWindow.postMessage({ leaveWith: n }, '{{EMBED}}');
  window.hideWith = (n) => document.querySelector('iframe').contentWindow.postMessage({ hideWith: n }, '{{EMBED}}');
  window.postOnly = (n) => document.querySelector('iframe').contentWindow.postMessage({ postOnly: n }, '{{EMBED}}');
  window.removeFrame = () => document.querySelector('iframe').remove();
  window.getterHide = (n) => document.querySelector('iframe').contentWindow.postMessage({ getterHide: n }, '{{EMBED}}');
  window.lastWords = (n, o) => document.querySelector('iframe').contentWindow.postMessage({ lastWords: n, ...o }, '{{EMBED}}');
</script><iframe src="{{EMBED}}/embed/dashboard/a" onload="window.loads = (window.loads || 0) + 1"></iframe>`;
// The embed answers each action with an event (a series of byes: none, and it navigates away on the last); asked to, it later posts n events and navigates away in the same task.
const EMBED = `<!doctype html><script>
  const env = (type, path) => ({ source: 'svc-embed', direction: 'event', type, payload: { path }, timestamp: Date.now() });
  addEventListener('message', (e) => {
    if (e.data && e.data.leaveWith) {
      // Later, in a task of its own: by then the frame has handed the ask over and holds nothing but these posts.
      setTimeout(() => {
        for (let i = 0; i < e.data.leaveWith; i++) parent.postMessage(env('svc:event:navigated', '/gone/' + i), '{{HOST}}');
        location.replace('/embed/dashboard/b');
      }, 500);
    } else if (e.data && e.data.postOnly) {
      for (let i = 0; i < e.data.postOnly; i++) parent.postMessage(env('svc:event:navigated', '/unstored/' + i), '{{HOST}}');
    } else if (e.data && e.data.getterHide) {
      // The first post's options have a getter: postMessage reads it, and the capture reads it again at the task's
      // end, where it dispatches a pagehide; then more posts, and the frame navigates away.
      let reads = 0;
      const opts = { get targetOrigin() { if (++reads === 2) dispatchEvent(new PageTransitionEvent('pagehide')); return '{{HOST}}'; } };
      parent.postMessage(env('svc:event:navigated', '/gh/0'), opts);
      for (let i = 1; i < e.data.getterHide; i++) parent.postMessage(env('svc:event:navigated', '/gh/' + i), '{{HOST}}');
      location.replace('/embed/dashboard/b');
    } else if (e.data && e.data.lastWords) {
      // The page says goodbye to its host in its own pagehide listener (a common pattern), then navigates away
      // (\`stay\`: its host removes it); \`hold\`: it posts once before, so the frame holds something (and our
      // listener runs first) as it goes.
      const n = e.data.lastWords;
      const bye = (i) => parent.postMessage(env('svc:event:navigated', '/lw/' + i), '{{HOST}}');
      // (the first inside an event the page dispatches itself, then the others; \`later\`: all in a promise it resolves)
      addEventListener('pagehide', () => {
        if (e.data.later) {
          Promise.resolve().then(() => { for (let i = 0; i < n; i++) bye(i); });
          return;
        }
        const inner = new EventTarget();
        inner.addEventListener('inner', () => bye(0));
        inner.dispatchEvent(new Event('inner'));
        for (let i = 1; i < n; i++) bye(i);
      });
      if (e.data.hold) parent.postMessage(env('svc:event:navigated', '/before/0'), '{{HOST}}');
      if (e.data.stay) parent.postMessage({ listening: true }, '{{HOST}}');
      else location.replace('/embed/dashboard/b');
    } else if (e.data && e.data.hideWith) {
      // In the task of the delivery it holds: posts on either side of a pagehide the page dispatches itself (any
      // script may), then it navigates away.
      const n = e.data.hideWith;
      for (let i = 0; i < n / 2; i++) parent.postMessage(env('svc:event:navigated', '/hid/' + i), '{{HOST}}');
      dispatchEvent(new PageTransitionEvent('pagehide'));
      for (let i = n / 2; i < n; i++) parent.postMessage(env('svc:event:navigated', '/hid/' + i), '{{HOST}}');
      location.replace('/embed/dashboard/b');
    } else if (e.data && e.data.source === 'svc-embed' && String(e.data.payload.path).startsWith('/bye/')) {
      if (e.data.payload.last) location.replace('/embed/dashboard/b');
    } else if (e.data && e.data.source === 'svc-embed') {
      parent.postMessage(env('svc:event:navigated', e.data.payload.path), '{{HOST}}');
    }
  });
</script>`;

const LIFECYCLE = ['pagehide', 'unload', 'beforeunload', 'visibilitychange'];

/**
 * The page-lifecycle listeners on `window` in every JavaScript world of the frames a CDP session reaches (the page's
 * own and the extension's isolated one), by world: `{ worlds, listeners }`.
 */
async function lifecycleListeners(session: CDPSession): Promise<{ worlds: string[]; listeners: string[] }> {
  const contexts: Array<{ id: number; name: string; auxData?: { type?: string } }> = [];
  session.on('Runtime.executionContextCreated', (e) => contexts.push(e.context));
  await session.send('Runtime.enable');
  const worlds: string[] = [];
  const listeners: string[] = [];
  for (const c of contexts) {
    const world = `${c.auxData?.type ?? '?'}:${c.name}`;
    const r = await session.send('Runtime.evaluate', { expression: 'window', contextId: c.id }).catch(() => null);
    if (!r?.result.objectId) {
      continue;
    }
    worlds.push(world);
    const { listeners: all } = await session.send('DOMDebugger.getEventListeners', { objectId: r.result.objectId });
    for (const x of all.filter((x) => LIFECYCLE.includes(x.type))) {
      listeners.push(`${world} ${x.type}`);
    }
  }
  await session.send('Runtime.disable');
  return { worlds, listeners };
}

const pathOf = (r: { data: unknown }): string => (r.data as any)?.payload?.path ?? '';
const numbered = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

let srv: TwoOrigins;
let launcher: Launcher;
test.beforeAll(async ({ launchForFile }) => {
  launcher = launchForFile;
  srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/a': EMBED, '/embed/dashboard/b': EMBED });
});

describe('a captured frame that goes away', () => {
  let l: Launched;
  test.beforeAll(({ chromium }) => {
    l = chromium;
  });

  it('holds no page-lifecycle listener in any world once what it holds has left', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    await page.evaluate(() => (window as any).send(5));
    await page.waitForFunction(() => (window as any).got === 5);
    // Both frames posted and received; everything was handed over and stored.
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).length === 20);
    await settled(l, tabId);
    const embed = await l.browser.waitForTarget((t) => t.type() === 'other' && t.url().startsWith(srv.embedOrigin));
    for (const session of [await page.createCDPSession(), await embed.createCDPSession()]) {
      const { worlds, listeners } = await lifecycleListeners(session);
      // The extension's world is there (its relay runs in it), and nothing of ours waits for the frame to go.
      expect(worlds.filter((w) => w.startsWith('isolated:')).length).toBeGreaterThan(0);
      expect(listeners).toEqual([]);
      await session.detach();
    }
    await page.close();
  });

  /** The host page, once both frames have exchanged a message and handed everything over: they hold nothing. */
  const quietPage = async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    await page.evaluate(() => (window as any).send(1));
    await page.waitForFunction(() => (window as any).got === 1);
    await settled(l, tabId);
    return { page, tabId };
  };

  /** The embed's posts recorded and the host's deliveries of them, of messages whose path starts with `prefix`. */
  const sentAndGot = async (tabId: number, prefix: string, n: number, awaited: 'receive' | 'post' = 'receive') => {
    const ours = (r: { data: unknown }) => pathOf(r).startsWith(prefix);
    await waitForRecords(l, tabId, (rs) => rs.filter((r) => r.kind === awaited && ours(r)).length === n);
    await settled(l, tabId);
    const got = messagesOnly(await records(l, tabId)).filter(ours);
    return {
      posts: got.filter((r) => r.kind === 'post').map(pathOf),
      deliveries: got.filter((r) => r.kind === 'receive'),
    };
  };

  it('loses none of the posts a frame made just before it navigated away', async () => {
    const { page, tabId } = await quietPage();
    // The embed posts 30 events and navigates in the same task: its posts are still held (a frame waits for a
    // quiet moment before it hands them over) when the page goes.
    const N = 30;
    await page.evaluate((n) => (window as any).leaveWith(n), N);
    await page.waitForFunction((n) => (window as any).got === 1 + n, {}, N);
    const { posts, deliveries } = await sentAndGot(tabId, '/gone/', N);
    expect(deliveries.length).toBe(N);
    expect(posts).toEqual(numbered('/gone/', N));
    await page.close();
  });

  it('loses none of the posts a frame made around a pagehide it dispatched itself, then went', async () => {
    const { page, tabId } = await quietPage();
    // A page's own pagehide event reaches our listener (a frame holding something listens for it) and makes the
    // frame hand over early; the posts of that task, made before it and after it, are still to leave.
    const N = 30;
    await page.evaluate((n) => (window as any).hideWith(n), N);
    await page.waitForFunction((n) => (window as any).got === 1 + n, {}, N);
    await page.waitForFunction(() => (window as any).loads === 2);
    const { posts, deliveries } = await sentAndGot(tabId, '/hid/', N);
    expect(deliveries.length).toBe(N);
    expect(posts).toEqual(numbered('/hid/', N));
    await page.close();
  });

  it('loses none of the posts of a task in which a getter of the page dispatched a pagehide', async () => {
    const { page, tabId } = await quietPage();
    // The getter runs as the capture reads the task's posts at its end: the frame hands over in the middle of that.
    const N = 30;
    await page.evaluate((n) => (window as any).getterHide(n), N);
    await page.waitForFunction(() => (window as any).loads === 2);
    const { posts, deliveries } = await sentAndGot(tabId, '/gh/', N);
    expect(deliveries.length).toBe(N);
    expect(posts).toEqual(numbered('/gh/', N));
    await page.close();
  });

  for (const o of [{}, { hold: true, later: true }, { stay: true }]) {
    const how = `${o.hold ? 'holding' : 'holding nothing'} as it ${o.stay ? 'is removed' : 'navigates'}${o.later ? ', posting in a promise' : ''}`;
    it(`loses none of the posts a page makes in its own pagehide listener (${how})`, async () => {
      const { page, tabId } = await quietPage();
      const N = 10;
      await page.evaluate(([n, opts]) => (window as any).lastWords(n, opts), [N, o] as const);
      if (o.stay) {
        // Once the embed listens and has handed everything over (it holds nothing), its host removes it.
        await page.waitForFunction(() => (window as any).listening === true);
        await settled(l, tabId);
        await page.evaluate(() => (window as any).removeFrame());
      } else {
        await page.waitForFunction(() => (window as any).loads === 2);
      }
      // (a frame removed as it posts: what its host gets of them is the browser's to say; the posts were made, and
      // their records say so)
      const { posts, deliveries } = await sentAndGot(tabId, '/lw/', N, o.stay ? 'post' : 'receive');
      if (!o.stay) {
        expect(deliveries.length).toBe(N);
      }
      expect(posts).toEqual(numbered('/lw/', N));
      await page.close();
    });
  }

  it('loses none of the posts it had sent when the background could not store them and the frame went', async () => {
    const { page, tabId } = await quietPage();
    const worker = await l.worker();
    // The extension's storage refuses every write (a full disk): the background closes the port of each batch it
    // could not store, and the relay resends on a new one, later and later (up to 2 s apart).
    const refusals = () => worker.evaluate(() => (globalThis as any).__refused as number);
    await worker.evaluate(() => {
      const proto = IDBObjectStore.prototype as any;
      (globalThis as any).__put = proto.put;
      (globalThis as any).__refused = 0;
      proto.put = () => {
        (globalThis as any).__refused++;
        throw new DOMException('the test says the disk is full', 'QuotaExceededError');
      };
    });
    const N = 10;
    await page.evaluate((n) => (window as any).postOnly(n), N);
    await page.waitForFunction((n) => (window as any).got === 1 + n, {}, N);
    await new Promise((r) => setTimeout(r, 1_500));
    const before = await refusals();
    await vi.waitUntil(async () => (await refusals()) > before, { timeout: 5_000, interval: 10 });
    // Refused once more just now: its next try is over a second away. Storage works again, and the host removes
    // the embed's iframe (a navigation would not do: the background asks every frame to hand over as it sees one).
    await worker.evaluate(() => {
      (IDBObjectStore.prototype as any).put = (globalThis as any).__put;
    });
    await page.evaluate(() => (window as any).removeFrame());
    const { posts, deliveries } = await sentAndGot(tabId, '/unstored/', N);
    expect(deliveries.length).toBe(N);
    expect(posts).toEqual(numbered('/unstored/', N));
    await page.close();
  });

  // Chrome stops an idle worker, which closes every frame's port. The embed then posts and navigates (told through the
  // DevTools protocol: no message of the page wakes the worker first), in the same task or a little later, once it
  // has opened a port to wake the worker: Chromium drops a port whose frame goes before the worker answered it.
  for (const laterMs of [0, 100, 200]) {
    const when = laterMs ? `${laterMs} ms after posting` : 'in the same task';
    it(`loses none of the posts of a frame that went ${when}, the browser having stopped the idle worker`, async () => {
      const { page, tabId } = await quietPage();
      await stopWorkerAsIdle(l, page);
      const embed = page.frames().find((f) => f.url().startsWith(srv.embedOrigin));
      const N = 30;
      await embed?.evaluate(
        (n, host, ms) => {
          for (let i = 0; i < n; i++) {
            const payload = { path: `/idle/${ms}/${i}` };
            const env = { source: 'svc-embed', direction: 'event', type: 'svc:event:navigated', payload, timestamp: 1 };
            parent.postMessage(env, host);
          }
          const go = () => location.replace('/embed/dashboard/b');
          ms ? setTimeout(go, ms) : go();
        },
        N,
        srv.hostOrigin,
        laterMs,
      );
      await page.waitForFunction(() => (window as any).loads === 2);
      const { posts, deliveries } = await sentAndGot(tabId, `/idle/${laterMs}/`, N);
      expect(deliveries.length).toBe(N);
      expect(posts).toEqual(numbered(`/idle/${laterMs}/`, N));
      await page.close();
    });
  }

  it('holds no page-lifecycle listener once what it sent, the worker stopped, is answered', async () => {
    const { page, tabId } = await quietPage();
    await stopWorkerAsIdle(l, page);
    // A post wakes the worker on a new port: the frame keeps its pagehide listener until a worker answers it.
    await page.evaluate(() => (window as any).send(3));
    await page.waitForFunction(() => (window as any).got === 4);
    await waitForRecords(l, tabId, (rs) => rs.filter((r) => pathOf(r).startsWith('/h/')).length === 4 * 4);
    await settled(l, tabId);
    const embed = await l.browser.waitForTarget((t) => t.type() === 'other' && t.url().startsWith(srv.embedOrigin));
    for (const session of [await page.createCDPSession(), await embed.createCDPSession()]) {
      expect((await lifecycleListeners(session)).listeners).toEqual([]);
      await session.detach();
    }
    await page.close();
  });

  // The host page itself posts and navigates in one task, the worker stopped: its posts belong to the page it left.
  for (const preserveLog of [true, false]) {
    const what = preserveLog ? 'keeps them with preserve log' : 'leaves them out of the new page’s log';
    it(`takes what a top frame left as it went, the worker stopped, and ${what}`, async () => {
      const { page, tabId } = await quietPage();
      const worker = await l.worker();
      await worker.evaluate(
        (id, p) => (globalThis as any).embedInspector.setOptions(id, { preserveLog: p }),
        tabId,
        preserveLog,
      );
      await stopWorkerAsIdle(l, page);
      const N = 10;
      await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.evaluate(
          (n, embed) => {
            const w = document.querySelector('iframe')?.contentWindow;
            for (let i = 0; i < n; i++) {
              const payload = { path: `/top/${i}` };
              w?.postMessage(
                { source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload, timestamp: 1 },
                embed,
              );
            }
            location.replace('/');
          },
          N,
          srv.embedOrigin,
        ),
      ]);
      // Every spill taken (and removed) by the worker the new page woke.
      const spills = async () =>
        Object.keys(await (await l.worker()).evaluate(() => (globalThis as any).chrome.storage.local.get(null))).filter(
          (k) => k.startsWith(SPILL_PREFIX),
        );
      await vi.waitUntil(async () => (await spills()).length === 0, { timeout: 10_000, interval: 50 });
      await settled(l, tabId);
      const posts = messagesOnly(await records(l, tabId)).filter(
        (r) => r.kind === 'post' && pathOf(r).startsWith('/top/'),
      );
      // Its posts and its embed's answers (the embed went too) stay with preserve log; without, they are the page's
      // before, whose log the navigation ended.
      expect(posts.filter((r) => r.frameId === 0).map(pathOf)).toEqual(preserveLog ? numbered('/top/', N) : []);
      expect(posts.filter((r) => r.frameId !== 0).map(pathOf)).toEqual(preserveLog ? numbered('/top/', N) : []);
      await page.close();
    });
  }

  // Without preserve log, what the page before says as it goes often reaches the worker after the new page's
  // navigation: judged in the new page, its posts would read as before its embed's ready (a race: before the fix, the
  // goodbyes leaked in 2 of 4 runs).
  const lastWords = {
    // The embed says goodbye in its own pagehide listener; then its host navigates. The embed's pagehide comes after
    // the new page committed. (Its `parent` is the new page by then, which receives them: those deliveries are the
    // new page's.)
    'goodbyes in its embed’s pagehide': async (page: Page) => {
      await page.evaluate(() => (window as any).lastWords(10, { stay: true }));
      await page.waitForFunction(() => (window as any).listening === true);
      return () => page.evaluate(() => location.replace('/'));
    },
    // The host's last actions, in the task that navigates, and what its embed answers to them as it goes.
    'the host’s last actions and their answers': async (page: Page) => () =>
      page.evaluate(() => {
        (window as any).send(10, '/lw/');
        location.replace('/');
      }),
  };
  for (const [what, before] of Object.entries(lastWords)) {
    it(`starts a new page’s log with none of what the page before said as it went: ${what}`, async () => {
      const { page, tabId } = await quietPage();
      const go = await before(page);
      await settled(l, tabId);
      await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), go()]);
      await page.waitForFunction(() => (window as any).loads === 1);
      // The new page's embed is heard from: one action, one answer.
      await page.evaluate(() => (window as any).send(1));
      await waitForRecords(l, tabId, (rs) => messagesOnly(rs).filter((r) => pathOf(r) === '/h/0').length === 4);
      await settled(l, tabId);
      const late = messagesOnly(await records(l, tabId)).filter(
        (r) => r.kind === 'post' && pathOf(r).startsWith('/lw/'),
      );
      expect(late.map((r) => `frame ${r.frameId} posted ${pathOf(r)}`)).toEqual([]);
      await page.close();
    });
  }

  it('records nothing from a spill whose seal is not the background’s (a renderer writing storage)', async () => {
    const { page, tabId } = await quietPage();
    const worker = await l.worker();
    const before = (await records(l, tabId)).length;
    // What a compromised renderer of a captured site could write: a frame's batch, claimed for this tab's top frame,
    // under a seal it made up (and one it copied from another browser session would not check either).
    const forged = `${btoa(JSON.stringify([tabId, 0, srv.hostOrigin, null, 'forged']))}.${btoa('x'.repeat(32))}`;
    const rec = {
      kind: 'receive',
      frameUrl: `${srv.hostOrigin}/`,
      origin: srv.embedOrigin,
      time: Date.now(),
      data: {},
    };
    const json = JSON.stringify([rec]);
    const value = { v: MESSAGES_VERSION, type: 'spill', key: forged, docId: 'forged', batches: [{ batch: 1, json }] };
    const key = `${SPILL_PREFIX}forged/1-1`; // (its document and batch numbers: only the seal is wrong)
    await worker.evaluate((k, v) => (globalThis as any).chrome.storage.local.set({ [k]: v }), key, value);
    // Heard as written, and removed unread.
    await vi.waitUntil(
      async () => !(key in (await worker.evaluate(() => (globalThis as any).chrome.storage.local.get(null)))),
      { timeout: 5_000, interval: 50 },
    );
    await settled(l, tabId);
    expect((await records(l, tabId)).length).toBe(before);
    await page.close();
  });

  it('loses none of the messages a frame received when it navigates away on the last', async () => {
    const { page, tabId } = await quietPage();
    // 30 actions in one task; the embed navigates away on the last, holding the deliveries (it posts nothing).
    const N = 30;
    await page.evaluate((n) => (window as any).bye(n), N);
    await page.waitForFunction(() => (window as any).loads === 2);
    // The old document is gone: what it did not hand over as it went is lost.
    await settled(l, tabId);
    const bye = messagesOnly(await records(l, tabId)).filter((r) => pathOf(r).startsWith('/bye/'));
    expect(bye.filter((r) => r.kind === 'post').map(pathOf)).toEqual(numbered('/bye/', N));
    expect(bye.filter((r) => r.kind === 'receive').map(pathOf)).toEqual(numbered('/bye/', N));
    await page.close();
  });
});

describe('Firefox: a captured frame that goes away', () => {
  it('loses none of the posts an embed made just before it left, nor the messages it got as it left', async () => {
    const ff = await launcher.firefox();
    await ff.setCapture({ sites: [srv.hostOrigin, srv.embedOrigin], mode: 'full' });
    const page = await ff.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`);
    await page.waitForFunction(() => (window as any).loads === 1, { timeout: 20_000 });
    await page.evaluate(() => (window as any).send(1));
    await page.waitForFunction(() => (window as any).got === 1, { timeout: 10_000 });
    const ext = await ff.extensionPage('theme=light');
    const settledRecords = () => firefoxRecords(ext, srv.hostOrigin);
    await settledRecords();
    const N = 30;
    // The embed posts 30 events and navigates in the same task (holding its posts), then, in its next document,
    // gets 30 actions and navigates on the last (holding the deliveries).
    await page.evaluate((n) => (window as any).leaveWith(n), N);
    await page.waitForFunction(() => (window as any).loads === 2, { timeout: 10_000 });
    await page.evaluate((n) => (window as any).bye(n), N);
    await page.waitForFunction(() => (window as any).loads === 3, { timeout: 10_000 });
    // Then posts on either side of a pagehide the embed dispatches itself, and it navigates away.
    await page.evaluate((n) => (window as any).hideWith(n), N);
    await page.waitForFunction(() => (window as any).loads === 4, { timeout: 10_000 });
    // A pagehide dispatched from a getter the capture reads at the task's end; then goodbyes in the page's own
    // pagehide listener, holding nothing and holding something as it goes.
    await page.evaluate((n) => (window as any).getterHide(n), N);
    await page.waitForFunction(() => (window as any).loads === 5, { timeout: 10_000 });
    await page.evaluate(() => (window as any).lastWords(10, {}));
    await page.waitForFunction(() => (window as any).loads === 6, { timeout: 10_000 });
    await page.evaluate(() => (window as any).lastWords(10, { hold: true, later: true }));
    await page.waitForFunction(() => (window as any).loads === 7, { timeout: 10_000 });
    const rs = (await settledRecords()).filter((r) => !r.navigation);
    const ofKind = (kind: string, prefix: string) =>
      rs.filter((r) => r.kind === kind && pathOf(r).startsWith(prefix)).map(pathOf);
    expect(ofKind('post', '/gone/')).toEqual(numbered('/gone/', N));
    expect(ofKind('receive', '/bye/')).toEqual(numbered('/bye/', N));
    expect(ofKind('post', '/hid/')).toEqual(numbered('/hid/', N));
    expect(ofKind('post', '/gh/')).toEqual(numbered('/gh/', N));
    expect(ofKind('post', '/lw/')).toEqual([...numbered('/lw/', 10), ...numbered('/lw/', 10)]);
    await Promise.all([page.close(), ext.close()]);
  });
});
