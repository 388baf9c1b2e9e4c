/**
 * The Embed panel in Chromium's real DevTools (the browser launched with `--auto-open-devtools-for-tabs`, so every
 * new tab gets its own DevTools window). Selecting the panel relies on DevTools internals (the extension panel
 * sits in the overflow menu): used by `npm start`, the e2e smoke tests and a benchmark diagnostic. Node only.
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

/**
 * Loads `url` in a tab whose DevTools opened with it and waits until `ready()` is true in the page; once more when
 * that does not happen within `timeoutMs`, saying so through `warn`. With DevTools and puppeteer both attached to
 * the tab and the cores busy, the page's out-of-process frame sometimes never runs: it keeps the URL "" (the page
 * never loads) or never says ready. It happens with and without the extension, never without DevTools; a second
 * navigation usually gets past it.
 */
export async function loadInDevtoolsTab(
  page: Page,
  url: string,
  ready: () => unknown,
  {
    timeoutMs = 15_000,
    warn = (m: string) => console.warn(m),
  }: { timeoutMs?: number; warn?: (m: string) => void } = {},
): Promise<void> {
  const load = async () => {
    await page.goto(url, { timeout: timeoutMs });
    await page.waitForFunction(ready, { timeout: timeoutMs });
  };
  try {
    await load();
  } catch (err) {
    const frames = page.frames().map((f) => JSON.stringify(f.url()));
    warn(
      `${url} did not load with DevTools attached (${(err as Error).message}; frames ${frames.join(', ')}): once more`,
    );
    await load();
  }
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
