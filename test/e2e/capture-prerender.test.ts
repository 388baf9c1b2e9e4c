// A page Chrome prerenders (speculation rules; the omnibox does too): its scripts, ours included, run before the user
// opens it, while the tab still shows the page before; opening it activates that document, which becomes the tab's
// page. Chromium names its top frame as a frame of its own (not 0) on what it does before.
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { pathOf } from '../helpers/exchange.ts';
import { messagesOnly, records, settled, tabIdOf, waitForRecords } from '../helpers/capture.ts';

const HOST = `<!doctype html><script type="speculationrules">{"prerender":[{"source":"list","urls":["/next"]}]}</script>
<a id="go" href="/next">next</a>`;
// Posts to itself as it is prerendered, as it is activated, and when asked.
const NEXT = `<!doctype html><script>
  window.prerendered = document.prerendering;
  const post = (path) => window.postMessage({ source: 'svc-embed', direction: 'event', type: 'svc:event:navigated', payload: { path }, timestamp: Date.now() }, '*');
  post('/pre/0');
  localStorage.setItem('ran', document.prerendering ? 'prerendered' : 'loaded');
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

  it('records nothing of it under the page before; once opened, all it said, as the tab’s top frame', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    // The prerendered document, once its script ran (its first post made): it says so in the origin's storage.
    await page.waitForFunction(() => localStorage.getItem('ran') === 'prerendered');
    await settled(l, tabId);
    // The tab still shows the page before: its log holds nothing of the prerender (no post, no frame of its own).
    const before = await records(l, tabId);
    expect(before.filter((r) => r.frameId !== 0 || pathOf(r) !== '').map((r) => `${r.frameId} ${r.frameUrl}`)).toEqual(
      [],
    );
    await Promise.all([page.waitForNavigation(), page.click('#go')]);
    expect(await page.evaluate(() => (window as any).prerendered)).toBe(true);
    await page.evaluate(() => (window as any).later(0));
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).some((r) => pathOf(r) === '/later/0'));
    await settled(l, tabId);
    const after = await records(l, tabId);
    // Its navigation, then what it said as it was prerendered, as it was opened and later: all as the tab's top frame.
    expect(after.map((r) => `${r.frameId} ${r.navigation ? r.frameUrl : pathOf(r)}`)).toEqual([
      `0 ${srv.hostOrigin}/next`,
      '0 /pre/0',
      '0 /act/0',
      '0 /later/0',
    ]);
    await page.close();
  });
});
