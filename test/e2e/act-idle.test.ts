/**
 * The composer keeps working after a quiet period, in which Chrome stops the idle service worker: every relay's port
 * closes and no relay has a reason to reconnect. A send from the panel still reaches the embed, and the timeline shows
 * it; the user is never asked to reload. Twice: with the worker restarted and the panel back before the send, and as
 * after an idle stop, the send made at once, with nothing forced or waited for (issue 14). Real Chromium, the built
 * extension, the sandbox.
 */
import type { Page } from 'puppeteer-core';
import { restartWorker, stopWorkerAsIdle } from '../helpers/capture.ts';
import { embedFrame, hostPage, openComposer, panelFor, type Sandbox, waitInPanel } from '../helpers/panel.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { Launched } from '../../src/node/chromium.ts';

let sb: Sandbox;
let launched: Launched;

test.beforeAll(({ sandbox, chromium }) => {
  sb = sandbox;
  launched = chromium;
});

/** Open the sandbox and the panel, let `quiet` pass, then send a refresh from the composer: it must arrive. */
async function sendAfter(quiet: (panel: Page, page: Page) => Promise<void>) {
  const page = await hostPage(launched, sb);
  const frame = await embedFrame(page, sb.tenantOrigin);
  await frame.waitForFunction(() => (window as any).__sandboxEmbed?.state().ready, { timeout: 15_000 });
  const panel = await panelFor(launched, page);
  await waitInPanel(panel, (h) => h.state().tenantOrigin, {
    timeout: 10_000,
  });
  await quiet(panel, page);

  await openComposer(panel);
  await panel.select('.cm-type', 'svc:action:refresh');
  await panel.waitForSelector('.cm-fields');
  const refreshes = (await frame.evaluate(() => (window as any).__sandboxEmbed.state().refreshCount)) as number;
  // As a user would: Send is enabled once the panel is connected again (after a stop it says so while it is not).
  await panel.waitForSelector('.cm-send:not([disabled])', { timeout: 15_000 });
  await panel.click('.cm-send');
  await panel.waitForFunction(() => document.querySelector('.cm-outcome')?.textContent?.length, { timeout: 10_000 });
  expect(await panel.$eval('.cm-outcome', (e) => e.textContent)).toMatch(/^Sent/);
  await frame.waitForFunction(
    (n) => (window as any).__sandboxEmbed.state().refreshCount > n,
    { timeout: 10_000 },
    refreshes,
  );
  await waitInPanel(
    panel,
    (h) =>
      h
        .records()
        .some(
          (r: any) =>
            r.kind === 'post' && r.injected && r.data?.type === 'svc:action:refresh' && r.pairedWith !== undefined,
        ),
    { timeout: 10_000 },
  );
  await panel.close();
  await page.close();
}

describe('the composer after a quiet period', () => {
  it('after the service worker stopped: sends, the embed reacts, the injected post is on the timeline', async () => {
    await sendAfter(async (panel) => {
      // Stop the worker (its ports close); wait until a new worker runs and the panel is back.
      await restartWorker(launched);
      await waitInPanel(panel, (h) => h.store.status === 'connected', {
        timeout: 15_000,
      });
      expect(await (await launched.worker()).evaluate(() => (globalThis as any).__marker)).toBeUndefined();
    });
  });

  it('after the worker stopped as when idle, with nothing waited for: the send arrives, handled by a new worker', async () => {
    await sendAfter(async (_panel, page) => {
      await stopWorkerAsIdle(launched, page);
    });
    expect(await (await launched.worker()).evaluate(() => (globalThis as any).__marker)).toBeUndefined();
  });
});
