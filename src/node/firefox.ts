/**
 * Launching the system Firefox with the built extension (dist/firefox), the counterpart of chromium.ts: used by the
 * end-to-end tests. Puppeteer drives Firefox through WebDriver BiDi, which cannot evaluate the extension's background
 * page; an extension page can (`runtime.getBackgroundPage()`: Firefox's MV3 background is an event page), so the
 * automation API (`embedInspector.setCapture`, …) is reached from one. Node only.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { FirefoxLauncher } from 'puppeteer-core/internal/node/FirefoxLauncher.js';
import { firefoxPath } from './browser-paths.ts';
import type { CaptureSetting } from './chromium.ts';

/** The add-on's id (manifest `browser_specific_settings.gecko.id`). */
const FIREFOX_EXTENSION_ID = 'embed-inspector@embed-inspector.dev';
/** The moz-extension:// host the add-on gets unless told otherwise (a fixed one, so that its pages can be opened). */
const FIREFOX_EXTENSION_UUID = '11111111-2222-3333-4444-555555555555';

export interface FirefoxLaunchOptions {
  /** Path of the built Firefox extension (dist/firefox); none when omitted. */
  extensionDir?: string;
  headless?: boolean;
  /** The capture scope to set once the add-on is installed; omitted or null: the fresh profile's, nothing captured. */
  capture?: CaptureSetting | null;
  /**
   * Isolate each site in its own process, as Firefox ships (Fission), so that a cross-origin iframe is out of
   * process. Puppeteer otherwise keeps all web content in one process (`fission.webContentIsolationStrategy` 0,
   * for mouse input, which these tests do not use).
   */
  siteIsolation?: boolean;
}
export interface LaunchedFirefox {
  browser: Browser;
  /** The add-on's id as Firefox installed it (set when an extension was loaded). */
  extensionId?: string;
  /** The add-on's moz-extension:// host. */
  uuid: string;
  /** A new tab showing the panel page with `query`, its test handle up. */
  extensionPage(query?: string): Promise<Page>;
  /** Set the capture scope through the background page; resolves once the capture scripts are registered. */
  setCapture(setting: CaptureSetting): Promise<CaptureSetting>;
  close(): Promise<void>;
}

/** Source of a function run in an extension page: set the scope through the background page's automation API. */
export const SET_CAPTURE_IN_EXTENSION_PAGE = `async (setting) => {
  const bg = await browser.runtime.getBackgroundPage();
  return JSON.parse(JSON.stringify(await bg.embedInspector.setCapture(setting)));
}`;

/** An extension page of the add-on (page.goto never resolves for moz-extension:// here: not awaited). */
async function firefoxExtensionPage(browser: Browser, uuid: string, query = 'theme=light'): Promise<Page> {
  const page = await browser.newPage();
  void page.goto(`moz-extension://${uuid}/src/panel/index.html?${query}`).catch(() => {});
  // While the page is still being created, Firefox's WebDriver BiDi can fail an evaluation outright ("right-hand
  // side of 'in' should be an object"): poll again then, within the same deadline.
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await page.waitForFunction(
        () => !!(window as unknown as { __embedInspectorPanel?: unknown }).__embedInspectorPanel,
        // (on a timer: a page behind another tab runs no animation frames, puppeteer's default polling)
        { timeout: Math.max(1, deadline - Date.now()), polling: 100 },
      );
      return page;
    } catch (e) {
      if (Date.now() >= deadline || !/Protocol error/.test(String((e as Error)?.cause ?? e))) {
        throw e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Puppeteer writes its own `fission.webContentIsolationStrategy` over the one asked for: here the preferences
 * asked for win (puppeteer's stay for those not asked for).
 */
const puppeteerPrefs = FirefoxLauncher.getPreferences;
FirefoxLauncher.getPreferences = (extra?: Record<string, unknown>) => ({
  ...puppeteerPrefs.call(FirefoxLauncher, extra),
  ...extra,
});

export async function launchFirefox(opts: FirefoxLaunchOptions = {}): Promise<LaunchedFirefox> {
  const ext = opts.extensionDir ? resolve(opts.extensionDir) : undefined;
  if (ext && !existsSync(join(ext, 'manifest.json'))) {
    throw new Error(`no built extension at ${ext} (run npm run build)`);
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'ei-firefox-'));
  const uuid = FIREFOX_EXTENSION_UUID;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: opts.headless ?? true,
    userDataDir,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [FIREFOX_EXTENSION_ID]: uuid }),
      ...(opts.siteIsolation ? { 'fission.webContentIsolationStrategy': 1 } : {}),
    },
  });
  const close = async () => {
    await browser.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  const setCapture = async (setting: CaptureSetting): Promise<CaptureSetting> => {
    const page = await firefoxExtensionPage(browser, uuid);
    try {
      return (await page.evaluate(`(${SET_CAPTURE_IN_EXTENSION_PAGE})(${JSON.stringify(setting)})`)) as CaptureSetting;
    } finally {
      await page.close().catch(() => {});
    }
  };
  let extensionId: string | undefined;
  try {
    if (ext) {
      extensionId = await browser.installExtension(ext);
      if (opts.capture) {
        await setCapture(opts.capture);
      }
    }
  } catch (e) {
    await close();
    throw e;
  }
  return {
    browser,
    extensionId,
    uuid,
    extensionPage: (query) => firefoxExtensionPage(browser, uuid, query),
    setCapture,
    close,
  };
}
