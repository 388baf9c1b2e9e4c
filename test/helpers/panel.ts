/** Opening the panel page for a sandbox tab, for the act-* end-to-end tests. */
import type { Frame, Page } from 'puppeteer-core';
import { extensionWorker, type Launched } from '../../src/node/chromium.ts';
import { vi } from 'vitest';
import { closeWorkerUnasked, restartWorker, tabIdOf } from './capture.ts';
import { inPanel, notePanelConsole, panelNotesOf, waitInPanel } from './panel-handle.ts';

import type { Sandbox } from '../../sandbox/server.mjs';

export type { Sandbox } from '../../sandbox/server.mjs';

export { inPanel, type PanelTestHandle, waitInPanel } from './panel-handle.ts';

export async function hostPage(launched: Launched, sb: Sandbox, query = ''): Promise<Page> {
  const page = await launched.browser.newPage();
  await page.goto(`${sb.hostOrigin}/${query ? `?${query}` : ''}`);
  await page.waitForFunction(() => (window as any).__sandboxHost?.isReady(), { timeout: 20_000 });
  return page;
}

/** The panel page of the tab of `page` (in a tab of its own, with ?tabId=), connected, filters reset. */
export async function panelFor(launched: Launched, page: Page, errors: string[] = []): Promise<Page> {
  const tabId = await tabIdOf(launched, page);
  const panel = await launched.browser.newPage();
  await panel.setViewport({ width: 1280, height: 900 });
  panel.on('pageerror', (e) => errors.push(String(e)));
  notePanelConsole(panel);
  await panel.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?tabId=${tabId}&theme=light`);
  await waitInPanel(panel, (h) => h.store.status === 'connected', { timeout: 10_000 });
  await inPanel(panel, (h) => h.resetFilters());
  return panel;
}

export function embedFrame(page: Page, tenantOrigin: string): Promise<Frame> {
  return vi
    .waitUntil(() => page.frames().find((x) => x.url().startsWith(tenantOrigin)), { timeout: 15_000, interval: 100 })
    .catch(() => {
      throw new Error('no embed frame');
    });
}

/** Records of the panel's store, reduced to what tests compare. */
export function panelRecords(panel: Page): Promise<
  Array<{
    seq: number;
    kind: string;
    type?: string;
    injected?: boolean;
    pairedWith?: number;
    frameUrl: string;
    origin: string;
    verdict: string;
    navigation?: boolean;
    rules: string[];
  }>
> {
  return inPanel(panel, (h) =>
    h.records().map((r) => ({
      seq: r.seq,
      kind: r.kind,
      type: (r.data as { type?: string } | null)?.type,
      injected: r.injected,
      pairedWith: r.pairedWith,
      frameUrl: r.frameUrl,
      origin: r.origin,
      verdict: r.verdict,
      navigation: r.navigation,
      rules: r.issues.map((i) => i.rule),
    })),
  );
}

/** Set a text input or textarea to a value as a user would (select all, type). */
export async function fill(panel: Page, selector: string, value: string): Promise<void> {
  await panel.waitForSelector(selector);
  await panel.$eval(selector, (el) => {
    (el as HTMLInputElement).focus();
    (el as HTMLInputElement).select();
  });
  await panel.keyboard.press('Backspace');
  if (value) {
    await panel.type(selector, value);
  }
}

/**
 * Open the composer drawer. A DOM click on the toolbar button, not a mouse click at its coordinates: records
 * arriving while the test runs can move the toolbar between puppeteer's reading of the coordinates and the click
 * (a mouse click then lands beside the button and the composer never opens).
 */
export async function openComposer(panel: Page): Promise<void> {
  await panel.waitForSelector('.t-compose');
  await panel.$eval('.t-compose', (b) => {
    if (b.getAttribute('aria-pressed') !== 'true') {
      (b as HTMLButtonElement).click();
    }
  });
  await panel.waitForSelector('.composer');
}

/**
 * Waits for the popover `selector` (Settings, a toolbar's overflow menu) to be open and placed. The panel places a
 * popover in a ResizeObserver callback, after layout and before paint: its box is where the user sees it only once
 * that frame ran, which on a loaded machine can be after the element is in the DOM. Two animation frames later it is.
 */
export async function openedPopover(p: Page | Frame, selector: string): Promise<void> {
  await p.waitForSelector(selector);
  await twoFrames(p);
}

/** Resolves after two animation frames of `p`: what the last DOM change made the page lay out and observe has run. */
export function twoFrames(p: Page | Frame): Promise<unknown> {
  return p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Stop the extension's service worker as Chrome does when it is idle (helpers/capture.ts `restartWorker`: its ports
 * close), and wait until the panel has reconnected and taken the log again: it said "disconnected", then a snapshot
 * came. Returns what the panel said meanwhile (its statuses, and "snapshot").
 */
export async function restartUnder(launched: Launched, panel: Page, asked = true): Promise<string[]> {
  await inPanel(panel, (h) => {
    const w = window as unknown as { __restart: string[]; __restartOff?: () => void };
    w.__restartOff?.();
    w.__restart = [];
    w.__restartOff = h.store.onChange((c) => {
      if (c.status) {
        w.__restart.push(h.store.status);
      } else if (c.records && h.store.status === 'connected') {
        w.__restart.push('snapshot');
      }
    });
  });
  const said = () => inPanel(panel, () => (window as unknown as { __restart: string[] }).__restart);
  const t0 = Date.now();
  // (`asked` false: the worker is closed and nothing of ours asks for it after, as when Chrome restarts it)
  await (asked ? restartWorker(launched) : closeWorkerUnasked(launched));
  const restarted = Date.now() - t0;
  await vi
    .waitUntil(
      async () => {
        const s = await said();
        const down = s.indexOf('disconnected');
        return down >= 0 && s.indexOf('snapshot', down) > down;
      },
      { timeout: 15_000, interval: 100 },
    )
    .catch(async () => {
      throw new Error(
        `the panel did not reconnect after the worker stopped (it said: ${(await said()).join(', ')})\n` +
          `${asked ? `a new worker answered ${restarted} ms after the stop` : 'the worker was closed, nothing asked for it'}; ` +
          `now: ${await workerDiagnosis(launched, panel)}\n` +
          `the panel's warnings: ${panelNotesOf(panel).join('; ') || 'none'}`,
      );
    });
  return said();
}

/**
 * What a failed reconnection leaves to read (a CI flake whose cause is not found yet): the extension's worker targets,
 * the ServiceWorker domain's versions and their states, and whether a worker answers with its API.
 */
async function workerDiagnosis(launched: Launched, page: Page): Promise<string> {
  const out: string[] = [];
  const script = `chrome-extension://${launched.extensionId}/`;
  const targets = launched.browser.targets().filter((t) => t.url().startsWith(script) && t.type() !== 'page');
  out.push(`targets [${targets.map((t) => `${t.type()} ${t.url().slice(script.length)}`).join(', ')}]`);
  const cdp = await page.createCDPSession().catch(() => null);
  if (cdp) {
    const versions: string[] = [];
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions: vs }) => {
      for (const v of vs.filter((x) => x.scriptURL.startsWith(script))) {
        versions.push(
          `${v.versionId}:${v.runningStatus}/${v.status}${v.targetId ? ` target ${v.targetId.slice(0, 8)}` : ''}`,
        );
      }
    });
    await cdp.send('ServiceWorker.enable').catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    await cdp.detach().catch(() => {});
    out.push(`versions [${versions.join(', ')}]`);
  }
  const up = await extensionWorker(launched.browser, 3_000)
    .then((w) => w.evaluate(() => `answers, API ${'embedInspector' in globalThis ? 'installed' : 'missing'}`))
    .catch((e: Error) => `no worker answers: ${e.message}`);
  out.push(String(up));
  return out.join('; ');
}
