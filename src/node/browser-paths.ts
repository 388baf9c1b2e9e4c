/**
 * Where the browser and the built extension are, and the flags Chromium needs on these machines. No browser driver
 * is imported here, so the Playwright fixture does not load puppeteer. Node only.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The browser binary: $CHROMIUM_PATH, or the first Debian/Ubuntu/macOS location that exists. */
export function chromiumPath(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    process.env.PUPPETEER_EXECUTABLE_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ].filter((p): p is string => !!p);
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(`no Chromium found (tried ${candidates.join(', ')}); install it or set CHROMIUM_PATH`);
  }
  return found;
}

/** The Firefox binary: $FIREFOX_PATH, or the first Debian/Ubuntu/macOS location that exists. */
export function firefoxPath(): string {
  const candidates = [
    process.env.FIREFOX_PATH,
    '/usr/bin/firefox-esr',
    '/usr/bin/firefox',
    '/Applications/Firefox.app/Contents/MacOS/firefox',
  ].filter((p): p is string => !!p);
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(`no Firefox found (tried ${candidates.join(', ')}); install firefox-esr or set FIREFOX_PATH`);
  }
  return found;
}

/**
 * The built Chromium extension: $EMBED_INSPECTOR_EXTENSION, or the `dist/chrome` of this package (found from this
 * module upwards, so it holds in the repo, in dist/node and in an installed package).
 */
export function extensionPath(): string {
  const env = process.env.EMBED_INSPECTOR_EXTENSION;
  if (env) {
    return resolve(env);
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    for (const c of [join(dir, 'dist/chrome'), join(dir, 'chrome')]) {
      if (existsSync(join(c, 'manifest.json'))) {
        return c;
      }
    }
    dir = dirname(dir);
  }
  throw new Error('the extension is not built (run npm run build) or set EMBED_INSPECTOR_EXTENSION');
}
