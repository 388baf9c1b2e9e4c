/**
 * Capture in Firefox ESR (built dist/firefox): the extension loads (issue 2; its Chromium half is in
 * extension-load.test.ts); a scripted sandbox session is captured in every frame, both directions, from the first
 * `ready`, and reaches the panel page opened for that tab (the same app as the real DevTools panel, which
 * panel-firefox-devtools.test.ts smoke-tests through Firefox's own window).
 * Capture is turned on for the sandbox's two sites first, from an extension page through the background page's
 * `embedInspector.setCapture` (src/node/firefox.ts); a host on another port of 127.0.0.1 stays out of scope.
 * Fails (never skips) without Firefox; FIREFOX_PATH overrides the binary.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server.mjs';
import type { LaunchedFirefox } from '../../src/node/firefox.ts';
import { ACTION_TYPES, EVENT_TYPES } from '../../src/protocol/catalog.ts';
import { expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, waitInPanel } from '../helpers/panel.ts';
import { ROOT } from '../helpers/paths.ts';

let sb: Sandbox;
let firefox: LaunchedFirefox;
test.beforeAll(({ sandbox, firefox: ff }) => {
  sb = sandbox;
  firefox = ff;
});

const extensionPage = (query: string): Promise<Page> => firefox.extensionPage(query);

it('loads in Firefox (gecko id, MV3 background scripts)', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'dist/firefox/manifest.json'), 'utf8'));
  expect(manifest.background.scripts?.length).toBeGreaterThan(0);
  expect(manifest.browser_specific_settings.gecko.data_collection_permissions).toEqual({ required: ['none'] });
  expect(firefox.extensionId).toBe(manifest.browser_specific_settings.gecko.id);
});

it('captures nothing before capture is turned on', async () => {
  const page = await firefox.browser.newPage();
  await page.goto(`${sb.hostOrigin}/`);
  await page.waitForFunction(() => (window as any).__sandboxHost?.isReady?.(), { timeout: 20_000 });
  const ext = await extensionPage('theme=light');
  const scope = await ext.evaluate(async () =>
    (await (globalThis as any).browser.runtime.getBackgroundPage()).embedInspector.getCapture(),
  );
  const ids = await ext.evaluate(async () =>
    (await (globalThis as any).browser.runtime.getBackgroundPage()).embedInspector.tabIds(),
  );
  expect(scope).toEqual({ sites: [], mode: 'full' });
  expect(ids).toEqual([]);
  await page.close();
  await ext.close();
});

it('captures a scripted sandbox session in Firefox: every event and action, both sides, all valid', async () => {
  expect(await firefox.setCapture({ sites: [sb.hostOrigin, sb.tenantOrigin], mode: 'full' })).toEqual({
    sites: [sb.hostOrigin, sb.tenantOrigin].sort(),
    mode: 'full',
  });
  const host = await firefox.browser.newPage();
  await host.goto(`${sb.hostOrigin}/?script=full`);
  await host.waitForFunction(() => (window as any).__sandboxHost?.scriptDone?.(), { timeout: 20_000 });

  const finder = await extensionPage('theme=light');
  const tabs = await finder.evaluate(async () =>
    ((await (globalThis as any).browser.tabs.query({})) as any[]).map((t) => [t.id, t.url ?? '']),
  );
  const tabId = (tabs as Array<[number, string]>).find(([, url]) => url.startsWith(sb.hostOrigin))?.[0];
  expect(tabId, 'the sandbox tab').toBeDefined();

  const panel = await extensionPage(`theme=light&tabId=${tabId}`);
  const expected = EVENT_TYPES.length + ACTION_TYPES.length;
  // (40 s: on a busy 2-core machine, with other browsers beside this one, the session can take over 20 s to arrive)
  // (each message twice: its post and its delivery, one message in the counts)
  await waitInPanel(
    panel,
    (h, n) => h.records().filter((r: any) => r.verdict === 'valid').length >= 2 * n,
    { timeout: 40_000 },
    expected,
  );
  const recs = await inPanel(panel, (h) =>
    h
      .records()
      .filter((r: any) => !r.navigation)
      .map((r: any) => ({
        kind: r.kind,
        type: r.data?.type,
        verdict: r.verdict,
        origin: r.origin,
        frameUrl: r.frameUrl,
        targetOrigin: r.targetOrigin,
        status: r.data?.payload?.status,
      })),
  );
  for (const type of [...EVENT_TYPES, ...ACTION_TYPES]) {
    const isEvent = type.startsWith('svc:event:');
    // (the AI query comes twice, submitted then completed: the submitted one is checked like the others)
    const mine = (r: any) => r.type === type && (type !== 'svc:event:ai-query' || r.status === 'submitted');
    const posts = recs.filter((r: any) => mine(r) && r.kind === 'post');
    const deliveries = recs.filter((r: any) => mine(r) && r.kind === 'receive');
    expect(posts, `${type} posted once`).toHaveLength(1);
    expect(deliveries, `${type} delivered once`).toHaveLength(1);
    // events: posted by the embed (tenant origin) to the host; actions: posted by the host to the tenant origin
    expect(posts[0].origin).toBe(isEvent ? sb.tenantOrigin : sb.hostOrigin);
    expect(posts[0].targetOrigin).toBe(isEvent ? sb.hostOrigin : sb.tenantOrigin);
    expect(deliveries[0].origin).toBe(isEvent ? sb.tenantOrigin : sb.hostOrigin);
    expect(deliveries[0].frameUrl.startsWith(isEvent ? sb.hostOrigin : sb.tenantOrigin)).toBe(true);
  }
  expect(recs.every((r: any) => r.verdict === 'valid')).toBe(true);
  expect(recs.find((r: any) => r.kind === 'receive' && r.type?.startsWith('svc:event:'))?.type).toBe('svc:event:ready');
});

it('records nothing from another port of a captured host (a Firefox pattern cannot name the port)', async ({
  launch,
}) => {
  const other = await launch.sandbox();
  const page = await firefox.browser.newPage();
  await page.goto(`${other.hostOrigin}/?script=full`);
  await page.waitForFunction(() => (window as any).__sandboxHost?.scriptDone?.(), { timeout: 20_000 });
  const ext = await extensionPage('theme=light');
  const tabs = await ext.evaluate(async () =>
    ((await (globalThis as any).browser.tabs.query({})) as any[]).map((t) => [t.id, t.url ?? '']),
  );
  const tabId = (tabs as Array<[number, string]>).find(([, url]) => url.startsWith(other.hostOrigin))?.[0];
  expect(tabId).toBeDefined();
  // Whatever a frame of that tab would hold is handed over first (none of ours runs there: nothing comes).
  const ids = await ext.evaluate(async (id: number) => {
    const api = (await (globalThis as any).browser.runtime.getBackgroundPage()).embedInspector;
    await api.settle(id);
    return api.tabIds();
  }, tabId!);
  expect(tabId).toBeDefined();
  expect(ids).not.toContain(tabId);
  await page.close();
  await ext.close();
});

it('says what did not happen in Firefox too: a mistyped embed path, never ready', async () => {
  await firefox.setCapture({ sites: [sb.hostOrigin, sb.tenantOrigin], mode: 'full' });
  const setter = await extensionPage('theme=light');
  // A 2 s limit (extension-wide, as ⚙ Settings sets it), so that the silence is judged quickly.
  await setter.evaluate(async () =>
    (await (globalThis as any).browser.runtime.getBackgroundPage()).embedInspector.setReadyTimeout(2000),
  );
  await setter.close();
  const page = await firefox.browser.newPage();
  await page.goto(`${sb.hostOrigin}/?faults=bad-path`);
  const finder = await extensionPage('theme=light');
  const tabs = await finder.evaluate(async () =>
    ((await (globalThis as any).browser.tabs.query({})) as any[]).map((t) => [t.id, t.url ?? '']),
  );
  const tabId = (tabs as Array<[number, string]>).filter(([, url]) => url.includes('faults=bad-path')).at(-1)?.[0];
  expect(tabId, 'the sandbox tab').toBeDefined();
  await finder.close();
  const panel = await extensionPage(`theme=light&tabId=${tabId}`);
  await panel.waitForFunction(
    () => document.querySelector('[data-testid="integration"]')?.getAttribute('data-state') === 'never-ready',
    { timeout: 30_000, polling: 200 },
  );
  const nav = await inPanel(panel, (h) =>
    h
      .records()
      .filter((r: any) => r.navigation && r.frameId !== 0)
      .map((r: any) => r.issues.map((i: any) => i.rule)),
  );
  expect(nav.flat()).toEqual(expect.arrayContaining(['url.path', 'silence.never-ready']));
  const text = await panel.$eval('[data-testid="integration"]', (e) => e.textContent ?? '');
  expect(text).toMatch(/the embed never became ready/);
  await panel.close();
  await page.close();
});

// The host changes every message it gets, in its own listener, as soon as it gets it.
const MUTATING_HOST = `<!doctype html><script>
  window.got = 0;
  addEventListener('message', (e) => {
    if (e.origin !== '{{EMBED}}' || !e.data || !e.data.payload) return;
    e.data.payload.path = '/mutated';
    e.data.type = 'svc:event:changed';
    window.got++;
  });
</script><iframe src="{{EMBED}}/embed/dashboard/plain"></iframe>`;
const VIEW_EMBED = `<!doctype html><script>
  addEventListener('load', () => {
    parent.postMessage({ source: 'svc-embed', direction: 'event', type: 'svc:event:view', payload: { surface: 'dashboard', path: '/sales' }, timestamp: 1, surface: 'dashboard' }, '{{HOST}}');
  });
</script>`;

it("a delivery is recorded as delivered, though the page's listener changes the data at once (Firefox shares it)", async ({
  launchForFile,
}) => {
  // In Firefox the relay sees the page's own object: it copies each delivery before any listener of the page runs
  // (deliveries.ts, `eager`); read later, the record would say what the page made of it.
  const srv = await launchForFile.pages({ '/': MUTATING_HOST }, { '/embed/dashboard/plain': VIEW_EMBED });
  await firefox.setCapture({ sites: [srv.hostOrigin, srv.embedOrigin], mode: 'full' });
  const page = await firefox.browser.newPage();
  await page.goto(`${srv.hostOrigin}/`);
  await page.waitForFunction(() => (window as any).got === 1, { timeout: 20_000 });
  const finder = await extensionPage('theme=light');
  const tabs = await finder.evaluate(async () =>
    ((await (globalThis as any).browser.tabs.query({})) as any[]).map((t) => [t.id, t.url ?? '']),
  );
  await finder.close();
  const tabId = (tabs as Array<[number, string]>).find(([, url]) => url.startsWith(srv.hostOrigin))?.[0];
  expect(tabId, 'the tab').toBeDefined();
  const panel = await extensionPage(`theme=light&tabId=${tabId}`);
  await waitInPanel(panel, (h) => h.records().some((r: any) => r.kind === 'receive' && r.data?.payload), {
    timeout: 20_000,
  });
  const received = await inPanel(panel, (h) =>
    h
      .records()
      .filter((r: any) => r.kind === 'receive' && r.data?.payload)
      .map((r: any) => ({ type: r.data.type, path: r.data.payload.path })),
  );
  expect(received).toEqual([{ type: 'svc:event:view', path: '/sales' }]);
  await panel.close();
  await page.close();
});
