/**
 * The panel at every width (issue 29), real Chromium with the built extension, on the panel page opened in a tab
 * with a synthetic session (`?fixture=demo`): at 400, 500, 800 and 1,400 px, light and dark, nothing overflows
 * sideways, every toolbar control is in its bar or in the bar's overflow menu, the details are inside the panel with
 * a title and tabs on one line, and after Clear and Import the list is back. Settings as a popover: inside the
 * panel, closed by Esc, an outside click and ✕, focus back on its button. Fails (never skips) without a build.
 */
import type { Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, openedPopover, twoFrames, waitInPanel } from '../helpers/panel.ts';

let launched: Launched;
const errors: string[] = [];

async function openPanel(width: number, theme: string, height = 600): Promise<Page> {
  const p = await launched.browser.newPage();
  await p.setViewport({ width, height });
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?fixture=demo&n=200&theme=${theme}`);
  await waitInPanel(p, () => !!document.querySelector('.grid-body[role="grid"] [role="row"]'));
  await inPanel(p, (h) => h.resetFilters());
  // The toolbars have measured their items (one frame after the first layout).
  await twoFrames(p);
  return p;
}

/** Every control of each toolbar, by its item id (Toolbar.tsx data-tb). */
const TOOLBARS: Record<string, string[]> = {
  summary: ['record', 'clear', 'preserve', 'receive-only', 'settings', 'tenant', 'facts', 'actions', 'counts'],
  filterbar: ['search', 'direction', 'kind', 'verdict', 'severity', 'type', 'surface', 'frame', 'origin'],
};
/** The act feature's buttons (in the summary bar's "actions" item). */
const ACTIONS = ['.t-compose', '.t-replay', '.t-export', '.t-import', '.t-compare', '.t-rest'];

/** Where each item of a toolbar is: shown whole inside the bar, in the overflow menu, or neither (a fault). */
async function reach(p: Page, bar: string): Promise<Record<string, 'bar' | 'menu' | 'clipped' | 'missing'>> {
  const inBar = await p.$eval(`.toolbar.${bar}`, (b) => {
    const box = b.getBoundingClientRect();
    const out: Record<string, string> = {};
    for (const el of b.querySelectorAll<HTMLElement>(':scope > .tb-item')) {
      if (el.hidden) {
        continue;
      }
      const r = el.getBoundingClientRect();
      out[el.dataset.tb!] = r.left >= box.left - 0.5 && r.right <= box.right + 0.5 ? 'bar' : 'clipped';
    }
    return out;
  });
  const more = await p.$(`.toolbar.${bar} .tb-more-button`);
  let inMenu: string[] = [];
  if (more) {
    await more.click();
    await openedPopover(p, '.tb-menu');
    inMenu = await p.$$eval('.tb-menu .tb-menu-item', (els) => els.map((e) => (e as HTMLElement).dataset.tb!));
    const outside = await p.$eval('.tb-menu', (m) => {
      const r = m.getBoundingClientRect();
      return r.left < 0 || r.right > document.documentElement.clientWidth;
    });
    expect(outside, `${bar}'s overflow menu inside the panel`).toBe(false);
    await p.keyboard.press('Escape');
    await p.waitForFunction(() => !document.querySelector('.tb-menu'));
  }
  const out: Record<string, 'bar' | 'menu' | 'clipped' | 'missing'> = {};
  for (const id of TOOLBARS[bar]) {
    out[id] = (inBar[id] as 'bar' | 'clipped' | undefined) ?? (inMenu.includes(id) ? 'menu' : 'missing');
  }
  return out;
}

/** Open a toolbar's overflow menu (⋯) and wait until it stands still. */
async function openMenu(p: Page, bar = 'summary'): Promise<void> {
  await p.click(`.${bar} .tb-more-button`);
  await openedPopover(p, '.tb-menu');
}

/**
 * Where the eye sees each row of the open toolbar menu start, px from its inner left edge: a checkbox, the box of a
 * pill (a background of its own), or text (a button's box is transparent until hovered: its text is what shows).
 */
const menuRowInsets = (p: Page) =>
  p.$eval('.tb-menu', (m) => {
    const pop = (m.closest('.popover') ?? m) as HTMLElement;
    const inner = pop.getBoundingClientRect().left + pop.clientLeft;
    const painted = (el: Element | null, item: Element): Element | null => {
      for (let e = el; e && e !== item; e = e.parentElement) {
        if (getComputedStyle(e).backgroundColor !== 'rgba(0, 0, 0, 0)') {
          return e;
        }
      }
      return null;
    };
    const firstLeft = (item: Element): number => {
      const walk = document.createTreeWalker(item, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (n.nodeType === Node.TEXT_NODE) {
          if (!n.textContent?.trim()) {
            continue;
          }
          const pill = painted(n.parentElement, item);
          if (pill) {
            return pill.getBoundingClientRect().left;
          }
          const range = document.createRange();
          range.selectNodeContents(n);
          return range.getBoundingClientRect().left;
        }
        const el = n as HTMLElement;
        if ((el.tagName === 'INPUT' || el.tagName === 'svg') && el.getBoundingClientRect().width > 0) {
          return el.getBoundingClientRect().left;
        }
      }
      return Number.NaN;
    };
    return [...m.querySelectorAll<HTMLElement>('.tb-menu-item')].map((i) => ({
      row: i.dataset.tb,
      inset: Math.round((firstLeft(i) - inner) * 10) / 10,
    }));
  });

const noSideOverflow = (p: Page) =>
  p.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    app: (document.querySelector('.app') as HTMLElement).scrollWidth - document.documentElement.clientWidth,
  }));

async function openDetailOfInvalid(p: Page): Promise<void> {
  await inPanel(p, (h) => {
    h.select({ verdict: 'invalid' });
  });
  await p.focus('[role="grid"]');
  await p.keyboard.press('Enter');
  await p.waitForSelector('section.detail .detail-title');
}

test.beforeAll(({ chromium }) => {
  launched = chromium;
});

describe('the overflow menu', () => {
  it("400 px: each toolbar's menu opens where it stays, inside the panel, and does not slide", async () => {
    const p = await openPanel(400, 'light');
    try {
      for (const bar of Object.keys(TOOLBARS)) {
        await openMenu(p, bar);
        // Where the menu is in each of the next 20 frames: one place, the same as in the first.
        const places = await p.evaluate(
          () =>
            new Promise<string[]>((resolve) => {
              const seen: string[] = [];
              const tick = () => {
                const r = document.querySelector('.tb-menu')!.getBoundingClientRect();
                seen.push(`${r.left},${r.top} ${r.width}×${r.height}`);
                if (seen.length < 20) {
                  requestAnimationFrame(tick);
                } else {
                  resolve(seen);
                }
              };
              tick();
            }),
        );
        expect(new Set(places), `${bar}'s menu in 20 frames after it opened`).toEqual(new Set([places[0]]));
        const [left, , width] = places[0].split(/[ ,×]/).map(Number);
        expect(left, `${bar}'s menu's left edge`).toBeGreaterThanOrEqual(4);
        expect(left + width, `${bar}'s menu's right edge`).toBeLessThanOrEqual(400 - 4);
        await p.keyboard.press('Escape');
        await p.waitForFunction(() => !document.querySelector('.tb-menu'));
      }
    } finally {
      await p.close();
    }
  });
  it.each([230, 260, 400])("%i px: the menu's rows start at one inset, clear of its border", async (width) => {
    const p = await openPanel(width, 'dark');
    try {
      await openMenu(p);
      const starts = await menuRowInsets(p);
      expect(starts.length, 'rows in the menu').toBeGreaterThan(3);
      const insets = starts.map((x) => x.inset);
      const said = `the rows' insets: ${JSON.stringify(starts)}`;
      expect(Math.min(...insets), said).toBeGreaterThanOrEqual(6);
      expect(Math.max(...insets) - Math.min(...insets), said).toBeLessThanOrEqual(1);
      // A fact that wraps (a narrow panel) starts each of its lines there too, not centred as a button's text is.
      const lines = await p.$$eval('.tb-menu .fact', (facts) =>
        facts.map((f) => {
          const range = document.createRange();
          range.selectNodeContents(f);
          // Each line's start: the leftmost box of those on it (a line's boxes share their top, give or take).
          const starts = new Map<number, number>();
          for (const r of range.getClientRects()) {
            if (r.width > 0) {
              const line = Math.round(r.bottom / 4);
              starts.set(line, Math.min(starts.get(line) ?? r.left, r.left));
            }
          }
          return Math.max(...starts.values()) - Math.min(...starts.values());
        }),
      );
      expect(lines.length, 'facts in the menu').toBeGreaterThan(0);
      for (const spread of lines) {
        expect(spread, "a wrapped fact's lines start at one place, px apart").toBeLessThanOrEqual(1);
      }
    } finally {
      await p.close();
    }
  });
  it('260 px (a panel docked beside the page): a long tenant origin wraps in the menu, which never scrolls sideways', async () => {
    const p = await openPanel(260, 'light');
    try {
      await openMenu(p);
      // An origin with no place to break a line (as http://localhost:port is in the real DevTools), set by hand.
      await p.click('.tb-menu .tenant .value');
      await p.waitForSelector('.tenant-input');
      await p.keyboard.type('http://analyticstenanteuwest1.localhost:39537');
      await p.keyboard.press('Enter');
      await p.waitForFunction(() =>
        document.querySelector('.tenant .value')?.textContent?.startsWith('http://analyticstenanteuwest1'),
      );
      if (!(await p.$('.tb-menu'))) {
        await openMenu(p);
      }
      const fit = await p.$eval('.tb-menu', (m) => {
        const pop = (m.closest('.popover') ?? m) as HTMLElement;
        const box = pop.getBoundingClientRect();
        const tenant = m.querySelector('[data-tb="tenant"] .tenant .value')?.getBoundingClientRect();
        return { sideways: pop.scrollWidth - pop.clientWidth, roomRight: tenant ? box.right - tenant.right : null };
      });
      expect(fit.roomRight, 'the tenant origin is in the menu at 260 px').not.toBeNull();
      expect(fit.sideways, 'the menu scrolls sideways by').toBeLessThanOrEqual(0);
      expect(fit.roomRight!, 'the tenant origin ends inside the menu').toBeGreaterThanOrEqual(0);
    } finally {
      await p.close();
    }
  });
  it('400 px: Compose chosen in the menu opens the composer and the menu closes off it', async () => {
    const p = await openPanel(400, 'light');
    try {
      await openMenu(p);
      await p.click('.tb-menu .t-compose');
      await p.waitForSelector('.composer');
      await p.waitForFunction(() => !document.querySelector('.tb-menu'));
      // What the user clicks next lands on the composer, not on a menu left open over it.
      const onTop = await p.$eval('.cm-send', (b) => {
        b.scrollIntoView({ block: 'nearest' });
        const r = b.getBoundingClientRect();
        return b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
      });
      expect(onTop, 'Send is what a click on it reaches').toBe(true);
      expect(await p.evaluate(() => document.activeElement?.classList.contains('tb-more-button'))).toBe(true);
    } finally {
      await p.close();
    }
  });
});

describe.each(['light', 'dark'])('panel layout, %s theme', (theme) => {
  it.each([250, 400, 500, 800, 1400])('%i px: no sideways overflow, every toolbar control reachable', async (width) => {
    const p = await openPanel(width, theme);
    try {
      expect(await noSideOverflow(p)).toEqual({ page: 0, app: 0 });
      for (const bar of Object.keys(TOOLBARS)) {
        const where = await reach(p, bar);
        const unreachable = Object.entries(where).filter(([, w]) => w === 'clipped' || w === 'missing');
        expect(unreachable, `${bar} at ${width} px: ${JSON.stringify(where)}`).toEqual([]);
        // Each toolbar is one row.
        expect(await p.$eval(`.toolbar.${bar}`, (b) => b.getBoundingClientRect().height)).toBeLessThan(40);
      }
      // The act feature's buttons: in the bar, or in the menu when the bar has no room for them.
      const where = await reach(p, 'summary');
      if (where.actions === 'menu') {
        await p.click('.summary .tb-more-button');
        await p.waitForSelector('.tb-menu');
      }
      const scope = where.actions === 'menu' ? '.tb-menu' : '.summary';
      for (const sel of ACTIONS) {
        expect(await p.$(`${scope} ${sel}`), `${sel} at ${width} px`).not.toBeNull();
      }
    } finally {
      await p.close();
    }
  });

  it.each([250, 400, 500, 800, 1400])(
    '%i px: the details are inside the panel, titled, tabs on one line; list and details reachable after Clear and Import',
    async (width) => {
      const p = await openPanel(width, theme);
      try {
        await openDetailOfInvalid(p);
        const d = await p.$eval('section.detail', (el) => {
          const r = el.getBoundingClientRect();
          const tabs = [...el.querySelectorAll<HTMLElement>('[role="tab"]')].map((t) => t.getBoundingClientRect());
          const list = el.querySelector('[role="tablist"]') as HTMLElement;
          return {
            left: r.left,
            right: r.right,
            title: el.querySelector('.detail-title')!.textContent,
            tabTops: new Set(tabs.map((t) => Math.round(t.top))).size,
            tabsOverflow: list.scrollWidth - list.clientWidth,
            tabsInside: tabs.every((t) => t.right <= r.right + 0.5),
            back: getComputedStyle(el.querySelector('.detail-back')!).display !== 'none',
            close: !!el.querySelector('.detail-head .close'),
          };
        });
        expect(d.left).toBeGreaterThanOrEqual(0);
        expect(d.right).toBeLessThanOrEqual(width);
        expect(d.title).toMatch(/^#\d+ \S+/);
        expect(d.tabTops, 'the tabs on one line').toBe(1);
        expect(d.tabsOverflow).toBe(0);
        expect(d.tabsInside).toBe(true);
        expect(d.close).toBe(true);
        expect(await noSideOverflow(p)).toEqual({ page: 0, app: 0 });
        // Narrow: the details cover the list and say how to go back; wide: both side by side.
        const covered = await p.evaluate(() => {
          const g = document.querySelector('.grid')!.getBoundingClientRect();
          const det = document.querySelector('section.detail')!.getBoundingClientRect();
          return det.left <= g.left + 1;
        });
        expect(d.back).toBe(covered);
        if (covered) {
          await p.click('.detail-back');
          await p.waitForFunction(() => !document.querySelector('section.detail'), { timeout: 5_000 });
          expect(await p.$eval('.grid-body', (g) => g.getBoundingClientRect().width)).toBeGreaterThan(width / 2);
          await openDetailOfInvalid(p);
        }

        // Clear with the details open: the list is shown, and says what it shows.
        await p.click('.summary .t-clear');
        await p.waitForFunction(() => !document.querySelector('section.detail'), { timeout: 5_000 });
        expect(await p.$eval('.empty', (e) => e.getAttribute('data-state'))).toBe('detached');

        // Import with the details open: the imported records are listed, and the details open again.
        await inPanel(p, (h) => h.load(h.synthetic(60), 'imported.json'));
        await p.waitForSelector('.grid-body [role="row"]');
        await openDetailOfInvalid(p);
        await inPanel(p, (h) => h.load(h.synthetic(40), 'second.json'));
        await p.waitForFunction(() => !document.querySelector('section.detail'), { timeout: 5_000 });
        expect(await p.$$eval('.grid-body [role="row"]', (r) => r.length)).toBeGreaterThan(0);
        await openDetailOfInvalid(p);
      } finally {
        await p.close();
      }
    },
  );
});

it('300 px tall, docked at the bottom: the list keeps rows in view and the details open over it', async () => {
  const p = await openPanel(1400, 'light', 300);
  try {
    const rows = await p.$eval('.grid-body', (g) => g.getBoundingClientRect().height);
    expect(rows).toBeGreaterThanOrEqual(60); // three rows at least
    await openDetailOfInvalid(p);
    const body = await p.$eval('.detail-body', (b) => b.getBoundingClientRect().height);
    expect(body).toBeGreaterThan(40);
    expect(await noSideOverflow(p)).toEqual({ page: 0, app: 0 });
  } finally {
    await p.close();
  }
});

it("the details never show the browser's internal frame id (Firefox's are ten digits long)", async () => {
  const p = await openPanel(1400, 'light');
  try {
    await inPanel(p, (h) =>
      h.load(
        h.synthetic(40).map((r) => ({ ...r, frameId: 10737418242 })),
        'firefox-frames.json',
      ),
    );
    await p.waitForSelector('.grid-body [role="row"]');
    await openDetailOfInvalid(p);
    const text = await p.$eval('section.detail', (d) => d.textContent ?? '');
    expect(text).toMatch(/Posted by|Received by/);
    expect(text).not.toContain('10737418242');
  } finally {
    await p.close();
  }
});

describe('Settings popover', () => {
  let p: Page;
  test.beforeAll(async () => {
    p = await openPanel(554, 'light'); // DevTools' default docked width
  });
  test.afterAll(async () => {
    await p?.close();
  });
  const isOpen = () => p.$('.limits-pop').then((x) => x !== null);
  const focusOnButton = () => p.evaluate(() => document.activeElement?.classList.contains('limits-button') ?? false);

  it('opens inside the panel', async () => {
    await p.click('.limits-button');
    await openedPopover(p, '.limits-pop');
    const r = await p.$eval('.limits-pop', (el) => {
      const b = el.getBoundingClientRect();
      return { left: b.left, right: b.right, bottom: b.bottom };
    });
    expect(r.left).toBeGreaterThanOrEqual(0);
    expect(r.right).toBeLessThanOrEqual(554);
    expect(r.bottom).toBeLessThanOrEqual(600);
  });

  it('Esc closes it, gives the focus back to its button, and leaves the open details open', async () => {
    await openDetailOfInvalid(p);
    if (!(await isOpen())) {
      await p.click('.limits-button');
      await p.waitForSelector('.limits-pop');
    }
    await p.focus('.lim-records');
    await p.keyboard.press('Escape');
    await p.waitForFunction(() => !document.querySelector('.limits-pop'));
    expect(await focusOnButton()).toBe(true);
    expect(await p.$('section.detail'), 'the details stay open').not.toBeNull();
  });

  it('an outside click closes it', async () => {
    await p.click('.limits-button');
    await p.waitForSelector('.limits-pop');
    await p.click('.status');
    await p.waitForFunction(() => !document.querySelector('.limits-pop'));
  });

  it('its ✕ closes it and gives the focus back to its button', async () => {
    await p.click('.limits-button');
    await p.waitForSelector('.limits-pop .popover-close');
    await p.click('.limits-pop .popover-close');
    await p.waitForFunction(() => !document.querySelector('.limits-pop'));
    expect(await focusOnButton()).toBe(true);
  });

  it('does not stay open when the log is replaced (a reload, an import)', async () => {
    await p.click('.limits-button');
    await p.waitForSelector('.limits-pop');
    await inPanel(p, (h) => h.load(h.synthetic(20), 'next.json'));
    await p.waitForFunction(() => !document.querySelector('.limits-pop'));
  });
});

it('raised no page errors', () => {
  expect(errors).toEqual([]);
});
