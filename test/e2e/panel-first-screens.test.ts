/**
 * The panel's first screen in each state of the tab's capture (issue 29), real Chromium with the built extension,
 * the panel page opened in a tab with `?tabId=` of a silent page (a host page and a frame of another origin, no
 * message): capture off, part of the tab's sites captured, waiting for the first message, receive-only, the tab's
 * sites in different modes, and an imported file. Each screen says one thing and offers at most one action, and
 * the controls show their true state ("Recording" only when capture is on; Receive only mixed when the sites
 * differ). The scope is changed through the worker's automation API between states. Fails (never skips) without a
 * build.
 */
import type { Page } from 'puppeteer-core';
import { tabIdOf } from '../helpers/capture.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, waitInPanel } from '../helpers/panel.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { setCapture, type CaptureSetting, type Launched } from '../../src/node/chromium.ts';
import { CAPTURE_FORMAT, CAPTURE_VERSION } from '../../src/protocol/record.ts';

let launched: Launched;
let srv: TwoOrigins;
let page: Page;
let panel: Page;
const errors: string[] = [];

test.beforeAll(async ({ launchForFile }) => {
  srv = await launchForFile.pages(
    { '/': '<!doctype html><title>host</title><iframe src="{{EMBED}}/embed"></iframe>' },
    { '/embed': '<!doctype html><p>embed</p>' },
  );
  // Capture off at first (the `chromium` fixture captures every site): a browser of the file's own.
  launched = await launchForFile.chromium({ capture: null });
  page = await launched.browser.newPage();
  await page.goto(`${srv.hostOrigin}/`);
  await page.waitForFunction(() => document.querySelector('iframe')?.contentDocument !== undefined);
  const tabId = await tabIdOf(launched, page);
  panel = await launched.browser.newPage();
  await panel.setViewport({ width: 800, height: 600 });
  panel.on('pageerror', (e) => errors.push(String(e)));
  await panel.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?tabId=${tabId}&theme=light`);
  await waitInPanel(panel, (h) => h.store.capture?.sites.length === 2 && !!document.querySelector('.empty'), {
    timeout: 10_000,
  });
});

/** What the first screen shows: the list's empty state, its buttons, the banners, and the controls' states. */
const screen = () =>
  panel.evaluate(() => {
    const rec = document.querySelector('.summary .rec') as HTMLButtonElement;
    const ro = document.querySelector('.summary .receive-only input') as HTMLInputElement;
    const empty = document.querySelector('.empty');
    return {
      state: empty?.getAttribute('data-state') ?? null,
      emptyText: empty?.textContent ?? '',
      emptyButtons: [...(empty?.querySelectorAll('button') ?? [])].map((b) => b.textContent!.trim()),
      captureOff: !!document.querySelector('.capture-off'),
      partial: !!document.querySelector('.capture-partial'),
      turnOn: [...document.querySelectorAll('.cap-on')].map((b) => b.textContent!.trim()),
      receiveOnlyNote: !!document.querySelector('.receive-only-note'),
      rec: { text: rec.textContent!.trim(), disabled: rec.disabled },
      integration: document.querySelector('[data-testid="integration"]')!.textContent!.trim(),
      receiveOnly: { checked: ro.checked, mixed: ro.indeterminate, aria: ro.getAttribute('aria-checked') },
    };
  });
/** Set the scope, and wait until the panel has heard of it (the modes of the tab's two sites). */
async function scope(setting: CaptureSetting | { sites: [] }, modes: Array<string | null>): Promise<void> {
  await setCapture(await launched.worker(), setting as CaptureSetting);
  await waitInPanel(
    panel,
    (h, want) => {
      const sites = h.store.capture?.sites ?? [];
      const got = [...sites].sort((a, b) => Number(b.top) - Number(a.top)).map((s) => s.mode);
      return JSON.stringify(got) === JSON.stringify(want);
    },
    { timeout: 10_000 },
    modes,
  );
}

describe('first screens', () => {
  it('capture off: one screen, the banner turns it on; "Not recording"; no reload offered', async () => {
    await scope({ sites: [] }, [null, null]);
    const s = await screen();
    expect(s.state).toBe('capture-off');
    expect(s.captureOff).toBe(true);
    expect(s.turnOn).toEqual(['Capture these sites and reload']);
    expect(s.emptyButtons).toEqual([]);
    expect(s.emptyText).not.toMatch(/reload the page/i);
    expect(s.rec).toEqual({ text: 'Not recording', disabled: true });
    expect(s.receiveOnly.checked).toBe(false);
    // Nothing recorded is not "no embed": the integration line says it judges nothing.
    expect(s.integration).toMatch(/capture is off/);
    expect(s.integration).not.toMatch(/no embed/);
  });

  it('part of the sites captured: the banner captures the rest; "Recording"; no second action', async () => {
    await scope({ sites: [srv.hostOrigin], mode: 'full' }, ['full', null]);
    const s = await screen();
    expect(s.state).toBe('partial');
    expect(s.captureOff).toBe(false);
    expect(s.partial).toBe(true);
    expect(s.turnOn).toEqual(['Capture them too and reload']);
    expect(s.emptyButtons).toEqual([]);
    expect(s.rec).toEqual({ text: 'Recording', disabled: false });
  });

  it('everything captured, nothing yet: waiting for the first message, one action (reload)', async () => {
    await scope({ sites: [srv.hostOrigin, srv.embedOrigin], mode: 'full' }, ['full', 'full']);
    const s = await screen();
    expect(s.state).toBe('waiting');
    expect(s.partial || s.captureOff).toBe(false);
    expect(s.emptyButtons).toEqual(['Reload the page']);
    expect(s.receiveOnly).toEqual({ checked: false, mixed: false, aria: null });
    expect(s.rec).toEqual({ text: 'Recording', disabled: false });
  });

  it('receive-only: checked, the rules it cannot check said once, waiting with one action', async () => {
    await scope({ sites: [srv.hostOrigin, srv.embedOrigin], mode: 'receive-only' }, ['receive-only', 'receive-only']);
    const s = await screen();
    expect(s.state).toBe('waiting');
    expect(s.receiveOnlyNote).toBe(true);
    expect(s.receiveOnly).toEqual({ checked: true, mixed: false, aria: null });
    expect(s.emptyButtons).toEqual(['Reload the page']);
  });

  it('the host receive-only and the embed full: Receive only is mixed', async () => {
    await scope(
      {
        sites: [srv.hostOrigin, srv.embedOrigin],
        mode: 'full',
        modes: { [srv.hostOrigin]: 'receive-only', [srv.embedOrigin]: 'full' },
      },
      ['receive-only', 'full'],
    );
    const s = await screen();
    expect(s.receiveOnly).toEqual({ checked: false, mixed: true, aria: 'mixed' });
  });

  it('an imported file: says which file, offers the way back to the live tab; an empty one says so', async () => {
    const file = { format: CAPTURE_FORMAT, version: CAPTURE_VERSION, tenantOrigin: null, messages: [] };
    await inPanel(panel, (h, text) => h.act.importText(text, 'empty-capture.json'), JSON.stringify(file));
    await panel.waitForSelector('[data-testid="source-bar"]', { timeout: 5_000 });
    const bar = await panel.$eval('[data-testid="source-bar"]', (b) => ({
      text: b.textContent,
      buttons: [...b.querySelectorAll('button')].map((x) => x.textContent!.trim()),
    }));
    expect(bar.text).toContain('empty-capture.json');
    expect(bar.buttons).toEqual(['Back to the live tab']);
    const s = await screen();
    expect(s.state).toBe('file');
    expect(s.emptyButtons).toEqual([]);
    expect(s.rec.text).toBe('Not recording');
    await panel.click('.src-live');
    await panel.waitForFunction(() => !document.querySelector('[data-testid="source-bar"]'), { timeout: 5_000 });
    expect((await screen()).state).toBe('waiting');
  });

  it('Settings does not stay open across a reload of the page, with the log preserved or not', async () => {
    for (const preserve of [false, true]) {
      await inPanel(panel, (h, p) => h.store.command({ type: 'set-options', options: { preserveLog: p } }), preserve);
      await waitInPanel(panel, (h, p) => h.state().preserveLog === p, {}, preserve);
      await panel.click('.limits-button');
      await panel.waitForSelector('.limits-pop');
      await page.reload();
      await panel.waitForFunction(() => !document.querySelector('.limits-pop'), { timeout: 10_000 });
    }
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
