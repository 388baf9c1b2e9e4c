/**
 * Launching the system Chromium with the built extension (used by `embed-inspector record`, `npm start`,
 * the end-to-end tests and the benchmarks). Node only.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type CDPSession, type Target, type WebWorker } from 'puppeteer-core';
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
 * the new one appears when something (a content script reconnecting, a panel) wakes it. Each handle is probed for at
 * most PROBE_MS (a handle of a worker that went away may never answer), newest target first: puppeteer's handle
 * while its worker is the one it was made for, else a session of our own (workerOverSession). Rejects after
 * `timeoutMs` saying what was seen.
 */
export async function extensionWorker(browser: Browser, timeoutMs = 15_000): Promise<WebWorker> {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  let seen = 'no service worker of the extension runs (nothing woke it?)';
  do {
    const targets = browser.targets().filter(isExtensionWorker);
    if (targets.length === 0) {
      await browser.waitForTarget(isExtensionWorker, { timeout: left() }).catch(() => null);
      continue;
    }
    for (const target of targets.reverse()) {
      const theirs = await puppeteerWorker(target, Math.min(PROBE_MS, left()));
      if (theirs.worker) {
        return theirs.worker;
      }
      if (theirs.starting) {
        seen = `${target.url()}: ${theirs.why}`;
        continue; // (it answers: its script is still running)
      }
      const own = await workerOverSession(target, Math.min(PROBE_MS, left()));
      if (own.worker) {
        if (theirs.unanswered) {
          stale.add(theirs.unanswered); // the worker answers, puppeteer's handle of it does not
        }
        return own.worker;
      }
      seen = `${target.url()}: ${theirs.why}; ${own.why}`;
    }
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < deadline);
  throw new Error(`extension service worker not reachable in ${timeoutMs} ms: ${seen}`);
}

/** How long one probe of a worker handle may take before the next way or target is tried. */
const PROBE_MS = 2_000;

const isExtensionWorker = (t: Target) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://');
/** (in the worker) Up once its script has run: background/service-worker.ts installs the automation API last. */
const isUp = () => 'embedInspector' in globalThis;

/** What a probe found: the handle, or why not (and puppeteer's handle when it did not answer in time). */
interface Probe {
  worker?: WebWorker;
  /** It answered, but the worker's script has not run to its end yet. */
  starting?: boolean;
  unanswered?: WebWorker;
  why: string;
}
const STARTING: Probe = { starting: true, why: 'its script has not run yet' };

/** A call that got no answer in time (the handle's worker stopped, or is held). */
class NoAnswer extends Error {}

/** `p`, or a NoAnswer once `ms` passed without an answer. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(`${what} did not answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Puppeteer's handles that will never answer again: their worker stopped and a new one runs under the target. */
const stale = new WeakSet<WebWorker>();
const watched = new WeakSet<WebWorker>();

/**
 * Puppeteer's handle of `target`'s worker, when it answers. Puppeteer keeps one handle per target and that handle
 * takes the target's first execution context only: once the worker stopped and started again under the same target
 * (its session sees the contexts cleared), each call waits puppeteer's 30 s for a context that never comes.
 */
async function puppeteerWorker(target: Target, ms: number): Promise<Probe> {
  let w: WebWorker | null;
  try {
    w = await within(target.worker(), ms, "puppeteer's worker handle");
  } catch (e) {
    return { why: (e as Error).message };
  }
  if (!w) {
    return { why: 'not a worker target' };
  }
  if (!watched.has(w)) {
    watched.add(w);
    const restarted = () => stale.add(w);
    w.client.once('Runtime.executionContextsCleared', restarted);
    w.client.once('Inspector.targetReloadedAfterCrash', restarted);
  }
  if (stale.has(w)) {
    return { why: "puppeteer's handle is of a worker that stopped" };
  }
  // A worker started under the browser's auto-attach waits for a debugger before its script runs.
  void w.client.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
  try {
    const up = await within(w.evaluate(isUp), ms, "puppeteer's worker handle");
    return up ? { worker: w, why: '' } : STARTING;
  } catch (e) {
    return { unanswered: e instanceof NoAnswer ? w : undefined, why: (e as Error).message };
  }
}

const ownSessions = new WeakMap<Target, WebWorker>();

/**
 * The worker of `target` through a CDP session of its own, when it answers within `ms`. Puppeteer's handle of a
 * worker target is good for the target's first worker only (puppeteerWorker); a worker stopped and woken again keeps
 * its target. This handle evaluates in whatever context the target has now, once the worker's script has run;
 * `evaluate` takes a function and JSON arguments and returns the result by value, as puppeteer's does.
 */
async function workerOverSession(target: Target, ms: number): Promise<Probe> {
  let w = ownSessions.get(target);
  if (!w) {
    const pending = target.createCDPSession();
    try {
      w = ownHandle(target, await within(pending, ms, 'a session of its own'));
    } catch (e) {
      void pending.then((s) => s.detach()).catch(() => undefined); // (one that came late)
      return { why: (e as Error).message };
    }
    ownSessions.set(target, w);
  }
  // (sent again at each probe: a worker woken again under this session waits for it too)
  void w.client.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
  try {
    const up = await within(w.evaluate(isUp), ms, 'a session of its own');
    return up ? { worker: w, why: '' } : STARTING;
  } catch (e) {
    if (e instanceof NoAnswer) {
      return { why: `${e.message} (the worker stopped, and nothing woke it?)` };
    }
    ownSessions.delete(target); // the session is gone (the target closed)
    return { why: (e as Error).message };
  }
}

/** A WebWorker-like handle over `session` (evaluate, close, url, client). */
function ownHandle(target: Target, session: CDPSession): WebWorker {
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
  return { evaluate, close, url: () => target.url(), client: session } as unknown as WebWorker;
}

/**
 * A worker of the extension that starts again under a DevTools session (puppeteer's handle of it, a probe's session:
 * they stay attached) waits for a debugger to say run before its script runs, and nothing would say it: its events
 * (a panel's port, a capture's) wait until some later probe, or for ever (a panel said "connecting" for 15 s). One
 * session of ours on each of the extension's worker targets says run at each start (each new execution context), so
 * every start runs at once, as for a user, whose worker has no debugger.
 */
async function keepWorkerStarts(browser: Browser): Promise<void> {
  const kept = new WeakSet<Target>();
  const keep = async (target: Target) => {
    if (!isExtensionWorker(target) || kept.has(target)) {
      return;
    }
    kept.add(target);
    let session: CDPSession | undefined;
    try {
      session = await within(target.createCDPSession(), PROBE_MS, 'a session to keep its starts');
      const s = session;
      const run = () => void s.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
      s.on('Runtime.executionContextCreated', run);
      run(); // (a start held now)
      await within(s.send('Runtime.enable'), PROBE_MS, 'a session to keep its starts');
    } catch {
      kept.delete(target); // (gone already, or not answering: the probes still say run)
      void session?.detach().catch(() => undefined);
    }
  };
  browser.on('targetcreated', (t: Target) => void keep(t));
  await Promise.all(browser.targets().map(keep));
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
    await keepWorkerStarts(browser);
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
