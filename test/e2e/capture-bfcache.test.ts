// A page the tab goes back to from the back/forward cache: the same document (and its embed) again, after the log
// had left it for another page. What it says from then on is the page's on screen, and is recorded.
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { answeringEmbed, pathOf } from '../helpers/exchange.ts';
import { messagesOnly, records, settled, tabIdOf, waitForRecords } from '../helpers/capture.ts';

const HOST = `<!doctype html><script>
  window.got = 0;
  addEventListener('pageshow', (e) => { if (e.persisted) window.restored = true; });
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got++; });
  const env = (path) => ({ source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path }, timestamp: Date.now() });
  window.send = (p, n) => { const w = document.querySelector('iframe').contentWindow; for (let i = 0; i < n; i++) w.postMessage(env(p + i), '{{EMBED}}'); };
</script><iframe src="{{EMBED}}/embed/dashboard/a"></iframe>`;
const EMBED = answeringEmbed({ ready: true });

let srv: TwoOrigins;
test.beforeAll(async ({ launchForFile }) => {
  srv = await launchForFile.pages(
    { '/': HOST, '/other': '<!doctype html><p>another page</p>' },
    {
      '/embed/dashboard/a': EMBED,
    },
  );
});

describe('a page the tab goes back to from the back/forward cache', () => {
  let l: Launched;
  test.beforeAll(({ chromium }) => {
    l = chromium;
  });

  for (const preserveLog of [false, true]) {
    it(`records what it and its embed say once it is shown again, its embed still ready (preserve log ${preserveLog ? 'on' : 'off'})`, async () => {
      const page = await l.browser.newPage();
      await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
      const tabId = await tabIdOf(l, page);
      await (await l.worker()).evaluate(
        (id, p) => (globalThis as any).embedInspector.setOptions(id, { preserveLog: p }),
        tabId,
        preserveLog,
      );
      await page.evaluate(() => (window as any).send('/first/', 1));
      await page.waitForFunction(() => (window as any).got === 2); // (the ready, the answer)
      await settled(l, tabId);
      await page.goto(`${srv.hostOrigin}/other`, { waitUntil: 'load' });
      await settled(l, tabId);
      await page.goBack({ waitUntil: 'load' });
      // (the same document, not a new load: otherwise this is not the case under test)
      await page.waitForFunction(() => (window as any).restored === true);
      await page.evaluate(() => (window as any).send('/back/', 3));
      await page.waitForFunction(() => (window as any).got === 5);
      await waitForRecords(
        l,
        tabId,
        (rs) => messagesOnly(rs).filter((r) => pathOf(r).startsWith('/back/')).length === 12,
      );
      await settled(l, tabId);
      const back = messagesOnly(await records(l, tabId)).filter((r) => pathOf(r).startsWith('/back/'));
      // Each action: the host's post, the embed's delivery; each answer: the embed's post, the host's delivery.
      expect(back.map((r) => `${r.kind} ${pathOf(r)} ${r.frameId === 0 ? 'host' : 'embed'}`).sort()).toEqual(
        [0, 1, 2]
          .flatMap((i) => [
            `post /back/${i} host`,
            `receive /back/${i} embed`,
            `post /back/${i} embed`,
            `receive /back/${i} host`,
          ])
          .sort(),
      );
      // Its navigation says so: the same document and embed as before.
      const navs = (await records(l, tabId)).filter((r) => r.navigation && r.frameId === 0);
      expect((navs.at(-1)?.data as { restored?: boolean } | undefined)?.restored).toBe(true);
      // Its embed said ready then, so nothing here is before its ready.
      expect(back.flatMap((r) => r.issues.map((i) => i.rule)).filter((rule) => rule.includes('before-ready'))).toEqual(
        [],
      );
      await page.close();
    });
  }
});
