// The sandbox in real Chromium (no extension): the host page and the embed emulator talk over window messaging.
// Chromium must be there: a missing browser fails this file, it is never skipped.
import type { Browser, Frame, Page } from 'puppeteer-core';
import { vi } from 'vitest';
import type { Sandbox } from '../../sandbox/server.mjs';
import { describe, expect, it, test } from '../helpers/fixtures.ts';

let sb: Sandbox;
let browser: Browser;

test.beforeAll(({ sandbox, plainChromium }) => {
  sb = sandbox;
  browser = plainChromium.browser;
});

/** Opens the host page with a query string and returns the page and the embed frame once it has a hook. */
async function openHost(query = ''): Promise<{ page: Page; embed: Frame }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push((e as Error).message));
  await page.goto(`${sb.hostUrl}${query}`);
  await page.waitForFunction(() => (window as any).__sandboxHost !== undefined);
  const embed = await waitForFrame(page);
  await embed.waitForFunction(() => (window as any).__sandboxEmbed !== undefined);
  expect(errors).toEqual([]);
  return { page, embed };
}

function waitForFrame(page: Page): Promise<Frame> {
  return vi
    .waitUntil(() => page.frames().find((x) => x.url().startsWith(`${sb.tenantOrigin}/embed/`)), {
      timeout: 5_000,
      interval: 50,
    })
    .catch(() => {
      throw new Error('the embed frame never appeared');
    });
}

/** Everything either side posted has arrived: the host received what the embed sent, the embed what the host sent. */
async function delivered(page: Page, embed: Frame): Promise<void> {
  const counts = async () => [
    await embed.evaluate(() => (window as any).__sandboxEmbed.sent.length as number),
    await page.evaluate(() => (window as any).__sandboxHost.received.length as number),
    await page.evaluate(() => (window as any).__sandboxHost.sent.length as number),
    await embed.evaluate(() => (window as any).__sandboxEmbed.accepted.length as number),
  ];
  await vi.waitUntil(
    async () => {
      const [sent, received, hostSent, accepted] = await counts();
      return sent === received && hostSent === accepted;
    },
    { timeout: 10_000, interval: 50 },
  );
}

const receivedTypes = (page: Page) => page.evaluate(() => (window as any).__sandboxHost.types() as string[]);
const waitForEvent = (page: Page, type: string, count = 1) =>
  page.waitForFunction(
    (t, n) => (window as any).__sandboxHost.received.filter((e: any) => e.type === t).length >= n,
    { timeout: 15_000 },
    type,
    count,
  );

describe('sandbox host page in Chromium', () => {
  it('receives ready first, then view, then dashboard-loaded, each with its envelope', async () => {
    const { page } = await openHost();
    await waitForEvent(page, 'svc:event:dashboard-loaded');
    const events = await page.evaluate(() => (window as any).__sandboxHost.received);
    const types = events.map((e: any) => e.type);
    expect(types[0]).toBe('svc:event:ready');
    expect(types.indexOf('svc:event:view')).toBeGreaterThan(0);
    expect(types.indexOf('svc:event:dashboard-loaded')).toBeGreaterThan(types.indexOf('svc:event:view'));
    for (const e of events) {
      expect(e).toMatchObject({ source: 'svc-embed', direction: 'event', surface: 'dashboard' });
      expect(typeof e.timestamp).toBe('number');
    }
    expect(events[0].payload).toMatchObject({ mode: 'signed', surface: 'dashboard', deploymentId: 1 });
    const loaded = events.find((e: any) => e.type === 'svc:event:dashboard-loaded');
    expect(loaded.payload.widgetCount).toBeGreaterThan(0);
    expect(loaded.payload.loadDurationMs).toBeGreaterThan(0);
    // The host's visible log shows them too.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="event-log"] li').length >= 3);
    await page.close();
  });

  it('clicking set-color-scheme switches the embed to dark', async () => {
    const { page, embed } = await openHost();
    await waitForEvent(page, 'svc:event:ready');
    const before = await embed.evaluate(() => [
      document.documentElement.dataset.scheme,
      getComputedStyle(document.body).backgroundColor,
    ]);
    expect(before[0]).toBe('light');
    await page.select('[data-testid="input-scheme"]', 'dark');
    await page.click('[data-testid="action-set-color-scheme"]');
    await embed.waitForFunction(() => document.documentElement.dataset.scheme === 'dark');
    const after = await embed.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(after).not.toBe(before[1]);
    const sent = await page.evaluate(() => (window as any).__sandboxHost.sent.map((s: any) => s.targetOrigin));
    expect(sent).toEqual([sb.tenantOrigin]);
    await page.close();
  });

  it('fault duplicate-ready: the host receives ready twice', async () => {
    const { page } = await openHost('?faults=duplicate-ready');
    await waitForEvent(page, 'svc:event:ready', 2);
    await waitForEvent(page, 'svc:event:dashboard-loaded');
    const types = await receivedTypes(page);
    expect(types.filter((t) => t === 'svc:event:ready')).toHaveLength(2);
    expect(types.slice(0, 2)).toEqual(['svc:event:ready', 'svc:event:ready']);
    const logged = await page.$$eval('[data-testid="event-log"] li b', (els) => els.map((e) => e.textContent));
    expect(logged.filter((t) => t?.startsWith('ready'))).toHaveLength(2);
    await page.close();
  });

  it('script=full: every event type and every action exactly once (the AI query: submitted, completed)', async () => {
    const { page, embed } = await openHost('?script=full');
    await page.waitForFunction(() => (window as any).__sandboxHost.scriptDone(), { timeout: 20_000 });
    await delivered(page, embed); // all that was posted has arrived
    const types = await receivedTypes(page);
    const events = [
      'ready',
      'view',
      'navigate',
      'dashboard-loaded',
      'download',
      'drilldown',
      'ai-query',
      'ai-query',
      'error',
    ];
    expect([...types].sort()).toEqual(events.map((e) => `svc:event:${e}`).sort());
    const accepted = await embed.evaluate(() => (window as any).__sandboxEmbed.accepted.map((a: any) => a.type));
    expect([...accepted].sort()).toEqual(
      ['set-color-scheme', 'set-theme', 'set-locale', 'set-timezone', 'set-filter', 'navigate', 'refresh']
        .map((a) => `svc:action:${a}`)
        .sort(),
    );
    const state = await embed.evaluate(() => (window as any).__sandboxEmbed.state());
    expect(state).toMatchObject({
      scheme: 'dark',
      locale: 'de-DE',
      timezone: 'America/New_York',
      refreshCount: 1,
      filters: { 'orders.region': ['EMEA', 'APAC'] },
    });
    await page.close();
  });

  it('the embed ignores actions that break the rules, and shows them in its debug area', async () => {
    const { page, embed } = await openHost();
    await waitForEvent(page, 'svc:event:ready');
    await page.evaluate(() => {
      const h = (window as any).__sandboxHost;
      h.sendAction('svc:action:set-timezone', { timezone: '+02:00' });
      h.postRaw({
        source: 'svc-embed',
        direction: 'action',
        type: 'svc:action:set-locale',
        payload: { locale: 'fr' },
        timestamp: Date.now(),
        surface: 'dashboard',
      });
      h.postRaw({
        source: 'other',
        direction: 'action',
        type: 'svc:action:set-locale',
        payload: { locale: 'fr' },
        timestamp: Date.now(),
      });
      h.sendAction('svc:action:set-timezone', { timezone: 'Asia/Tokyo' });
    });
    await embed.waitForFunction(() => document.documentElement.dataset.timezone === 'Asia/Tokyo');
    const { ignored, locale } = await embed.evaluate(() => ({
      ignored: (window as any).__sandboxEmbed.ignored.map((i: any) => i.reason),
      locale: document.documentElement.dataset.locale,
    }));
    expect(ignored).toHaveLength(3);
    expect(locale).toBe('en-US');
    await embed.waitForFunction(() => document.querySelector('[data-testid="ignored-count"]')?.textContent === '3');
    await page.close();
  });
});
