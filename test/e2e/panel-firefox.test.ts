/**
 * The panel page in Firefox ESR (built dist/firefox, synthetic session): it renders and follows ?theme=.
 * The real Firefox DevTools panel is reachable only through privileged internals, so not tested here.
 * Fails (never skips) without Firefox; FIREFOX_PATH overrides the binary.
 */
import { it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

const ROOT = new URL('../..', import.meta.url).pathname;
it('Firefox renders the panel page', async () => {
  const executablePath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  if (!existsSync(executablePath)) {
    throw new Error(`no Firefox at ${executablePath}; install firefox-esr or set FIREFOX_PATH`);
  }
  if (!existsSync(`${ROOT}dist/firefox/manifest.json`)) {
    throw new Error('dist/firefox is missing: run npm run build first');
  }
  const uuid = '11111111-2222-3333-4444-555555555555';
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ 'embed-inspector@embed-inspector.dev': uuid }),
    },
  });
  try {
    await browser.installExtension(`${ROOT}dist/firefox`);
    const page = await browser.newPage();
    void page.goto(`moz-extension://${uuid}/src/panel/index.html?fixture=demo&theme=dark`).catch(() => {});
    await page.waitForFunction(() => document.querySelectorAll('.grid-body [role="row"]').length > 5, {
      timeout: 20_000,
    });
    const r = await page.evaluate(() => ({
      rows: document.querySelectorAll('.grid-body [role="row"]').length,
      theme: document.documentElement.dataset.theme,
    }));
    expect(r.rows).toBeGreaterThan(5);
    expect(r.theme).toBe('dark');
  } finally {
    await browser.close();
  }
});
