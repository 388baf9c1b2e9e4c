// A frame whose document the page rewrites with document.open() (an about:blank frame filled by document.write, as
// some ad and widget loaders do): the rewrite erases every listener of the frame's window and document (HTML's
// document open steps), the capture's delivery listener included, while the window, and the capture's scripts in
// it, stay. In full mode what the frame receives after the rewrite is recorded as before it, first, as before it;
// the page's own listeners are not disturbed. Chromium and Firefox.
import type { Page } from 'puppeteer-core';
import { vi } from 'vitest';
import type { Launched } from '../../src/node/chromium.ts';
import type { ClassifiedRecord } from '../../src/shared/messages.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { pathOf } from '../helpers/exchange.ts';
import { firefoxRecords, messagesOnly, records, settled, tabIdOf, waitForRecords } from '../helpers/capture.ts';

// The host makes an about:blank frame; `rewrite()` fills it with document.open/write/close. What it writes stops
// '/after-stop' in a capture-phase listener of its own, answers every other action to its parent, and dispatches a
// message itself ('/written') as it runs. `send(path)` posts an action to the frame.
const INNER = `<!doctype html><script>
  window.innerGot = [];
  const svc = (e) => e.data && e.data.source === "svc-embed";
  addEventListener("message", (e) => { if (svc(e) && e.data.payload.path === "/after-stop") e.stopImmediatePropagation(); }, true);
  addEventListener("message", (e) => {
    if (!svc(e)) return;
    innerGot.push(e.data.payload.path);
    parent.postMessage({ ...e.data, direction: "event", type: "svc:event:navigated", payload: { path: e.data.payload.path + "-answer" } }, "*");
  });
  dispatchEvent(new MessageEvent("message", { data: { source: "svc-embed", direction: "action", type: "svc:action:navigate", payload: { path: "/written" }, timestamp: Date.now() } }));
</script>`;
const HOST = `<!doctype html><body><script>
  window.got = [];
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') got.push(e.data.payload.path); });
  const env = (path) => ({ source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path }, timestamp: Date.now() });
  const f = document.createElement('iframe');
  document.body.appendChild(f);
  window.send = (p) => f.contentWindow.postMessage(env(p), '*');
  const inner = ${JSON.stringify(INNER).replaceAll('</', '<\\/')};
  window.rewrite = () => { const d = f.contentDocument; d.open(); d.write(inner); d.close(); };
  window.innerGot = () => f.contentWindow.innerGot;
</script></body>`;

let srv: TwoOrigins;
test.beforeAll(async ({ launchForFile }) => {
  srv = await launchForFile.pages({ '/': HOST }, {});
});

/** The frame (not the top one) received `path`. */
const frameGot = (rs: ClassifiedRecord[], path: string) =>
  messagesOnly(rs).some((r) => r.kind === 'receive' && r.frameId !== 0 && pathOf(r) === path);

/** After the rewrite: two actions, the first answered by what the page wrote, the second stopped by it. */
async function afterRewrite(page: Page): Promise<void> {
  await page.evaluate(() => (window as any).rewrite());
  await page.evaluate(() => (window as any).send('/after-1'));
  await page.evaluate(() => (window as any).send('/after-stop'));
  await page.waitForFunction(() => (window as any).got.length === 2, { timeout: 10_000 });
  // The page's own listeners, as without the extension.
  expect(await page.evaluate(() => (window as any).innerGot())).toEqual(['/written', '/after-1']);
  expect(await page.evaluate(() => (window as any).got)).toEqual(['/written-answer', '/after-1-answer']);
}

/**
 * Every message of both sides, before and after the rewrite, in order: each action posted and received (the one
 * the written scripts dispatched, and the one their own listener stopped, too: the capture's listener is the
 * window's first again), each answer received. (The frame's answers go to its same-origin parent: such posts are seen
 * only as deliveries, docs/capture-modes.md.)
 */
function expectAllRecorded(rs: ClassifiedRecord[]): void {
  const all = messagesOnly(rs);
  const paths = (kind: string, top: boolean) =>
    all.filter((r) => r.kind === kind && (r.frameId === 0) === top).map(pathOf);
  expect(paths('post', true)).toEqual(['/before', '/after-1', '/after-stop']);
  expect(paths('receive', false)).toEqual(['/before', '/written', '/after-1', '/after-stop']);
  expect(paths('receive', true)).toEqual(['/written-answer', '/after-1-answer']);
  expect(all).toHaveLength(9);
}

describe('a frame whose document is rewritten by document.open()', () => {
  let l: Launched;
  test.beforeAll(({ chromium }) => {
    l = chromium;
  });

  it('records what the frame receives after the rewrite, as before it', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    await page.evaluate(() => (window as any).send('/before'));
    await waitForRecords(l, tabId, (rs) => frameGot(rs, '/before'));
    await afterRewrite(page);
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).length === 9);
    await settled(l, tabId);
    expectAllRecorded(await records(l, tabId));
    await page.close();
  });

  it('Firefox: records what the frame receives after the rewrite, as before it', async ({ firefox }) => {
    await firefox.setCapture({ sites: [srv.hostOrigin], mode: 'full' });
    const page = await firefox.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const ext = await firefox.extensionPage('theme=light');
    await page.evaluate(() => (window as any).send('/before'));
    await vi.waitUntil(async () => frameGot(await firefoxRecords(ext, srv.hostOrigin), '/before'), {
      timeout: 15_000,
      interval: 100,
    });
    await afterRewrite(page);
    const rs = await vi.waitUntil(
      async () => {
        const got = await firefoxRecords(ext, srv.hostOrigin);
        return messagesOnly(got).length === 9 && got;
      },
      { timeout: 15_000, interval: 100 },
    );
    expectAllRecorded(rs);
    await Promise.all([page.close(), ext.close()]);
  });
});
