// A frame that goes away: what it holds still leaves, and a frame that holds nothing tells the browser nothing.
// A page-lifecycle listener (pagehide, unload, beforeunload) changes what the browser does with a frame that goes:
// Chromium then keeps its process alive after a navigation (and reuses it), where it would end it at once.
import type { CDPSession } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { messagesOnly, records, settled, tabIdOf, waitForRecords } from '../helpers/capture.ts';

const HOST = `<!doctype html><script>
  window.got = 0;
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got++; });
  const env = (i) => ({ source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path: '/h/' + i }, timestamp: Date.now() });
  window.send = (n) => { const w = document.querySelector('iframe').contentWindow; for (let i = 0; i < n; i++) w.postMessage(env(i), '{{EMBED}}'); };
  window.bye = (n) => { const w = document.querySelector('iframe').contentWindow; for (let i = 0; i < n; i++) w.postMessage({ ...env(i), payload: { path: '/bye/' + i, last: i === n - 1 } }, '{{EMBED}}'); };
  window.leaveWith = (n) => document.querySelector('iframe').contentWindow.postMessage({ leaveWith: n }, '{{EMBED}}');
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

describe('a captured frame that goes away', () => {
  let srv: TwoOrigins;
  let l: Launched;
  test.beforeAll(async ({ chromium, launchForFile }) => {
    srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/a': EMBED, '/embed/dashboard/b': EMBED });
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

  it('loses none of the posts a frame made just before it navigated away', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    await page.evaluate(() => (window as any).send(1));
    await page.waitForFunction(() => (window as any).got === 1);
    await settled(l, tabId);
    // The embed posts 30 events and navigates in the same task: its posts are still held (a frame waits for a
    // quiet moment before it hands them over) when the page goes.
    const N = 30;
    await page.evaluate((n) => (window as any).leaveWith(n), N);
    await page.waitForFunction((n) => (window as any).got === 1 + n, {}, N);
    const isGone = (r: { kind: string; data: unknown }) => /^\/gone\//.test((r.data as any)?.payload?.path ?? '');
    await waitForRecords(l, tabId, (rs) => rs.filter((r) => r.kind === 'receive' && isGone(r)).length === N);
    await settled(l, tabId);
    const all = messagesOnly(await records(l, tabId));
    const gone = (kind: string) => all.filter((r) => r.kind === kind && isGone(r));
    expect(gone('receive').length).toBe(N);
    expect(gone('post').map((r) => (r.data as any).payload.path)).toEqual(
      Array.from({ length: N }, (_, i) => `/gone/${i}`),
    );
    await page.close();
  });

  it('loses none of the messages a frame received when it navigates away on the last', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    await page.evaluate(() => (window as any).send(1));
    await page.waitForFunction(() => (window as any).got === 1);
    await settled(l, tabId);
    // 30 actions in one task; the embed navigates away on the last, holding the deliveries (it posts nothing).
    const N = 30;
    await page.evaluate((n) => (window as any).bye(n), N);
    await page.waitForFunction(() => (window as any).loads === 2);
    // The old document is gone: what it did not hand over as it went is lost.
    await settled(l, tabId);
    const bye = messagesOnly(await records(l, tabId)).filter((r) => /^\/bye\//.test((r.data as any)?.payload?.path));
    const paths = Array.from({ length: N }, (_, i) => `/bye/${i}`);
    expect(bye.filter((r) => r.kind === 'post').map((r) => (r.data as any).payload.path)).toEqual(paths);
    expect(bye.filter((r) => r.kind === 'receive').map((r) => (r.data as any).payload.path)).toEqual(paths);
    await page.close();
  });
});
