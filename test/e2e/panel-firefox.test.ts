/**
 * The panel page in Firefox ESR (built dist/firefox, the synthetic session), in tabs of one Firefox (a launch costs
 * ~6 CPU s here; each part opens its own tab and changes no persisted setting):
 * - it renders and follows ?theme=;
 * - its layout (issue 29) at 400 and 800 px: nothing overflows sideways, each toolbar is one row with its overflow
 *   menu, Settings opens inside the panel and Esc closes it (focus back on its button), the details are inside the
 *   panel and, at 400 px, cover the list with the way back to it;
 * - Firefox's default toolbox (issue 44): it opens 250 px tall, which leaves the panel 221 px. Settings, taller than
 *   that, scrolls its own body while its title (with its ✕) stays in view; the flow view shows an arrow without a
 *   scroll.
 * The real Firefox DevTools panel is smoke-tested in panel-firefox-devtools.test.ts.
 * Fails (never skips) without Firefox; FIREFOX_PATH overrides the binary.
 */
import type { Page } from 'puppeteer-core';
import type { LaunchedFirefox } from '../../src/node/firefox.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, openedPopover, twoFrames } from '../helpers/panel.ts';
import { TENANT } from '../../src/panel/app/synthetic.ts';

let firefox: LaunchedFirefox;
test.beforeAll(({ firefox: ff }) => {
  firefox = ff;
});

it('Firefox renders the panel page', async () => {
  const page = await firefox.extensionPage('fixture=demo&theme=dark');
  await page.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length > 5, {
    timeout: 20_000,
  });
  const r = await page.evaluate(() => ({
    rows: document.querySelectorAll('.grid-body [role="row"]').length,
    theme: document.documentElement.dataset.theme,
  }));
  expect(r.rows).toBeGreaterThan(5);
  expect(r.theme).toBe('dark');
  await page.close();
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

describe("Firefox's default toolbox (221 px)", () => {
  let page: Page;
  test.beforeAll(async () => {
    page = await firefox.extensionPage('fixture=demo&n=200&theme=light');
    await page.setViewport({ width: 800, height: 221 });
    await page.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length > 1, {
      timeout: 20_000,
    });
    await page.waitForFunction(() => window.innerHeight === 221);
    await twoFrames(page);
  });
  test.afterAll(async () => {
    await page?.close();
  });

  it('Settings fits, or scrolls its own body with its title in view', async () => {
    await page.click('.limits-button');
    await openedPopover(page, '.limits-pop');
    const at = () =>
      page.$eval('.limits-pop', (el) => {
        const pop = el.getBoundingClientRect();
        const title = el.querySelector('.popover-title')!.getBoundingClientRect();
        return {
          top: pop.top,
          bottom: pop.bottom,
          vh: document.documentElement.clientHeight,
          scrolls: el.scrollHeight > el.clientHeight + 1,
          titleTop: title.top,
          titleBottom: title.bottom,
        };
      });
    const before = await at();
    expect(before.top).toBeGreaterThanOrEqual(0);
    expect(before.bottom).toBeLessThanOrEqual(before.vh);
    if (before.scrolls) {
      await page.$eval('.limits-pop', (el) => {
        el.scrollTop = el.scrollHeight;
      });
      await twoFrames(page);
      const after = await at();
      // the title (and its ✕) stays at the top of the dialog, in view
      expect(after.titleTop).toBeGreaterThanOrEqual(after.top - 0.5);
      expect(after.titleBottom).toBeLessThanOrEqual(after.top + (before.titleBottom - before.top) + 0.5);
      expect(await page.$eval('.popover-close', (b) => b.getBoundingClientRect().bottom > 0)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.limits-pop'));
  });

  it('the flow view shows its first arrow without a scroll; wide lanes never widen the page', async () => {
    await page.$eval('.vt-flow', (b) => (b as HTMLButtonElement).click());
    await page.waitForFunction(() => !!document.querySelector('.flow-row.k-arrow'), { timeout: 10_000 });
    await page.$eval('.flow-body', (b) => {
      b.scrollTop = 0;
    });
    await twoFrames(page);
    const seen = await page.$eval('.flow-body', (b) => {
      const box = b.getBoundingClientRect();
      const arrows = [...b.querySelectorAll<HTMLElement>('.flow-row.k-arrow')].filter((r) => {
        const q = r.getBoundingClientRect();
        return r.style.display !== 'none' && q.top >= box.top && q.bottom <= box.bottom;
      });
      return {
        arrows: arrows.length,
        bottom: box.bottom,
        vh: document.documentElement.clientHeight,
        // lanes wider than the pane scroll sideways inside the flow, never the page
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });
    expect(seen.arrows).toBeGreaterThanOrEqual(1);
    expect(seen.bottom).toBeLessThanOrEqual(seen.vh);
    expect(seen.pageOverflow).toBe(0);
    await page.$eval('.vt-timeline', (b) => (b as HTMLButtonElement).click());
  });

  it('on a wide toolbox (1,600 px) the lanes use the width: the heads show their names whole', async () => {
    // (the toolbox is short: each head is one line, its title then its origin; the demo's tenant origin, 30
    // characters, was cut in a lane of 180 px)
    await page.setViewport({ width: 1600, height: 221 });
    await page.waitForFunction(() => window.innerWidth === 1600);
    await page.$eval('.vt-flow', (b) => (b as HTMLButtonElement).click());
    await page.waitForSelector('.flow-lane-head');
    await twoFrames(page);
    const heads = await page.$$eval('.flow-lane-head', (hs) =>
      hs.map((h) => {
        const origin = h.querySelector<HTMLElement>('.flow-lane-origin')!;
        const title = h.querySelector<HTMLElement>('.flow-lane-title, .flow-expand')!;
        const cut = (el: HTMLElement) => el.scrollWidth > el.clientWidth;
        return {
          origin: origin.textContent,
          cut: cut(origin) || cut(title),
          width: (h as HTMLElement).offsetWidth,
        };
      }),
    );
    expect(heads.map((h) => h.origin)).toContain(TENANT);
    expect(
      heads.filter((h) => h.cut),
      JSON.stringify(heads),
    ).toEqual([]);
    await page.$eval('.vt-timeline', (b) => (b as HTMLButtonElement).click());
    await page.setViewport({ width: 800, height: 221 });
  });
});
