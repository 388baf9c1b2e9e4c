// Buffer limits from the panel: the log keeps at most N messages (the rest dropped, and counted where the user
// sees it), and a message over the size cap is kept truncated with its original size — never dropped silently.
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { settled, tabIdOf } from '../helpers/capture.ts';
import { inPanel, waitInPanel } from '../helpers/panel.ts';

const HOST = `<!doctype html><script>
  const env = (i, extra) => ({ source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path: '/p/' + i, ...extra }, timestamp: Date.now() });
  window.flood = (n) => { const w = document.querySelector('iframe').contentWindow; for (let i = 0; i < n; i++) w.postMessage(env(i), '{{EMBED}}'); };
  window.big = (bytes) => document.querySelector('iframe').contentWindow.postMessage(env('big', { blob: 'x'.repeat(bytes) }), '{{EMBED}}');
</script><iframe src="{{EMBED}}/embed/dashboard/limits"></iframe>`;

describe('buffer limits set in the panel', () => {
  let srv: TwoOrigins;
  let l: Launched;
  let page: Page;
  let panel: Page;
  let tabId: number;

  test.beforeAll(async ({ chromium, launchForFile }) => {
    srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/limits': '<!doctype html><p>embed</p>' });
    l = chromium;
    page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    tabId = await tabIdOf(l, page);
    panel = await l.browser.newPage();
    await panel.goto(`chrome-extension://${l.extensionId}/src/panel/index.html?tabId=${tabId}&theme=light`);
    await waitInPanel(panel, (h) => h.store.status === 'connected', {
      timeout: 10_000,
    });
  });

  async function setLimit(selector: string, value: string) {
    if (!(await panel.$eval('.limits-button', (b) => b.getAttribute('aria-expanded') === 'true'))) {
      await panel.click('.limits-button');
    }
    await panel.$eval(selector, (el) => {
      (el as HTMLInputElement).select();
    });
    await panel.type(selector, value);
    await panel.keyboard.press('Enter');
  }

  it('keeps at most N messages and shows how many were dropped', async () => {
    await setLimit('.lim-records', '100');
    await waitInPanel(panel, (h) => h.state().maxRecords === 100, {
      timeout: 5_000,
    });
    await page.evaluate(() => (window as any).flood(300)); // 300 posts + 300 deliveries
    await waitInPanel(panel, (h) => h.state().dropped >= 500, {
      timeout: 15_000,
    });
    await settled(l, tabId, panel);
    expect(await inPanel(panel, (h) => h.counts().records)).toBeLessThanOrEqual(110); // the panel trims in steps of a tenth
    const chip = await panel.$eval('.cnt.dropped', (e) => e.textContent);
    expect(Number(chip!.replace(/\D/g, ''))).toBeGreaterThanOrEqual(500);
    // the newest are the ones kept
    expect(await inPanel(panel, (h) => (h.records().at(-1)?.data as any)?.payload.path)).toBe('/p/299');
  });

  it('keeps a message over the size cap truncated, with its original size', async () => {
    await setLimit('.lim-kb', '2');
    await waitInPanel(panel, (h) => h.state().maxBytes === 2000, {
      timeout: 5_000,
    });
    await settled(l, tabId); // the new cap has reached the page's frames (it goes before the hand-over on their ports)
    await page.evaluate(() => (window as any).big(20_000));
    await waitInPanel(panel, (h) => h.records().some((r: any) => r.originalSize > 20_000 && r.kind === 'post'), {
      timeout: 10_000,
    });
    const rec = await inPanel(
      panel,
      (h) => h.records().find((r) => (r.originalSize ?? 0) > 20000 && r.kind === 'post') as any,
    );
    expect(rec.data.$ei).toBe('Truncated');
    expect(rec.data.type).toBe('svc:action:navigate'); // the envelope is kept: still classifiable
    expect(rec.verdict).not.toBe('foreign');
    // Judged by what was kept, and found by its type.
    const rules = rec.issues.map((i: { rule: string }) => i.rule);
    expect(rules).toContain('envelope.truncated');
    expect(rules.filter((r: string) => r.startsWith('payload.') || r === 'envelope.payload')).toEqual([]);
    await inPanel(panel, (h) => h.setFilters({ search: 'type:navigate' }));
    expect(await inPanel(panel, (h) => h.rows().some((r) => (r.originalSize ?? 0) > 20000))).toBe(true);
    await inPanel(panel, (h) => h.resetFilters());
  });
});
