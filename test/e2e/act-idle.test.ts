/**
 * The composer keeps working after a quiet period: the service worker is stopped while the page sends nothing
 * (as Chrome does after ~30 s idle), so every relay's port is closed and no relay has a reason to reconnect.
 * A send from the panel still reaches the embed, and the timeline shows it; the user is never asked to reload.
 * And the plain case of issue 14: after 60 s in which the page sends nothing, a send from the composer arrives.
 * Real Chromium, the built extension, the sandbox.
 */
import type { Page } from 'puppeteer-core';
import { restartWorker, sleep } from '../helpers/capture.ts';
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
async function sendAfter(quiet: (panel: Page) => Promise<void>) {
  const page = await hostPage(launched, sb);
  const frame = await embedFrame(page, sb.tenantOrigin);
  await frame.waitForFunction(() => (window as any).__sandboxEmbed?.state().ready, { timeout: 15_000 });
  const panel = await panelFor(launched, page);
  await waitInPanel(panel, (h) => h.log.state.tenantOrigin, {
    timeout: 10_000,
  });
  await quiet(panel);

  await openComposer(panel);
  await panel.select('.cm-type', 'svc:action:refresh');
  await panel.waitForSelector('.cm-fields');
  const refreshes = (await frame.evaluate(() => (window as any).__sandboxEmbed.state().refreshCount)) as number;
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
      h.log
        .all()
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

  it('after 60 s of silence, with nothing forced: the send arrives', { timeout: 120_000 }, async () => {
    await sendAfter(async () => {
      // The deliberate idle: nothing happens for a minute.
      await sleep(61_000);
    });
  });
});
