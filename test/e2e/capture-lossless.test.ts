// Nothing is lost: a 10,000-message flood, and a service worker stopped in the middle of a stream.
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import {
  messagesOnly,
  records,
  restartWorker,
  settled,
  state,
  tabIdOf,
  waitForCount,
  waitForRecords,
} from '../helpers/capture.ts';

const HOST = `<!doctype html><script>
  window.got = 0;
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got++; });
  const env = (i) => ({ source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path: '/p/' + i }, timestamp: Date.now() });
  // A burst: n posts in one task.
  window.flood = (n) => { const w = document.querySelector('iframe').contentWindow; for (let i = 0; i < n; i++) w.postMessage(env(i), '{{EMBED}}'); };
  // A stream: n posts spread over time, 'per' per tick, numbered from 'from'.
  window.stream = (n, per, from = 0) => new Promise((done) => {
    const w = document.querySelector('iframe').contentWindow; let i = from; n += from;
    const t = setInterval(() => { for (let k = 0; k < per && i < n; k++, i++) w.postMessage(env(i), '{{EMBED}}'); if (i >= n) { clearInterval(t); done(); } }, 4);
  });
</script><iframe src="{{EMBED}}/embed/dashboard/flood"></iframe>`;
const EMBED = `<!doctype html><script>
  window.got = 0;
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got++; });
</script>`;

describe('lossless capture', () => {
  let srv: TwoOrigins;
  let l: Launched;
  test.beforeAll(async ({ chromium, launchForFile }) => {
    srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/flood': EMBED });
    l = chromium;
  });

  const delivered = async (page: import('puppeteer-core').Page) => {
    const frame = page.frames().find((f) => f.url().includes('/embed/'))!;
    return frame.evaluate(() => (window as any).got as number);
  };

  it('captures a 10,000-message flood completely: every post and every delivery, paired', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    const N = 10_000;
    const navs = (await records(l, tabId)).length;
    await page.evaluate((n) => (window as any).flood(n), N);
    await waitForCount(l, tabId, navs + 2 * N, 45_000);
    await settled(l, tabId); // nothing more is held anywhere
    const recs = messagesOnly(await records(l, tabId));
    expect(await delivered(page)).toBe(N);
    const posts = recs.filter((r) => r.kind === 'post');
    const receives = recs.filter((r) => r.kind === 'receive');
    expect(posts.length).toBe(N);
    expect(receives.length).toBe(N);
    expect(new Set(posts.map((r) => (r.data as any).payload.path)).size).toBe(N);
    expect(posts.every((r) => r.pairedWith !== undefined)).toBe(true);
    expect((await state(l, tabId)).dropped).toBe(0);
    await page.close();
  });

  it('loses nothing when the service worker is stopped in the middle of a stream', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    const N = 3000;
    // The stream's first half runs while the worker is stopped; its second half starts once it is, so the page
    // has something to send whatever the machine's speed, and what reconnects to send it wakes a new worker.
    const first = page.evaluate((n) => (window as any).stream(n, 10), N / 2);
    await waitForRecords(l, tabId, (rs) => rs.length > 200);
    let second: Promise<unknown> = Promise.resolve();
    await restartWorker(l, 15_000, async () => {
      second = first.then(() => page.evaluate((n) => (window as any).stream(n, 10, n), N / 2));
    });
    await second;
    const navs = (await records(l, tabId)).filter((r) => r.navigation).length;
    await waitForCount(l, tabId, navs + 2 * N, 45_000);
    await settled(l, tabId);
    const recs = messagesOnly(await records(l, tabId));
    expect(await delivered(page)).toBe(N);
    expect(recs.filter((r) => r.kind === 'post').length).toBe(N);
    expect(recs.filter((r) => r.kind === 'receive').length).toBe(N);
    // Exactly once: no batch stored twice after the reconnection.
    const paths = recs.filter((r) => r.kind === 'post').map((r) => (r.data as any).payload.path);
    expect(new Set(paths).size).toBe(N);
    const seqs = recs.map((r) => r.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    // It really was a new worker: the old one's globals are gone.
    expect(await (await l.worker()).evaluate(() => (globalThis as any).__marker)).toBeUndefined();
    await page.close();
  });
});
