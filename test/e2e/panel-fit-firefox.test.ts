/**
 * The panel's layout in Firefox ESR (issue 29): the built dist/firefox, the panel page in a tab with the synthetic
 * session, at 400 and 800 px: nothing overflows sideways, each toolbar is one row with its overflow menu, Settings
 * opens inside the panel and Esc closes it (focus back on its button), the details are inside the panel and, at
 * 400 px, cover the list with the way back to it. Fails (never skips) without Firefox; FIREFOX_PATH overrides it.
 */
import type { Page } from 'puppeteer-core';
import type { LaunchedFirefox } from '../../src/node/firefox.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, openedPopover, twoFrames } from '../helpers/panel.ts';

let firefox: LaunchedFirefox;
test.beforeAll(({ firefox: ff }) => {
  firefox = ff;
});

async function open(width: number): Promise<Page> {
  const page = await firefox.extensionPage('fixture=demo&n=200&theme=light');
  await page.setViewport({ width, height: 600 });
  await page.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length > 5, {
    timeout: 20_000,
  });
  await page.waitForFunction((w) => window.innerWidth === w && document.documentElement.clientWidth > 0, {}, width);
  // The toolbars have measured their items at this width (one frame after the layout).
  await twoFrames(page);
  return page;
}

describe.each([400, 800])('Firefox, %i px', (width) => {
  let page: Page;
  test.beforeAll(async () => {
    page = await open(width);
  });
  test.afterAll(async () => {
    await page?.close();
  });

  it('no sideways overflow; each toolbar one row, its items inside it', async () => {
    const r = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      bars: [...document.querySelectorAll<HTMLElement>('.toolbar')].map((b) => {
        const box = b.getBoundingClientRect();
        const out = [...b.querySelectorAll<HTMLElement>(':scope > .tb-item')]
          .filter((i) => !i.hidden)
          .filter((i) => i.getBoundingClientRect().right > box.right + 0.5)
          .map((i) => i.dataset.tb);
        return { height: box.height, out, more: !!b.querySelector('.tb-more-button') };
      }),
    }));
    expect(r.overflow).toBe(0);
    for (const b of r.bars) {
      expect(b.height).toBeLessThan(40);
      expect(b.out).toEqual([]);
    }
    if (width === 400) {
      expect(r.bars.every((b) => b.more)).toBe(true);
    }
  });

  it('Settings opens inside the panel; Esc closes it and gives the focus back', async () => {
    await page.click('.limits-button');
    await openedPopover(page, '.limits-pop');
    const box = await page.$eval('.limits-pop', (el) => {
      const b = el.getBoundingClientRect();
      return { left: b.left, right: b.right, vw: document.documentElement.clientWidth };
    });
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(box.vw);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.limits-pop'));
    expect(await page.evaluate(() => document.activeElement?.classList.contains('limits-button'))).toBe(true);
  });

  it('the details are inside the panel, titled; at 400 px over the list with the way back', async () => {
    await inPanel(page, (h) => {
      h.select({ verdict: 'invalid' });
    });
    await page.focus('[role="grid"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('section.detail .detail-title');
    const d = await page.$eval('section.detail', (el) => {
      const r = el.getBoundingClientRect();
      const tops = new Set(
        [...el.querySelectorAll('[role="tab"]')].map((t) => Math.round(t.getBoundingClientRect().top)),
      );
      return {
        right: r.right,
        vw: document.documentElement.clientWidth,
        title: el.querySelector('.detail-title')!.textContent,
        rows: tops.size,
        back: getComputedStyle(el.querySelector('.detail-back')!).display !== 'none',
      };
    });
    expect(d.right).toBeLessThanOrEqual(d.vw);
    expect(d.title).toMatch(/^#\d+ /);
    expect(d.rows).toBe(1);
    expect(d.back).toBe(width === 400);
    if (width === 400) {
      await page.click('.detail-back');
      await page.waitForFunction(() => !document.querySelector('section.detail'));
    }
  });
});
