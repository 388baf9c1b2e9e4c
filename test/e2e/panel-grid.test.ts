/**
 * The timeline grid in real Chromium, on the built panel page with a synthetic session (`?fixture=demo`): the
 * direction and kind at every width, the column chooser and sorting (remembered across a reload), the row menu
 * (mouse and keyboard), an issue's field marked in the tree and its rule's documentation, and the words that go
 * with their state (the composer's outcome, the tenant origin's source, the selection and the filters, "Simulate
 * again", the set-theme form, badges and panes that fit at 500 px). Fails (never skips) without Chromium or a build.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, waitInPanel } from '../helpers/panel.ts';
import type { Launched } from '../../src/node/chromium.ts';
import { captureOf } from '../../src/panel/features/act/capture-file.ts';
import { syntheticSession, TENANT } from '../../src/panel/app/synthetic.ts';

let launched: Launched;
let page: Page;
const errors: string[] = [];

async function openPanel(query: string, width = 1280): Promise<Page> {
  const p = await launched.browser.newPage();
  await p.setViewport({ width, height: 700 });
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?${query}`);
  await waitInPanel(p, () => !!document.querySelector('.grid-body[role="grid"] [role="row"]'));
  return p;
}
/** The shown rows, top to bottom: their record's seq, from their ids. */
const rowSeqs = (p: Page) =>
  p.$$eval('.grid-canvas [role="row"]', (rows) =>
    rows
      .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
      .map((r) => Number(r.id.replace('ei-row-', ''))),
  );
/** A column header's sort button. */
const header = (p: Page, col: string) => p.$(`[role="columnheader"].c-${col} .sort-btn`);
const menuLabels = (p: Page) =>
  p.$$eval('[role="menu"] [role^="menuitem"]', (items) => items.map((i) => i.textContent!.trim()));
const pickMenu = async (p: Page, label: string) => {
  await p.evaluate((l) => {
    const it = [...document.querySelectorAll<HTMLElement>('[role="menu"] [role^="menuitem"]')].find((i) =>
      i.textContent!.trim().endsWith(l),
    );
    it!.click();
  }, label);
};
const seqOf = (p: Page, pred: string) =>
  inPanel(
    p,
    (h, src) => {
      const f = new Function('r', `return ${src}`);
      return h.rows().find((r) => f(r))?.seq ?? -1;
    },
    pred,
  );

test.beforeAll(async ({ chromium }) => {
  launched = chromium;
  page = await openPanel('fixture=demo&n=300&theme=light');
});

describe('timeline grid', () => {
  it.each([400, 500, 800, 1400])(
    'at %i px a post and its delivery differ by their direction-and-kind cell',
    async (w) => {
      await page.setViewport({ width: w, height: 700 });
      await page.waitForFunction((width) => document.querySelector('.timeline')!.clientWidth <= width, {}, w);
      const post = await seqOf(page, "r.kind === 'post' && r.pairedWith !== undefined && !r.navigation");
      const recv = await inPanel(page, (h, seq) => h.record(seq)!.pairedWith as number, post);
      await inPanel(page, (h, seq) => h.select(seq), post);
      await page.waitForSelector(`#ei-row-${recv}`);
      const cell = (seq: number) =>
        page.$eval(`#ei-row-${seq} .c-dir`, (c) => {
          // the kind icon: a glyph after the direction arrow, drawn (not an empty box) in the cell's line
          const icon = c.querySelector('.k-icon') as HTMLElement;
          return {
            label: c.getAttribute('aria-label'),
            visible: (c as HTMLElement).offsetWidth > 20,
            icon: icon.textContent,
            drawn: icon.offsetWidth > 4 && icon.offsetTop >= 0 && icon.offsetLeft + icon.offsetWidth <= c.clientWidth,
          };
        });
      const a = await cell(post),
        b = await cell(recv);
      expect(a.visible && b.visible).toBe(true);
      expect(a.icon).toBe('↗');
      expect(b.icon).toBe('↙');
      expect(a.drawn && b.drawn).toBe(true);
      expect(a.label).toMatch(/post/);
      expect(b.label).toMatch(/receive/);
      // the tooltip: the hovered cell's, saying its own record's kind (set while the pointer is on the cell)
      const title = (seq: number) => page.$eval(`#ei-row-${seq} .c-dir`, (c) => c.getAttribute('title'));
      await page.hover(`#ei-row-${post} .c-dir`);
      expect(await title(post)).toMatch(/post/);
      await page.hover(`#ei-row-${recv} .c-dir`);
      expect(await title(recv)).toMatch(/receive/);
      expect(await title(post)).toBe(null);
      // every shown header fits: no horizontal overflow of the grid
      const overflow = await page.$eval('.grid-body', (g) => g.scrollWidth - g.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await page.$$eval('[role="columnheader"].c-dir, [role="columnheader"].c-type', (h) => h.length)).toBe(2);
    },
  );

  it('a record selected away from the end stays in view when the grid changes height as it is selected', async () => {
    // (the flake this found: at 400 px, selecting a record opened the detail pane; the virtualizer learnt the
    // grid's new height from the selection's own scroll, the tail, still following, scrolled back to the end)
    const p = await openPanel('fixture=demo&n=300&theme=light', 800);
    try {
      const top = () => p.$eval('.grid-body', (g) => g.scrollTop);
      await p.waitForFunction(() => {
        const g = document.querySelector('.grid-body')!;
        return g.scrollTop > 0 && g.scrollTop + g.clientHeight >= g.scrollHeight - 1;
      });
      const seq = await seqOf(p, "r.kind === 'post' && !r.navigation");
      // One task: the grid gets shorter and a record near the top is selected, as a panel resized while a link
      // selects a record.
      await inPanel(
        p,
        (h, s) => {
          (document.querySelector('.grid-body') as HTMLElement).style.maxHeight = '200px';
          h.select(s);
        },
        seq,
      );
      // two frames: the scroll event and the size the browser reports after it
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await p.$(`#ei-row-${seq}`)).not.toBe(null);
      expect(await top()).toBeLessThan(300);
      expect(await p.$('.timeline .follow')).not.toBe(null);
    } finally {
      await p.close();
    }
  });

  it('sorts by a column header (aria-sort), both ways, then back to the causal order', async () => {
    await page.setViewport({ width: 1280, height: 700 });
    const causal = await rowSeqs(page);
    expect(causal).toEqual([...causal].sort((a, b) => a - b)); // the causal order by default
    expect(await page.$$eval('[role="columnheader"][aria-sort]', (h) => h.length)).toBe(0);
    const types = () =>
      page.$$eval('.grid-canvas [role="row"]', (rows) =>
        rows
          .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
          .map((r) => r.querySelector('.c-type')!.getAttribute('title') ?? ''),
      );
    await (await header(page, 'type'))!.click();
    await page.waitForSelector('[role="columnheader"].c-type[aria-sort="ascending"]');
    const asc = await types();
    expect(asc).toEqual([...asc].sort());
    await (await header(page, 'type'))!.click();
    await page.waitForSelector('[role="columnheader"].c-type[aria-sort="descending"]');
    const desc = await types();
    expect(desc).toEqual([...desc].sort().reverse());
    expect(desc).not.toEqual(asc);
    await (await header(page, 'type'))!.click();
    await page.waitForFunction(() => !document.querySelector('[role="columnheader"][aria-sort]'));
    expect(await rowSeqs(page)).toEqual(causal);
  });

  it('the column chooser adds and removes columns; the choice and the sort survive a reload', async () => {
    await page.focus('.col-chooser');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[role="menu"][aria-label="Columns"]');
    const labels = await menuLabels(page);
    for (const l of ['Time since previous', 'Absolute time', 'Size', 'Frame', 'Target origin']) {
      expect(labels.some((x) => x.endsWith(l))).toBe(true);
    }
    await pickMenu(page, 'Absolute time');
    await page.waitForSelector('[role="columnheader"].c-clock');
    await pickMenu(page, 'Size');
    await page.waitForFunction(() => !document.querySelector('[role="columnheader"].c-size'));
    expect(await page.$eval('[role="menu"] [data-id="clock"]', (e) => e.getAttribute('aria-checked'))).toBe('true');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('[role="menu"]'));
    // the focus is back on the chooser's button
    expect(await page.evaluate(() => document.activeElement?.classList.contains('col-chooser'))).toBe(true);
    // the clock cells show the time of day
    expect(await page.$eval('.grid-canvas [role="row"] .c-clock', (c) => c.textContent)).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3}$/,
    );
    await (await header(page, 'clock'))!.click();
    await (await header(page, 'clock'))!.click();
    await page.waitForSelector('[role="columnheader"].c-clock[aria-sort="descending"]');
    await page.reload();
    await page.waitForSelector('[role="columnheader"].c-clock[aria-sort="descending"]');
    expect(await page.$('[role="columnheader"].c-size')).toBeNull();
    const seqs = await rowSeqs(page);
    expect(seqs[0]).toBeGreaterThan(seqs[seqs.length - 1]);
    // back to the defaults
    await page.click('.col-chooser');
    await pickMenu(page, 'Causal order (no sort)');
    await page.click('.col-chooser');
    await pickMenu(page, 'Default columns');
    await page.waitForSelector('[role="columnheader"].c-size');
    expect(await page.$('[role="columnheader"].c-clock')).toBeNull();
    expect(await page.$$eval('[role="columnheader"][aria-sort]', (h) => h.length)).toBe(0);
  });

  it('a row has one cell per shown column, and showing a column adds exactly one cell to each row in view', async () => {
    await page.setViewport({ width: 1280, height: 700 });
    await page.waitForFunction(() => !document.querySelector('[role="columnheader"].c-delta'));
    const heads = () => page.$$eval('[role="columnheader"]', (hs) => hs.map((h) => h.className.split(' ')[0]));
    // Each row in view: its children (a cell's column, or what else it is) and the elements inside its cells that
    // are not a verdict's badge or count, the kind's tag or the direction's kind icon.
    const rows = () =>
      page.$$eval('.grid-canvas [role="row"]', (rs) =>
        rs.map((r) => ({
          id: r.id,
          cells: [...r.children].map((c) =>
            c.getAttribute('role') === 'gridcell' ? c.className.split(' ')[0] : `not a cell: ${c.tagName}`,
          ),
          extra: [...r.querySelectorAll('[role="gridcell"] *')]
            .filter((e) => !e.matches('.c-verdict > .badge, .c-verdict > .count, .c-kind > .tag, .c-dir > .k-icon'))
            .map((e) => e.tagName),
        })),
      );
    const shown = await heads();
    const before = await rows();
    expect(before.length).toBeGreaterThan(10);
    for (const r of before) {
      expect(r.cells).toEqual(shown);
      expect(r.extra).toEqual([]);
    }
    await page.click('.col-chooser');
    await pickMenu(page, 'Time since previous');
    await page.waitForSelector('[role="columnheader"].c-delta');
    await page.keyboard.press('Escape');
    const more = await heads();
    expect(more).toEqual(['c-time', 'c-delta', ...shown.slice(1)]);
    const after = await rows();
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    for (const r of after) {
      expect(r.cells).toEqual(more);
    }
    // hidden again: the cell leaves every row
    await page.click('.col-chooser');
    await pickMenu(page, 'Time since previous');
    await page.waitForFunction(() => !document.querySelector('[role="columnheader"].c-delta'));
    await page.keyboard.press('Escape');
    for (const r of await rows()) {
      expect(r.cells).toEqual(shown);
    }
  });
});

describe('row menu', () => {
  it('a right-click opens the menu; "Copy as JSON" copies plain JSON of the message', async () => {
    await page.evaluate(() => {
      (window as any).__copied = null;
      navigator.clipboard.writeText = async (t: string) => {
        (window as any).__copied = t;
      };
    });
    const seq = await seqOf(page, "r.type === 'svc:event:drilldown'");
    await inPanel(page, (h, s) => h.select(s), seq);
    await page.waitForSelector(`#ei-row-${seq}`);
    await page.click(`#ei-row-${seq} .c-type`, { button: 'right' });
    await page.waitForSelector(`[role="menu"][aria-label="Record #${seq}"]`);
    const labels = await menuLabels(page);
    expect(labels).toEqual([
      expect.stringMatching(/Copy as JSON$/),
      expect.stringMatching(/Copy as code$/),
      expect.stringMatching(/Show only drilldown$/),
      expect.stringMatching(/Show only this frame$/),
      expect.stringMatching(/Show only from https:\/\//),
      expect.stringMatching(/Simulate again$/),
      expect.stringMatching(/Show related$/),
    ]);
    await pickMenu(page, 'Copy as JSON');
    await page.waitForFunction(() => (window as any).__copied !== null);
    const text: string = await page.evaluate(() => (window as any).__copied);
    expect(text).not.toContain('$ei');
    const msg = JSON.parse(text);
    expect(msg.type).toBe('svc:event:drilldown');
    expect(msg.payload.value.when).toBe('2026-01-01T09:30:00.000Z');
    expect(msg.payload.value.tags).toEqual({ region: 'EMEA', tier: 2 });
    expect(await page.$('[role="menu"]')).toBeNull();
  });

  it('from the keyboard (Shift+F10, the context-menu key): filter by this type, then show related', async () => {
    const seq = await seqOf(page, "r.type === 'svc:event:view'");
    await inPanel(page, (h, s) => h.select(s), seq);
    await page.focus('[role="grid"]');
    await page.keyboard.down('Shift');
    await page.keyboard.press('F10');
    await page.keyboard.up('Shift');
    await page.waitForSelector('[role="menu"]');
    // the first item has the focus; arrows move it
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(/Copy as JSON$/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(/Show only view$/);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.querySelector('[role="menu"]'));
    const f = await inPanel(page, (h) => h.filters().types);
    expect(f).toEqual(['svc:event:view']);
    const types = await page.$$eval('.grid-canvas [role="row"] .c-type', (c) => c.map((x) => x.getAttribute('title')));
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['svc:event:view']));
    // the context-menu key, then Show related: the detail opens on its Related tab
    await page.focus('[role="grid"]');
    await page.keyboard.press('ContextMenu');
    await page.waitForSelector('[role="menu"]');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(/Show related$/);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#tab-related[aria-selected="true"]');
    // Esc in a menu closes the menu only
    await page.focus('[role="grid"]');
    await page.keyboard.press('ContextMenu');
    await page.waitForSelector('[role="menu"]');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('[role="menu"]'));
    expect(await page.$('#tab-related')).not.toBeNull();
    await inPanel(page, (h) => h.resetFilters());
  });

  it('stays inside the panel when opened at its right edge at 500 px', async () => {
    await page.setViewport({ width: 500, height: 500 });
    await page.keyboard.press('Escape');
    const seq = await seqOf(page, "r.kind === 'post' && !r.navigation");
    await inPanel(page, (h, s) => h.select(s), seq);
    await page.waitForSelector(`#ei-row-${seq}`);
    const box = (await (await page.$(`#ei-row-${seq}`))!.boundingBox())!;
    await page.mouse.click(box.x + box.width - 4, box.y + 4, { button: 'right' });
    await page.waitForSelector('[role="menu"]');
    const r = await page.$eval('[role="menu"]', (m) => m.getBoundingClientRect().toJSON());
    expect(r.right).toBeLessThanOrEqual(500);
    expect(r.bottom).toBeLessThanOrEqual(500);
    await page.keyboard.press('Escape');
    await page.setViewport({ width: 1280, height: 700 });
  });
});

describe("an issue's field and rule", () => {
  it('marks the field in the message tree; the path shows it; the rule id opens its documentation', async () => {
    const seq = await seqOf(page, "r.type === 'svc:action:set-timezone' && r.kind === 'post'");
    await inPanel(page, (h, s) => h.select(s), seq);
    await page.focus('[role="grid"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#tab-message[aria-selected="true"]');
    await page.waitForSelector('[role="tree"] [data-path="$.payload.timezone"][data-highlight="field"]');
    await page.click('#tab-issues');
    const link = await page.$eval('.issues .rule-link', (a) => ({ href: a.getAttribute('href'), text: a.textContent }));
    expect(link.href).toBe(`docs/rules.md#rule-${link.text}`);
    await page.click('.issues .rule-link');
    await page.waitForSelector('.rule-doc');
    expect(await page.$eval('.rule-doc', (d) => d.textContent)).toContain('Checks:');
    await page.click('.issues .path');
    await page.waitForFunction(
      () => (document.activeElement as HTMLElement | null)?.dataset?.path === '$.payload.timezone',
    );
    expect(await page.evaluate(() => document.activeElement!.getAttribute('data-highlight'))).toBe('field');
  });
});

describe('stale words', () => {
  it('a filter that hides the selected record takes it out of the detail pane', async () => {
    const seq = await seqOf(page, "r.type === 'svc:event:ready'");
    await inPanel(page, (h, s) => h.select(s), seq);
    await page.focus('[role="grid"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction((s) => document.querySelector('.detail-title')?.textContent?.includes(`#${s}`), {}, seq);
    await inPanel(page, (h) => h.setFilters({ directions: ['action'] }));
    await page.waitForFunction(
      (s) => !document.querySelector('.detail-title')?.textContent?.includes(`#${s}`),
      {},
      seq,
    );
    expect(await inPanel(page, (h) => h.selected())).toBeNull();
    await inPanel(page, (h) => h.resetFilters());
    await page.keyboard.press('Escape');
  });

  it('the composer\'s "Sent: …" is cleared by Clear and by an import', async () => {
    const p = await openPanel('fixture=demo&n=120&theme=light');
    const showSent = async () => {
      await inPanel(p, (h) => {
        const act = h.act;
        act.openComposer();
        act.setOutcome({ ok: true, text: 'Sent: the injected post and its delivery appear on the timeline.' });
      });
      await p.waitForFunction(() => /^Sent/.test(document.querySelector('.cm-outcome')?.textContent ?? ''));
    };
    await showSent();
    const clear = await p.evaluateHandle(
      () => [...document.querySelectorAll('button')].find((b) => b.textContent!.includes('Clear'))!,
    );
    await (clear as any).click();
    await p.waitForFunction(() => !document.querySelector('.cm-outcome'));
    await showSent();
    const file = JSON.stringify(captureOf(syntheticSession(40), { tenantOrigin: TENANT, redact: false }));
    const imported = await inPanel(p, (h, f) => h.act.importText(f, 'x.json'), file);
    if (!imported) {
      throw new Error((await inPanel(p, (h) => h.act.importError())) ?? 'not imported');
    }
    await p.waitForFunction(() => !document.querySelector('.cm-outcome'));
    // the imported file names the tenant origin: the toolbar says so
    await p.waitForFunction(() => document.querySelector('.tenant .src-tag')?.textContent === 'from the file');
    await p.close();
  });

  it('"Simulate again" only where it re-creates the sender; the threw badge and the panes fit at 500 px', async () => {
    const p = await openPanel('fixture=demo&n=40&theme=light', 500);
    const seqs = await inPanel(p, (h) => {
      const records = h.synthetic(120);
      const ev = records.filter((r: any) => r.data?.direction === 'event' && r.kind === 'post' && !r.issues.length);
      ev[0].origin = 'https://third.example';
      const post = records.find((r: any) => r.kind === 'post' && r.data?.direction === 'action' && r.issues.length)!;
      post.error = 'DataCloneError: could not be cloned';
      h.load(records, 'crafted');
      h.store.command({ type: 'set-tenant-origin', origin: 'https://acme.svc-embed.example' });
      return { third: ev[0].seq, own: ev[1].seq, threw: post.seq };
    });
    const open = async (seq: number, tab: string) => {
      await inPanel(p, (h, s) => h.select(s), seq);
      await p.focus('[role="grid"]');
      await p.keyboard.press('Enter');
      await p.waitForSelector(`#${tab}`);
      await p.click(`#${tab}`);
      await p.waitForSelector(`#${tab}[aria-selected="true"]`);
    };
    await open(seqs.third, 'tab-act');
    await p.waitForSelector('.a-third-origin');
    expect(await p.$('.a-resend')).toBeNull();
    expect(await p.$eval('.a-third-origin', (e) => e.textContent)).toContain('https://third.example');
    await open(seqs.own, 'tab-act');
    await p.waitForSelector('.a-resend');
    expect(await p.$eval('.a-resend', (e) => e.textContent)).toContain('Simulate again');
    // Copy as code stays inside the pane
    const edges = await p.evaluate(() => {
      const pane = document.querySelector('.detail')!.getBoundingClientRect();
      const box = document.querySelector('.act-tab .code-box')!.getBoundingClientRect();
      const copy = document.querySelector('.act-tab .a-copy')!.getBoundingClientRect();
      return { pane: pane.right, box: box.right, copy: copy.right, width: document.documentElement.clientWidth };
    });
    expect(edges.box).toBeLessThanOrEqual(edges.pane + 0.5);
    expect(edges.copy).toBeLessThanOrEqual(edges.width);
    // the Issues tab needs no horizontal scroll
    await open(seqs.threw, 'tab-issues');
    expect(await p.$eval('.detail-body', (b) => b.scrollWidth - b.clientWidth)).toBeLessThanOrEqual(0);
    await p.keyboard.press('Escape');
    // the threw badge is whole
    await p.waitForSelector(`#ei-row-${seqs.threw} .c-verdict .badge[title^="postMessage threw"]`);
    const badge = await p.$eval(`#ei-row-${seqs.threw} .c-verdict`, (cell) => {
      const b = cell.querySelector('.badge[title^="postMessage threw"]')!;
      return {
        text: b.textContent,
        clipped: b.getBoundingClientRect().right > cell.getBoundingClientRect().right + 0.5,
      };
    });
    expect(badge).toEqual({ text: 'threw', clipped: false });
    await p.close();
  });

  it('the set-theme form offers its common fields with their meaning and flags an empty theme', async () => {
    await inPanel(page, (h) => h.act.openComposer());
    await page.waitForSelector('.cm-type');
    await page.select('.cm-type', 'svc:action:set-theme');
    await page.waitForSelector('.cm-note');
    expect(await page.$eval('.cm-note', (n) => n.textContent)).toMatch(/empty theme/);
    const text = await page.$eval('.composer', (c) => c.textContent ?? '');
    for (const f of ['primaryColor', 'borderRadius', 'font']) {
      expect(text).toContain(f);
    }
    expect(text).toContain('embedTheme');
    expect(text).not.toContain('type not shown in the spec');
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
