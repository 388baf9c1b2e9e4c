/**
 * Verdicts the panel must not get wrong in ordinary use (issue 14), on a plain host/embed pair written for the
 * test, in real Chromium with the built extension: Clear in the middle of a session, preserve log across two
 * sites, the delivery of an invalid post, and a flood past the log's bound.
 */
import { afterEach } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { settled, tabIdOf } from '../helpers/capture.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, type PanelTestHandle, panelFor, panelRecords, waitInPanel } from '../helpers/panel.ts';

const HOST = `<!doctype html><title>host</title><script>
  const env = (type, payload = {}) => ({ source: 'svc-embed', direction: 'action', type, payload, timestamp: Date.now() });
  const embed = () => document.querySelector('iframe').contentWindow;
  window.act = (type, payload, to = '{{EMBED}}') => embed().postMessage(env(type, payload), to);
  window.tryPost = (to) => { try { embed().postMessage(env('svc:action:refresh'), to); } catch (e) { return String(e); } };
  window.flood = (n) => { for (let i = 0; i < n; i++) act('svc:action:set-locale', { locale: 'de-CH' }); };
  window.ready = false;
  addEventListener('message', (e) => { if (e.origin === '{{EMBED}}' && e.data?.type === 'svc:event:ready') window.ready = true; });
</script><iframe src="{{EMBED}}/embed/dashboard/d1?session=s1"></iframe>`;
const EMBED = `<!doctype html><script>
  const env = (type, payload) => ({ source: 'svc-embed', direction: 'event', type, payload, surface: 'dashboard', timestamp: Date.now() });
  const emit = (type, payload) => parent.postMessage(env(type, payload), '{{HOST}}');
  window.ready = () => emit('svc:event:ready', { embedTenant: 'acme', deploymentId: 1, mode: 'signed', surface: 'dashboard', publicId: 'd1' });
  addEventListener('message', (e) => {
    if (e.origin === '{{HOST}}' && e.data?.type === 'svc:action:refresh') {
      emit('svc:event:dashboard-loaded', { publicId: 'd1', widgetCount: 1, loadDurationMs: 5 });
    }
  });
  ready();
</script><p>embed</p>`;

let srv: TwoOrigins;
let srv2: TwoOrigins;
let l: Launched;
const errors: string[] = [];
/** Pages of the current test, closed after it (passed or not). */
const opened: Page[] = [];

async function open(s: TwoOrigins): Promise<{ page: Page; panel: Page }> {
  const page = await l.browser.newPage();
  await page.goto(`${s.hostOrigin}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => (window as any).ready === true, { timeout: 10_000 });
  const panel = await panelFor(l, page, errors);
  opened.push(page, panel);
  await waitStore(panel, (h) => h.ready() !== null);
  return { page, panel };
}
function waitStore(panel: Page, pred: (h: PanelTestHandle) => boolean, timeout = 15_000) {
  return waitInPanel(panel, pred, { timeout });
}
const rules = (rs: Array<{ rules: string[] }>) => rs.flatMap((r) => r.rules);

test.beforeAll(async ({ chromium, launchForFile }) => {
  const pages = () => launchForFile.pages({ '/': HOST }, { '/embed/dashboard/d1': EMBED });
  [srv, srv2] = await Promise.all([pages(), pages()]);
  l = chromium;
});
afterEach(async () => {
  for (const p of opened.splice(0)) {
    await p.close().catch(() => {});
  }
});

describe('verdicts on a plain host/embed pair', () => {
  it('Clear in the middle of a session empties the view; the session goes on', async () => {
    const { page, panel } = await open(srv);
    await panel.click('.summary button[title="Clear the log"]');
    await waitStore(panel, (h) => h.counts().records === 0);
    // The session facts say ready came before Clear, not that it was never seen.
    await panel.waitForFunction(() => document.querySelector('.facts')?.textContent?.includes('ready: before Clear'));
    expect(await panel.$eval('.facts', (e) => e.textContent)).not.toContain('not seen');
    await settled(l, await tabIdOf(l, page), panel); // the background has cleared too, before the next message
    await page.evaluate(() => (window as any).act('svc:action:refresh'));
    await waitStore(panel, (h) =>
      h.records().some((r: any) => r.kind === 'receive' && r.data?.type === 'svc:event:dashboard-loaded'),
    );
    const after = await panelRecords(panel);
    expect(after.map((r) => r.type)).toContain('svc:action:refresh');
    expect(rules(after)).toEqual([]);
    expect(await panel.$eval('.cnt.v-invalid', (e) => e.textContent)).toBe('0 invalid');
    // The integration line does not judge the page from its tail: an empty log is not "no embed on this page".
    const line = () =>
      panel.$eval('[data-testid="integration"]', (e) => ({ state: e.getAttribute('data-state'), text: e.textContent }));
    expect(await line()).toEqual({
      state: 'cleared',
      text: expect.stringMatching(/not judged: the log was cleared during this page/),
    });
    // The next page is judged whole again.
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => (window as any).ready === true, { timeout: 10_000 });
    await panel.waitForFunction(
      () => document.querySelector('[data-testid="integration"]')?.getAttribute('data-state') === 'healthy',
      { timeout: 10_000 },
    );
  });

  it('preserve log across two sites: the tenant origin is the current page’s; a hand-set one shows and resets', async () => {
    const { page, panel } = await open(srv);
    await panel.$eval('.summary label.check input', (i) => (i as HTMLInputElement).click()); // Preserve log
    await waitStore(panel, (h) => h.state().preserveLog === true);
    await page.goto(`${srv2.hostOrigin}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as any).ready === true, { timeout: 10_000 });
    await page.evaluate(() => (window as any).act('svc:action:refresh'));
    const second = srv2.embedOrigin;
    await waitInPanel(
      panel,
      (h, o) =>
        h
          .records()
          .some((r: any) => r.origin === o && r.data?.type === 'svc:event:dashboard-loaded' && r.kind === 'receive'),
      { timeout: 15_000 },
      second,
    );
    const all = await panelRecords(panel);
    expect(all.some((r) => r.frameUrl.startsWith(srv.hostOrigin))).toBe(true); // the first site's records stay
    expect(rules(all)).toEqual([]);
    // Each page's session starts with a divider; the summary's ready is the current page's.
    expect(await panel.$$eval('.grid-body .row.page-start', (els) => els.length)).toBe(2);
    const readyOrigin = await inPanel(panel, (h) => {
      return h.ready()?.origin;
    });
    expect(readyOrigin).toBe(second);
    // The earlier page's session is one click away: its divider's detail.
    await panel.click('.grid-body .row.page-start');
    await panel.waitForSelector('[data-testid="page-summary"]', { timeout: 5000 });
    const summary = await panel.$eval('[data-testid="page-summary"]', (e) => e.textContent ?? '');
    expect(summary).toContain(new URL(srv.hostOrigin).host);
    expect(summary).toMatch(/ready in /);
    expect(await inPanel(panel, (h) => h.state().tenantOrigin)).toBe(second);
    expect(await panel.$eval('.tenant .value', (e) => e.textContent)).toContain(second);
    // Set by hand: shown as such, with a way back to the inferred one.
    await panel.click('.summary .tenant .value');
    await panel.waitForSelector('.tenant-input');
    await panel.$eval('.tenant-input', (i) => {
      (i as HTMLInputElement).value = '';
    });
    await panel.type('.tenant-input', srv.embedOrigin);
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('.tenant-reset');
    expect(await panel.$eval('.tenant .value', (e) => e.textContent)).toContain('set by hand');
    await waitStore(panel, (h) => h.counts().invalid > 0);
    await panel.click('.tenant-reset');
    await waitInPanel(panel, (h, o) => h.state().tenantOrigin === o, { timeout: 5_000 }, second);
    expect(await panel.$('.tenant-reset')).toBeNull();
    expect(await panel.$eval('.tenant .value', (e) => e.textContent)).not.toContain('set by hand');
  });

  it('the delivery of an invalid post shows its issues, as the sender’s: kind:receive is not all green', async () => {
    const { page, panel } = await open(srv);
    await page.evaluate(() => (window as any).act('svc:action:refresh', {}, '*'));
    const embed = page.frames().find((f) => f.url().startsWith(srv.embedOrigin))!;
    await embed.evaluate(() => (window as any).ready()); // a second ready
    await waitStore(panel, (h) => h.records().filter((r: any) => r.data?.type === 'svc:event:ready').length >= 4);
    await waitStore(panel, (h) =>
      h.records().some((r: any) => r.kind === 'receive' && r.data?.type === 'svc:action:refresh' && r.pairedWith),
    );
    await inPanel(panel, (h) => h.setFilters({ search: 'kind:receive' }));
    const shown = await inPanel(panel, (h) => {
      return h.rows().map((r) => ({
        seq: r.seq,
        type: (r.data as any)?.type,
        verdict: r.verdict,
        rules: r.issues.map((x) => x.rule),
      }));
    });
    const refresh = shown.find((r) => r.type === 'svc:action:refresh');
    expect(refresh).toMatchObject({ verdict: 'invalid', rules: ['origin.action-wildcard'] });
    expect(shown.filter((r) => r.type === 'svc:event:ready').at(-1)?.rules).toContain('session.ready-duplicate');
    // The detail says so, and links the post.
    await inPanel(panel, (h) => h.setFilters({ search: 'kind:receive type:refresh' }));
    await panel.waitForSelector('.grid-body [role="row"]');
    await panel.click('.grid-body [role="row"]');
    await panel.click('#tab-issues');
    await panel.waitForSelector('.issues-tab');
    const text = await panel.$eval('.issues-tab', (e) => e.textContent ?? '');
    expect(text).toContain('origin.action-wildcard');
    expect(text).toContain("sender's");
    expect(text).not.toContain('No issues');
    await panel.click('.sender-link');
    await waitInPanel(
      panel,
      (h, seq) => {
        const sel = h.selected();
        return sel !== null && sel !== seq && h.record(sel)?.kind === 'post';
      },
      { timeout: 5_000 },
      refresh?.seq,
    );
    await inPanel(panel, (h) => h.resetFilters());
  });

  it('a flood past the bound lets valid repeats go and keeps ready and what was wrong, saying what went', async () => {
    const { page, panel } = await open(srv);
    if (!(await panel.$eval('.limits-button', (b) => b.getAttribute('aria-expanded') === 'true'))) {
      await panel.click('.limits-button');
    }
    await panel.$eval('.lim-records', (el) => (el as HTMLInputElement).select());
    await panel.type('.lim-records', '1000');
    await panel.keyboard.press('Enter');
    await waitStore(panel, (h) => h.state().maxRecords === 1000);
    await page.evaluate(() => (window as any).act('svc:action:refresh', {}, '*')); // invalid: to '*'
    await page.evaluate(() => (window as any).tryPost('http://127.0.0.1:1')); // dropped by the browser
    expect(await page.evaluate(() => (window as any).tryPost('not a url'))).toMatch(/SyntaxError/); // threw
    await page.evaluate(() => (window as any).flood(3000));
    await waitStore(panel, (h) => h.state().dropped >= 5000, 30_000);
    await settled(l, await tabIdOf(l, page), panel);
    const held = await panelRecords(panel);
    expect(held.length).toBeLessThanOrEqual(1100);
    expect(held.filter((r) => r.type === 'svc:event:ready').length).toBeGreaterThanOrEqual(1);
    expect(rules(held)).toEqual(expect.arrayContaining(['origin.action-wildcard', 'origin.action-target']));
    expect(held.some((r) => r.rules.includes('origin.action-target') && r.kind === 'post')).toBe(true);
    // What the user reads: the invalid posts, ready, and what kind of records went.
    expect(await panel.$eval('.cnt.v-invalid', (e) => e.textContent)).toBe('3 invalid');
    expect(await panel.$eval('.summary .facts', (e) => e.textContent)).toContain('ready in');
    expect(await panel.$eval('.cnt.dropped', (e) => e.textContent)).toMatch(/dropped \([\d,]+ valid repeats\)/);
  });

  it('a large log loaded in place paints its rows first; its line says judging, never the last verdict', async () => {
    const { panel } = await open(srv);
    const state = () => panel.$eval('[data-testid="integration"]', (e) => e.getAttribute('data-state'));
    await panel.waitForFunction(
      () => document.querySelector('[data-testid="integration"]')?.getAttribute('data-state') === 'healthy',
      { timeout: 10_000 },
    );
    // 12,000 records of a session whose host posts actions to "*" (the demo), loaded as a file would be
    const firstFrame = await inPanel(panel, async (h) => {
      h.load(
        h.synthetic(12_000).map((r) => structuredClone(r)),
        'large',
      );
      await new Promise((r) => requestAnimationFrame(r)); // what that frame shows
      return {
        state: document.querySelector('[data-testid="integration"]')?.getAttribute('data-state'),
        rows: document.querySelectorAll('.grid-body [role="row"]').length,
        count: h.counts().records,
      };
    });
    expect(firstFrame).toEqual({ state: 'judging', rows: expect.any(Number), count: 12_000 });
    expect(firstFrame.rows).toBeGreaterThan(5);
    await panel.waitForFunction(
      () => document.querySelector('[data-testid="integration"]')?.getAttribute('data-state') !== 'judging',
      { timeout: 15_000 },
    );
    expect(await state()).toBe('actions-wrong-origin');
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
