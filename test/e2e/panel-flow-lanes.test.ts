/**
 * The flow view's lanes share the width of the panel (issue 44): real Chromium with the built extension, the panel
 * page in a tab with a synthetic session whose embed has a long origin. On a wide panel the lanes widen (up to a
 * maximum) and the origin shows whole; on a middling one they share its width; on a narrow one they keep their
 * minimum and the view scrolls sideways, its heads with it; a resize is followed each way; the SVG export is the
 * same file at every width. Fails (never skips) without a build.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, twoFrames, waitInPanel } from '../helpers/panel.ts';
import { TENANT } from '../../src/panel/app/synthetic.ts';

/** An origin of 53 characters: wider than the 168 px head of a lane 180 px wide, narrower than the widest head. */
const LONG = 'https://dashboards.acme-corporation.svc-embed.example';
const MIN = 180;
const MAX = 360;
const RULER = 84;

let page: Page;
const errors: string[] = [];

test.beforeAll(async ({ chromium }) => {
  page = await chromium.browser.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width: 1400, height: 700 });
  await page.goto(`chrome-extension://${chromium.extensionId}/src/panel/index.html?x=1&theme=light`);
  await waitInPanel(page, () => !!document.querySelector('.summary'));
  const n = await inPanel(
    page,
    (h, a) => h.load(JSON.parse(JSON.stringify(h.synthetic(60)).replaceAll(a.from, a.to)), 'long-origin.json'),
    { from: TENANT, to: LONG },
  );
  expect(n).toBeGreaterThan(0);
  await page.$eval('.vt-flow', (b) => (b as HTMLButtonElement).click());
  await page.waitForSelector('.flow-row.k-arrow');
}, 60_000);

/** What the flow view shows: its lanes' lifelines, its heads' origins (cut or not), how it scrolls sideways. */
const seen = () =>
  page.evaluate(() => {
    const body = document.querySelector<HTMLElement>('.flow-body')!;
    const heads = [...document.querySelectorAll<HTMLElement>('.flow-lane-head')];
    return {
      lifelines: [...document.querySelectorAll<HTMLElement>('.flow-lifeline')].map((l) =>
        Number.parseFloat(l.style.left),
      ),
      heads: heads.map((h) => {
        const origin = h.querySelector<HTMLElement>('.flow-lane-origin')!;
        const r = h.getBoundingClientRect();
        return {
          origin: origin.textContent,
          cut: origin.scrollWidth > origin.clientWidth,
          title: h.title,
          left: r.left,
          width: r.width,
        };
      }),
      bodyLeft: body.getBoundingClientRect().left,
      clientWidth: body.clientWidth,
      scrollWidth: body.scrollWidth,
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });

/** Set the panel's width and wait until the lanes have followed (the view re-measured itself). */
async function resize(width: number) {
  await page.setViewport({ width, height: 700 });
  await page.waitForFunction((w) => window.innerWidth === w, {}, width);
  await twoFrames(page);
}

const spacing = (xs: number[]) => xs.slice(1).map((x, i) => x - xs[i]);

describe('flow lanes fit the panel', () => {
  it('at 1,400 px: the lanes widen up to the maximum, the long origin shows whole', async () => {
    await resize(1400);
    const s = await seen();
    expect(s.lifelines.length).toBeGreaterThanOrEqual(2);
    const embed = s.heads.find((h) => h.origin === LONG)!;
    expect(embed).toBeDefined();
    expect(embed.cut).toBe(false);
    // as wide as the room allows, up to the widest lane: never 600 px apart
    const share = Math.min(MAX, Math.floor((s.clientWidth - RULER) / s.lifelines.length));
    expect(share).toBeGreaterThan(MIN);
    expect(spacing(s.lifelines)).toEqual(s.lifelines.slice(1).map(() => share));
    expect(s.scrollWidth).toBeLessThanOrEqual(s.clientWidth);
    expect(s.pageOverflow).toBe(0);
  });

  it('at 700 px: the lanes share the width; an origin too long ends in an ellipsis, whole in the tooltip', async () => {
    await resize(700);
    const s = await seen();
    const share = Math.floor((s.clientWidth - RULER) / s.lifelines.length);
    expect(share).toBeGreaterThan(MIN);
    expect(share).toBeLessThan(MAX);
    expect(spacing(s.lifelines)).toEqual(s.lifelines.slice(1).map(() => share));
    // the last lane ends at the view's right edge (whole pixels), and nothing scrolls sideways
    const last = s.lifelines[s.lifelines.length - 1] + share / 2;
    expect(s.clientWidth - last).toBeGreaterThanOrEqual(0);
    expect(s.clientWidth - last).toBeLessThan(s.lifelines.length);
    expect(s.scrollWidth).toBeLessThanOrEqual(s.clientWidth);
    const embed = s.heads.find((h) => h.origin === LONG)!;
    expect(embed.title.split('\n')).toContain(LONG);
    expect(await page.$eval('.flow-lane-origin', (o) => getComputedStyle(o).textOverflow)).toBe('ellipsis');
  });

  it('at 400 px: the lanes keep the minimum, the view scrolls sideways and its heads with it', async () => {
    await resize(400);
    const s = await seen();
    expect(spacing(s.lifelines)).toEqual(s.lifelines.slice(1).map(() => MIN));
    expect(s.scrollWidth).toBeGreaterThan(s.clientWidth);
    expect(s.pageOverflow).toBe(0);
    const embed = s.heads.find((h) => h.origin === LONG)!;
    expect(embed.cut).toBe(true);
    // scrolled to its right end (a scroll event, as a user's): the heads move with the rows
    const left = await page.$eval('.flow-body', (b) => {
      b.scrollLeft = b.scrollWidth;
      return b.scrollLeft;
    });
    expect(left).toBeGreaterThan(0);
    await twoFrames(page);
    const after = await seen();
    // each head still centred on its lifeline
    after.heads.forEach((h, i) => {
      const centre = h.left + h.width / 2 - after.bodyLeft;
      expect(Math.abs(centre - (after.lifelines[i] - left))).toBeLessThan(1);
    });
    await page.$eval('.flow-body', (b) => {
      b.scrollLeft = 0;
    });
  });

  it('follows a resize back to a wide panel', async () => {
    await resize(400);
    await resize(1400);
    const s = await seen();
    expect(spacing(s.lifelines)[0]).toBeGreaterThan(MIN);
    expect(s.heads.find((h) => h.origin === LONG)!.cut).toBe(false);
  });

  it('saves the same SVG at every width: a file never depends on the panel', async () => {
    const svgAt = async (width: number) => {
      await resize(width);
      await inPanel(page, (h) => {
        h.saved.text = '';
      });
      await page.$eval('.flow-svg-export', (b) => (b as HTMLButtonElement).click());
      await waitInPanel(page, (h) => h.saved.text.includes('</svg>'));
      return inPanel(page, (h) => h.saved.text);
    };
    const wide = await svgAt(1400);
    const narrow = await svgAt(400);
    expect(wide).toContain('embed · dashboard');
    expect(narrow).toBe(wide);
    expect(errors).toEqual([]);
  });
});
