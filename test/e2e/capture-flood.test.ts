// A flood of 100,000 svc-embed events from an embed to its host, in full mode: with the log's bound raised above it,
// every post and every delivery is in the log, in the order the embed posted them; with the default bound, what the
// log does not hold is exactly what its bound let go, and the user is told how many (a flood of 30,000 there: its
// 60,000 records pass the default bound as 200,000 would).
import type { Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import { DEFAULT_MAX_RECORDS } from '../../src/shared/messages.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { settled, state, tabIdOf } from '../helpers/capture.ts';
import { inPanel, panelFor, waitInPanel } from '../helpers/panel.ts';

const N = 100_000;
/** The flood against the default bound: more records than it holds. */
const PAST_BOUND = 30_000;

const HOST = `<!doctype html><script>
  window.got = 0;
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got++; });
</script><iframe src="{{EMBED}}/embed/dashboard/flood"></iframe>`;
// n events of about 200 B in one task, numbered 0…n-1 in payload.i.
const EMBED = `<!doctype html><script>
  window.flood = (n) => {
    const pad = 'x'.repeat(60);
    for (let i = 0; i < n; i++) {
      parent.postMessage({ source: 'svc-embed', direction: 'event', type: 'svc:event:view', surface: 'dashboard', payload: { surface: 'dashboard', i, path: '/flood/' + pad }, timestamp: Date.now() }, '{{HOST}}');
    }
  };
</script>`;

/**
 * What the tab's log holds of the flood, read in the service worker (only the summary crosses the DevTools protocol):
 * the flood's posts and deliveries by payload.i in log order, how many posts come before their own delivery (the one
 * of the same payload.i), the counters, and what an exported capture (the command line's file) says was let go.
 */
async function audit(l: Launched, tabId: number) {
  return (await l.worker()).evaluate(async (id: number) => {
    const api = (globalThis as any).embedInspector;
    const rs: any[] = await api.records(id);
    const st = await api.state(id);
    const posts: number[] = [];
    const postSeq = new Map<number, number>();
    const deliverySeq = new Map<number, number>();
    const deliveries: number[] = [];
    let postBeforeDelivery = 0;
    let paired = 0;
    let ascending = true;
    for (let k = 0; k < rs.length; k++) {
      const r = rs[k];
      if (k > 0 && r.seq <= rs[k - 1].seq) {
        ascending = false;
      }
      const i = r.data?.source === 'svc-embed' ? r.data.payload?.i : undefined;
      if (typeof i !== 'number') {
        continue;
      }
      if (r.kind === 'post') {
        posts.push(i);
        postSeq.set(i, r.seq);
      } else if (r.kind === 'receive') {
        deliveries.push(i);
        deliverySeq.set(i, r.seq);
      }
    }
    const pairedWith = new Map<number, number>(rs.map((r) => [r.seq, r.pairedWith]));
    for (const [i, seq] of postSeq) {
      if (seq < (deliverySeq.get(i) ?? -1)) {
        postBeforeDelivery++;
      }
      if (pairedWith.get(seq) === deliverySeq.get(i)) {
        paired++;
      }
    }
    const meta = (await api.exportCapture(id)).meta;
    return {
      held: rs.length,
      ascending,
      posts,
      deliveries,
      postBeforeDelivery,
      paired,
      total: st.total as number,
      dropped: st.dropped as number,
      exportedDropped: meta.dropped as number,
    };
  }, tabId);
}

const inOrder = (xs: number[]) => xs.every((x, k) => k === 0 || x > xs[k - 1]);

describe('a flood of 100,000 messages', () => {
  let srv: TwoOrigins;
  let l: Launched;
  test.beforeAll(async ({ chromium, launchForFile }) => {
    srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/flood': EMBED });
    l = chromium;
  });

  /** A fresh tab on the host page; `maxRecords`: the log's bound, set before the flood (as the panel's Settings). */
  async function open(maxRecords?: number): Promise<{ page: Page; tabId: number; before: number }> {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    if (maxRecords !== undefined) {
      await (await l.worker()).evaluate(
        (id: number, m: number) => (globalThis as any).embedInspector.setOptions(id, { maxRecords: m }),
        tabId,
        maxRecords,
      );
    }
    await settled(l, tabId); // the page's navigations are in the log before the flood
    return { page, tabId, before: (await state(l, tabId)).total ?? 0 };
  }

  /**
   * The embed posts N events in one task; resolves once the host got them all and the frames handed over all they
   * hold (`settled`: a frame still handing over the flood is waited for while its batches come).
   */
  async function flood(page: Page, tabId: number, n = N): Promise<void> {
    const embed = page.frames().find((f) => f.url().includes('/embed/'))!;
    await embed.evaluate((k: number) => (window as any).flood(k), n);
    await page.waitForFunction((k: number) => (window as any).got === k, { timeout: 150_000, polling: 200 }, n);
    await settled(l, tabId);
  }

  it('captures every post and every delivery, in order, when the bound holds the flood', async () => {
    const { page, tabId, before } = await open(2 * N + 1000);
    await flood(page, tabId);
    const a = await audit(l, tabId);
    const all = Array.from({ length: N }, (_, i) => i);
    expect(a.posts).toEqual(all);
    expect(a.deliveries).toEqual(all);
    expect(a.postBeforeDelivery).toBe(N);
    expect(a.paired).toBe(N); // each post with its own delivery
    expect(a.ascending).toBe(true);
    expect(a.total - before).toBe(2 * N);
    expect(a.dropped).toBe(0);
    await page.close();
  }, 300_000);

  it('with the default bound, holds its bound, counts every record it let go and says so', async () => {
    expect(2 * PAST_BOUND).toBeGreaterThan(DEFAULT_MAX_RECORDS);
    const { page, tabId, before } = await open();
    await flood(page, tabId, PAST_BOUND);
    const a = await audit(l, tabId);
    expect(a.total - before).toBe(2 * PAST_BOUND); // every record came
    expect(a.held).toBe(DEFAULT_MAX_RECORDS);
    expect(a.held + a.dropped).toBe(a.total); // what is not held was let go by the bound, and counted
    expect(a.exportedDropped).toBe(a.dropped);
    // What is held of the flood is in order, each once.
    expect(inOrder(a.posts)).toBe(true);
    expect(inOrder(a.deliveries)).toBe(true);
    expect(a.ascending).toBe(true);
    // The panel's summary bar tells the user.
    const panel = await panelFor(l, page);
    const shown = a.dropped.toLocaleString('en-US');
    await waitInPanel(
      panel,
      (_h, s) => document.querySelector('.cnt.dropped')?.textContent?.startsWith(`${s} dropped`),
      { timeout: 30_000, polling: 200 },
      shown,
    );
    expect(await inPanel(panel, () => document.querySelector('.cnt.dropped')?.textContent)).toContain(
      `${shown} dropped`,
    );
    await panel.close();
    await page.close();
  }, 300_000);
});
