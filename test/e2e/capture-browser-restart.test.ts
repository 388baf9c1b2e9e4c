/**
 * A browser that quits or crashes tells the extension's worker of no tab closing, and the next browser session numbers
 * its tabs anew: the logs stored in the session before must not stay under ids that new tabs take (a new tab would
 * open on another page's log, paused if that one was). The same profile, launched again after Chromium was killed
 * with a captured tab open: the first worker of the new session holds no log of the tab before. Real Chromium, the
 * built extension, the sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_FLAGS, chromiumPath, extensionWorker, setCapture } from '../../src/node/chromium.ts';
import { EXT } from '../helpers/capture.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';

const tabIdsOf = async (browser: Browser) =>
  (await extensionWorker(browser)).evaluate(() => (globalThis as any).embedInspector.tabIds() as Promise<number[]>);

describe('a browser session that ended without closing its tabs', () => {
  it("leaves the next session no log under its tabs' ids", async ({ sandbox }) => {
    const profile = mkdtempSync(join(tmpdir(), 'ei-restart-'));
    const launch = () =>
      puppeteer.launch({
        executablePath: chromiumPath(),
        headless: true,
        userDataDir: profile,
        ignoreDefaultArgs: ['--disable-extensions'],
        args: [...CHROMIUM_FLAGS, `--disable-extensions-except=${EXT}`, `--load-extension=${EXT}`],
      });
    let browser = await launch();
    try {
      const worker = await extensionWorker(browser);
      const extensionId = new URL(worker.url()).host;
      await setCapture(worker, { sites: 'all', mode: 'full' });
      const host = await browser.newPage();
      await host.goto(`${sandbox.hostOrigin}/`);
      await host.waitForFunction(() => (window as any).__sandboxHost?.isReady(), { timeout: 20_000 });
      const tabId: number = await worker.evaluate(async (url: string) => {
        const [tab] = await (globalThis as any).chrome.tabs.query({ url: `${url}/*` });
        const ei = (globalThis as any).embedInspector;
        await ei.settle(tab.id); // (every frame's records stored)
        return tab.id;
      }, sandbox.hostOrigin);
      expect(await tabIdsOf(browser)).toContain(tabId);

      // The browser crashes (or quits: either way no tabs.onRemoved reaches the worker).
      const exited = new Promise((r) => browser.process()?.once('exit', r));
      browser.process()?.kill('SIGKILL');
      await exited;

      browser = await launch();
      // Nothing of a page wakes the worker: the panel's port does, on no tab of its own.
      const panel = await browser.newPage();
      await panel.goto(`chrome-extension://${extensionId}/src/panel/index.html?tabId=0`);
      // (the panel, opened in a tab on a site in scope, may start a log of its own tab: a tab of this session)
      const ids = await tabIdsOf(browser);
      const open: number[] = await (await extensionWorker(browser)).evaluate(async () =>
        (await (globalThis as any).chrome.tabs.query({})).map((t: { id: number }) => t.id),
      );
      expect(ids).not.toContain(tabId);
      expect(ids.filter((id) => id !== 0 && !open.includes(id))).toEqual([]);
    } finally {
      await browser.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
