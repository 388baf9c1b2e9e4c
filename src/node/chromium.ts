/**
 * Launching the system Chromium with the built extension (used by `embed-inspector record`, `npm start`,
 * the end-to-end tests and the benchmarks). Node only.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Target, type WebWorker } from 'puppeteer-core';
import { CHROMIUM_FLAGS, chromiumPath } from './browser-paths.ts';

export { CHROMIUM_FLAGS, chromiumPath, extensionPath } from './browser-paths.ts';

export interface LaunchOptions {
  /** Path of an unpacked extension to load (e.g. dist/chrome); none when omitted. */
  extensionDir?: string;
  headless?: boolean;
  devtools?: boolean;
  args?: string[];
  /** Open this URL in an app window (no tabs, no address bar) instead of a blank page. */
  app?: string;
  /** Accept any TLS certificate (a staging host's self-signed one). */
  ignoreHttpsErrors?: boolean;
  /**
   * Whether Ctrl+C (SIGINT), SIGTERM and SIGHUP of this process close the browser (puppeteer's default, and SIGINT
   * then exits 130); false: the caller handles them.
   */
  handleSignals?: boolean;
  /**
   * The capture scope to set once the extension's worker is up (`embedInspector.setCapture`): e.g.
   * `{ sites: 'all', mode: 'full' }`. Omitted or null: the fresh profile's scope, which captures nothing.
   */
  capture?: CaptureSetting | null;
}
/** The argument of `embedInspector.setCapture` (see docs/automation-api.md). */
export interface CaptureSetting {
  sites: 'all' | string[];
  mode?: 'full' | 'receive-only';
  modes?: Record<string, 'full' | 'receive-only'>;
}
export interface Launched {
  browser: Browser;
  /** Set when an extension was loaded. */
  extensionId?: string;
  /** The extension's service worker (re-fetch after it was stopped). */
  worker(): Promise<WebWorker>;
  close(): Promise<void>;
}

/** Set the capture scope through the worker's automation API; resolves once the capture scripts are registered. */
export async function setCapture(worker: WebWorker, setting: CaptureSetting): Promise<CaptureSetting> {
  return worker.evaluate(
    (c) =>
      (
        globalThis as unknown as { embedInspector: { setCapture(c: unknown): Promise<CaptureSetting> } }
      ).embedInspector.setCapture(c),
    setting,
  );
}

/**
 * The extension's service worker, alive: after it was stopped the old target can linger detached for a moment, and
 * the new one appears when something (a content script reconnecting, a panel) wakes it.
 */
export async function extensionWorker(browser: Browser, timeoutMs = 15_000): Promise<WebWorker> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const targets = browser
      .targets()
      .filter((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'));
    const target =
      targets.at(-1) ??
      (await browser
        .waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'), {
          timeout: Math.max(1, deadline - Date.now()),
        })
        .catch(() => null));
    const w = target ? await target.worker().catch(() => null) : null;
    if (w) {
      try {
        await w.evaluate(() => true);
        return w;
      } catch (err) {
        lastError = err;
      }
    }
    const own = target ? await workerOverSession(target) : null;
    if (own) {
      return own;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`extension service worker not reachable${lastError ? `: ${(lastError as Error).message}` : ''}`);
}

const ownSessions = new WeakMap<Target, WebWorker>();

/**
 * The worker of `target` through a CDP session of its own, or null when it does not answer. Puppeteer's handle of
 * a worker target takes the target's first execution context only: a worker stopped and woken again at once (a
 * relay reconnecting within milliseconds) keeps its target, and that handle then fails on every call ("detached
 * ... worker") while the new worker runs. This handle evaluates in whatever context the target has now, once the
 * worker's script has run; `evaluate` takes a function and JSON arguments and returns the result by value, as
 * puppeteer's does.
 */
async function workerOverSession(target: Target): Promise<WebWorker | null> {
  let w = ownSessions.get(target);
  if (!w) {
    const session = await target.createCDPSession().catch(() => null);
    if (!session) {
      return null;
    }
    // A worker started under the browser's auto-attach waits for a debugger before its script runs.
    await session.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
    const evaluate = async (fn: string | ((...args: never[]) => unknown), ...args: unknown[]) => {
      const expression = typeof fn === 'string' ? fn : `(${fn.toString()})(...${JSON.stringify(args)})`;
      const r = await session.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
      if (r.exceptionDetails) {
        throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
      }
      return r.result.value;
    };
    const close = async () => {
      const { targetInfo } = await session.send('Target.getTargetInfo');
      await session.connection()?.send('Target.closeTarget', { targetId: targetInfo.targetId });
    };
    w = { evaluate, close, url: () => target.url() } as unknown as WebWorker;
    ownSessions.set(target, w);
  }
  try {
    // Up once its script has run (background/service-worker.ts installs the automation API last).
    if (!(await w.evaluate(() => 'embedInspector' in globalThis))) {
      return null;
    }
    return w;
  } catch {
    ownSessions.delete(target);
    return null;
  }
}

export async function launchChromium(opts: LaunchOptions = {}): Promise<Launched> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'ei-chromium-'));
  const ext = opts.extensionDir ? resolve(opts.extensionDir) : undefined;
  if (ext && !existsSync(join(ext, 'manifest.json'))) {
    throw new Error(`no built extension at ${ext} (run npm run build)`);
  }
  const ignored = [...(ext ? ['--disable-extensions'] : []), ...(opts.app ? ['about:blank'] : [])];
  const signals = opts.handleSignals ?? true;
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      headless: opts.headless ?? true,
      userDataDir,
      devtools: opts.devtools,
      acceptInsecureCerts: opts.ignoreHttpsErrors,
      handleSIGINT: signals,
      handleSIGTERM: signals,
      handleSIGHUP: signals,
      ignoreDefaultArgs: ignored.length ? ignored : undefined,
      args: [
        ...CHROMIUM_FLAGS,
        ...(opts.ignoreHttpsErrors ? ['--ignore-certificate-errors'] : []),
        ...(ext ? [`--disable-extensions-except=${ext}`, `--load-extension=${ext}`] : []),
        ...(opts.app ? [`--app=${opts.app}`] : []),
        ...(opts.args ?? []),
      ],
    });
  } catch (e) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
  let extensionId: string | undefined;
  const worker = () => extensionWorker(browser);
  if (ext) {
    const w = await worker();
    extensionId = new URL(w.url()).host;
    if (opts.capture) {
      try {
        await setCapture(w, opts.capture);
      } catch (e) {
        await browser.close().catch(() => {});
        rmSync(userDataDir, { recursive: true, force: true });
        throw e;
      }
    }
  }
  return {
    browser,
    extensionId,
    worker,
    async close() {
      await browser.close().catch(() => {});
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
export { selectEmbedPanel } from './devtools-panel.ts';
