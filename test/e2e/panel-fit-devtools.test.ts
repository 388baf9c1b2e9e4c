/**
 * Smoke test in the real DevTools of Chromium (issue 29): ⚙ Settings opens inside the Embed panel, and Esc closes it
 * without reaching DevTools, whose key forwarder would open the Console drawer. The proof is ordered: Esc with
 * Settings open closes it; a second Esc, with nothing of the panel's open, is DevTools' own and shows the drawer. Had
 * the first reached DevTools too, the drawer would have been toggled twice (shown, then hidden). Fails (never skips)
 * without Chromium, a build or the sandbox.
 */
import type { Sandbox } from '../../sandbox/server.mjs';
import type { Launched } from '../../src/node/chromium.ts';
import { openRealDevtoolsPanel } from '../../src/node/devtools-panel.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { hostPage, waitInPanel } from '../helpers/panel.ts';

let sandbox: Sandbox;
let dev: Launched;

// A browser of the file's own, for the tab whose real DevTools the test opens.
test.beforeAll(async ({ sandbox: sb, launchForFile }) => {
  sandbox = sb;
  dev = await launchForFile.chromium({ capture: { sites: [sandbox.hostOrigin, sandbox.tenantOrigin], mode: 'full' } });
});

describe('the real DevTools panel', () => {
  it('Settings opens inside the panel; Esc closes it and never reaches DevTools', async () => {
    const { devtools, frame } = await openRealDevtoolsPanel(() => hostPage(dev, sandbox));
    expect(frame, 'the Embed panel frame').toBeTruthy();
    const panel = frame!;
    await waitInPanel(panel, (h) => h.ready() !== null, { timeout: 15_000 });
    const drawerVisible = () =>
      devtools.evaluate(`(async () => {
        const legacy = await import('./ui/legacy/legacy.js');
        return legacy.InspectorView.InspectorView.instance().drawerVisible();
      })()`) as Promise<boolean>;
    /** Whether the drawer is in that state within a hundred of DevTools' frames (each check a round trip). */
    const drawerBecomes = async (want: boolean) => {
      for (let i = 0; i < 100; i++) {
        if ((await drawerVisible()) === want) {
          return true;
        }
        await devtools.evaluate('new Promise((r) => requestAnimationFrame(r))');
      }
      return false;
    };
    expect(await drawerVisible(), 'the Console drawer is closed at first').toBe(false);

    // A real mouse click into the panel's frame inside the DevTools window: on a loaded machine it may land while
    // DevTools still lays the frame out, and miss (nothing of the panel is focused then; seen in CI and with busy
    // loops on both cores). A click that missed is made again; one that reached the button must open Settings.
    for (let attempt = 0; ; attempt++) {
      await panel.click('.limits-button');
      const opened = await panel
        .waitForSelector('.limits-pop', { timeout: 5_000 })
        .then(() => true)
        .catch(() => false);
      if (opened) {
        break;
      }
      const reached = await panel.evaluate(() => document.activeElement?.classList.contains('limits-button'));
      expect(reached, 'a click that reached ⚙ Settings opens it').toBe(false);
      expect(attempt, 'three clicks in a row missed ⚙ Settings').toBeLessThan(2);
    }
    const box = await panel.$eval('.limits-pop', (el) => {
      const r = el.getBoundingClientRect();
      return {
        left: r.left,
        right: r.right,
        top: r.top,
        bottom: r.bottom,
        width: document.documentElement.clientWidth,
        height: document.documentElement.clientHeight,
      };
    });
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(box.width);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(box.height);

    await devtools.keyboard.press('Escape');
    await panel.waitForFunction(() => !document.querySelector('.limits-pop'), { timeout: 5_000 });
    expect(await panel.evaluate(() => document.activeElement?.classList.contains('limits-button'))).toBe(true);
    // Nothing of the panel's is open now: this Esc is DevTools' (its forwarder shows the drawer).
    await devtools.keyboard.press('Escape');
    expect(await drawerBecomes(true), 'the drawer shows after the second Esc').toBe(true);
    expect(await drawerVisible(), 'the drawer toggled once: by the second Esc only').toBe(true);
  });
});
