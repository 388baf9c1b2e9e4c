/**
 * Smoke test of the flow view in the real DevTools of Chromium: a scripted sandbox dashboard session (`script=full`:
 * the host answers the embed's `ready` with its actions, `set-color-scheme` first), the Embed panel selected; the
 * Flow tab shows a lane for the host page and one for the embed and draws the handshake's arrows between them, and
 * V switches the views inside the DevTools window. Fails (never skips) without Chromium, a build or the sandbox.
 */
import type { Frame, Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server.mjs';
import type { Launched } from '../../src/node/chromium.ts';
import { openRealDevtoolsPanel } from '../../src/node/devtools-panel.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { expectHandshakeDrawn, flowDrawing } from '../helpers/flow-drawing.ts';
import { hostPage, waitInPanel } from '../helpers/panel.ts';

let sandbox: Sandbox;
let dev: Launched;
let devtools: Page;
let panel: Frame;

// A browser of the file's own; the scripted session runs to its end, then the tab's real DevTools opens.
test.beforeAll(async ({ sandbox: sb, launchForFile }) => {
  sandbox = sb;
  dev = await launchForFile.chromium({ capture: { sites: [sandbox.hostOrigin, sandbox.tenantOrigin], mode: 'full' } });
  const opened = await openRealDevtoolsPanel(async () => {
    const p = await hostPage(dev, sandbox, 'script=full');
    await p.waitForFunction(() => (window as any).__sandboxHost.scriptDone(), { timeout: 30_000 });
    return p;
  });
  if (!opened.frame) {
    throw new Error('the Embed panel did not open in DevTools');
  }
  devtools = opened.devtools;
  panel = opened.frame;
  // the handshake has reached the panel: ready and set-color-scheme, each posted and delivered
  await waitInPanel(
    panel,
    (h) =>
      ['svc:event:ready', 'svc:action:set-color-scheme'].every((t) =>
        h.records().some((r: any) => r.data?.type === t && r.kind === 'receive' && r.pairedWith !== undefined),
      ),
    { timeout: 20_000 },
  );
}, 90_000);

describe('the flow view in the real DevTools panel', () => {
  it('the Flow tab shows a lane for the host and the embed, and the handshake arrows between them', async () => {
    await panel.click('.vt-flow');
    await panel.waitForSelector('.flow-row.k-arrow[data-seq]', { timeout: 10_000 });
    expectHandshakeDrawn(await flowDrawing(panel), { host: sandbox.hostOrigin, tenant: sandbox.tenantOrigin });
  });

  it('V switches to the timeline and back, inside the DevTools window', async () => {
    await panel.focus('.flow-list');
    await devtools.keyboard.press('v');
    await panel.waitForSelector('.vt-timeline[aria-selected="true"]', { timeout: 5_000 });
    expect(await panel.$('.flow-list')).toBeNull();
    await devtools.keyboard.press('v');
    await panel.waitForSelector('.vt-flow[aria-selected="true"]', { timeout: 5_000 });
    await panel.waitForSelector('.flow-row.k-arrow[data-seq]', { timeout: 5_000 });
    expectHandshakeDrawn(await flowDrawing(panel), { host: sandbox.hostOrigin, tenant: sandbox.tenantOrigin });
  });
});
