/**
 * The panel on live capture: real Chromium, the built extension, the sandbox. The panel page is opened in a
 * tab with `?tabId=` of the sandbox tab (no chrome.devtools there), plus one smoke test through the real
 * DevTools panel. Fails (never skips) without Chromium, a build or the sandbox.
 */
import type { Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server.mjs';
import type { Launched } from '../../src/node/chromium.ts';
import { openRealDevtoolsPanel } from '../../src/node/devtools-panel.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import * as helpers from '../helpers/panel.ts';
import { inPanel, waitInPanel } from '../helpers/panel.ts';
import { stopWorkerAsIdle } from '../helpers/capture.ts';

let sandbox: Sandbox;
let launched: Launched;
const errors: string[] = [];

test.beforeAll(({ sandbox: sb, chromium }) => {
  sandbox = sb;
  launched = chromium;
});

const hostPage = (query = '') => helpers.hostPage(launched, sandbox, query);
const panelFor = (page: Page) => helpers.panelFor(launched, page, errors);
const embedFrame = (page: Page) => helpers.embedFrame(page, sandbox.tenantOrigin);
const types = (panel: Page) =>
  inPanel(panel, (h) => {
    return h.rows().map((r) => (r.navigation ? 'navigation' : `${r.kind} ${r.type}`));
  });
const gridText = (panel: Page) => panel.$eval('.grid-canvas', (g) => g.textContent ?? '');

describe('panel on live capture (sandbox)', () => {
  it('shows records live as the page talks, with the session facts', async () => {
    const page = await hostPage();
    const panel = await panelFor(page);
    await waitInPanel(panel, (h) => h.ready() !== null, { timeout: 10_000 });
    expect((await types(panel)).some((t) => t.endsWith('svc:event:ready'))).toBe(true);
    expect(await gridText(panel)).toContain('ready');
    const before = await inPanel(panel, (h) => h.counts().records);
    // the page talks while the panel is open: the rows appear without any reload
    await page.evaluate(() => (window as any).__sandboxHost.sendAction('svc:action:set-locale', { locale: 'fr-FR' }));
    await waitInPanel(panel, (h, n) => h.counts().records > n, { timeout: 10_000 }, before);
    await panel.waitForFunction(() => document.querySelector('.grid-canvas')!.textContent!.includes('set-locale'), {
      timeout: 10_000,
    });
    expect(await panel.$eval('.summary', (s) => s.textContent)).toMatch(/ready in/);
    expect(await panel.$eval('.summary .tenant', (s) => s.textContent)).toContain(sandbox.tenantOrigin);
    await panel.close();
    await page.close();
  });

  it('each filter narrows the live list', async () => {
    const page = await hostPage();
    const panel = await panelFor(page);
    await page.evaluate(() =>
      (window as any).__sandboxHost.sendAction('svc:action:set-color-scheme', { scheme: 'dark' }),
    );
    await waitInPanel(
      panel,
      (h) => {
        return h.records({ type: 'svc:action:set-color-scheme' }).length > 0 && h.ready() !== null;
      },
      { timeout: 10_000 },
    );
    const all = (await types(panel)).length;
    const narrow = async (patch: object, pred: (t: string) => boolean) => {
      await inPanel(
        panel,
        (h, p) => {
          h.resetFilters();
          h.setFilters(p);
        },
        patch,
      );
      const t = await types(panel);
      expect(t.length, JSON.stringify(patch)).toBeGreaterThan(0);
      expect(t.length, JSON.stringify(patch)).toBeLessThan(all);
      expect(t.every(pred), JSON.stringify(patch)).toBe(true);
    };
    await narrow({ directions: ['action'] }, (t) => t.includes('svc:action:'));
    await narrow({ directions: ['event'] }, (t) => t.includes('svc:event:'));
    await narrow({ kinds: ['receive'] }, (t) => t.startsWith('receive') || t === 'navigation');
    await narrow({ types: ['svc:event:ready'] }, (t) => t.endsWith('svc:event:ready'));
    await narrow({ search: 'type:set-color-scheme' }, (t) => t.endsWith('svc:action:set-color-scheme'));
    await narrow({ origins: [sandbox.hostOrigin] }, (t) => t.includes('svc:action:') || t === 'navigation');
    await inPanel(panel, (h) => h.resetFilters());
    await panel.close();
    await page.close();
  });

  it('selecting a fault-mode record shows its issues', async () => {
    const page = await hostPage('faults=missing-surface');
    const panel = await panelFor(page);
    await waitInPanel(panel, (h) => h.counts().invalid > 0, {
      timeout: 10_000,
    });
    await inPanel(panel, (h) => h.setFilters({ verdicts: ['invalid'], search: 'type:view' }));
    await panel.waitForSelector('.grid-body [role="row"]');
    await panel.click('.grid-body [role="row"]');
    await panel.click('#tab-issues');
    const rules = await panel.$$eval('.issues .rule', (r) => r.map((x) => x.textContent));
    expect(rules).toContain('envelope.surface-missing');
    expect(await panel.$eval('.issues .spec', (s) => s.textContent)).toContain('surface');
    await inPanel(panel, (h) => h.resetFilters());
    await panel.close();
    await page.close();
  });

  it('an XSS payload captured from the page stays inert in the panel', async () => {
    const page = await hostPage();
    const panel = await panelFor(page);
    const frame = await embedFrame(page);
    await frame.evaluate((host) => {
      window.parent.postMessage(
        {
          source: 'svc-embed',
          direction: 'event',
          type: 'svc:event:view',
          surface: 'dashboard',
          timestamp: Date.now(),
          payload: {
            surface: 'dashboard',
            path: 'javascript:window.top.__xss=2',
            title: '<img src=x onerror="window.__xss=1;window.top.__xss=1">',
          },
        },
        host,
      );
    }, sandbox.hostOrigin);
    await waitInPanel(panel, (h) => h.records().some((r: any) => JSON.stringify(r.data).includes('onerror')), {
      timeout: 10_000,
    });
    await inPanel(panel, (h) => h.setFilters({ search: 'onerror kind:receive' }));
    await panel.waitForSelector('.grid-body [role="row"]');
    await panel.click('.grid-body [role="row"]');
    await panel.click('#tab-message');
    await panel.evaluate(() => {
      const it = document.querySelector('[data-path="$.payload"]') as HTMLElement | null;
      if (it?.getAttribute('aria-expanded') === 'false') {
        (it.querySelector('.twisty') as HTMLElement).click();
      }
    });
    await panel.waitForFunction(
      () =>
        document.querySelector('[data-path="$.payload"]')?.getAttribute('aria-expanded') === 'true' &&
        document.body.textContent!.includes('<img src=x onerror='),
      { timeout: 5_000 },
    );
    const r = await panel.evaluate(() => ({
      xss: (window as any).__xss,
      imgs: document.querySelectorAll('img').length,
      links: document.querySelectorAll('a[href^="javascript:"]').length,
      text: document.body.textContent,
    }));
    expect(r.xss).toBeUndefined();
    expect(r.imgs).toBe(0);
    expect(r.links).toBe(0);
    expect(r.text).toContain('<img src=x onerror=');
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    await inPanel(panel, (h) => h.resetFilters());
    await panel.close();
    await page.close();
  });

  it('pause, clear and the tenant origin reach the background', async () => {
    const page = await hostPage();
    const panel = await panelFor(page);
    await panel.click('.summary .rec');
    await waitInPanel(panel, (h) => h.state().paused === true, {
      timeout: 5_000,
    });
    await panel.click('.summary .rec');
    await waitInPanel(panel, (h) => h.state().paused === false, {
      timeout: 5_000,
    });
    await panel.click('.summary .tenant .value');
    await panel.waitForSelector('.tenant-input');
    await panel.$eval('.tenant-input', (i) => {
      (i as HTMLInputElement).value = '';
    });
    await panel.type('.tenant-input', 'https://other.example');
    await panel.keyboard.press('Enter');
    await waitInPanel(panel, (h) => h.state().tenantOrigin === 'https://other.example', { timeout: 5_000 });
    await waitInPanel(panel, (h) => h.counts().invalid > 0, {
      timeout: 5_000,
    });
    await panel.click('.summary .tool:not(.rec)');
    await waitInPanel(panel, (h) => h.counts().records === 0, {
      timeout: 5_000,
    });
    await panel.close();
    await page.close();
  });

  it('smoke: the real DevTools panel shows the records', async ({ launch }) => {
    const dev = await launch.chromium({ capture: { sites: [sandbox.hostOrigin, sandbox.tenantOrigin], mode: 'full' } });
    const { page, devtools, frame: panelFrame } = await openRealDevtoolsPanel(() => helpers.hostPage(dev, sandbox));
    expect(panelFrame, 'the Embed panel frame').toBeTruthy();
    await waitInPanel(panelFrame!, (h) => h.ready() !== null, {
      timeout: 15_000,
    });
    await panelFrame!.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length > 0, {
      timeout: 5_000,
    });
    const info = await inPanel(panelFrame!, (h) => ({
      tab: h.store.transportInfo?.label,
      text: document.querySelector('.grid-canvas')!.textContent,
      theme: document.documentElement.dataset.theme,
    }));
    // A call made while the panel is open (DevTools' HAR backlog is empty in headless mode).
    const embed = page.frames().find((f) => f.url().startsWith(sandbox.tenantOrigin))!;
    await embed.evaluate(() =>
      fetch('/api/v1/deployments/1/workbooks/100', { headers: { Authorization: 'Bearer tok-admin' } }).then((r) =>
        r.text(),
      ),
    );
    // The REST view reads the real Network traffic: the embed's GET workbook, checked against the contract.
    await waitInPanel(panelFrame!, (h) => h.rest.records().some((r: any) => r.operation === 'getWorkbook'), {
      timeout: 10_000,
    });
    const rest = await inPanel(panelFrame!, (h) => h.rest.records().find((r: any) => r.operation === 'getWorkbook'));
    expect(rest).toMatchObject({ method: 'GET', status: 200, verdict: 'valid' });
    expect(await inPanel(panelFrame!, (h) => h.rest.available)).toBe(true);
    expect(info.tab).toMatch(/^tab \d+$/); // the tab id came from chrome.devtools.inspectedWindow
    expect(info.text).toContain('ready');
    expect(['light', 'dark']).toContain(info.theme);

    // Keys in real DevTools (its key forwarder would give Ctrl/Cmd+F to its find bar, Esc to the Console drawer).
    const drawerVisible = () =>
      devtools.evaluate(`(async () => {
        const legacy = await import('./ui/legacy/legacy.js');
        return legacy.InspectorView.InspectorView.instance().drawerVisible();
      })()`) as Promise<boolean>;
    const drawerBefore = await drawerVisible();
    await panelFrame!.focus('[role="grid"]');
    await devtools.keyboard.down('Control');
    await devtools.keyboard.press('f');
    await devtools.keyboard.up('Control');
    await panelFrame!.waitForFunction(
      () => (document.activeElement as HTMLInputElement | null)?.placeholder?.includes('Filter'),
      { timeout: 5_000 },
    );
    await drawerVisible(); // a round trip through DevTools: what it would do with a forwarded key, it has done
    expect(
      await panelFrame!.evaluate(() => ({
        focused: document.hasFocus(),
        filter: (document.activeElement as HTMLInputElement | null)?.placeholder ?? '',
      })),
      'Ctrl+F focuses the panel’s filter box; focus stays in the panel',
    ).toMatchObject({ focused: true, filter: expect.stringContaining('Filter') });
    // Esc with a record's detail open closes the detail, not DevTools' drawer.
    await inPanel(panelFrame!, (h) => {
      h.select(h.ready()!.seq);
    });
    await panelFrame!.focus('[role="grid"]');
    await devtools.keyboard.press('Enter');
    await panelFrame!.waitForSelector('.detail', { timeout: 5_000 });
    await devtools.keyboard.press('Escape');
    await panelFrame!.waitForFunction(() => !document.querySelector('.detail'), { timeout: 5_000 });
    expect(await panelFrame!.$('.detail'), 'Esc closed the detail').toBeNull();
    expect(await drawerVisible(), 'Esc left the Console drawer as it was').toBe(drawerBefore);

    // The worker stops as Chrome stops an idle one (every port closes, the panel reconnects): Compose right after it
    // opens the composer, and its Send reaches the embed (it once did nothing). By keyboard, as the keys above: the
    // mouse's way into the panel's frame inside DevTools is puppeteer's, not the user's (panel-worker-restart and
    // act-idle click on the panel page).
    const refreshes = () => embed.evaluate(() => (window as any).__sandboxEmbed.state().refreshCount as number);
    const before = await refreshes();
    await stopWorkerAsIdle(dev, page);
    const press = async (selector: string) => {
      await panelFrame!.focus(selector);
      await devtools.keyboard.press('Enter');
    };
    // (at this panel's width the act buttons may sit in the summary bar's overflow menu, as a user finds them)
    if (await panelFrame!.$('.summary [data-tb="actions"][hidden]')) {
      await press('.summary .tb-more-button');
      await panelFrame!.waitForSelector('.tb-menu .t-compose');
      await press('.tb-menu .t-compose');
      await panelFrame!.waitForFunction(() => !document.querySelector('.tb-menu'), { timeout: 5_000 });
    } else {
      await press('.summary .t-compose');
    }
    await panelFrame!.waitForSelector('.composer', { timeout: 5_000 });
    await panelFrame!.select('.cm-type', 'svc:action:refresh');
    await panelFrame!.waitForSelector('.cm-send:not([disabled])', { timeout: 15_000 });
    await press('.cm-send');
    await panelFrame!.waitForFunction(() => document.querySelector('.cm-outcome')?.textContent?.length, {
      timeout: 10_000,
    });
    expect(await panelFrame!.$eval('.cm-outcome', (e) => e.textContent)).toMatch(/^Sent/);
    await embed.waitForFunction(
      (n) => (window as any).__sandboxEmbed.state().refreshCount > n,
      { timeout: 10_000 },
      before,
    );
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
