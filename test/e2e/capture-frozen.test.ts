// A page the browser freezes (Chromium freezes a hidden tab's page, and may discard it later without a pagehide):
// what its frames hold leaves before they are frozen, and the page goes on as before once resumed.
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { answeringEmbed, pathOf } from '../helpers/exchange.ts';
import { messagesOnly, records, settled, tabIdOf, waitForRecords } from '../helpers/capture.ts';

const HOST = `<!doctype html><script>
  window.got = [];
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got.push(e.data.payload.path); });
  const env = (path) => ({ source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path }, timestamp: Date.now() });
  window.send = (p) => document.querySelector('iframe').contentWindow.postMessage(env(p), '{{EMBED}}');
</script><iframe src="{{EMBED}}/embed/dashboard/a"></iframe>`;
const EMBED = answeringEmbed();

let srv: TwoOrigins;
test.beforeAll(async ({ launchForFile }) => {
  srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/a': EMBED });
});

describe('a page the browser freezes', () => {
  let l: Launched;
  test.beforeAll(({ chromium }) => {
    l = chromium;
  });

  it('hands over what its frames hold as it is frozen, and goes on once resumed', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    await page.evaluate(() => (window as any).send('/first'));
    await page.waitForFunction(() => (window as any).got.includes('/first'));
    await settled(l, tabId);
    // An exchange, and the page frozen at once (what the frames hold waits for their next hand-over then).
    await page.evaluate(() => (window as any).send('/held'));
    await page.waitForFunction(() => (window as any).got.includes('/held'));
    const cdp = await page.createCDPSession();
    await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
    // Read while frozen (a frozen frame answers no hand-over: no settle here).
    const held = (rs: Awaited<ReturnType<typeof records>>) => messagesOnly(rs).filter((r) => pathOf(r) === '/held');
    await waitForRecords(l, tabId, (rs) => held(rs).length === 4, 5000);
    await cdp.send('Page.setWebLifecycleState', { state: 'active' });
    await page.evaluate(() => (window as any).send('/after'));
    await page.waitForFunction(() => (window as any).got.includes('/after'));
    await settled(l, tabId);
    const all = messagesOnly(await records(l, tabId));
    // Each once: the host's post, the embed's delivery, the embed's answer, the host's delivery of it.
    expect(all.map((r) => `${r.kind} ${pathOf(r)} ${r.frameId === 0 ? 'host' : 'embed'}`).sort()).toEqual(
      ['/first', '/held', '/after']
        .flatMap((p) => [`post ${p} host`, `receive ${p} embed`, `post ${p} embed`, `receive ${p} host`])
        .sort(),
    );
    await cdp.detach();
    await page.close();
  });
});
