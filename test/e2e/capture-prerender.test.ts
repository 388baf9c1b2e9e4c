// A page Chrome prerenders (speculation rules; the omnibox does too): its scripts, ours included, run before the user
// opens it, under the page the tab still shows; opening it activates that document.
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { messagesOnly, records, settled, tabIdOf, waitForRecords } from '../helpers/capture.ts';

const HOST = `<!doctype html><script type="speculationrules">{"prerender":[{"source":"list","urls":["/next"]}]}</script>
<a id="go" href="/next">next</a>`;
// Posts to itself as it is prerendered, as it is activated, and when asked.
const NEXT = `<!doctype html><script>
  window.prerendered = document.prerendering;
  const post = (path) => window.postMessage({ source: 'svc-embed', direction: 'event', type: 'svc:event:navigated', payload: { path }, timestamp: Date.now() }, '*');
  post('/pre/0');
  document.addEventListener('prerenderingchange', () => post('/act/0'));
  window.later = (i) => post('/later/' + i);
</script>`;

let srv: TwoOrigins;
test.beforeAll(async ({ launchForFile }) => {
  srv = await launchForFile.pages({ '/': HOST, '/next': NEXT }, {});
});

describe('a page Chrome prerendered, once opened', () => {
  let l: Launched;
  test.beforeAll(({ chromium }) => {
    l = chromium;
  });

  it('records what it says after its activation, in its own log', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    // Prerendered once its relay has said hello (a record of its own made before activation says so).
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).some((r) => (r.data as any)?.payload?.path === '/pre/0'));
    await Promise.all([page.waitForNavigation(), page.click('#go')]);
    expect(await page.evaluate(() => (window as any).prerendered)).toBe(true);
    await page.evaluate(() => (window as any).later(0));
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).some((r) => (r.data as any)?.payload?.path === '/later/0'));
    await settled(l, tabId);
    const paths = messagesOnly(await records(l, tabId)).map((r) => (r.data as any)?.payload?.path);
    expect(paths).toContain('/act/0');
    expect(paths).toContain('/later/0');
    await page.close();
  });
});
