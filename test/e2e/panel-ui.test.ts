/**
 * The panel UI in real Chromium, on the built extension's panel page opened in a tab with a synthetic
 * session (`?fixture=demo`): grid and tree ARIA, every filter, detail pane, keyboard, theme, persistence,
 * and captured strings staying inert. Fails (never skips) without Chromium or a build.
 */
import type { Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import type { BackgroundToPanel } from '../../src/shared/messages.ts';
import { stamp } from '../../src/shared/channel.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, twoFrames, waitInPanel } from '../helpers/panel.ts';

let launched: Launched;
let page: Page;
const errors: string[] = [];

async function openPanel(query: string): Promise<Page> {
  const p = await launched.browser.newPage();
  await p.setViewport({ width: 1280, height: 760 });
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?${query}`);
  await waitInPanel(p, () => document.querySelector('.grid-body[role="grid"] [role="row"]'));
  return p;
}
const shown = (p: Page) => inPanel(p, (h) => h.counts().shown);
const rowCount = (p: Page) => p.$eval('[role="grid"]', (g) => Number(g.getAttribute('aria-rowcount')) - 1);
/** Every record of the current view, as the store holds it (to check what a filter let through). */
const viewRecords = (p: Page) =>
  inPanel(p, (h) => {
    return h.rows();
  }) as Promise<any[]>;
const clickChip = (p: Page, group: string, text: string) =>
  p.evaluate(
    (g, t) => {
      const el = [...document.querySelectorAll(`[role="group"][aria-label="${g}"] button`)].find((b) =>
        b.textContent!.trim().startsWith(t),
      ) as HTMLButtonElement;
      el.click();
    },
    group,
    text,
  );
/** The grid shows every record of the view and two frames were painted since (scrolls and renders done). */
async function painted(p: Page) {
  await waitInPanel(
    p,
    (h) => Number(document.querySelector('[role="grid"]')!.getAttribute('aria-rowcount')) - 1 === h.counts().shown,
  );
  await twoFrames(p);
}
const resetFilters = (p: Page) => inPanel(p, (h) => h.resetFilters());

test.beforeAll(async ({ chromium }) => {
  launched = chromium;
  page = await openPanel('fixture=demo&n=400&theme=light');
});

describe('panel UI (fixture session)', () => {
  it('renders a virtualized ARIA grid with foreign traffic hidden by default', async () => {
    const total = await inPanel(page, (h) => h.counts().records);
    const n = await shown(page);
    expect(total).toBe(400);
    expect(n).toBeLessThan(total);
    expect(await rowCount(page)).toBe(n);
    expect((await viewRecords(page)).some((r) => r.verdict === 'foreign' && !r.navigation)).toBe(false);
    const domRows = await page.$$eval('.grid-body [role="row"]', (rs) => rs.length);
    expect(domRows).toBeGreaterThan(10);
    expect(domRows).toBeLessThan(80); // only the visible window is in the DOM
    expect(await page.$$eval('[role="columnheader"]', (hs) => hs.length)).toBe(9);
    expect(
      await page.$eval('.grid-body [role="row"] [role="gridcell"]', (c) =>
        c.parentElement!.getAttribute('aria-rowindex'),
      ),
    ).toMatch(/^\d+$/);
  });

  it('a scroll rewrites only the rows that come into view; every row shows its record, listed in view order', async () => {
    await resetFilters(page);
    // What the grid shows: each row's record (by its id) against the record at its view position (aria-rowindex),
    // and the order in which the row group lists its rows for assistive technology (aria-owns).
    const read = () =>
      inPanel(page, (h) => {
        const rows = [...document.querySelectorAll<HTMLElement>('.grid-canvas [role="row"]')];
        const shownRows = h.rows();
        return {
          mismatched: rows
            .filter((r) => r.id !== `ei-row-${shownRows[Number(r.getAttribute('aria-rowindex')) - 2].seq}`)
            .map((r) => r.id),
          byIndex: rows
            .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
            .map((r) => r.id),
          owns: (document.querySelector('.grid-canvas')!.getAttribute('aria-owns') ?? '').split(' '),
        };
      });
    const frames = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
    // Keep each row element (hidden spare ones too) with what it shows, scroll by `rows`, and count the shown row
    // elements made or written to, and the elements dropped.
    const scrollBy = (rows: number) =>
      page.evaluate(async (by) => {
        const all = () => [...document.querySelectorAll<HTMLElement>('.grid-canvas > .row')];
        const state = (r: HTMLElement) => `${r.hidden} ${r.id} ${r.textContent}`;
        const kept = new Map(all().map((r) => [r, state(r)]));
        document.querySelector<HTMLElement>('.grid-body')!.scrollTop += by * 22;
        await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
        const now = all();
        return {
          written: now.filter((r) => !r.hidden && kept.get(r) !== state(r)).length,
          dropped: [...kept.keys()].filter((r) => !now.includes(r)).length,
        };
      }, rows);
    const check = async () => {
      const before = await read();
      expect(before.mismatched).toEqual([]);
      expect(before.owns).toEqual(before.byIndex);
      expect(await scrollBy(3)).toEqual({ written: 3, dropped: 0 });
      const after = await read();
      expect(after.mismatched).toEqual([]);
      expect(after.owns).toEqual(after.byIndex);
      expect(after.byIndex[0]).toBe(before.byIndex[3]);
      // A third of a row: the window moves by one row at one end at most.
      expect((await scrollBy(1 / 3)).written).toBeLessThanOrEqual(1);
    };
    // away from the top, where the window has no rows above it
    await page.evaluate(() => {
      document.querySelector<HTMLElement>('.grid-body')!.scrollTop = 50 * 22;
    });
    await page.evaluate(frames);
    await check();
    // The same after the panel was taller for a while (DevTools resized or docked elsewhere) and came back.
    await page.setViewport({ width: 1280, height: 1400 });
    await page.evaluate(frames);
    await page.setViewport({ width: 1280, height: 760 });
    await page.evaluate(frames);
    await check();
    // Back to the end: the timeline follows new records again, as the tests below expect.
    await page.evaluate(() => {
      const b = document.querySelector<HTMLElement>('.grid-body')!;
      b.scrollTop = b.scrollHeight;
    });
    await page.evaluate(frames);
  });

  it('each filter narrows the list as expected', async () => {
    const all = await shown(page);
    const checks: Array<[string, () => Promise<unknown>, (r: any) => boolean]> = [
      ['direction event', () => clickChip(page, 'Direction', '↑ events'), (r) => r.direction === 'event'],
      ['direction action', () => clickChip(page, 'Direction', '↓ actions'), (r) => r.direction === 'action'],
      ['kind post', () => clickChip(page, 'Kind', 'post'), (r) => r.kind === 'post'],
      ['verdict invalid', () => clickChip(page, 'Verdict', 'invalid'), (r) => r.verdict === 'invalid'],
      [
        'severity warning',
        () => clickChip(page, 'Issue severity', 'warnings'),
        (r) => r.issues.some((i: any) => i.severity === 'warning'),
      ],
      [
        'search text',
        () => inPanel(page, (h) => h.setFilters({ search: 'timeout' })),
        (r) => JSON.stringify(r.data).includes('timeout'),
      ],
      [
        'search field',
        () => inPanel(page, (h) => h.setFilters({ search: 'payload.path:folder' })),
        (r) => String(r.data?.payload?.path).includes('folder'),
      ],
    ];
    for (const [name, apply, pred] of checks) {
      await resetFilters(page);
      await apply();
      const rs = await viewRecords(page);
      expect(rs.length, name).toBeGreaterThan(0);
      expect(rs.length, name).toBeLessThan(all);
      expect(rs.every(pred), name).toBe(true);
      expect(await rowCount(page), name).toBe(rs.length);
    }
    await resetFilters(page);
  });

  it('filters by type, surface, frame and origin from their menus', async () => {
    const menu = async (label: string, option: string) => {
      await page.click(`.menu-button[aria-controls="menu-${label}"]`);
      await page.waitForSelector(`#menu-${label}`);
      await page.evaluate(
        (l, o) => {
          const opt = [...document.querySelectorAll(`#menu-${l} label.opt`)].find((x) => x.textContent!.includes(o))!;
          (opt.querySelector('input') as HTMLInputElement).click();
        },
        label,
        option,
      );
      await page.keyboard.press('Escape');
    };
    const all = await shown(page);
    await menu('type', 'dashboard-loaded');
    let rs = await viewRecords(page);
    expect(rs.length).toBeGreaterThan(0);
    expect(rs.every((r) => r.type === 'svc:event:dashboard-loaded')).toBe(true);
    await resetFilters(page);
    await menu('surface', 'app');
    rs = await viewRecords(page);
    expect(rs.length).toBeGreaterThan(0);
    expect(rs.every((r) => r.surface === 'app')).toBe(true);
    await resetFilters(page);
    await menu('frame', 'host.example.com/analytics');
    rs = await viewRecords(page);
    expect(rs.length).toBeGreaterThan(0);
    expect(rs.length).toBeLessThan(all);
    expect(rs.every((r) => r.frameUrl === 'https://host.example.com/analytics')).toBe(true);
    await resetFilters(page);
    await menu('origin', 'https://host.example.com');
    rs = await viewRecords(page);
    expect(rs.every((r) => r.origin === 'https://host.example.com')).toBe(true);
    await resetFilters(page);
    // foreign traffic on demand
    await page.click('.chip.ch-foreign');
    expect((await viewRecords(page)).some((r) => r.verdict === 'foreign' && !r.navigation)).toBe(true);
    await page.click('.chip.ch-foreign');
  });

  it('keyboard: arrows move the selection, Enter opens details, Esc closes, Ctrl+F focuses search', async () => {
    await page.focus('[role="grid"]');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const sel = await inPanel(page, (h) => h.rows().findIndex((r) => r.seq === h.selected()));
    expect(sel).toBe(2);
    expect(await page.$eval('[role="grid"]', (g) => g.getAttribute('aria-activedescendant'))).toMatch(/^ei-row-\d+$/);
    expect(await page.$eval('[role="row"][aria-selected="true"]', (r) => r.getAttribute('aria-rowindex'))).toBe('4');
    await page.keyboard.press('Enter');
    await page.waitForSelector('section.detail [role="tablist"]');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('section.detail'));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('grid');
    await page.keyboard.down('Control');
    await page.keyboard.press('f');
    await page.keyboard.up('Control');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search messages');
    await page.keyboard.type('type:dashboard-loaded');
    await waitInPanel(page, (h) => h.filters().search === 'type:dashboard-loaded');
    expect((await viewRecords(page)).every((r) => r.type === 'svc:event:dashboard-loaded')).toBe(true);
    await page.$eval('input.search', (i) => {
      (i as HTMLInputElement).value = '';
    });
    await resetFilters(page);
  });

  it('selecting an invalid record shows its issues with rule id, message and spec sentence', async () => {
    await inPanel(page, (h) => h.setFilters({ search: 'rule:envelope.surface-missing' }));
    await page.click('.grid-body [role="row"]');
    await page.waitForSelector('.issue-banner');
    await page.click('#tab-issues');
    const issue = await page.$eval('.issues .issue', (el) => ({
      rule: el.querySelector('.rule')!.textContent,
      msg: el.querySelector('.issue-msg')!.textContent,
      spec: el.querySelector('.spec')?.textContent,
      code: [...el.querySelectorAll('.spec code')].map((c) => c.textContent),
    }));
    expect(issue.rule).toBe('envelope.surface-missing');
    expect(issue.msg).toContain('surface');
    // The rule table's code spans show as code, without their backticks.
    expect(issue.spec).toContain('Every event carries the envelope surface');
    expect(issue.spec).not.toContain('`');
    expect(issue.code).toContain('surface');
    await resetFilters(page);
  });

  it('shows the message as an ARIA tree with encoded values as what they were, and links the delivery', async () => {
    await inPanel(page, (h) => h.setFilters({ search: 'type:drilldown kind:post' }));
    await page.click('.grid-body [role="row"]');
    await page.click('#tab-message');
    await page.waitForSelector('[role="tree"] [role="treeitem"]');
    // expand payload.value
    await page.evaluate(() => {
      const item = document.querySelector('[role="treeitem"][data-path="$.payload.value"]') as HTMLElement;
      if (item.getAttribute('aria-expanded') === 'false') {
        (item.querySelector('.twisty') as HTMLElement).click();
      }
    });
    const texts = await page.$$eval('[role="tree"] .node', (ns) => ns.map((n) => n.textContent));
    const joined = texts.join('\n');
    expect(joined).toContain('Date 2026-01-01T09:30:00.000Z');
    expect(joined).toContain('Map(2)');
    expect(joined).toContain('9007199254740993n');
    expect(joined).toContain('Set(3)');
    expect(joined).toMatch(/undefined/);
    expect(await page.$$eval('[role="treeitem"][aria-level="1"]', (x) => x.length)).toBe(1);
    expect(await page.$$eval('[role="tree"] [role="group"]', (x) => x.length)).toBeGreaterThan(0);
    // keyboard in the tree
    await page.focus('[role="treeitem"][aria-level="1"]');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.path)).toBe('$.source');
    await page.click('#tab-related');
    const related = await page.$eval('.related', (r) => r.textContent);
    expect(related).toMatch(/#\d+ receive drilldown/);
    await page.click('#tab-timing');
    expect(await page.$eval('.timing', (t) => t.textContent)).toContain('Since ready');
    await page.keyboard.press('Escape');
    await resetFilters(page);
  });

  it('renders captured strings as text only: an XSS payload stays inert', async () => {
    await inPanel(page, (h) => h.setFilters({ search: 'onerror' }));
    await page.click('.grid-body [role="row"]');
    await page.click('#tab-message');
    await page.waitForFunction(() =>
      document.querySelector('section.detail [role="tree"]')?.textContent?.includes('onerror'),
    );
    const r = await page.evaluate(() => ({
      xss: (window as any).__xss,
      imgs: document.querySelectorAll('img').length,
      jsLinks: document.querySelectorAll('a[href^="javascript:"]').length,
      text: document.querySelector('section.detail')!.textContent,
    }));
    expect(r.xss).toBeUndefined();
    expect(r.imgs).toBe(0);
    expect(r.jsLinks).toBe(0);
    expect(r.text).toContain('<img src=x onerror=');
    expect(r.text).toContain('javascript:window.__xss=2');
    await page.keyboard.press('Escape');
    await resetFilters(page);
  });

  it('keeps filter state across reloads', async () => {
    await inPanel(page, (h) => h.setFilters({ kinds: ['receive'], search: 'view' }));
    await page.reload();
    await waitInPanel(page, (h) => !!h);
    const f = await inPanel(page, (h) => h.filters());
    expect(f.kinds).toEqual(['receive']);
    expect(f.search).toBe('view');
    expect(await page.$eval('input.search', (i) => (i as HTMLInputElement).value)).toBe('view');
    expect(
      await page.$eval('[role="group"][aria-label="Kind"] button[aria-pressed="true"]', (b) => b.textContent),
    ).toBe('receive');
    await resetFilters(page);
  });

  it('following, the newest row stays whole when the grid gets lower (the panel resized, a large load judged)', async () => {
    /** How far the grid is from its end (px), and how far the newest row's bottom is below the grid's. */
    const end = (p: Page) =>
      p.$eval('.grid-body', (g) => {
        const rows = [...g.querySelectorAll<HTMLElement>('[role="row"][aria-rowindex]')];
        const newest = rows.reduce((a, b) =>
          Number(b.getAttribute('aria-rowindex')) > Number(a.getAttribute('aria-rowindex')) ? b : a,
        );
        return {
          short: g.scrollHeight - g.clientHeight - g.scrollTop,
          hidden: newest.getBoundingClientRect().bottom - g.getBoundingClientRect().bottom,
          newest: Number(newest.getAttribute('aria-rowindex')) - 1,
          count: Number(g.getAttribute('aria-rowcount')) - 1,
        };
      });
    const p = await openPanel('fixture=demo&n=300');
    await painted(p);
    expect((await end(p)).short).toBeLessThanOrEqual(1);
    await p.setViewport({ width: 1280, height: 600 });
    await twoFrames(p);
    const resized = await end(p);
    expect(resized.short).toBeLessThanOrEqual(1);
    expect(resized.newest).toBe(resized.count);
    expect(resized.hidden).toBeLessThanOrEqual(1);
    // A load of 12,000 records in a narrow panel: its first frame says "judging…" on one line, the judged line wraps.
    await p.setViewport({ width: 400, height: 700 });
    await inPanel(p, (h) => {
      h.load(
        h.synthetic(12_000).map((r: unknown) => structuredClone(r)),
        'large',
      );
    });
    await p.waitForFunction(
      () => document.querySelector('[data-testid="integration"]')?.getAttribute('data-state') !== 'judging',
    );
    await painted(p);
    const judged = await end(p);
    expect(judged.count).toBeGreaterThan(10_000);
    expect(judged.short).toBeLessThanOrEqual(1);
    expect(judged.newest).toBe(judged.count);
    expect(judged.hidden).toBeLessThanOrEqual(1);
    await p.close();
  });

  it('follows the theme: ?theme= override, else prefers-color-scheme outside DevTools', async () => {
    const dark = await openPanel('fixture=demo&theme=dark');
    expect(await dark.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const bg = await dark.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(31, 31, 31)');
    await dark.close();
    const os = await launched.browser.newPage();
    await os.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await os.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?fixture=demo`);
    await os.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await os.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await os.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await os.close();
  });

  it('live tail follows new records until the user scrolls up, and resumes on demand', async () => {
    const p = await openPanel('fixture=demo&n=300');
    const push = (n: number) =>
      inPanel(
        p,
        (h, { k, batch }: { k: number; batch: Extract<BackgroundToPanel, { type: 'records' }> }) => {
          const last = h.records().at(-1)!;
          const more = h
            .synthetic(k + 40)
            .slice(-k)
            .map((r: any, j: number) => ({
              ...r,
              seq: last.seq + 1 + j,
              time: last.time + 10 + j,
              pairedWith: undefined,
            }));
          h.store.handle({ ...batch, records: more });
        },
        { k: n, batch: stamp<Extract<BackgroundToPanel, { type: 'records' }>>({ type: 'records', records: [] }) },
      );
    const atBottom = () => p.$eval('.grid-body', (b) => b.scrollTop + b.clientHeight >= b.scrollHeight - 30);
    await p.waitForFunction(() => {
      const b = document.querySelector('.grid-body')!;
      return b.scrollTop > 0;
    });
    await push(20);
    await p.waitForFunction(() => {
      const b = document.querySelector('.grid-body')!;
      return b.scrollTop + b.clientHeight >= b.scrollHeight - 30;
    });
    await p.$eval('.grid-body', (b) => b.dispatchEvent(new WheelEvent('wheel', { deltaY: -200, bubbles: true })));
    await p.$eval('.grid-body', (b) => {
      b.scrollTop = 0;
    });
    await p.waitForSelector('button.follow'); // the timeline stopped following
    await push(20);
    await painted(p);
    expect(await p.$eval('.grid-body', (b) => b.scrollTop)).toBe(0);
    expect(await atBottom()).toBe(false);
    await p.waitForSelector('button.follow');
    await p.click('button.follow');
    await p.waitForFunction(() => {
      const b = document.querySelector('.grid-body')!;
      return b.scrollTop + b.clientHeight >= b.scrollHeight - 30;
    });
    await push(5);
    await painted(p);
    expect(await atBottom()).toBe(true);
    await p.close();
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
