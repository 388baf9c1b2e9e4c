/**
 * The panel's layout in Firefox ESR (issue 29): the built dist/firefox, the panel page in a tab with the synthetic
 * session, at 400 and 800 px: nothing overflows sideways, each toolbar is one row with its overflow menu, Settings
 * opens inside the panel and Esc closes it (focus back on its button), the details are inside the panel and, at
 * 400 px, cover the list with the way back to it. Fails (never skips) without Firefox; FIREFOX_PATH overrides it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const ROOT = new URL('../..', import.meta.url).pathname;
const UUID = '11111111-2222-3333-4444-555555555556';
let browser: Browser;

beforeAll(async () => {
  const executablePath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  if (!existsSync(executablePath)) {
    throw new Error(`no Firefox at ${executablePath}; install firefox-esr or set FIREFOX_PATH`);
  }
  if (!existsSync(`${ROOT}dist/firefox/manifest.json`)) {
    throw new Error('dist/firefox is missing: run npm run build first');
  }
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ 'embed-inspector@embed-inspector.dev': UUID }),
    },
  });
  await browser.installExtension(`${ROOT}dist/firefox`);
});
afterAll(async () => {
  await browser?.close();
});

async function open(width: number): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 600 });
  void page.goto(`moz-extension://${UUID}/src/panel/index.html?fixture=demo&n=200&theme=light`).catch(() => {});
  await page.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length > 5, {
    timeout: 20_000,
  });
  await page.waitForFunction(() => document.documentElement.clientWidth > 0);
  return page;
}

describe.each([400, 800])('Firefox, %i px', (width) => {
  let page: Page;
  beforeAll(async () => {
    page = await open(width);
  });
  afterAll(async () => {
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
    await page.waitForSelector('.limits-pop');
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
    await page.evaluate(() => {
      const s = (window as any).__embedInspectorPanel.store;
      const i = s.view.find((j: number) => s.records[j].verdict === 'invalid');
      s.select(s.records[i].seq);
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
