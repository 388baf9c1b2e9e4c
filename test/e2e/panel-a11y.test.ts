/**
 * Accessibility of the panel, checked by axe-core (the engine of Chrome's Lighthouse and of most a11y test tools) in
 * real Chromium on the built panel page, in the light and the dark theme: the first screens (no tab attached, an
 * empty imported file, a session), the timeline with a selection, each tab of the details, the flow view, Settings
 * and the menus (a filter menu, the column chooser, a row's menu, the toolbar's overflow menu). No serious or critical
 * violation. axe runs in the page through the DevTools protocol (an extension page's CSP refuses inline scripts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import { CAPTURE_FORMAT, CAPTURE_VERSION } from '../../src/protocol/record.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, openedPopover, twoFrames, waitInPanel } from '../helpers/panel.ts';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
let launched: Launched;

test.beforeAll(({ chromium }) => {
  launched = chromium;
});

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe's serious and critical violations on the page as it is now. */
async function violations(p: Page): Promise<Violation[]> {
  await twoFrames(p);
  if (!(await p.evaluate(() => 'axe' in window))) {
    await p.evaluate(AXE);
  }
  return p.evaluate(async () => {
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n: any) => `${n.target.join(' ')}: ${n.failureSummary.split('\n')[1] ?? ''}`),
      }));
  });
}

async function open(query: string, theme: string, width = 1280): Promise<Page> {
  const p = await launched.browser.newPage();
  await p.setViewport({ width, height: 760 });
  await p.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?${query}&theme=${theme}`);
  await waitInPanel(p, () => !!document.querySelector('.summary'));
  return p;
}

describe.each(['light', 'dark'])('axe: no serious or critical violation (%s theme)', (theme) => {
  it('first screens: no tab attached, an empty imported file', async () => {
    const p = await open('x=1', theme);
    const found: Record<string, Violation[]> = { detached: await violations(p) };
    const empty = { format: CAPTURE_FORMAT, version: CAPTURE_VERSION, tenantOrigin: null, messages: [] };
    await inPanel(p, (h, text) => h.act.importText(text, 'empty.json'), JSON.stringify(empty));
    await p.waitForSelector('[data-testid="source-bar"]');
    found.emptyFile = await violations(p);
    expect(found).toEqual({ detached: [], emptyFile: [] });
    await p.close();
  });

  it('the flow view with the other frames in one collapsed lane (its head is a button)', async () => {
    const p = await open('x=1', theme);
    const host = 'https://host.example';
    const tenant = 'https://acme.svc-embed.example';
    const ready = {
      source: 'svc-embed',
      direction: 'event',
      type: 'svc:event:ready',
      payload: {},
      surface: 'dashboard',
    };
    const at = (seq: number, m: Record<string, unknown>) => ({ seq, time: 1000 + seq, target: 'parent', ...m });
    const messages = [
      at(1, {
        kind: 'post',
        frameUrl: `${tenant}/embed/dashboard/dA7kQ2mXp9Lw`,
        origin: tenant,
        targetOrigin: host,
        data: ready,
      }),
      at(2, { kind: 'receive', frameUrl: `${host}/`, origin: tenant, data: ready }),
      ...[1, 2].map((n) =>
        at(2 + n, {
          kind: 'post',
          frameUrl: `https://ads${n}.example/x`,
          origin: `https://ads${n}.example`,
          targetOrigin: '*',
          data: ready,
        }),
      ),
    ];
    const file = { format: CAPTURE_FORMAT, version: CAPTURE_VERSION, tenantOrigin: tenant, messages };
    await inPanel(p, (h, text) => h.act.importText(text, 'frames.json'), JSON.stringify(file));
    await p.waitForSelector('[data-testid="source-bar"]');
    await p.$eval('.vt-flow', (b) => (b as HTMLButtonElement).click());
    await p.waitForSelector('.flow-expand');
    expect(await violations(p)).toEqual([]);
    await p.close();
  });

  it('a session: the timeline with a selection, every detail tab, the flow view, Settings and the menus', async () => {
    const p = await open('fixture=demo&n=300', theme);
    await waitInPanel(p, () => !!document.querySelector('.grid-body [role="row"]'));
    const found: Record<string, Violation[]> = {};
    found.timeline = await violations(p);
    await inPanel(p, (h) => h.select({ at: 3 }));
    await p.focus('[role="grid"]');
    await p.keyboard.press('Enter');
    await p.waitForSelector('section.detail [role="tablist"]');
    for (const tab of await p.$$eval('section.detail [role="tab"]', (ts) => ts.map((t) => t.id))) {
      await p.click(`#${tab}`);
      found[tab] = await violations(p);
    }
    await p.keyboard.press('Escape');
    // a row's menu, the column chooser, a filter menu, Settings
    await p.focus('[role="grid"]');
    await p.keyboard.down('Shift');
    await p.keyboard.press('F10');
    await p.keyboard.up('Shift');
    await p.waitForSelector('[role="menu"]');
    found.rowMenu = await violations(p);
    await p.keyboard.press('Escape');
    await p.click('.limits-button');
    await openedPopover(p, '.limits-pop');
    found.settings = await violations(p);
    // Its title covers none of the first field: what is at the field's top edge is the field.
    expect(
      await p.$eval('.limits-pop input', (i) => {
        const r = i.getBoundingClientRect();
        return document.elementFromPoint(r.left + 5, r.top + 1) === i;
      }),
    ).toBe(true);
    await p.keyboard.press('Escape');
    const filterButton = await p.$('.filterbar .popover-anchor.menu > button');
    if (filterButton) {
      await filterButton.click();
      await twoFrames(p);
      found.filterMenu = await violations(p);
      await p.keyboard.press('Escape');
    }
    // the flow view
    await p.$eval('.vt-flow', (b) => (b as HTMLButtonElement).click());
    await p.waitForSelector('.flow-row[data-seq]');
    found.flow = await violations(p);
    // the toolbar's overflow menu, at the narrowest width
    await p.setViewport({ width: 400, height: 640 });
    await p.$eval('.vt-timeline', (b) => (b as HTMLButtonElement).click());
    await twoFrames(p);
    found.narrow = await violations(p);
    const more = await p.$('.summary .tb-more-button');
    if (more) {
      await more.click();
      await openedPopover(p, '.tb-menu');
      found.overflowMenu = await violations(p);
      await p.keyboard.press('Escape');
    }
    const empty = Object.fromEntries(Object.keys(found).map((k) => [k, []]));
    expect(found).toEqual(empty);
    await p.close();
  });
});
