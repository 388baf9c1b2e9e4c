// The `embed-inspector/playwright` fixture on the sandbox, written as a project of ours would use it.
// Run by test/e2e/playwright-fixture.test.ts (and by `npx playwright test` after `node scripts/build.mjs`).
import { expect, test } from 'embed-inspector/playwright';
import { TENANT_ORIGIN } from '../../playwright.config.ts';

const embedFrame = '[data-testid="embed-frame"]';
// test/playwright/coverage.config.ts has every test carry its capture, these with their own option too.
const attach = process.env.EI_PW_ATTACH_CAPTURE === 'on' ? ({ attachCapture: 'on' } as const) : {};

test('a sandbox session follows the protocol', async ({ page, embed }) => {
  await page.goto('/');
  await embed.waitFor('svc:event:dashboard-loaded');
  await expect(embed).toHaveSeenInOrder(['svc:event:ready', 'svc:event:view', 'svc:event:dashboard-loaded']);
  await expect(embed).toHaveNoProtocolErrors();
});

test('a host that posts its actions to "*" fails toHaveNoProtocolErrors', async ({ page, embed }) => {
  test.fail(true, 'action-star: the host posts set-color-scheme with target origin "*" (origin.action-wildcard)');
  await page.goto('/?faults=action-star');
  await embed.waitFor('svc:action:set-color-scheme', { kind: 'post' });
  // The session loaded: the test ends with the same records every run (its coverage is the same too).
  await embed.waitFor('svc:event:dashboard-loaded');
  await expect(embed).toHaveNoProtocolErrors();
});

test('the wildcard action is one error, and can be allowed', async ({ page, embed }) => {
  await page.goto('/?faults=action-star');
  await embed.waitFor('svc:action:set-color-scheme', { kind: 'post' });
  await embed.waitFor('svc:event:dashboard-loaded');
  await expect(embed).not.toHaveNoProtocolErrors();
  await expect(embed).toHaveNoProtocolErrors({ allow: ['origin.action-wildcard'] });
  const [issue] = await embed.issues({ rule: 'origin.action-wildcard' });
  expect(issue).toMatchObject({ severity: 'error', type: 'svc:action:set-color-scheme', kind: 'post' });
  const [post] = await embed.records({ type: 'svc:action:set-color-scheme', kind: 'post' });
  expect(post.targetOrigin).toBe('*');
});

test('a CSV export in the embed is a download event', async ({ page, embed }) => {
  await page.goto('/?allowExport=true');
  await embed.waitFor('svc:event:dashboard-loaded');
  await page.frameLocator(embedFrame).locator('[data-testid^="export-csv-"]').first().click();
  await expect(embed).toHaveReceived('svc:event:download', { format: 'csv', target: 'widget' });
  await expect(embed).toHaveReceived('svc:event:download', { rowCount: expect.any(Number) });
  await expect(embed).not.toHaveReceived('svc:event:download', { format: 'xlsx' });
});

test('embed.send posts an action to the embed', async ({ page, embed }) => {
  await page.goto('/');
  await embed.waitFor('svc:event:ready');
  await embed.send({ type: 'svc:action:set-color-scheme', payload: { scheme: 'dark' } });
  await expect(page.frameLocator(embedFrame).locator('html')).toHaveAttribute('data-scheme', 'dark');
  const [action] = await embed.records({ type: 'svc:action:set-color-scheme', kind: 'post' });
  expect(action).toMatchObject({ targetOrigin: TENANT_ORIGIN, injected: true });
  // The session loaded: the test ends with the same records every run (its coverage is the same too).
  await embed.waitFor('svc:event:dashboard-loaded');
  await expect(embed).toHaveNoProtocolErrors();
});

test('embed.emit makes the embed post an event to the host', async ({ page, embed }) => {
  await page.goto('/');
  await embed.waitFor('svc:event:dashboard-loaded');
  await embed.emit({ type: 'svc:event:navigate', payload: { path: '/from-the-test', previousPath: '/' } });
  await expect(embed).toHaveReceived('svc:event:navigate', { path: '/from-the-test' });
  await expect.poll(() => page.evaluate(() => (window as any).__sandboxHost.types())).toContain('svc:event:navigate');
});

test('each test starts with an empty log; toHaveSeen and its .not', async ({ page, embed }) => {
  expect(await embed.records({ navigation: true, foreign: true })).toEqual([]);
  await page.goto('/');
  await expect(embed).toHaveSeen(['svc:event:ready', 'svc:event:view']);
  await expect(embed).toHaveSeen('svc:event:dashboard-loaded');
  await expect(embed).not.toHaveSeen(['svc:event:drilldown']);
  await expect(embed).not.toHaveSeenInOrder(['svc:event:dashboard-loaded', 'svc:event:ready']);
  await embed.clear();
  expect(await embed.records()).toEqual([]);
});

test('the capture and the timeline of the page', async ({ page, embed, context }) => {
  await page.goto('/?session=demo-signed');
  await embed.waitFor('svc:event:dashboard-loaded');
  expect(context.pages()).toContain(page);
  const capture = await embed.capture();
  expect(capture).toMatchObject({ format: 'embed-inspector-capture', version: 1, tenantOrigin: TENANT_ORIGIN });
  expect(capture.messages.length).toBeGreaterThan(3);
  // Redacted like the panel's export: the embed URL's session parameter is not kept.
  expect(JSON.stringify(capture)).not.toContain('session=demo-signed');
  const timeline = await embed.timeline();
  expect(timeline).toContain('svc:event:ready');
  expect(timeline).toContain(`tenant origin: ${TENANT_ORIGIN}`);
});

test.describe('receive-only, tenant origin set by hand', () => {
  test.use({ embedInspector: { mode: 'receive-only', tenantOrigin: TENANT_ORIGIN, ...attach } });

  test('deliveries only', async ({ page, embed }) => {
    await page.goto('/');
    await embed.waitFor('svc:event:dashboard-loaded');
    expect(await embed.records({ kind: 'post' })).toEqual([]);
    await expect(embed).toHaveReceived('svc:event:ready', { surface: 'dashboard' });
    expect(await embed.state()).toMatchObject({ tenantOrigin: TENANT_ORIGIN, tenantOriginSource: 'manual' });
  });
});

test.describe('a scope without the sandbox', () => {
  test.use({ embedInspector: { sites: ['https://elsewhere.example'], ...attach } });

  test('captures nothing', async ({ page, embed }) => {
    await page.goto('/');
    await expect(page.frameLocator(embedFrame).locator('html')).toHaveAttribute('data-ready', 'true');
    expect(await embed.records({ navigation: true, foreign: true })).toEqual([]);
  });
});

test("the extension's service worker, stopped during a test, is started again", async ({ page, embed, context }) => {
  await page.goto('/');
  await embed.waitFor('svc:event:dashboard-loaded');
  const worker = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
  await worker?.evaluate(() => {
    (globalThis as any).__marker = 'the first worker';
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers'); // as Chromium does to an idle MV3 worker
  await cdp.detach();
  // Nothing on the page wakes it now: the fixture does, for the read.
  await expect(embed).toHaveSeenInOrder(['svc:event:ready', 'svc:event:view', 'svc:event:dashboard-loaded']);
  expect(await worker?.evaluate(() => (globalThis as any).__marker)).toBeUndefined();
  await embed.send({ type: 'svc:action:refresh' });
  await expect(page.frameLocator(embedFrame).getByTestId('refresh-count')).toContainText('1');
  // The refresh loads the data again: the test ends once it did (its coverage is then the same from run to run).
  await expect
    .poll(async () => (await embed.records({ type: 'svc:event:dashboard-loaded', kind: 'receive' })).length)
    .toBe(2);
});
