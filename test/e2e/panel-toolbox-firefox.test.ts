/**
 * The panel in Firefox's default toolbox (issue 44): the toolbox opens 250 px tall, which leaves the panel 221 px.
 * Settings, taller than that, scrolls its own body while its title (with its ✕) stays in view; the flow view shows
 * an arrow without a scroll. Firefox ESR with the built dist/firefox, the panel page in a tab with the synthetic
 * session. Fails (never skips) without Firefox.
 */
import type { Page } from 'puppeteer-core';
import type { LaunchedFirefox } from '../../src/node/firefox.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { openedPopover, twoFrames } from '../helpers/panel.ts';
import { TENANT } from '../../src/panel/app/synthetic.ts';

let firefox: LaunchedFirefox;
let page: Page;
test.beforeAll(async ({ firefox: ff }) => {
  firefox = ff;
  page = await firefox.extensionPage('fixture=demo&n=200&theme=light');
  await page.setViewport({ width: 800, height: 221 });
  await page.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length > 1, {
    timeout: 20_000,
  });
  await page.waitForFunction(() => window.innerHeight === 221);
  await twoFrames(page);
});

describe("Firefox's default toolbox (221 px)", () => {
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
