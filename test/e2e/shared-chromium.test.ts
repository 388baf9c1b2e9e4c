// The e2e-shared project's files share their vitest worker's Chromium (vitest.config.ts): each file first finds it as
// a fresh launch leaves it (test/helpers/capture.ts, `freshChromium`). Here a file changes everything a test of
// those files changes for the whole browser, and the next file finds none of it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_READY_TIMEOUT_MS } from '../../src/protocol/diagnose.ts';
import { DEFAULT_MAX_BYTES } from '../../src/protocol/encoding.ts';
import { freshChromium } from '../helpers/capture.ts';
import { expect, it } from '../helpers/fixtures.ts';
import { hostPage, panelFor } from '../helpers/panel.ts';

/** A key of the extension's storage that a panel page leaves alone (its own view is stored beside it). */
const PROBE = 'shared-chromium-probe';

it('leaves the next file nothing of what a file changed for the whole browser', async ({ chromium, sandbox }) => {
  const fresh = {
    pages: (await chromium.browser.pages()).map((p) => p.url()),
    capture: await (await chromium.worker()).evaluate(() => (globalThis as any).embedInspector.getCapture()),
  };
  expect(fresh.pages).toEqual(['about:blank']);
  expect(fresh.capture).toEqual({ sites: 'all', mode: 'full' });

  // What the shared files change: pages left open, a panel's stored view, the scope, the cap and the ready limit
  // (⚙ Settings, diagnosis), where downloads go (act-export), a stopped worker (act-idle).
  const host = await hostPage(chromium, sandbox);
  const panel = await panelFor(chromium, host);
  await panel.evaluate((k: string) => localStorage.setItem(k, 'stale'), PROBE);
  await (await chromium.worker()).evaluate(async () => {
    const ei = (globalThis as any).embedInspector;
    await ei.setCapture({ sites: [], mode: 'receive-only' });
    await ei.setMaxBytes(2000);
    await ei.setReadyTimeout(1000);
  });
  const cdp = await host.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', {
    behavior: 'allow',
    downloadPath: mkdtempSync(join(tmpdir(), 'ei-shared-')),
  });
  await cdp.detach();
  await (await chromium.worker()).close();

  await freshChromium(chromium);

  expect((await chromium.browser.pages()).map((p) => p.url())).toEqual(['about:blank']);
  const w = await chromium.worker();
  expect(await w.evaluate(() => (globalThis as any).embedInspector.getCapture())).toEqual(fresh.capture);
  expect(await w.evaluate(async () => (await chrome.storage.local.get('settings')).settings)).toEqual({
    maxBytes: DEFAULT_MAX_BYTES,
    readyTimeoutMs: DEFAULT_READY_TIMEOUT_MS,
  });
  const [blank] = await chromium.browser.pages();
  await blank!.goto(`chrome-extension://${chromium.extensionId}/src/panel/index.html?tabId=0`);
  expect(await blank!.evaluate((k: string) => localStorage.getItem(k), PROBE)).toBeNull();
});
