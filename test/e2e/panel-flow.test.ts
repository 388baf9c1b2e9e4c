/**
 * The flow view through the panel page (a tab with `?tabId=`) on a sandbox session whose host posts its actions to
 * a wrong origin (`faults=action-wrong-origin`): lanes for the host and the embed, one arrow for a post and its
 * delivery, the dropped action's cross before the embed's lane, the selection shared with the timeline both ways,
 * the keyboard, and the exports of the view (a well-formed SVG, a Mermaid text that parses and that Mermaid itself
 * renders, in a Chromium of its own). Fails (never skips) without Chromium, a build or the sandbox.
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { hostPage, inPanel, panelFor, waitInPanel } from '../helpers/panel.ts';
import { checkWellFormed } from '../helpers/xml-wellformed.ts';
import { parseSequenceDiagram } from '../helpers/mermaid-grammar.ts';
import { renderMermaid } from '../helpers/mermaid-render.ts';

let panel: Page;
let host: Page;
const errors: string[] = [];

/** The store's records of one type, as `{seq, kind, pairedWith, dropped}`. */
const recordsOf = (type: string) =>
  inPanel(
    panel,
    (h, t) =>
      h
        .records()
        .filter((r: any) => r.data?.type === t)
        .map((r: any) => ({ seq: r.seq, kind: r.kind, pairedWith: r.pairedWith, dropped: !!r.dropped })),
    type,
  ) as Promise<Array<{ seq: number; kind: string; pairedWith?: number; dropped: boolean }>>;
/** The flow rows in the DOM, in row order. */
const flowRows = () =>
  panel.$$eval('.flow-row', (rows) =>
    rows
      .filter((r) => (r as HTMLElement).style.display !== 'none')
      .map((r) => ({
        y: new DOMMatrix(getComputedStyle(r).transform).m42,
        seq: r.getAttribute('data-seq') === null ? null : Number(r.getAttribute('data-seq')),
        id: r.id,
        cls: r.className,
        label: r.querySelector('.flow-label')?.textContent ?? '',
        x1: Number(r.querySelector('.flow-line')?.getAttribute('x1')),
        x2: Number(r.querySelector('.flow-line')?.getAttribute('x2')),
        selected: r.getAttribute('aria-selected') === 'true',
      }))
      .sort((a, b) => a.y - b.y),
  );
const selectedSeq = () => inPanel(panel, (h) => h.selected());
const showFlow = async () => {
  await panel.$eval('.vt-flow', (b) => (b as HTMLButtonElement).click());
  await panel.waitForSelector('.flow-row[data-seq]');
};

test.beforeAll(async ({ sandbox, chromium }) => {
  host = await hostPage(chromium, sandbox, 'faults=action-wrong-origin');
  panel = await panelFor(chromium, host, errors);
  // ready, its delivery, and the dropped set-color-scheme the host sends right after it
  await waitInPanel(
    panel,
    (h) => {
      const rs = h.records() as any[];
      return (
        rs.some((r: any) => r.data?.type === 'svc:event:ready' && r.kind === 'receive' && r.pairedWith !== undefined) &&
        rs.some((r: any) => r.data?.type === 'svc:action:set-color-scheme' && r.dropped)
      );
    },
    { timeout: 20_000 },
  );
}, 60_000);

describe('flow view (sandbox session, action-wrong-origin)', () => {
  it('shows a lane for the host page and one for the embed, by surface and origin', async ({ sandbox: sb }) => {
    await showFlow();
    const heads = await panel.$$eval('.flow-lane-head', (hs) =>
      hs.map((h) => ({
        title: h.querySelector('.flow-lane-title')?.textContent,
        origin: h.querySelector('.flow-lane-origin')?.textContent,
      })),
    );
    expect(heads).toEqual([
      { title: 'host page', origin: sb.hostOrigin },
      { title: 'embed · dashboard', origin: sb.tenantOrigin },
    ]);
  });

  it("draws a post and its delivery as one arrow from the sender's lane to the receiver's", async () => {
    const ready = await recordsOf('svc:event:ready');
    const post = ready.find((r) => r.kind === 'post')!;
    const delivery = ready.find((r) => r.kind === 'receive')!;
    expect(delivery.pairedWith).toBe(post.seq);
    const rows = (await flowRows()).filter((r) => r.label === 'ready');
    expect(rows.map((r) => r.seq)).toEqual([post.seq]);
    const lanes = await panel.$$eval('.flow-lifeline', (ls) =>
      ls.map((l) => Number.parseFloat((l as HTMLElement).style.left)),
    );
    // from the embed's lane (right) to the host's (left), ending at the host's lifeline
    expect(rows[0].x1).toBe(lanes[1]);
    expect(Math.abs(rows[0].x2 - lanes[0])).toBeLessThan(4);
    expect(rows[0].cls).toContain('milestone');
  });

  it("ends the dropped action in a cross before the embed's lane, coloured invalid", async () => {
    const dropped = (await recordsOf('svc:action:set-color-scheme')).find((r) => r.dropped)!;
    const row = (await flowRows()).find((r) => r.seq === dropped.seq)!;
    expect(row.label).toBe('set-color-scheme (dropped)');
    expect(row.cls).toContain('tone-invalid');
    const lanes = await panel.$$eval('.flow-lifeline', (ls) =>
      ls.map((l) => Number.parseFloat((l as HTMLElement).style.left)),
    );
    expect(row.x1).toBe(lanes[0]);
    expect(row.x2).toBeGreaterThan(lanes[0]);
    expect(row.x2).toBeLessThan(lanes[1] - 8);
    const mark = await panel.$eval(`#ei-flow-${dropped.seq} .flow-mark`, (p) => p.getAttribute('d') ?? '');
    expect(mark.match(/M/g)).toHaveLength(2); // the two strokes of the cross
  });

  it('selecting an arrow selects its record and opens the detail pane; the timeline shows it selected', async () => {
    const post = (await recordsOf('svc:event:ready')).find((r) => r.kind === 'post')!;
    await panel.$eval(`#ei-flow-${post.seq}`, (r) => (r as HTMLElement).click());
    await waitInPanel(panel, (h, s) => h.selected() === s, {}, post.seq);
    await panel.waitForSelector('section.detail');
    expect(await panel.$eval(`#ei-flow-${post.seq}`, (r) => r.getAttribute('aria-selected'))).toBe('true');
    // V switches to the timeline: the same record is selected there, and in view
    await panel.keyboard.press('v');
    await panel.waitForSelector(`[role="grid"] #ei-row-${post.seq}[aria-selected="true"]`);
    await panel.waitForFunction(
      (s) => {
        const row = document.getElementById(`ei-row-${s}`)!.getBoundingClientRect();
        const body = document.querySelector('.grid-body')!.getBoundingClientRect();
        return row.top >= body.top && row.bottom <= body.bottom;
      },
      {},
      post.seq,
    );
  });

  it("selecting the delivery in the timeline selects the arrow in the flow (its post's row)", async () => {
    const ready = await recordsOf('svc:event:ready');
    const post = ready.find((r) => r.kind === 'post')!;
    const delivery = ready.find((r) => r.kind === 'receive')!;
    await inPanel(panel, (h, s) => h.select(s), delivery.seq);
    await showFlow();
    await panel.waitForFunction(
      (s) => document.querySelector('.flow-list')?.getAttribute('aria-activedescendant') === `ei-flow-${s}`,
      {},
      post.seq,
    );
    expect((await flowRows()).filter((r) => r.selected).map((r) => r.seq)).toEqual([post.seq]);
  });

  it('moves the selection with ↑/↓, Home and End over the rows that stand for a record; Enter opens the details', async () => {
    await panel.focus('.flow-list');
    await panel.keyboard.press('Home');
    const rows = (await flowRows()).filter((r) => r.seq !== null);
    await waitInPanel(panel, (h, s) => h.selected() === s, {}, rows[0].seq);
    await panel.keyboard.press('ArrowDown');
    await waitInPanel(panel, (h, s) => h.selected() === s, {}, rows[1].seq);
    await panel.keyboard.press('ArrowUp');
    await waitInPanel(panel, (h, s) => h.selected() === s, {}, rows[0].seq);
    await panel.keyboard.press('End');
    const last = await panel.evaluate(() => {
      const rs = [...document.querySelectorAll('.flow-row[data-seq]')] as HTMLElement[];
      rs.sort(
        (a, b) => new DOMMatrix(getComputedStyle(a).transform).m42 - new DOMMatrix(getComputedStyle(b).transform).m42,
      );
      return Number(rs[rs.length - 1].getAttribute('data-seq'));
    });
    await waitInPanel(panel, (h, s) => h.selected() === s, {}, last);
    await panel.keyboard.press('Escape');
    await panel.waitForFunction(() => !document.querySelector('section.detail'));
    await panel.focus('.flow-list');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('section.detail');
    expect(await selectedSeq()).toBe(last);
  });

  it('exports the view as a well-formed SVG with every message shown, and a Mermaid text that renders', async ({
    plainChromium,
  }) => {
    const labels = (await flowRows())
      .filter((r) => r.cls.includes('k-arrow'))
      .map((r) => r.label.replace(/ \((dropped|threw)\)$/, ''));
    await panel.$eval('.flow-svg-export', (b) => (b as HTMLButtonElement).click());
    const svg = await inPanel(panel, (h) => h.saved.text);
    const texts = checkWellFormed(svg).flatMap((e) => (e.name === 'text' ? [e.text] : []));
    for (const l of labels) {
      expect(texts.some((t) => t.startsWith(l))).toBe(true);
    }
    await panel.$eval('.flow-mermaid-export', (b) => (b as HTMLButtonElement).click());
    await waitInPanel(panel, (h) => h.saved.text.startsWith('sequenceDiagram'));
    const mermaid = await inPanel(panel, (h) => h.saved.text);
    const messages = parseSequenceDiagram(mermaid).flatMap((s) =>
      s.kind === 'message' ? [`${s.from}${s.arrow}${s.to}: ${s.text}`] : [],
    );
    expect(messages).toEqual(expect.arrayContaining(['embed1->>host: ready', 'host-xembed1: set-color-scheme']));
    // Mermaid draws it: every lane and every arrow the text names, as the view labels them
    const drawn = await renderMermaid(plainChromium.browser, mermaid);
    expect(drawn.ok ? '' : drawn.error).toBe('');
    const shown = drawn.ok ? drawn.texts : [];
    const heads = await panel.$$eval('.flow-lane-head', (hs) =>
      hs.map(
        (h) =>
          `${h.querySelector('.flow-lane-title')?.textContent} · ${h.querySelector('.flow-lane-origin')?.textContent}`,
      ),
    );
    expect(heads).toHaveLength(2);
    expect(labels).toEqual(expect.arrayContaining(['ready', 'set-color-scheme']));
    for (const t of [...heads, ...labels]) {
      expect(shown).toContain(t);
    }
  });

  it('exports only the selected range: Shift+click and Shift+↓ extend it from the selected arrow', async () => {
    const mermaidTexts = async () => {
      await inPanel(panel, (h) => {
        h.saved.text = '';
      });
      await panel.$eval('.flow-mermaid-export', (b) => (b as HTMLButtonElement).click());
      await waitInPanel(panel, (h) => h.saved.text.startsWith('sequenceDiagram'));
      const text = await inPanel(panel, (h) => h.saved.text);
      return parseSequenceDiagram(text).flatMap((s) => (s.kind === 'message' ? [s.text] : []));
    };
    const arrowText = (label: string) => label.replace(/ \((dropped|threw)\)$/, '').replace(/ → \?$/, '');
    // two more actions after the dropped one, so that the range is less than the whole flow
    for (const theme of ['dark', 'light']) {
      await host.evaluate((t) => (window as any).__sandboxHost.sendAction('svc:action:set-theme', { theme: t }), theme);
    }
    await panel.waitForFunction(
      () =>
        [...document.querySelectorAll('.flow-row.k-arrow .flow-label')].filter((t) =>
          t.textContent!.startsWith('set-theme'),
        ).length === 2,
    );
    const whole = await mermaidTexts();
    const ready = (await recordsOf('svc:event:ready')).find((r) => r.kind === 'post')!;
    const dropped = (await recordsOf('svc:action:set-color-scheme')).find((r) => r.dropped)!;
    await panel.$eval(`#ei-flow-${ready.seq}`, (r) => (r as HTMLElement).click());
    await waitInPanel(panel, (h, s) => h.selected() === s, {}, ready.seq);
    await panel.$eval(`#ei-flow-${dropped.seq}`, (r) =>
      r.dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true })),
    );
    await panel.waitForSelector('.flow-range');
    await panel.keyboard.down('Shift');
    await panel.keyboard.press('ArrowDown');
    await panel.keyboard.up('Shift');
    // the selection stays the anchor; the range runs from its row to the record's row after the dropped action's
    expect(await selectedSeq()).toBe(ready.seq);
    let rows = await flowRows();
    const from = rows.findIndex((r) => r.seq === ready.seq);
    const next = rows.slice(rows.findIndex((r) => r.seq === dropped.seq) + 1).find((r) => r.seq !== null)!;
    await panel.waitForSelector(`#ei-flow-${next.seq}.in-range`);
    const to = rows.indexOf(next);
    rows = await flowRows();
    const inRange = rows.filter((r) => r.cls.includes('in-range'));
    expect(inRange.map((r) => r.seq)).toEqual(rows.slice(from, to + 1).map((r) => r.seq));
    const expected = inRange.filter((r) => r.cls.includes('k-arrow')).map((r) => arrowText(r.label));
    expect(expected.length).toBeGreaterThan(1);
    expect(await panel.$eval('.flow-mermaid-export', (b) => b.getAttribute('title'))).toContain('selected range');
    const ranged = await mermaidTexts();
    expect(ranged).toEqual(expected);
    expect(ranged.length).toBeLessThan(whole.length);
    await panel.$eval('.flow-svg-export', (b) => (b as HTMLButtonElement).click());
    const svgTexts = checkWellFormed(await inPanel(panel, (h) => h.saved.text)).flatMap((e) =>
      e.name === 'text' ? [e.text] : [],
    );
    for (const l of rows.filter((r) => r.cls.includes('k-arrow')).map((r) => arrowText(r.label))) {
      expect(svgTexts.some((t) => t.startsWith(l))).toBe(expected.includes(l));
    }
    // Esc clears the range first, as the bar says (the exports take the whole flow again), then closes the details
    await panel.focus('.flow-list');
    expect(await panel.$('section.detail')).not.toBeNull();
    await panel.keyboard.press('Escape');
    await panel.waitForFunction(() => !document.querySelector('.flow-range'));
    expect(await panel.$('section.detail')).not.toBeNull();
    expect(await panel.$eval('.flow-mermaid-export', (b) => b.getAttribute('title'))).toContain('as shown');
    expect(await mermaidTexts()).toEqual(whole);
    await panel.keyboard.press('Escape');
    await panel.waitForFunction(() => !document.querySelector('section.detail'));
  });

  it('Esc clears the range after a click on Save SVG, and after one that left the focus on the page', async () => {
    const ready = (await recordsOf('svc:event:ready')).find((r) => r.kind === 'post')!;
    const dropped = (await recordsOf('svc:action:set-color-scheme')).find((r) => r.dropped)!;
    const makeRange = async () => {
      await panel.$eval(`#ei-flow-${ready.seq}`, (r) => (r as HTMLElement).click());
      await waitInPanel(panel, (h, s) => h.selected() === s, {}, ready.seq);
      await panel.$eval(`#ei-flow-${dropped.seq}`, (r) =>
        r.dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true })),
      );
      await panel.waitForSelector('.flow-range');
      await panel.click('section.detail .close'); // the details closed with the mouse: the range is what Esc undoes
      await panel.waitForFunction(() => !document.querySelector('section.detail'));
    };
    await makeRange();
    expect(await panel.$eval('.flow-range', (e) => e.textContent)).toContain('Esc clears it');
    await inPanel(panel, (h) => {
      h.saved.name = '';
    });
    await panel.click('.flow-svg-export'); // a real click: the download
    await waitInPanel(panel, (h) => h.saved.name.endsWith('.svg'));
    expect(await panel.evaluate(() => document.activeElement?.className)).toBe('flow-svg-export');
    await panel.keyboard.press('Escape');
    await panel.waitForFunction(() => !document.querySelector('.flow-range'), { timeout: 2_000 });
    // a download that took the focus away leaves it on the body (as DevTools' window does): Esc is the panel's still
    await makeRange();
    await panel.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(await panel.evaluate(() => document.activeElement === document.body)).toBe(true);
    const seen = await panel.evaluate(() => {
      const w = window as unknown as { __escSeen: boolean };
      w.__escSeen = false;
      // DevTools' forwarder listens on the document: it must not hear an Esc the panel acted on
      document.addEventListener('keydown', (e) => e.key === 'Escape' && (w.__escSeen = true), { once: true });
      return w.__escSeen;
    });
    expect(seen).toBe(false);
    await panel.keyboard.press('Escape');
    await panel.waitForFunction(() => !document.querySelector('.flow-range'), { timeout: 2_000 });
    expect(await panel.evaluate(() => (window as unknown as { __escSeen: boolean }).__escSeen)).toBe(false);
  });

  it("follows the timeline's filters: a search leaves only the matching arrows", async () => {
    await inPanel(panel, (h) => h.setFilters({ search: 'set-color-scheme' }));
    await panel.waitForFunction(() =>
      [...document.querySelectorAll('.flow-row.k-arrow')].every((r) =>
        r.querySelector('.flow-label')!.textContent!.startsWith('set-color-scheme'),
      ),
    );
    expect((await flowRows()).filter((r) => r.cls.includes('k-arrow')).length).toBeGreaterThan(0);
    await inPanel(panel, (h) => h.resetFilters());
  });

  it("in a pane as short as Firefox's default toolbox, leaves the rows the height the timeline leaves its own", async () => {
    const heights = async () => {
      const timelineRows = await (async () => {
        await panel.$eval('.vt-timeline', (b) => (b as HTMLButtonElement).click());
        await panel.waitForSelector('.grid-body');
        return panel.$eval('.grid-body', (b) => b.getBoundingClientRect().height);
      })();
      await showFlow();
      const flow = await panel.$eval('.flow-body', (b) => {
        const box = b.getBoundingClientRect();
        const whole = [...document.querySelectorAll('.flow-row')].filter((r) => {
          const q = r.getBoundingClientRect();
          return (r as HTMLElement).style.display !== 'none' && q.top >= box.top && q.bottom <= box.bottom;
        });
        return { height: box.height, whole: whole.length };
      });
      return { timelineRows, flow };
    };
    const before = panel.viewport()!;
    try {
      // Firefox's toolbox opens 250 px tall: its panel is 221 px.
      await panel.setViewport({ width: 800, height: 221 });
      const { timelineRows, flow } = await heights();
      expect(flow.height).toBeGreaterThanOrEqual(timelineRows - 2);
      expect(flow.whole).toBeGreaterThanOrEqual(2);
      // the bar's exports are still in the panel and reachable
      const save = await panel.$eval('.flow-bar', (b) => {
        const r = b.getBoundingClientRect();
        return r.right <= document.documentElement.clientWidth && r.bottom <= document.documentElement.clientHeight;
      });
      expect(save).toBe(true);
    } finally {
      await panel.setViewport(before);
    }
  });

  it('draws live records as they come', async () => {
    const label = () =>
      panel.evaluate(() =>
        [...document.querySelectorAll('.flow-row.k-arrow .flow-label')].some((t) =>
          t.textContent!.startsWith('set-locale'),
        ),
      );
    expect(await label()).toBe(false);
    await host.evaluate(() => (window as any).__sandboxHost.sendAction('svc:action:set-locale', { locale: 'de-CH' }));
    await panel.waitForFunction(() =>
      [...document.querySelectorAll('.flow-row.k-arrow .flow-label')].some((t) =>
        t.textContent!.startsWith('set-locale'),
      ),
    );
  });

  it('draws an imported capture file as it drew the live tab', async () => {
    const dropped = (await recordsOf('svc:action:set-color-scheme')).find((r) => r.dropped)!;
    // the session's records as a capture file holds them (no verdicts: the panel checks them on import)
    const n = await inPanel(panel, (h) => {
      const plain = h.records().map(({ verdict, issues, ...r }: any) => r);
      return h.load(plain, 'session.json');
    });
    expect(n).toBeGreaterThan(0);
    await waitInPanel(panel, (h) => h.store.transportInfo?.label === 'session.json');
    await panel.waitForSelector(`#ei-flow-${dropped.seq}.tone-invalid`);
    expect(await panel.$eval(`#ei-flow-${dropped.seq} .flow-label`, (t) => t.textContent)).toBe(
      'set-color-scheme (dropped)',
    );
    expect(await panel.$$eval('.flow-lane-title', (ts) => ts.map((t) => t.textContent))).toEqual([
      'host page',
      'embed · dashboard',
    ]);
    expect(errors).toEqual([]);
  });
});
