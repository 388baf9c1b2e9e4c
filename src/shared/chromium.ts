/**
 * Launching the system Chromium with the built extension (used by `embed-inspector record`, `npm start`,
 * the end-to-end tests and the benchmarks). Node only.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type WebWorker } from 'puppeteer-core';

export const CHROMIUM_FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

/** The browser binary: $CHROMIUM_PATH, or the first Debian/Ubuntu/macOS location that exists. */
export function chromiumPath(): string {
  const candidates = [
    process.env.CHROMIUM_PATH, process.env.PUPPETEER_EXECUTABLE_PATH,
    '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable',
    '/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ].filter((p): p is string => !!p);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`no Chromium found (tried ${candidates.join(', ')}); install it or set CHROMIUM_PATH`);
  return found;
}

export interface LaunchOptions {
  /** Path of an unpacked extension to load (e.g. dist/chrome); none when omitted. */
  extensionDir?: string;
  headless?: boolean;
  devtools?: boolean;
  args?: string[];
}
export interface Launched {
  browser: Browser;
  /** Set when an extension was loaded. */
  extensionId?: string;
  /** The extension's service worker (re-fetch after it was stopped). */
  worker(): Promise<WebWorker>;
  close(): Promise<void>;
}

export async function launchChromium(opts: LaunchOptions = {}): Promise<Launched> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'ei-chromium-'));
  const ext = opts.extensionDir ? resolve(opts.extensionDir) : undefined;
  if (ext && !existsSync(join(ext, 'manifest.json'))) throw new Error(`no built extension at ${ext} (run npm run build)`);
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: opts.headless ?? true,
    userDataDir,
    devtools: opts.devtools,
    ignoreDefaultArgs: ext ? ['--disable-extensions'] : undefined,
    args: [
      ...CHROMIUM_FLAGS,
      ...(ext ? [`--disable-extensions-except=${ext}`, `--load-extension=${ext}`] : []),
      ...(opts.args ?? []),
    ],
  });
  let extensionId: string | undefined;
  const worker = async () => {
    const target = await browser.waitForTarget(
      (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'), { timeout: 15_000 });
    const w = await target.worker();
    if (!w) throw new Error('extension service worker not reachable');
    return w;
  };
  if (ext) {
    const w = await worker();
    extensionId = new URL(w.url()).host;
  }
  return {
    browser, extensionId, worker,
    async close() {
      await browser.close().catch(() => {});
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
