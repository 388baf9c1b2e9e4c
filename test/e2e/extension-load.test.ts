// The built extension loads in both browsers (issue 2), from dist/: Chromium here, Firefox ESR in
// capture-firefox.test.ts (its first test, in that file's Firefox).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { ROOT as root } from '../helpers/paths.ts';

describe('the built extension', () => {
  it('loads in Chromium: service worker running, devtools page and panel page served', async ({ chromium: chrome }) => {
    expect(chrome.extensionId).toMatch(/^[a-p]{32}$/);
    const worker = await chrome.worker();
    const manifest = await worker.evaluate(() => (globalThis as any).chrome.runtime.getManifest());
    expect(manifest.name).toBe('Embed Inspector');
    expect(manifest.devtools_page).toBe('src/devtools/devtools.html');
    const page = await chrome.browser.newPage();
    await page.goto(`chrome-extension://${chrome.extensionId}/src/panel/index.html?tabId=1`);
    await page.waitForSelector('#root *');
    expect(await page.$eval('body', (b) => b.textContent)).toContain('Embed Inspector');
  });

  it('needs no eval: extension pages run under a CSP without it', () => {
    for (const dir of ['dist/chrome', 'dist/firefox']) {
      const files = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) =>
        f.endsWith('.js'),
      );
      expect(files.length).toBeGreaterThan(3);
      for (const f of files) {
        const code = readFileSync(join(root, dir, f), 'utf8');
        expect(code, `${dir}/${f}`).not.toMatch(/new Function\(|(?<![.\w$])eval\(/);
      }
    }
  });

  it('the library resolves by its package name, with types', async () => {
    const lib = await import('embed-inspector' as string);
    expect(typeof lib.classify).toBe('function');
    expect(typeof lib.SessionChecker).toBe('function');
    expect(lib.EVENTS).toHaveLength(8);
    expect(lib.ACTIONS).toHaveLength(7);
    expect(existsSync(join(root, 'dist/node/types/protocol/index.d.ts'))).toBe(true);
  });
});
