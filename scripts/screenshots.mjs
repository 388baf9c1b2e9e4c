// `npm run screenshots`: the panel on a live sandbox session, in the light and dark themes, to
// docs/screenshots/panel-light.png and panel-dark.png (shown by the README, 1,400 px wide), and at each width the
// layout is tested at (panel-<theme>-<width>.png: 400, 500, 800, 1,400 px, the details open; at 400 px also the
// list and its overflow menu, panel-<theme>-400-list.png), and the flow view at 1,400 px to flow-<theme>.png.
// Needs the build (dist/chrome).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { startSandbox } from '../sandbox/server.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const EXT = join(ROOT, 'dist/chrome');
const OUT = join(ROOT, 'docs/screenshots');
// The launcher the command line uses (src/node/chromium.ts, built to dist/node/chromium.js by npm run build).
const { chromiumPath: chromium, CHROMIUM_FLAGS } = await import('../dist/node/chromium.js');
const FLAGS = [...CHROMIUM_FLAGS, '--hide-scrollbars'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (!existsSync(join(EXT, 'manifest.json'))) {
  throw new Error('dist/chrome is missing: run npm run build first');
}
mkdirSync(OUT, { recursive: true });
const sandbox = await startSandbox({ hostPort: 0, tenantPort: 0 });
const userDataDir = mkdtempSync(join(tmpdir(), 'ei-shots-'));
const browser = await puppeteer.launch({
  executablePath: chromium(),
  headless: true,
  userDataDir,
  ignoreDefaultArgs: ['--disable-extensions'],
  args: [...FLAGS, `--disable-extensions-except=${EXT}`, `--load-extension=${EXT}`],
});
try {
  const sw = await browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'),
    { timeout: 15_000 },
  );
  const extId = new URL(sw.url()).host;
  // A fresh profile captures nothing: this throwaway one captures every site (the third-origin fault's frame too).
  await (await sw.worker()).evaluate((c) => globalThis.embedInspector.setCapture(c), { sites: 'all', mode: 'full' });
  // A session with a few protocol faults, so that the timeline shows verdicts and issues.
  const host = await browser.newPage();
  await host.setViewport({ width: 1200, height: 800 });
  const hostUrl = `${sandbox.hostOrigin}/?faults=missing-surface,action-star,third-origin&allowExport=true`;
  await host.goto(hostUrl);
  await host.waitForFunction(() => window.__sandboxHost?.isReady(), { timeout: 20_000 });
  for (const [type, payload] of [
    ['svc:action:set-color-scheme', { scheme: 'dark' }],
    ['svc:action:set-locale', { locale: 'de-CH' }],
    ['svc:action:set-timezone', { timezone: 'Europe/Zurich' }],
    ['svc:action:navigate', { path: '/embed/d/1/app/workbook/2' }],
    ['svc:action:set-timezone', { timezone: '+02:00' }],
    ['svc:action:refresh', {}],
  ]) {
    await host.evaluate((t, p) => window.__sandboxHost.sendAction(t, p), type, payload);
    await sleep(150);
  }
  const worker = await sw.worker();
  const tabId = await worker.evaluate(
    async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? null,
    hostUrl,
  );
  if (tabId === null) {
    throw new Error('sandbox tab not found');
  }

  for (const [theme, width] of ['light', 'dark'].flatMap((t) => [1400, 800, 500, 400].map((w) => [t, w]))) {
    const page = await browser.newPage();
    await page.setViewport({ width, height: width < 800 ? 640 : 820, deviceScaleFactor: 1 });
    await page.goto(`chrome-extension://${extId}/src/panel/index.html?tabId=${tabId}&theme=${theme}`);
    await page.waitForFunction(() => window.__embedInspectorPanel?.store.status === 'connected', { timeout: 10_000 });
    let live = true;
    try {
      await page.waitForFunction(() => window.__embedInspectorPanel.log.readyIndex >= 0, { timeout: 8_000 });
    } catch {
      live = false; // capture not available: show the synthetic demo session rather than an empty panel
      console.warn('screenshots: no live records from the sandbox; using the synthetic demo session');
      await page.evaluate(() =>
        window.__embedInspectorPanel.load(window.__embedInspectorPanel.synthetic(120), 'demo session (synthetic)'),
      );
    }
    await page.evaluate(() => window.__embedInspectorPanel.view.resetFilters());
    await sleep(300);
    if (width === 400) {
      await page.click('.summary .tb-more-button');
      await page.waitForSelector('.tb-menu');
      const list = join(OUT, `panel-${theme}-${width}-list.png`);
      await page.screenshot({ path: list });
      console.log(list);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.querySelector('.tb-menu'));
    }
    // Select an invalid event and open its details on the Message tab.
    await page.evaluate(() => {
      /** @type {import('../src/panel/app/test-handle.ts').PanelTestHandle} */
      const { log, view } = window.__embedInspectorPanel;
      const i =
        view.order.find((j) => log.at(j).verdict === 'invalid' && log.at(j).kind === 'receive') ??
        view.order.find((j) => log.at(j).verdict === 'invalid');
      if (i !== undefined) {
        view.select(log.at(i).seq);
      }
    });
    await page.focus('[role="grid"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('section.detail [role="tree"]');
    await sleep(400);
    const file = join(OUT, `panel-${theme}-${width}.png`);
    await page.screenshot({ path: file });
    if (width === 1400) {
      await page.screenshot({ path: join(OUT, `panel-${theme}.png`) });
    }
    console.log(`${file}${live ? '' : ' (synthetic session)'}`);
    if (width === 1400) {
      // The flow view of the same session, the same record selected (V switches views).
      await page.focus('[role="grid"]');
      await page.keyboard.press('v');
      await page.waitForSelector('.flow-row[data-seq]');
      await sleep(400);
      const flowFile = join(OUT, `flow-${theme}.png`);
      await page.screenshot({ path: flowFile });
      console.log(`${flowFile}${live ? '' : ' (synthetic session)'}`);
    }
    await page.close();
  }
} finally {
  await browser.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
  await sandbox.close();
}
