/**
 * The capture scope in Firefox tests. Puppeteer cannot evaluate Firefox's background page, but an extension page
 * can reach it (`runtime.getBackgroundPage()`: Firefox's MV3 background is an event page) and call the same
 * automation API as the Chromium tests: `embedInspector.setCapture`, which resolves once the scripts are registered.
 */
import type { Browser, Page } from 'puppeteer-core';
import type { CaptureSetting } from '../../src/node/chromium.ts';

/** An extension page of the Firefox build (page.goto never resolves for moz-extension:// here: not awaited). */
export async function firefoxExtensionPage(browser: Browser, uuid: string, query = 'theme=light'): Promise<Page> {
  const page = await browser.newPage();
  void page.goto(`moz-extension://${uuid}/src/panel/index.html?${query}`).catch(() => {});
  // While the page is still being created, Firefox's WebDriver BiDi can fail an evaluation outright ("right-hand
  // side of 'in' should be an object"): poll again then, within the same deadline.
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await page.waitForFunction(() => !!(window as any).__embedInspectorPanel, {
        timeout: Math.max(1, deadline - Date.now()),
      });
      return page;
    } catch (e) {
      if (Date.now() >= deadline || !/Protocol error/.test(String((e as Error)?.cause ?? e))) {
        throw e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Source of a function run in an extension page: set the scope through the background page's automation API. */
export const SET_CAPTURE_IN_EXTENSION_PAGE = `async (setting) => {
  const bg = await browser.runtime.getBackgroundPage();
  return JSON.parse(JSON.stringify(await bg.embedInspector.setCapture(setting)));
}`;

/** Set the capture scope from an extension page; resolves with getCapture's shape once the scripts are registered. */
export async function setCaptureFirefox(page: Page, setting: CaptureSetting): Promise<CaptureSetting> {
  return page.evaluate(`(${SET_CAPTURE_IN_EXTENSION_PAGE})(${JSON.stringify(setting)})`) as Promise<CaptureSetting>;
}
