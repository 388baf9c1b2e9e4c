/**
 * Acting on the embed from the panel's composer: real Chromium, the built extension, the sandbox. Each of the
 * 7 actions is composed in the UI and sent: the sandbox embed reacts visibly and the timeline shows the
 * injected post and its delivery. A simulated fatal `error` reaches the host's handler with the tenant
 * origin. Fails (never skips) without Chromium, a build or the sandbox.
 */
import { vi } from 'vitest';
import type { Frame, Page } from 'puppeteer-core';
import { settled, tabIdOf } from '../helpers/capture.ts';
import {
  embedFrame,
  fill,
  hostPage,
  openComposer,
  panelFor,
  panelRecords,
  type Sandbox,
  inPanel,
  waitInPanel,
} from '../helpers/panel.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { Launched } from '../../src/node/chromium.ts';

let sb: Sandbox;
let launched: Launched;
const errors: string[] = [];

test.beforeAll(({ sandbox, chromium }) => {
  sb = sandbox;
  launched = chromium;
});

const html = (frame: Frame, attr: string) => frame.evaluate((a) => document.documentElement.getAttribute(a), attr);
const embedState = (frame: Frame) => frame.evaluate(() => (window as any).__sandboxEmbed.state());

async function sendFromComposer(panel: Page) {
  await panel.click('.cm-send');
  await panel.waitForFunction(() => document.querySelector('.cm-outcome')?.textContent?.length, { timeout: 10_000 });
  const outcome = await panel.$eval('.cm-outcome', (e) => e.textContent);
  expect(outcome).toMatch(/^Sent/);
}
async function chooseType(panel: Page, type: string) {
  await panel.select('.cm-type', type);
  await panel.waitForSelector('.cm-fields');
}

describe('composer: inject actions', () => {
  let page: Page, panel: Page, frame: Frame;
  test.beforeAll(async () => {
    page = await hostPage(launched, sb);
    panel = await panelFor(launched, page, errors);
    frame = await embedFrame(page, sb.tenantOrigin);
    await frame.waitForFunction(() => (window as any).__sandboxEmbed?.state().ready, { timeout: 15_000 });
    await waitInPanel(panel, (h) => h.state().tenantOrigin, {
      timeout: 10_000,
    });
    await openComposer(panel);
  });

  const cases: Array<[string, (p: Page) => Promise<void>, () => Promise<boolean>]> = [
    [
      'svc:action:set-color-scheme',
      (p) => p.select('#cf-scheme', 'dark').then(() => {}),
      async () => (await html(frame, 'data-scheme')) === 'dark',
    ],
    [
      'svc:action:set-theme',
      async (p) => {
        await fill(p, '#cf-primaryColor', '#7c3aed');
        await fill(p, '#cf-borderRadius', '14');
        await fill(p, '#cf-extra', '{"font": "Georgia, serif"}');
      },
      async () => {
        const t = (await embedState(frame)).theme;
        return JSON.stringify(t).includes('#7c3aed') && JSON.stringify(t).includes('Georgia');
      },
    ],
    [
      'svc:action:set-locale',
      (p) => fill(p, '#cf-locale', 'fr-FR'),
      async () => (await html(frame, 'data-locale')) === 'fr-FR',
    ],
    [
      'svc:action:set-timezone',
      (p) => fill(p, '#cf-timezone', 'America/New_York'),
      async () => (await html(frame, 'data-timezone')) === 'America/New_York',
    ],
    [
      'svc:action:set-filter',
      async (p) => {
        await fill(p, '.fb-view', 'orders');
        await fill(p, '.fb-dim', 'region');
        await fill(p, '.fb-json', '["EMEA"]');
      },
      async () => JSON.stringify((await embedState(frame)).filters).includes('EMEA'),
    ],
    [
      'svc:action:navigate',
      async (p) => {
        const path = `${new URL(frame.url()).pathname}/data`;
        await fill(p, '#cf-path', path);
      },
      async () => ((await html(frame, 'data-path')) ?? '').endsWith('/data'),
    ],
    ['svc:action:refresh', async () => {}, async () => (await embedState(frame)).refreshCount >= 1],
  ];

  it.each(cases)(
    '%s: the embed reacts; the timeline shows the injected post and its delivery',
    async (type, fillForm, reacted) => {
      await chooseType(panel, type);
      await fillForm(panel);
      await panel.waitForSelector('.cm-verdict .b-valid', { timeout: 5_000 }); // validated live
      const before = await inPanel(panel, (h) => h.counts().records);
      await sendFromComposer(panel);
      await vi.waitUntil(reacted, { timeout: 10_000, interval: 100 }).catch(() => {});
      expect(await reacted(), `the embed reacted to ${type}`).toBe(true);
      await waitInPanel(
        panel,
        (h, { t, n }) => {
          const rs = h.records().slice(n);
          return rs.some(
            (r: any) => r.kind === 'post' && r.injected && r.data?.type === t && r.pairedWith !== undefined,
          );
        },
        { timeout: 10_000 },
        { t: type, n: before },
      );
      const rs = (await panelRecords(panel)).filter((r) => r.type === type && r.seq > 0);
      const post = rs.find((r) => r.kind === 'post' && r.injected)!;
      expect(post.origin).toBe(sb.hostOrigin);
      expect(post.verdict).toBe('valid');
      const delivery = rs.find((r) => r.seq === post.pairedWith)!;
      expect(delivery).toMatchObject({ kind: 'receive', injected: true, origin: sb.hostOrigin });
      expect(delivery.frameUrl.startsWith(sb.tenantOrigin)).toBe(true);
      // the timeline row carries the "inj" tag
      await inPanel(
        panel,
        (h, t) =>
          h.setFilters({
            search: `type:${t.slice(11)} injected:true kind:post`,
          }),
        type,
      );
      await panel.waitForFunction(() => document.querySelector('.grid-body [role="row"] .tag')?.textContent === 'inj', {
        timeout: 5_000,
      });
      await inPanel(panel, (h) => h.resetFilters());
    },
  );

  it('the sends never use "*": every injected action targets the tenant origin', async () => {
    const targets = await inPanel(panel, (h) =>
      h
        .records()
        .filter((r: any) => r.injected && r.kind === 'post')
        .map((r: any) => r.targetOrigin),
    );
    expect(targets.length).toBeGreaterThanOrEqual(7);
    expect(new Set(targets)).toEqual(new Set([sb.tenantOrigin]));
  });

  it('an invalid action is sent only after a clear confirmation', async () => {
    await chooseType(panel, 'svc:action:set-timezone');
    await fill(panel, '#cf-timezone', '+02:00');
    await panel.waitForFunction(
      () => [...document.querySelectorAll('.cm-issues .rule')].some((r) => r.textContent === 'action.timezone'),
      { timeout: 5_000 },
    );
    const sentYet = () => inPanel(panel, (h) => h.records().some((r: any) => r.data?.payload?.timezone === '+02:00'));
    await panel.click('.cm-send');
    await panel.waitForSelector('.cm-confirm');
    expect(await panel.$eval('.cm-confirm', (e) => e.textContent)).toMatch(
      /invalid.*action\.timezone.*Send it anyway/s,
    );
    await settled(launched, await tabIdOf(launched, page), panel);
    expect(await sentYet()).toBe(false); // nothing sent yet
    await panel.click('.cm-cancel');
    expect(await panel.$('.cm-confirm')).toBeNull();
    await panel.click('.cm-send');
    await panel.waitForSelector('.cm-send-anyway');
    await panel.click('.cm-send-anyway');
    await panel.waitForFunction(() => /^Sent/.test(document.querySelector('.cm-outcome')?.textContent ?? ''), {
      timeout: 10_000,
    });
    await waitInPanel(
      panel,
      (h) =>
        h
          .records()
          .some(
            (r: any) =>
              r.injected && r.kind === 'post' && r.data?.payload?.timezone === '+02:00' && r.verdict === 'invalid',
          ),
      { timeout: 10_000 },
    );
    // the embed ignores a bare offset, as the spec says
    await frame.waitForFunction(
      () => (window as any).__sandboxEmbed.ignored.some((i: any) => i.data?.payload?.timezone === '+02:00'),
      { timeout: 5_000 },
    );
    expect(await html(frame, 'data-timezone')).toBe('America/New_York');
  });

  it('copy as code: the selected action as host code with the tenant origin', async () => {
    await inPanel(panel, (h) => h.setFilters({ search: 'type:set-locale kind:post' }));
    await panel.waitForSelector('.grid-body [role="row"]');
    await panel.click('.grid-body [role="row"]');
    await panel.click('#tab-act');
    const code = await panel.$eval('pre.code', (e) => e.textContent ?? '');
    expect(code).toContain(`const TENANT_ORIGIN = "${sb.tenantOrigin}";`);
    expect(code).toContain('iframe.contentWindow.postMessage(');
    expect(code).toContain('"svc:action:set-locale"');
    await inPanel(panel, (h) => h.resetFilters());
  });

  it('simulate a fatal error: the host handler receives it with the tenant origin', async () => {
    await panel.click('.cm-side-event');
    await chooseType(panel, 'svc:event:error');
    await fill(panel, '#cf-message', 'Simulated: the session expired');
    await fill(panel, '#cf-name', 'SessionExpiredError');
    await panel.select('#cf-fatal', 'true');
    await panel.select('.cm-surface', 'dashboard');
    await panel.waitForSelector('.cm-verdict .b-valid', { timeout: 5_000 });
    await page.evaluate(() => (window as any).__sandboxHost.clear());
    await panel.click('.cm-send');
    const ev = await page.evaluate(() => (window as any).__sandboxHost.waitFor('svc:event:error', 1, 10_000));
    expect(ev).toMatchObject({
      source: 'svc-embed',
      direction: 'event',
      type: 'svc:event:error',
      surface: 'dashboard',
      payload: { message: 'Simulated: the session expired', name: 'SessionExpiredError', fatal: true },
    });
    // the host's listener follows the receiving rules: it accepted it, so event.origin was the tenant origin; the timeline agrees
    await waitInPanel(
      panel,
      (h) => h.records().some((r: any) => r.kind === 'receive' && r.injected && r.data?.type === 'svc:event:error'),
      { timeout: 10_000 },
    );
    const rs = await panelRecords(panel);
    const post = rs.find((r) => r.kind === 'post' && r.injected && r.type === 'svc:event:error')!;
    expect(post.origin).toBe(sb.tenantOrigin);
    expect(post.frameUrl.startsWith(sb.tenantOrigin)).toBe(true);
    const delivery = rs.find((r) => r.kind === 'receive' && r.type === 'svc:event:error')!;
    expect(delivery.origin).toBe(sb.tenantOrigin);
    expect(delivery.frameUrl.startsWith(sb.hostOrigin)).toBe(true);
    expect(delivery.verdict).toBe('valid');
    expect(
      await page.evaluate(
        () => (window as any).__sandboxHost.ignored.filter((i: any) => i.data?.type === 'svc:event:error').length,
      ),
    ).toBe(0);
  });
});

describe('composer: no target', () => {
  it('with the tenant origin unknown, the composer says so and does not send', async ({ launch }) => {
    const site = await launch.pages(
      { '/': '<!doctype html><title>no embed</title><p>A page without an embed.</p>' },
      {},
    );
    const page = await launched.browser.newPage();
    await page.goto(`${site.hostOrigin}/`);
    const panel = await panelFor(launched, page, errors);
    await openComposer(panel);
    await panel.waitForSelector('.cm-blocked');
    expect(await panel.$eval('.cm-blocked', (e) => e.textContent)).toMatch(
      /tenant origin is unknown.*never sends to "\*"/,
    );
    expect(await panel.$eval('.cm-send', (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await panel.close();
    await page.close();
  });
});

describe('panel', () => {
  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
