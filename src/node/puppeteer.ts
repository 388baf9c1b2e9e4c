/**
 * `embed-inspector/puppeteer`: the `embed` handle (embed.ts) for puppeteer scripts.
 *
 *   const { browser, embed } = await launchWithInspector({ capture: { sites: 'all', mode: 'full' } });
 *   const page = await browser.newPage();
 *   await page.goto(url);
 *   await embed.waitFor('svc:event:ready');
 *
 * or, with a browser launched by the team itself with `--load-extension=${extensionPath()}`:
 * `const { embed, embedOf } = await attachInspector(browser, { capture })`.
 *
 * `embed` follows the newest tab of the browser (a script's one page); `embedOf(page)` is pinned to one page's tab.
 * No matchers: plain methods that return or throw.
 */
import type { Browser, Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS, chromiumPath, extensionPath, extensionWorker, launchChromium } from './chromium.ts';
import { Embed, newestTab, setScope, tabOfUrl, type EmbedOptions, type Evaluate } from './embed.ts';

export { Embed, EmbedTimeoutError, describeIssues, describeRecords } from './embed.ts';
export type { EmbedOptions, FoundIssue, IssueQuery, Outgoing, RecordQuery, WaitOptions } from './embed.ts';
export { CHROMIUM_FLAGS, chromiumPath, extensionPath };

export interface Inspector {
  /** The captured traffic of the browser's newest tab, resolved at each call. */
  embed: Embed;
  /** The captured traffic of one page's tab. */
  embedOf(page: Page): Embed;
  /** Change the capture scope (applies to pages loaded afterwards). */
  setCapture(capture: Pick<EmbedOptions, 'sites' | 'mode'>): Promise<void>;
}

/** Evaluate in the extension's service worker, re-found when the MV3 worker was stopped and started again. */
function evaluator(browser: Browser): Evaluate {
  return async (fn, arg) => {
    for (let attempt = 0; ; attempt++) {
      const worker = await extensionWorker(browser);
      try {
        return (await worker.evaluate(fn as (a: unknown) => unknown, arg as unknown)) as never;
      } catch (e) {
        const m = String((e as Error)?.message ?? e);
        if (attempt < 2 && /closed|detached|destroyed|Target/i.test(m)) {
          continue;
        }
        throw e;
      }
    }
  };
}

/** A page's tab id: the newest tab showing its URL (a page still on about:blank: the newest tab). */
async function tabOfPage(evaluate: Evaluate, page: Page): Promise<number> {
  const url = page.url();
  const id = url && url !== 'about:blank' ? await tabOfUrl(evaluate, url) : await newestTab(evaluate);
  if (id === null) {
    throw new Error(`embed-inspector: no tab shows ${url || 'the page'}`);
  }
  return id;
}

/** The inspector of a browser that has the extension loaded (`--load-extension=${extensionPath()}`). */
export async function attachInspector(
  browser: Browser,
  opts: { capture?: Pick<EmbedOptions, 'sites' | 'mode'> } = {},
): Promise<Inspector> {
  const evaluate = evaluator(browser);
  await extensionWorker(browser).catch((e) => {
    throw new Error(
      `embed-inspector: the extension is not loaded in this browser (launch it with --load-extension=${extensionPath()}): ${(e as Error).message}`,
    );
  });
  if (opts.capture) {
    await setScope(evaluate, opts.capture);
  }
  const pinned = new WeakMap<Page, Embed>();
  return {
    embed: new Embed({
      evaluate,
      tabId: async () => {
        const id = await newestTab(evaluate);
        if (id === null) {
          throw new Error('embed-inspector: the browser has no tab');
        }
        return id;
      },
    }),
    embedOf(page) {
      let e = pinned.get(page);
      if (!e) {
        let id: Promise<number> | null = null;
        e = new Embed({
          evaluate,
          tabId: () => {
            id ??= tabOfPage(evaluate, page).catch((err) => {
              id = null;
              throw err;
            });
            return id;
          },
        });
        pinned.set(page, e);
      }
      return e;
    },
    setCapture: (capture) => setScope(evaluate, capture),
  };
}

export interface LaunchWithInspectorOptions {
  /** The capture scope; default every site, full mode. */
  capture?: Pick<EmbedOptions, 'sites' | 'mode'>;
  /** Default true. */
  headless?: boolean;
  /** More Chromium flags. */
  args?: string[];
  /** Accept any TLS certificate (a staging host's self-signed one); default false. */
  ignoreHttpsErrors?: boolean;
}

/**
 * Launch the system Chromium (CHROMIUM_PATH, or the usual paths) with the extension this package carries, in a
 * throwaway profile, the capture scope set before any page opens. `close()` also removes the profile.
 */
export async function launchWithInspector(
  opts: LaunchWithInspectorOptions = {},
): Promise<Inspector & { browser: Browser; close(): Promise<void> }> {
  const launched = await launchChromium({
    extensionDir: extensionPath(),
    headless: opts.headless ?? true,
    args: opts.args,
    ignoreHttpsErrors: opts.ignoreHttpsErrors,
    capture: { sites: opts.capture?.sites ?? 'all', mode: opts.capture?.mode ?? 'full' },
  });
  try {
    const inspector = await attachInspector(launched.browser);
    return { ...inspector, browser: launched.browser, close: () => launched.close() };
  } catch (e) {
    await launched.close();
    throw e;
  }
}
