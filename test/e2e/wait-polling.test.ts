// The suite's waits on a page's state (puppeteer's waitForFunction) see a condition that becomes true while they
// wait, also in a page that renders no frames: a tab behind another. Puppeteer's own default polls on animation
// frames, which such a page never runs; the e2e setup (test/helpers/e2e-setup.ts) makes them poll on a timer. A
// hostile-page test failed so in CI: the embed frame had the action, the wait did not look again.
import { expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';

test('a wait in a cross-origin frame of a background tab sees what arrives after it began', async ({ launch }) => {
  const o = await launch.pages(
    { '/': '<iframe src="{{EMBED}}/frame"></iframe>' },
    { '/frame': '<script>window.got = []; addEventListener("message", (e) => window.got.push(e.data));</script>' },
  );
  const l = await launch.plainChromium();
  const page = await l.browser.newPage();
  await page.goto(`${o.hostOrigin}/`);
  const frame = page.frames().find((f) => f.url().startsWith(o.embedOrigin))!;
  await frame.waitForFunction(() => Array.isArray((window as any).got));
  // Another tab in front: this one is hidden and renders nothing.
  await (await l.browser.newPage()).goto('about:blank');
  expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
  await page.evaluate(
    (to: string) => setTimeout(() => document.querySelector('iframe')!.contentWindow!.postMessage('hi', to), 500),
    o.embedOrigin,
  );
  await frame.waitForFunction(() => (window as any).got.includes('hi'), { timeout: 5_000 });
  expect(await frame.evaluate(() => (window as any).got)).toEqual(['hi']);
});
