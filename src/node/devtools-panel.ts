/**
 * The Embed panel in Chromium's real DevTools (the browser launched with `--auto-open-devtools-for-tabs`, so every
 * new tab gets its own DevTools window). Selecting the panel relies on DevTools internals (the extension panel
 * sits in the overflow menu): used by the e2e smoke test and a benchmark diagnostic only. Node only.
 */
import type { Browser, Frame, Page } from 'puppeteer-core';

/**
 * Opens a tab with `open`, waits for its DevTools, selects the Embed panel and returns the panel's frame
 * (undefined if it did not appear within about 15 s) with the tab and the DevTools page.
 */
export async function openRealDevtoolsPanel(
  browser: Browser,
  open: () => Promise<Page>,
): Promise<{ page: Page; devtools: Page; frame: Frame | undefined }> {
  const before = new Set(browser.targets().filter((t) => t.url().startsWith('devtools://')));
  const page = await open();
  const target = await browser.waitForTarget((t) => t.url().startsWith('devtools://') && !before.has(t), {
    timeout: 15_000,
  });
  const devtools = (await target.asPage())!;
  // A string, so that a test runner does not rewrite the dynamic import.
  const select = `(async () => {
    const legacy = await import('./ui/legacy/legacy.js');
    const view = legacy.InspectorView.InspectorView.instance();
    const id = (view.tabbedPane.tabIds() || []).find((x) => x.startsWith('chrome-extension://') && x.endsWith('Embed'));
    if (id) await view.showPanel(id);
    return id || null;
  })()`;
  let frame: Frame | undefined;
  for (let i = 0; i < 60 && !frame; i++) {
    await devtools.evaluate(select).catch(() => null);
    frame = devtools.frames().find((f) => f.url().includes('/src/panel/index.html'));
    if (!frame) {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { page, devtools, frame };
}
