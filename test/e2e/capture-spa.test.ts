// A host page that changes its address without loading a new document (a single-page app's router: pushState,
// replaceState, a fragment, Back within the page). The log goes on, and each record says where its frame was when
// the message was sent or received.
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
const EMBED = answeringEmbed({ quiet: '/quiet' });

let srv: TwoOrigins;
test.beforeAll(async ({ launchForFile }) => {
  srv = await launchForFile.pages({ '/app': HOST }, { '/embed/dashboard/a': EMBED });
});

describe('a host page whose router changes its address', () => {
  let l: Launched;
  test.beforeAll(({ chromium }) => {
    l = chromium;
  });

  it('records each message at the address its frame had then, in one log', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/app`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    // Each step: the host sends, then its router moves on in the same task (what it sent is still held then).
    const steps: Array<[path: string, route: string]> = [
      ['/1', "history.pushState({}, '', '/app/reports?x=1')"],
      ['/2', "history.replaceState({}, '', '/app/other')"],
      ['/3', "location.hash = '#tab2'"],
      ['/4', "history.pushState({}, '', '/app/final')"],
    ];
    const sentAt: Record<string, string> = {};
    const gotAt: Record<string, string> = {};
    for (const [path, route] of steps) {
      const [before, after] = (await page.evaluate(
        `(() => { const b = location.href; window.send(${JSON.stringify(path)}); ${route}; return [b, location.href]; })()`,
      )) as [string, string];
      sentAt[path] = before;
      gotAt[path] = after; // (its answer comes once the router has moved on)
      await page.waitForFunction((p) => (window as any).got.includes(p), {}, path);
    }
    // Back within the page (a traversal, not a new document), then one more.
    await page.evaluate(() => history.back());
    await page.waitForFunction((u) => location.href === u, {}, gotAt['/3']);
    sentAt['/5'] = gotAt['/5'] = gotAt['/3'];
    await page.evaluate(() => (window as any).send('/5'));
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).filter((r) => r.frameId === 0).length === 10);
    // An action nothing answers, then the router moves on: it leaves as any post does (no hand-over asked for).
    sentAt['/quiet'] = (await page.evaluate(
      "(() => { const b = location.href; window.send('/quiet'); history.pushState({}, '', '/app/q'); return b; })()",
    )) as string;
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).some((r) => pathOf(r) === '/quiet' && r.kind === 'post'));
    await settled(l, tabId);
    const host = messagesOnly(await records(l, tabId)).filter((r) => r.frameId === 0);
    const where = (kind: string) =>
      Object.fromEntries(host.filter((r) => r.kind === kind).map((r) => [pathOf(r), r.frameUrl]));
    // The host's posts at the address it sent from; its deliveries of the answers at the address it had by then.
    expect(where('post')).toEqual(sentAt);
    expect(where('receive')).toEqual(gotAt);
    await page.close();
  });
});
