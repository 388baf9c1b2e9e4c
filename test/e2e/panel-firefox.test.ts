/**
 * The panel page in Firefox ESR (built dist/firefox, synthetic session): it renders and follows ?theme=.
 * The real Firefox DevTools panel is smoke-tested in panel-firefox-devtools.test.ts.
 * Fails (never skips) without Firefox; FIREFOX_PATH overrides the binary.
 */
import { expect, it } from '../helpers/fixtures.ts';

it('Firefox renders the panel page', async ({ firefox }) => {
  const page = await firefox.extensionPage('fixture=demo&theme=dark');
  await page.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length > 5, {
    timeout: 20_000,
  });
  const r = await page.evaluate(() => ({
    rows: document.querySelectorAll('.grid-body [role="row"]').length,
    theme: document.documentElement.dataset.theme,
  }));
  expect(r.rows).toBeGreaterThan(5);
  expect(r.theme).toBe('dark');
});
