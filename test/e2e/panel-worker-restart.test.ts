/**
 * The panel keeps what the user opened when the MV3 service worker restarts (Chromium stops an idle worker every
 * ~30 s; the panel reconnects and reloads the log): the detail pane and the selection, Settings with what is typed
 * in it, the composer's draft, the filters and the scroll position all stay, and the first Compose click after the
 * restart opens the composer. Only what replaces the records (Clear, an import, a new page without Preserve log)
 * closes them. Real Chromium, the built extension, the sandbox.
 */
import type { Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { fill, inPanel, openComposer, openedPopover, restartUnder, twoFrames } from '../helpers/panel.ts';
import { records, waitForCount } from '../helpers/capture.ts';

let launched: Launched;
let host: Page;
let panel: Page;
let settled: () => Promise<void>;

test.beforeAll(async ({ panel: p, chromium }) => {
  launched = chromium;
  host = p.host;
  panel = p.page;
  settled = p.settled;
  await panel.setViewport({ width: 1100, height: 520 });
  // Enough rows to scroll: 40 actions, each a post and its delivery (the deliveries arrive after the posts: the
  // embed is another site's process).
  const before = (await records(chromium, p.tabId)).length;
  await host.evaluate(async () => {
    for (let i = 0; i < 40; i++) {
      (window as any).__sandboxHost.sendAction('svc:action:set-filter', { filterId: `f${i}`, value: [String(i)] });
    }
  });
  await waitForCount(chromium, p.tabId, before + 80);
  await settled();
});

describe('a service-worker restart', () => {
  it('keeps the details, the selection, the filters, the scroll position, Settings and the draft', async () => {
    // the composer's draft, kept while its drawer is closed
    await openComposer(panel);
    await panel.select('.cm-type', 'svc:action:refresh');
    await panel.click('.cm-mode-raw');
    await fill(panel, '.cm-json', '{"source":"svc-embed","type":"svc:action:refresh","note":"kept"}');
    const draft = await inPanel(panel, (h) => JSON.stringify(h.act.draft()));
    await panel.click('.act-drawer .close');
    await panel.waitForFunction(() => !document.querySelector('.composer'));
    // a filter, a selected record and its details
    await inPanel(panel, (h) => h.setFilters({ search: 'set-filter' }));
    const seq = await inPanel(panel, (h) => {
      h.select({ at: 5 });
      return h.selected();
    });
    await panel.focus('[role="grid"]');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('section.detail [role="tablist"]');
    // the list scrolled away from its end (the user reads an older row)
    await panel.$eval('.grid-body', (el) => {
      el.scrollTop = 40;
      el.dispatchEvent(new WheelEvent('wheel', { deltaY: -40 }));
    });
    await twoFrames(panel);
    const scrolled = await panel.$eval('.grid-body', (el) => el.scrollTop);
    expect(scrolled).toBeGreaterThan(0);
    // Settings open, a number being typed
    await panel.click('.limits-button');
    await openedPopover(panel, '.limits-pop');
    await panel.$eval('.lim-records', (el) => {
      (el as HTMLInputElement).focus();
      (el as HTMLInputElement).select();
    });
    await panel.keyboard.type('1234');

    const said = await restartUnder(launched, panel);
    await settled();
    await twoFrames(panel);

    expect(said).toContain('snapshot'); // the log was read again
    expect(await panel.$('.limits-pop'), 'Settings stay open').not.toBeNull();
    expect(await panel.$eval('.lim-records', (el) => (el as HTMLInputElement).value)).toBe('1234');
    expect(await panel.evaluate(() => document.activeElement?.className)).toContain('lim-records');
    expect(await panel.$('section.detail [role="tablist"]'), 'the details stay open').not.toBeNull();
    expect(await inPanel(panel, (h) => h.selected())).toBe(seq);
    expect(await inPanel(panel, (h) => h.filters().search)).toBe('set-filter');
    expect(await panel.$eval('.grid-body', (el) => el.scrollTop)).toBe(scrolled);
    expect(await inPanel(panel, (h) => JSON.stringify(h.act.draft()))).toBe(draft);

    // Esc closes Settings; then one mouse click on Compose opens the composer with the draft
    await panel.keyboard.press('Escape');
    await panel.waitForFunction(() => !document.querySelector('.limits-pop'));
    await panel.click('.t-compose');
    await panel.waitForSelector('.composer', { timeout: 2_000 });
    expect(await panel.$eval('.cm-json', (el) => (el as HTMLTextAreaElement).value)).toContain('"note":"kept"');
    await panel.click('.act-drawer .close');
    await inPanel(panel, (h) => h.resetFilters());
  });

  it('reconnects when nothing but the panel wakes the new worker (the harness holds no start)', async () => {
    // Sessions of the harness stay attached to the worker (puppeteer's handle, the probes): a start under them waits
    // for a debugger to say run. Nothing of the test asks for the worker here; the panel's port wakes it, as for a
    // user, and gets its answer.
    for (let i = 0; i < 3; i++) {
      const said = await restartUnder(launched, panel, false);
      expect(said).toContain('snapshot');
    }
  });

  it('Clear still closes the details (what replaces the records)', async () => {
    await inPanel(panel, (h) => h.select({ at: 1 }));
    await panel.focus('[role="grid"]');
    await panel.keyboard.press('Enter');
    await panel.waitForSelector('section.detail');
    await panel.click('.t-clear');
    await panel.waitForFunction(() => !document.querySelector('section.detail'));
    expect(await inPanel(panel, (h) => h.selected())).toBeNull();
  });
});
