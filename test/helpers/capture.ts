/** Reading the extension's capture from its service worker, for end-to-end tests. */
import type { Page } from 'puppeteer-core';
import { vi } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, type CaptureSetting, type Launched } from '../../src/node/chromium.ts';
import { DEFAULT_MAX_BYTES } from '../../src/protocol/encoding.ts';
import { DEFAULT_READY_TIMEOUT_MS } from '../../src/protocol/diagnose.ts';
import type { ClassifiedRecord, TabState } from '../../src/shared/messages.ts';
import { EXT } from './paths.ts';
import { inPanel, waitInPanel } from './panel-handle.ts';

export { EXT } from './paths.ts';

/**
 * Chromium with the built extension, capturing every site in full mode unless `capture` says otherwise (null: the
 * fresh profile's scope, nothing captured). Fails (never skips) when the build or the browser is missing.
 */
export async function launchWithExtension(
  opts: { headless?: boolean; capture?: CaptureSetting | null; args?: string[] } = {},
): Promise<Launched> {
  if (!existsSync(join(EXT, 'manifest.json'))) {
    throw new Error(`${EXT} holds no built extension: run npm run build first`);
  }
  const capture = opts.capture === undefined ? { sites: 'all' as const, mode: 'full' as const } : opts.capture;
  return launchChromium({ extensionDir: EXT, headless: opts.headless ?? true, capture, args: opts.args });
}

/**
 * The shared Chromium (vitest.config.ts's e2e-shared) as a fresh launch leaves it, before a file uses it: every page
 * closed but one blank tab, the capture scope back to every site in full mode, the message cap and the ready limit
 * back to their defaults, the panel's storage and the download behaviour cleared. A file's tests still share the
 * browser as they always did.
 */
export async function freshChromium(launched: Launched): Promise<void> {
  const [first, ...rest] = await launched.browser.pages();
  await Promise.all(rest.map((p) => p.close()));
  const page = first ?? (await launched.browser.newPage());
  const origin = `chrome-extension://${launched.extensionId}`;
  if (!launched.browser.targets().some((t) => t.type() === 'service_worker' && t.url().startsWith(`${origin}/`))) {
    // Stopped (idle for 30 s, or by the file before): a panel page's connection wakes it.
    await page.goto(`${origin}/src/panel/index.html?tabId=0`);
  }
  const w = await launched.worker();
  await w.evaluate(
    async (d: { maxBytes: number; readyMs: number }) => {
      const ei = (globalThis as any).embedInspector;
      await ei.setCapture({ sites: 'all', mode: 'full' });
      await ei.setMaxBytes(d.maxBytes);
      await ei.setReadyTimeout(d.readyMs);
    },
    { maxBytes: DEFAULT_MAX_BYTES, readyMs: DEFAULT_READY_TIMEOUT_MS },
  );
  await page.goto('about:blank');
  const cdp = await page.createCDPSession();
  try {
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage' });
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'default' });
  } finally {
    await cdp.detach();
  }
}

/** The extension's tab id of a page (the tab whose URL is the page's). */
export async function tabIdOf(launched: Launched, page: Page): Promise<number> {
  const url = page.url();
  // The newest tab showing the URL: a page just opened (a retried test's earlier page may still show it).
  const newest = async () =>
    (await launched.worker()).evaluate(
      async (u: string) =>
        (await chrome.tabs.query({}))
          .filter((t) => t.url === u && t.id !== undefined)
          .reduce<number | null>((found, t) => Math.max(found ?? -1, t.id!), null),
      url,
    );
  return vi.waitUntil(newest, { timeout: 15_000, interval: 100 }).then(
    (id) => id!,
    () => {
      throw new Error(`no tab for ${url}`);
    },
  );
}

/**
 * Every frame of the tab hands over what it holds and the background has it in the log (`embedInspector.settle`):
 * what the page did before the call is there to read. With a panel page: the panel holds what the background holds
 * too (the same records, up to the same last one).
 */
export async function settled(launched: Launched, tabId: number, panel?: Page): Promise<void> {
  const worker = await launched.worker();
  // A frame that stayed silent (busy handing over a flood) is asked again, as the test library does.
  for (const end = Date.now() + 60_000; Date.now() < end; ) {
    const r = await worker.evaluate((id: number) => (globalThis as any).embedInspector.settle(id), tabId);
    if (!r.silent) {
      break;
    }
  }
  if (!panel) {
    return;
  }
  const held = await worker.evaluate(async (id: number) => {
    const rs = await (globalThis as any).embedInspector.records(id);
    return {
      n: rs.length as number,
      first: (rs[0]?.seq ?? null) as number | null,
      last: (rs.at(-1)?.seq ?? null) as number | null,
    };
  }, tabId);
  // The panel may still hold older records the background has evicted (it trims in steps), and newer ones that
  // came after the background was asked (a delivery still on its way between two frames' processes when the frames
  // handed over): what counts is that it has the background's, up to the same last one.
  await waitInPanel(
    panel,
    (h, { n, first, last }) => {
      if (last === null) {
        return true;
      }
      const rs = h.records().filter((r) => r.seq <= last);
      return rs.at(-1)?.seq === last && (first === null || rs.filter((r) => r.seq >= first).length === n);
    },
    { timeout: 15_000, polling: 50 },
    held,
  ).catch(async (e) => {
    const has = await inPanel(panel, (h) => h.counts().records);
    throw new Error(`the panel did not catch up with the background (${has} records, ${held.n} there): ${e}`);
  });
}

/**
 * Stop the extension's service worker (as Chrome does when it is idle: its ports close) and wait until a new one
 * runs, woken by what reconnects to it (a relay with something to send, a panel). The old worker is marked, so a
 * worker without the mark is a new one. `then` runs once the old worker is stopped (what the page does next, which
 * must wake the new one: a worker with nothing to do is not woken).
 */
export async function restartWorker(
  launched: Launched,
  timeoutMs = 15_000,
  then: () => Promise<unknown> = async () => {},
): Promise<void> {
  const old = await launched.worker();
  await old.evaluate(() => {
    (globalThis as any).__marker = 'old worker';
  });
  await old.close();
  await then();
  await vi.waitUntil(
    async () =>
      (await (await launched.worker()).evaluate(() => (globalThis as any).__marker).catch(() => 'gone')) === undefined,
    { timeout: timeoutMs, interval: 100 },
  );
}

/**
 * Close the extension's service worker's target (the worker ends, every port to it closes) through the browser's own
 * DevTools session, asking nothing of the worker after: no probe of ours says run to the next start. Returns at once.
 */
export async function closeWorkerUnasked(launched: Launched): Promise<void> {
  const cdp = await launched.browser.target().createCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const sw = targetInfos.find(
      (t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${launched.extensionId}/`),
    );
    if (!sw) {
      throw new Error('no service worker of the extension runs');
    }
    await cdp.send('Target.closeTarget', { targetId: sw.targetId });
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/**
 * Stop the extension's service worker as Chrome stops an idle one (the ServiceWorker domain's stopWorker, the stop its
 * idle timeout makes: the worker ends, every port to it closes) and return once it is stopped, waking nothing and
 * waiting for no new worker. A test cannot just stay quiet for Chrome's 30 s: Chrome never stops a worker that a
 * debugger is attached to, and `launched.worker()` attaches one. That debugger stays attached across the stop, so
 * Chrome would hold the next start until it says run: the next start is let run at once, as for a user, whose worker
 * has no debugger. The old worker is marked (`__marker`), so a worker without the mark is a new one.
 */
export async function stopWorkerAsIdle(launched: Launched, page: Page): Promise<void> {
  await (await launched.worker()).evaluate(() => {
    (globalThis as any).__marker = 'old worker';
  });
  const script = `chrome-extension://${launched.extensionId}/`;
  const cdp = await page.createCDPSession();
  const running = new Set<string>();
  const stopped = new Set<string>();
  let released = false;
  /** Says run to the worker's targets until its version runs (its target may be new: it is looked up each time). */
  const release = async (versionId: string) => {
    released = true;
    for (let i = 0; i < 100 && !running.has(versionId); i++) {
      for (const t of launched.browser.targets()) {
        if (t.type() === 'service_worker' && t.url().startsWith(script)) {
          const s = await t.createCDPSession().catch(() => null);
          await s?.send('Runtime.runIfWaitingForDebugger').catch(() => {});
          await s?.detach().catch(() => {});
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await cdp.detach().catch(() => {});
  };
  // (each state is seen as it happens: with a panel open, a new start of the same version follows the stop at once)
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions.filter((x) => x.scriptURL.startsWith(script))) {
      if (stopped.has(v.versionId) && !released && (v.runningStatus === 'starting' || v.runningStatus === 'running')) {
        void release(v.versionId); // the start after the stop: let it run
      }
      if (v.runningStatus === 'running') {
        running.add(v.versionId);
      } else if (v.runningStatus === 'stopped') {
        stopped.add(v.versionId);
        running.delete(v.versionId);
      }
    }
  });
  await cdp.send('ServiceWorker.enable');
  const versionId = await vi.waitUntil(() => [...running][0], { timeout: 5_000, interval: 50 });
  stopped.clear();
  await cdp.send('ServiceWorker.stopWorker', { versionId });
  await vi.waitUntil(() => stopped.has(versionId), { timeout: 5_000, interval: 50 });
}

export async function records(launched: Launched, tabId: number): Promise<ClassifiedRecord[]> {
  return (await launched.worker()).evaluate((id: number) => (globalThis as any).embedInspector.records(id), tabId);
}
export async function state(launched: Launched, tabId: number): Promise<TabState> {
  return (await launched.worker()).evaluate((id: number) => (globalThis as any).embedInspector.state(id), tabId);
}

/** Wait until the tab holds at least `n` records (cheap: only the count crosses the DevTools protocol). */
export async function waitForCount(launched: Launched, tabId: number, n: number, timeoutMs = 30_000): Promise<number> {
  let c = 0;
  const count = async () => {
    c = await (await launched.worker()).evaluate((id: number) => (globalThis as any).embedInspector.count(id), tabId);
    return c >= n && c;
  };
  return vi.waitUntil(count, { timeout: timeoutMs, interval: 50 }).catch(() => {
    throw new Error(`timed out waiting for ${n} records; ${c} there`);
  });
}

/** Wait until `pred(records)` holds (or time out with a description of what was there). */
export async function waitForRecords(
  launched: Launched,
  tabId: number,
  pred: (r: ClassifiedRecord[]) => boolean,
  timeoutMs = 15_000,
): Promise<ClassifiedRecord[]> {
  let last: ClassifiedRecord[] = [];
  const holds = async () => {
    last = await records(launched, tabId);
    return pred(last) && last;
  };
  return vi.waitUntil(holds, { timeout: timeoutMs, interval: 100 }).catch(() => {
    throw new Error(
      `timed out waiting for records; ${last.length} there: ${last
        .slice(-5)
        .map((r) => `${r.kind} ${typeOf(r)}`)
        .join(', ')}`,
    );
  });
}

export function typeOf(r: { data: unknown }): string | undefined {
  const d = r.data as { type?: unknown } | null;
  return d && typeof d === 'object' && typeof d.type === 'string' ? d.type : undefined;
}
export const messagesOnly = (rs: ClassifiedRecord[]) => rs.filter((r) => !r.navigation);

/**
 * Firefox: the records of the tab showing `hostOrigin`, once every frame of it handed over (the background page's
 * automation API, read from an extension page).
 */
export function firefoxRecords(ext: Page, hostOrigin: string): Promise<ClassifiedRecord[]> {
  return ext.evaluate(async (host: string) => {
    const bg = await (globalThis as any).browser.runtime.getBackgroundPage();
    const tabs = (await (globalThis as any).browser.tabs.query({})) as Array<{ id: number; url?: string }>;
    const id = tabs.find((t) => t.url?.startsWith(host))!.id;
    await bg.embedInspector.settle(id);
    return JSON.parse(JSON.stringify(await bg.embedInspector.records(id)));
  }, hostOrigin) as Promise<ClassifiedRecord[]>;
}
