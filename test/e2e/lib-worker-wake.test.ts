/**
 * The Node library reaches the extension's MV3 service worker after Chrome stopped it as when idle and something woke
 * it again by a port (here the panel): the new worker runs under the same target, and puppeteer's handle of the old
 * one never answers again (each call once waited puppeteer's 30 s for it, src/node/chromium.ts `extensionWorker`).
 * A QA script's reads of the log through embed-inspector/puppeteer, and `launched.worker()`, answer from the new
 * worker with the log whole, the records the frames still held included. Real Chromium, the built extension, the
 * sandbox.
 */
import type { Page } from 'puppeteer-core';
import { attachInspector } from '../../src/node/puppeteer.ts';
import { stopWorkerAsIdle, tabIdOf } from '../helpers/capture.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { hostPage, waitInPanel } from '../helpers/panel.ts';

/** The host page sends the embed a set-filter action with this value. */
const sendFilter = (host: Page, value: string) =>
  host.evaluate((v) => {
    (window as any).__sandboxHost.sendAction('svc:action:set-filter', { filterId: 'wake', value: [v] });
  }, value);

describe('the extension’s worker stopped as when idle, then woken by the panel', () => {
  it('a read of the log through embed-inspector/puppeteer and launched.worker() answer from the new worker', async ({
    chromium,
    sandbox,
  }) => {
    const host = await hostPage(chromium, sandbox);
    const embed = (await attachInspector(chromium.browser)).embedOf(host);
    const sent = async () =>
      (await embed.records({ type: 'svc:action:set-filter', kind: 'post' })).map(
        (r) => (r.data as { payload: { value: string[] } }).payload.value[0],
      );
    await sendFilter(host, 'before the stop');
    expect(await sent()).toEqual(['before the stop']);
    const tabId = await tabIdOf(chromium, host);

    // The read's acknowledgements reach the frames before the stop: a frame that still holds a batch not
    // acknowledged connects again as soon as the worker stops, and would hide what the read after the wake checks.
    await new Promise((r) => setTimeout(r, 1_000));
    await stopWorkerAsIdle(chromium, host);
    // The panel opened on the tab: its port wakes the worker.
    const panel = await chromium.browser.newPage();
    await panel.goto(`chrome-extension://${chromium.extensionId}/src/panel/index.html?tabId=${tabId}&theme=light`);
    await waitInPanel(panel, (h) => h.store.status === 'connected', { timeout: 15_000 });

    // The worker that answers is the new one (the old one was marked), and it holds the log.
    expect(await (await chromium.worker()).evaluate(() => (globalThis as any).__marker)).toBeUndefined();
    expect(await sent()).toEqual(['before the stop']);
    // The host posts a burst right away and the test reads at once: no frame has a port to the new worker yet (a
    // frame connects again when it next sends), and the host holds its posts for a quiet period that grows with the
    // burst (capture/outbox.ts); settling reaches every frame of the tab all the same, and the read has the burst.
    const burst = Array.from({ length: 5_000 }, (_, i) => `after the wake ${i}`);
    await host.evaluate((values) => {
      for (const v of values) {
        (window as any).__sandboxHost.sendAction('svc:action:set-filter', { filterId: 'wake', value: [v] });
      }
    }, burst);
    expect(await sent()).toEqual(['before the stop', ...burst]);
    expect(await (await chromium.worker()).evaluate(() => 'embedInspector' in globalThis)).toBe(true);
  });
});
