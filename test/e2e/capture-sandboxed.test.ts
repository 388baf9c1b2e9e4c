// An embed in a sandboxed iframe without allow-same-origin: its origin is opaque ('null') whatever its address. Its
// events reach the host from origin 'null', and the browser drops an action posted to the embed's address origin.
// (Its own posts are still recorded from its address's origin: see docs/capture-modes.md.) Chromium and Firefox.
import type { Page } from 'puppeteer-core';
import { vi } from 'vitest';
import type { Launched } from '../../src/node/chromium.ts';
import type { ClassifiedRecord } from '../../src/shared/messages.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { answeringEmbed, pathOf } from '../helpers/exchange.ts';
import { firefoxRecords, messagesOnly, records, settled, tabIdOf, waitForRecords } from '../helpers/capture.ts';

const HOST = `<!doctype html><script>
  window.got = [];
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got.push(e.origin + ' ' + e.data.payload.path); });
  const env = (path) => ({ source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path }, timestamp: Date.now() });
  window.send = (p, to) => document.querySelector('iframe').contentWindow.postMessage(env(p), to);
</script><iframe sandbox="allow-scripts" src="{{EMBED}}/embed/dashboard/a"></iframe>`;
const EMBED = answeringEmbed();

let srv: TwoOrigins;
test.beforeAll(async ({ launchForFile }) => {
  srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/a': EMBED });
});

/** What the host and the embed did, as recorded: the same in Chromium and Firefox. */
function expectJudgedRight(rs: ClassifiedRecord[]): void {
  const all = messagesOnly(rs);
  const one = (kind: string, path: string, frame: 'host' | 'embed') =>
    all.find((r) => r.kind === kind && pathOf(r) === path && (r.frameId === 0) === (frame === 'host'));
  // The embed's answer, as the host received it: from origin null.
  expect(one('receive', '/star', 'host')?.origin).toBe('null');
  // The action to the embed's address origin: dropped by the browser, and said so.
  const dropped = one('post', '/dropped', 'host');
  expect(dropped?.dropped).toBe(true);
  expect(dropped?.issues.map((i) => i.rule)).toContain('origin.dropped');
  expect(all.filter((r) => pathOf(r) === '/dropped').map((r) => r.kind)).toEqual(['post']);
  // The action to '*' reached it.
  expect(one('post', '/star', 'host')?.dropped).toBeUndefined();
  expect(one('receive', '/star', 'embed')).toBeDefined();
}

/** The host posts to the embed's address origin (never delivered), then to '*', and gets the embed's answer. */
async function exchange(page: Page): Promise<void> {
  await page.evaluate((o) => (window as any).send('/dropped', o), srv.embedOrigin);
  await page.evaluate(() => (window as any).send('/star', '*'));
  await page.waitForFunction(() => (window as any).got.length === 1, { timeout: 10_000 });
  expect(await page.evaluate(() => (window as any).got)).toEqual(['null /star']);
}

describe('an embed in a sandboxed frame (an opaque origin)', () => {
  let l: Launched;
  test.beforeAll(({ chromium }) => {
    l = chromium;
  });

  it('marks the host’s action to the embed’s address origin dropped; records what arrives from origin null', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    await exchange(page);
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).length === 5);
    await settled(l, tabId);
    expectJudgedRight(await records(l, tabId));
    await page.close();
  });

  it('Firefox: judges it the same (the browser names the frame’s origin null too)', async ({ firefox }) => {
    await firefox.setCapture({ sites: [srv.hostOrigin, srv.embedOrigin], mode: 'full' });
    const page = await firefox.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    await exchange(page);
    const ext = await firefox.extensionPage('theme=light');
    const rs = await vi.waitUntil(
      async () => {
        const got = await firefoxRecords(ext, srv.hostOrigin);
        return messagesOnly(got).length === 5 && got;
      },
      { timeout: 15_000, interval: 100 },
    );
    expectJudgedRight(rs);
    await Promise.all([page.close(), ext.close()]);
  });
});
