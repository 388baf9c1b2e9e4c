/**
 * The Embed panel in Chromium's real DevTools (a tab's DevTools window: opened with the tab under
 * `--auto-open-devtools-for-tabs`, or on demand). Selecting the panel relies on DevTools internals (the extension panel
 * sits in the overflow menu): used by `npm start`, the e2e smoke tests and a benchmark diagnostic. Node only.
 */
import type { Frame, Page } from 'puppeteer-core';

/**
 * Opens a tab with `open`, then its DevTools (the window the browser opened with the tab under
 * `--auto-open-devtools-for-tabs`, else a new one), selects the Embed panel and returns the panel's frame (undefined if
 * it did not appear within about 15 s) with the tab and the DevTools page. A tab whose DevTools opens only now loaded
 * with one debugger attached (the driver's): with DevTools attached too, a page's load under busy cores sometimes
 * stalled (an out-of-process frame that never ran).
 */
export async function openRealDevtoolsPanel(
  open: () => Promise<Page>,
): Promise<{ page: Page; devtools: Page; frame: Frame | undefined }> {
  const page = await open();
  const devtools = await page.openDevTools();
  let frame: Frame | undefined;
  for (let i = 0; i < 60 && !frame; i++) {
    await selectEmbedPanel(devtools).catch(() => false);
    frame = devtools.frames().find((f) => f.url().includes('/src/panel/index.html'));
    if (!frame) {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { page, devtools, frame };
}

// A string, so that a test runner does not rewrite the dynamic import. DevTools' own module, as its front end
// loads it: its tab ids are the built-in panels' names and, for an extension's panel, the extension's URL and the
// panel's title.
const SELECT_EMBED = `(async () => {
  const legacy = await import('./ui/legacy/legacy.js');
  const view = legacy.InspectorView.InspectorView.instance();
  const id = (view.tabbedPane.tabIds() || []).find((x) => x.startsWith('chrome-extension://') && x.endsWith('Embed'));
  if (id) await view.showPanel(id);
  return !!id && view.tabbedPane.selectedTabId === id;
})()`;

/**
 * Shows the Embed panel in a DevTools window (its page, `devtools://…`); true once it is the selected panel, false
 * while DevTools has not registered it yet (an extension's panel comes after the built-in ones: try again).
 */
export async function selectEmbedPanel(devtools: Page): Promise<boolean> {
  return (await devtools.evaluate(SELECT_EMBED)) === true;
}
