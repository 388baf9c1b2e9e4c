/**
 * The end-to-end tests' fixtures (vitest's `test.extend`): each is set up once per file, when a test or a
 * `test.beforeAll` of that file first asks for it, and torn down after the file's last test (the shared Chromium
 * after the worker's last file).
 *
 * - `sandbox`: the sandbox's host and tenant sites on free ports (sandbox/server.mjs).
 * - `chromium`: Chromium with the built extension, capturing every site in full mode; a vitest worker's files share
 *   one where the project keeps the worker's modules (vitest.config.ts's e2e-shared), each file's reset to a fresh
 *   launch's state first (capture.ts's `freshChromium`).
 * - `plainChromium`: Chromium without any extension (the sandbox on its own, the baseline of a comparison).
 * - `firefox`: Firefox with the built extension, capturing nothing until a test sets the scope.
 * - `launch` (torn down after the test) and `launchForFile` (after the file's last test): launchers for what a test
 *   needs besides the shared ones (a browser with another capture scope or extra flags, a second sandbox, pages on
 *   two origins, Playwright's Chromium); what they launched is closed by the fixture, never by the test.
 * - `transparencyServer`: the transparency suite's two origins serving its pages and libraries (transparency/server.ts).
 * - `transparencyBrowsers`: its three browsers, one per mode (no extension, capture full, receive-only), launched on
 *   first use (transparency/harness.ts).
 * - `transparencyFirefox`: the same three in Firefox ESR with the built dist/firefox, each site in its own process
 *   (Fission, as Firefox ships), launched on first use.
 * - `panel`: the sandbox host page (with `hostQuery`, '' unless a file overrides it) in `chromium`, and the panel
 *   page opened for its tab, connected, filters reset; `settled()` waits until the panel holds what the page did.
 *   A scripted session (`script=full`) has run to its end before the panel opens (the host tab is in front while
 *   it runs).
 *
 * A launch failure fails the tests that use the fixture (never a skip).
 */
import type { Browser as PlaywrightBrowser } from '@playwright/test';
import type { Page } from 'puppeteer-core';
import { test as base } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/server.mjs';
import { CHROMIUM_FLAGS, chromiumPath } from '../../src/node/browser-paths.ts';
import { launchChromium, type CaptureSetting, type Launched } from '../../src/node/chromium.ts';
import { launchFirefox, type LaunchedFirefox } from '../../src/node/firefox.ts';
import { freshChromium, launchWithExtension, settled, tabIdOf } from './capture.ts';
import { hostPage, panelFor } from './panel.ts';
import { FIREFOX_EXT } from './paths.ts';
import { twoOrigins, type Pages, type TwoOrigins } from './two-origins.ts';
import { Browsers } from '../transparency/harness.ts';
import { serveOrigins, type Origins } from '../transparency/server.ts';

export interface PanelSession {
  /** The sandbox host page. */
  host: Page;
  /** The panel page of the host page's tab. */
  page: Page;
  tabId: number;
  /** The panel page's uncaught errors. */
  errors: string[];
  /** The page's frames handed over, the background has it all and the panel holds what the background holds. */
  settled(): Promise<void>;
}

/** Launches what a test needs of its own; the fixture closes each when its scope ends. */
export interface Launcher {
  /** Chromium with the built extension (`capture`: as launchWithExtension's, null for the fresh profile's scope). */
  chromium(opts?: { capture?: CaptureSetting | null; args?: string[] }): Promise<Launched>;
  /** Chromium without any extension. */
  plainChromium(): Promise<Launched>;
  /** Firefox with the built extension, capturing nothing until the test sets the scope. */
  firefox(): Promise<LaunchedFirefox>;
  /** Another sandbox (host and tenant sites on free ports). */
  sandbox(): Promise<Sandbox>;
  /** The pages given, served on two origins (helpers/two-origins.ts). */
  pages(host: Pages, embed?: Pages): Promise<TwoOrigins>;
  /** Playwright's Chromium (the system one, with the project's flags), for what Playwright itself records. */
  playwrightChromium(): Promise<PlaywrightBrowser>;
}

function launcher(onCleanup: (fn: () => Promise<void>) => void): Launcher {
  const opened: Array<{ close(): Promise<unknown> }> = [];
  onCleanup(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
  });
  const keep = <T extends { close(): Promise<unknown> }>(o: T): T => {
    opened.push(o);
    return o;
  };
  return {
    chromium: async (opts = {}) => keep(await launchWithExtension(opts)),
    plainChromium: async () => keep(await launchChromium({})),
    firefox: async () => keep(await launchFirefox({ extensionDir: FIREFOX_EXT })),
    sandbox: async () => keep(await startSandbox({ hostPort: 0, tenantPort: 0, quiet: true })),
    pages: async (host, embed = {}) => keep(await twoOrigins(host, embed)),
    playwrightChromium: async () => {
      const { chromium } = await import('@playwright/test');
      return keep(await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS }));
    },
  };
}

export const test = base
  .extend('sandbox', { scope: 'file' }, async ({}, { onCleanup }): Promise<Sandbox> => {
    const sb = await startSandbox({ hostPort: 0, tenantPort: 0, quiet: true });
    onCleanup(() => sb.close());
    return sb;
  })
  .extend('sharedChromium', { scope: 'worker' }, async ({}, { onCleanup }): Promise<Launched> => {
    const launched = await launchWithExtension();
    onCleanup(() => launched.close());
    return launched;
  })
  .extend('chromium', { scope: 'file' }, async ({ sharedChromium }): Promise<Launched> => {
    await freshChromium(sharedChromium);
    return sharedChromium;
  })
  .extend('plainChromium', { scope: 'file' }, async ({}, { onCleanup }): Promise<Launched> => {
    const launched = await launchChromium({});
    onCleanup(() => launched.close());
    return launched;
  })
  .extend('firefox', { scope: 'file' }, async ({}, { onCleanup }): Promise<LaunchedFirefox> => {
    const launched = await launchFirefox({ extensionDir: FIREFOX_EXT });
    onCleanup(() => launched.close());
    return launched;
  })
  .extend('launch', async ({}, { onCleanup }): Promise<Launcher> => launcher(onCleanup))
  .extend('launchForFile', { scope: 'file' }, async ({}, { onCleanup }): Promise<Launcher> => launcher(onCleanup))
  .extend('transparencyServer', { scope: 'file' }, async ({}, { onCleanup }): Promise<Origins> => {
    const origins = await serveOrigins();
    onCleanup(() => origins.close());
    return origins;
  })
  .extend('transparencyBrowsers', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browsers> => {
    const browsers = new Browsers();
    onCleanup(() => browsers.close());
    return browsers;
  })
  .extend('transparencyFirefox', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browsers> => {
    const browsers = new Browsers('firefox');
    onCleanup(() => browsers.close());
    return browsers;
  })
  .extend('hostQuery', { scope: 'file' }, '')
  .extend('panel', { scope: 'file' }, async ({ chromium, sandbox, hostQuery }): Promise<PanelSession> => {
    const host = await hostPage(chromium, sandbox, hostQuery);
    if (new URLSearchParams(hostQuery).get('script') === 'full') {
      await host.waitForFunction(() => (window as any).__sandboxHost.scriptDone(), { timeout: 30_000 });
    }
    const errors: string[] = [];
    const page = await panelFor(chromium, host, errors);
    const tabId = await tabIdOf(chromium, host);
    return { host, page, tabId, errors, settled: () => settled(chromium, tabId, page) };
  });

export { describe, expect } from 'vitest';
export const it = test;
