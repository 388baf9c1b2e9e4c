/**
 * `embed-inspector/playwright`: Playwright Test with the Embed Inspector extension loaded.
 *
 *   import { test, expect } from 'embed-inspector/playwright';
 *
 *   test('the embed loads', async ({ page, embed }) => {
 *     await page.goto('/');
 *     await embed.waitFor('svc:event:dashboard-loaded');
 *     await expect(embed).toHaveSeenInOrder(['svc:event:ready', 'svc:event:view', 'svc:event:dashboard-loaded']);
 *     await expect(embed).toHaveNoProtocolErrors();
 *   });
 *
 * Each worker launches the system Chromium (`chromiumPath()`: CHROMIUM_PATH or the usual paths; Playwright's own
 * browsers are never used) in a persistent context of its own, a throwaway profile with the extension this package
 * carries (`extensionPath()`: EMBED_INSPECTOR_EXTENSION or dist/chrome). Each test gets a new page, so a new tab
 * and an empty log, with the capture scope of its `embedInspector` option set before the page opens; its pages are
 * closed at its end. A failed test gets the capture (`embed-capture.json`, redacted) and the timeline
 * (`embed-timeline.txt`) attached to its report (every test with `attachCapture: 'on'`), read in the teardown's own
 * time; what a busy machine left unread is said at the top of the timeline. Every test gets its coverage summary
 * (`embed-coverage.json`, coverage-attachment.ts) for `embed-inspector/playwright/reporter`.
 *
 * Each `embed` call is a step of the test (`embed.waitFor('svc:event:ready')`), and the embed's waits, reads and
 * matchers end a little before the test's timeout (marginOf) with their own error: a test that ran out of time
 * says which of them was waiting, and what it had seen.
 *
 * The context options of the persistent context (baseURL, viewport, locale…) are read from the project's `use` when
 * the worker starts: `test.use()` of those options in a file does not change it.
 */
import {
  test as base,
  expect as baseExpect,
  type BrowserContext,
  type CDPSession,
  type Expect,
  type ExpectMatcherState,
  type MatcherReturnType,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestInfo,
  type TestType,
  type Worker,
} from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, chromiumPath, extensionPath } from './browser-paths.ts';
import {
  Embed,
  EmbedTimeoutError,
  describeIssues,
  describeRecords,
  evidence,
  issuesOf,
  newestTab,
  readerOf,
  settledRead,
  setScope,
  type EmbedOptions,
  type Evaluate,
} from './embed.ts';
import { LISTED_RECORDS } from './describe.ts';
import { settleNote, type Settled } from './log-reader.ts';
import { inert } from '../protocol/inert.ts';
import type { ClassifiedRecord } from '../shared/messages.ts';
import { attachCoverage } from './coverage-attachment.ts';

export { Embed, EmbedTimeoutError, describeIssues, describeRecords } from './embed.ts';
export type { EmbedOptions, FoundIssue, IssueQuery, Outgoing, RecordQuery, WaitOptions } from './embed.ts';

/** The browser of one Playwright worker: its persistent context and the extension's service worker. */
export interface EmbedInspectorBrowser {
  context: BrowserContext;
  extensionId: string;
  /** Evaluate in the extension's service worker (started again when the MV3 worker was stopped). */
  evaluate: Evaluate;
}

interface WorkerState extends EmbedInspectorBrowser {
  /** The tab id of a page just opened: the newest tab no earlier page of this worker took. */
  takeTab(): Promise<number>;
  /** Before a test's page opens: the worker's own page (again, if a test closed it), the capture scope. */
  prepare(opts: EmbedOptions): Promise<void>;
  /** Close every page but the worker's own (a test's pages, at its end). */
  closePages(): Promise<void>;
}

/** The fixture's option: the capture scope, a tenant origin set by hand, and which tests carry their capture. */
export interface EmbedInspectorOptions extends EmbedOptions {
  /** `only-on-failure` (the default): a failed test carries its capture and timeline; `on`: every test does. */
  attachCapture?: 'only-on-failure' | 'on';
}

export interface EmbedInspectorTestFixtures {
  /** The capture scope (default every site, full mode) and a tenant origin set by hand (default: inferred). */
  embedInspector: EmbedInspectorOptions;
  /** The captured traffic of the test's page. */
  embed: Embed;
  _embedInspectorTab: { page: Page; embed: Embed };
}
export interface EmbedInspectorWorkerFixtures {
  _embedInspectorBrowser: EmbedInspectorBrowser;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const messageOf = (e: unknown) => String((e as Error)?.message ?? e);
/** An error of a worker target that went away, not one thrown by the evaluated function (which must not run twice). */
const gone = (e: unknown) =>
  (e as Error)?.name === 'TargetClosedError' ||
  /^[\w.]+: (Target page, context or browser has been closed|Target closed|Execution context was destroyed)/.test(
    messageOf(e),
  );

/** Resolves with `p`, or rejects after `ms` (a teardown must not hang on a stuck browser). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Evaluation in the extension's service worker. Playwright keeps one `Worker` per worker version across an MV3
 * stop and start, and an evaluation sent while the worker is stopped waits until it runs again, which nothing but
 * page traffic would cause: so the ServiceWorker domain (a CDP session on the worker's own page) tells when it
 * stopped, and `startWorker` brings it back while an evaluation waits. A worker that went away (a new version)
 * is replaced by the newest one.
 */
async function connect(
  context: BrowserContext,
  own: Page,
): Promise<EmbedInspectorBrowser & { watchFrom(page: Page): Promise<void> }> {
  const closed = new WeakSet<Worker>();
  let contextClosed = false;
  context.once('close', () => {
    contextClosed = true;
  });
  const watch = (w: Worker) => w.once('close', () => closed.add(w));
  context.on('serviceworker', watch);
  context.serviceWorkers().forEach(watch);
  const live = () =>
    context.serviceWorkers().filter((w) => w.url().startsWith('chrome-extension://') && !closed.has(w));

  // The extension's worker: the one that has the automation API (a browser may have component extensions).
  const deadline = Date.now() + 20_000;
  let worker: Worker | undefined;
  while (!worker) {
    for (const w of live().reverse()) {
      if (await w.evaluate(() => typeof (globalThis as { embedInspector?: unknown }).embedInspector === 'object')) {
        worker = w;
        break;
      }
    }
    if (!worker) {
      if (Date.now() > deadline) {
        throw new Error(
          'embed-inspector: the extension did not start in Chromium (no service worker with the automation API within 20 s)',
        );
      }
      await context.waitForEvent('serviceworker', { timeout: 1_000 }).catch(() => null);
    }
  }
  const extensionId = new URL(worker.url()).host;
  const prefix = `chrome-extension://${extensionId}/`;
  const ours = () => live().filter((w) => w.url().startsWith(prefix));

  let cdp: CDPSession | null = null;
  let stopped = false;
  let pending = 0;
  let waking: Promise<unknown> | null = null;
  const wake = () => {
    waking ??= (cdp?.send('ServiceWorker.startWorker', { scopeURL: prefix }) ?? Promise.resolve())
      .catch(() => {})
      .finally(() => {
        waking = null;
      });
    return waking;
  };
  /** Watch the worker's running status from `page` (the worker's own page; again when a test closed it). */
  const watchFrom = async (page: Page) => {
    const session = await context.newCDPSession(page);
    session.on('ServiceWorker.workerVersionUpdated', (e) => {
      for (const v of e.versions) {
        if (v.scriptURL.startsWith(prefix)) {
          stopped = v.runningStatus === 'stopped' || v.runningStatus === 'stopping';
          if (v.runningStatus === 'stopped' && pending > 0) {
            void wake();
          }
        }
      }
    });
    await session.send('ServiceWorker.enable');
    cdp = session;
  };
  await watchFrom(own);

  const current = async (until: number): Promise<Worker> => {
    for (;;) {
      const w = ours().at(-1);
      if (w) {
        return w;
      }
      if (Date.now() > until) {
        throw new Error('embed-inspector: the extension service worker is gone and did not start again');
      }
      void wake();
      await context
        .waitForEvent('serviceworker', {
          predicate: (x) => x.url().startsWith(prefix),
          timeout: Math.max(1, Math.min(2_000, until - Date.now())),
        })
        .catch(() => null);
    }
  };

  const evaluate: Evaluate = async <A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> => {
    const until = Date.now() + 30_000;
    for (;;) {
      const w = await current(until);
      pending++;
      if (stopped) {
        void wake();
      }
      try {
        return (await w.evaluate(fn as (a: unknown) => unknown, arg as unknown)) as R;
      } catch (e) {
        if (!gone(e) || contextClosed || Date.now() > until) {
          throw e;
        }
        closed.add(w);
        await pause(100);
      } finally {
        pending--;
      }
    }
  };
  return { context, extensionId, evaluate, watchFrom };
}

/** Context options of the project (`use`) that a persistent context takes at launch. */
const CONTEXT_OPTIONS = [
  'acceptDownloads',
  'bypassCSP',
  'colorScheme',
  'deviceScaleFactor',
  'extraHTTPHeaders',
  'geolocation',
  'hasTouch',
  'httpCredentials',
  'ignoreHTTPSErrors',
  'isMobile',
  'javaScriptEnabled',
  'locale',
  'offline',
  'permissions',
  'proxy',
  'reducedMotion',
  'screen',
  'timezoneId',
  'userAgent',
  'viewport',
] as const;

async function launchWorkerBrowser(
  playwright: PlaywrightWorkerArgs['playwright'],
  headless: boolean,
  launchOptions: Record<string, unknown>,
  projectUse: Record<string, unknown>,
): Promise<{ state: WorkerState; close(): Promise<void> }> {
  const ext = extensionPath();
  if (!existsSync(join(ext, 'manifest.json'))) {
    throw new Error(
      `embed-inspector: no built extension at ${ext} (run npm run build, or set EMBED_INSPECTOR_EXTENSION)`,
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'ei-playwright-'));
  const removeDir = () => rm(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  const contextOptions: Record<string, unknown> = {};
  for (const k of CONTEXT_OPTIONS) {
    if (projectUse[k] !== undefined) {
      contextOptions[k] = projectUse[k];
    }
  }
  const baseURL = (projectUse.baseURL as string | undefined) ?? process.env.PLAYWRIGHT_TEST_BASE_URL;
  if (baseURL) {
    contextOptions.baseURL = baseURL;
  }
  const extraIgnored = launchOptions.ignoreDefaultArgs;
  let context: BrowserContext;
  try {
    context = await playwright.chromium.launchPersistentContext(userDataDir, {
      ...contextOptions,
      ...launchOptions,
      executablePath: (launchOptions.executablePath as string | undefined) ?? chromiumPath(),
      headless,
      ignoreDefaultArgs:
        extraIgnored === true
          ? true
          : ['--disable-extensions', ...(Array.isArray(extraIgnored) ? (extraIgnored as string[]) : [])],
      args: [
        ...CHROMIUM_FLAGS,
        `--disable-extensions-except=${ext}`,
        `--load-extension=${ext}`,
        ...((launchOptions.args as string[] | undefined) ?? []),
      ],
    });
  } catch (e) {
    await removeDir();
    throw e;
  }
  const close = async () => {
    await within(context.close(), 30_000, 'closing Chromium').catch(() => {});
    await removeDir().catch(() => {});
  };
  try {
    // A persistent context opens with one page: the worker keeps it (the CDP session that restarts the extension's
    // worker lives on it); tests get pages of their own.
    let own = context.pages()[0] ?? (await context.newPage());
    const conn = await connect(context, own);
    const taken: number[] = [];
    const takeTab = async () => {
      const last = taken.length ? Math.max(...taken) : -1;
      for (let i = 0; ; i++) {
        const id = await newestTab(conn.evaluate, taken);
        if (id !== null && id > last) {
          taken.push(id);
          return id;
        }
        if (i >= 50) {
          throw new Error('embed-inspector: the new page has no tab in the extension');
        }
        await pause(50);
      }
    };
    await takeTab(); // the worker's own page
    let applied = '';
    const state: WorkerState = {
      context,
      extensionId: conn.extensionId,
      evaluate: conn.evaluate,
      takeTab,
      async closePages() {
        for (const p of context.pages()) {
          if (p !== own) {
            await within(p.close(), 10_000, 'closing a page').catch(() => {});
          }
        }
      },
      async prepare(opts) {
        if (own.isClosed()) {
          own = await context.newPage();
          await takeTab();
          await conn.watchFrom(own);
        }
        const setting = { sites: opts.sites ?? 'all', mode: opts.mode ?? 'full' };
        const key = JSON.stringify(setting);
        if (key !== applied) {
          await setScope(conn.evaluate, setting);
          applied = key;
        }
      },
    };
    await state.prepare({});
    return { state, close };
  } catch (e) {
    await close();
    throw e;
  }
}

export const test: TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & EmbedInspectorTestFixtures,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & EmbedInspectorWorkerFixtures
> = base.extend<EmbedInspectorTestFixtures, EmbedInspectorWorkerFixtures>({
  embedInspector: [{}, { option: true }],

  _embedInspectorBrowser: [
    async ({ playwright, headless, launchOptions }, use, workerInfo) => {
      const { state, close } = await launchWorkerBrowser(
        playwright,
        headless,
        launchOptions as Record<string, unknown>,
        (workerInfo.project.use ?? {}) as Record<string, unknown>,
      );
      try {
        await use(state);
      } finally {
        await close();
      }
    },
    { scope: 'worker', timeout: 60_000, title: 'Chromium with Embed Inspector' },
  ],

  _embedInspectorTab: [
    // `context` is a dependency for its order: set up before, torn down after this (which reads the failed test's
    // log before its tab closes).
    async ({ _embedInspectorBrowser, context: _, embedInspector, actionTimeout, navigationTimeout }, use, testInfo) => {
      const started = Date.now(); // (about when the test's time began: its fixtures count in it)
      const w = _embedInspectorBrowser as WorkerState;
      w.context.setDefaultTimeout(actionTimeout || 0);
      w.context.setDefaultNavigationTimeout(navigationTimeout || 0);
      // The scope first: setCapture resolves once the capture scripts are registered, so the page is captured from
      // its first navigation.
      await w.closePages(); // what an earlier test's teardown could not close
      await w.prepare(embedInspector);
      const page = await w.context.newPage();
      const tabId = await w.takeTab();
      const embed = new Embed({
        evaluate: w.evaluate,
        tabId: async () => tabId,
        // Waits and reads end before the test's timeout, so the failure names the call that was waiting.
        until: () => (testInfo.timeout > 0 ? started + testInfo.timeout - marginOf(testInfo.timeout) : Infinity),
        grace: marginOf(testInfo.timeout) / 2,
        step: (title, body) => base.step(title, body, { box: true }),
      });
      if (embedInspector.tenantOrigin) {
        await embed.setTenantOrigin(embedInspector.tenantOrigin);
      }
      try {
        await use({ page, embed });
      } finally {
        if (testInfo.status === 'failed' || testInfo.status === 'timedOut' || embedInspector.attachCapture === 'on') {
          await attachEvidence(embed, testInfo);
        }
        // Every test: its coverage summary, for embed-inspector/playwright/reporter (coverage-attachment.ts).
        await attachCoverage(embed, testInfo);
        await w.closePages();
      }
    },
    { title: 'Embed Inspector tab' },
  ],

  // The worker's context; the pages a test opens in it are closed at its end.
  context: async ({ _embedInspectorBrowser }, use) => {
    await use(_embedInspectorBrowser.context);
    await (_embedInspectorBrowser as WorkerState).closePages();
  },
  page: async ({ _embedInspectorTab }, use) => {
    await use(_embedInspectorTab.page);
  },
  embed: async ({ _embedInspectorTab }, use) => {
    await use(_embedInspectorTab.embed);
  },
});

/**
 * How long before the test's timeout the embed's waits and reads give up (ms): time for the failure to be said
 * (and what was seen to be read, in the first half) before Playwright ends the test. At least 3 s (half of a short
 * timeout): on a loaded CI machine a wait's last answer and the failure's reads come late by a second or more.
 */
const marginOf = (timeout: number) => Math.min(5_000, Math.max(Math.min(3_000, timeout / 2), timeout * 0.1));

/**
 * The capture and the timeline of a failed test's page, attached to its report. Read in the teardown's own time
 * (Playwright gives it the test's timeout again), streamed; what could not be read in it is said in the timeline.
 */
async function attachEvidence(embed: Embed, testInfo: TestInfo) {
  const budget = Math.max(testInfo.project.timeout, testInfo.timeout);
  const until = Date.now() + (budget > 0 ? budget * 0.7 : 600_000);
  const { capture, captureNote, timeline } = await evidence(embed, until);
  await testInfo.attach('embed-capture.json', {
    body: capture ? `${JSON.stringify(capture, null, 2)}\n` : `not read: ${captureNote}\n`,
    contentType: capture ? 'application/json' : 'text/plain',
  });
  await testInfo.attach('embed-timeline.txt', { body: timeline, contentType: 'text/plain' });
}

// ------------------------------------------------------------------------------------------------ matchers

/** Whether `actual` contains `expected`: objects key by key (deep), arrays element by element, asymmetric matchers. */
function containsSubset(actual: unknown, expected: unknown): boolean {
  if (expected && typeof (expected as { asymmetricMatch?: unknown }).asymmetricMatch === 'function') {
    return (expected as { asymmetricMatch(v: unknown): boolean }).asymmetricMatch(actual);
  }
  if (expected === null || typeof expected !== 'object') {
    return Object.is(actual, expected);
  }
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => containsSubset(actual[i], e))
    );
  }
  if (!actual || typeof actual !== 'object' || Array.isArray(actual)) {
    return false;
  }
  const a = actual as Record<string, unknown>;
  return Object.entries(expected as Record<string, unknown>).every(([k, v]) => k in a && containsSubset(a[k], v));
}

const isEmbed = (v: unknown): v is Embed => v instanceof Embed;
const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);

function notAnEmbed(state: ExpectMatcherState, name: string, received: unknown): MatcherReturnType {
  return {
    pass: state.isNot,
    name,
    message: () =>
      `${state.utils.matcherHint(name, undefined, undefined, { isNot: state.isNot })}\n\nexpect() takes the \`embed\` fixture; received ${state.utils.printReceived(received)}`,
  };
}

/**
 * Re-checks until the matcher passes (not under `.not`) or its timeout ends, like Playwright's own assertions; and
 * before the test's own time ends (`cut`: the test's time, not the matcher's, ended the retries). A retry whose read
 * the worker did not answer in time (a flood on a loaded machine) ends the retries with the last finished one's
 * result and says what was not read (`unread`); with no finished one, nothing was read to judge and it throws.
 */
async function retrying<T extends { pass: boolean }>(
  state: ExpectMatcherState,
  embed: Embed,
  timeout: number | undefined,
  probe: () => Promise<T>,
): Promise<T & { cut: boolean; unread?: string }> {
  const own = Date.now() + (timeout ?? state.timeout ?? 5_000);
  const limit = readerOf(embed).until();
  const deadline = Math.min(own, limit);
  let last: T | undefined;
  for (;;) {
    let unread: string | undefined;
    try {
      last = await probe();
    } catch (e) {
      if (!(e instanceof EmbedTimeoutError) || !last) {
        throw e;
      }
      unread = unreadOf(e);
    }
    const r = last;
    if (unread || r.pass || state.isNot || Date.now() >= deadline) {
      return { ...r, cut: !r.pass && limit < own && Date.now() >= limit, ...(unread ? { unread } : {}) };
    }
    await pause(Math.min(100, Math.max(0, deadline - Date.now())));
  }
}

/** What a read the worker did not answer in time left unread (settledRead's error less its call and count). */
const unreadOf = (e: EmbedTimeoutError) => e.message.replace(/^[\s\S]*?: [\d,]+ read, /, '');

/** The name a matcher's error starts with (a read cut by the test's time says which assertion was waiting). */
const callOf = (state: ExpectMatcherState, name: string) => `expect(embed).${state.isNot ? 'not.' : ''}${name}()`;
const cutNote = (r: { cut: boolean; settled?: Settled; unread?: string }) =>
  (r.cut ? "\n(the test's time ran out before the assertion's own timeout)" : '') +
  (r.unread ? `\n(the last read did not finish: ${r.unread})` : '') +
  (r.settled && settleNote(r.settled) ? `\n(${settleNote(r.settled)})` : '');

const recordsBlock = (title: string, records: ClassifiedRecord[], total = records.length) =>
  records.length
    ? `\n\n${title}:\n${describeRecords(records, { limit: LISTED_RECORDS })}${total > records.length ? `\n  … and ${(total - records.length).toLocaleString('en-US')} more records` : ''}`
    : `\n\n${title}: none`;

/** The first records of the log for a failure message (what a timeline line shows), and how many there are. */
interface Lines {
  records: ClassifiedRecord[];
  total: number;
  /** The listing was not read in the test's grace (a busy worker): what the reader could not read. */
  unread?: string;
}

/**
 * The first records of the log for a failure message. Read after the verdict, in the test's grace: a worker that
 * does not answer by then leaves the listing out (`unread`), never the verdict a finished read gave.
 */
async function firstLines(
  embed: Embed,
  call: string,
  q: { navigation?: boolean; type?: string[]; kind?: 'receive' } = {},
): Promise<Lines> {
  try {
    const read = await settledRead<ClassifiedRecord>(embed, call, 'lines', {
      q,
      limit: LISTED_RECORDS,
      partial: true,
      late: true,
    });
    return { records: read.items, total: read.scanned };
  } catch (e) {
    if (!(e instanceof EmbedTimeoutError)) {
      throw e;
    }
    return { records: [], total: 0, unread: unreadOf(e) };
  }
}

/** The records block of a failure message from `firstLines` (`title` by default: how many records). */
const linesBlock = (shown: Lines | null, title = `${shown?.total ?? 0} records`) =>
  shown?.unread ? `\n\nRecords: not listed (${shown.unread})` : recordsBlock(title, shown?.records ?? [], shown?.total);

/** A long list of types, its first entries and how many more. */
const typeList = (types: string[], max = LISTED_RECORDS) =>
  types.length > max
    ? `${types.slice(0, max).map(inert).join(', ')}, … and ${types.length - max} more`
    : types.map(inert).join(', ');

const matchers = {
  /** No issue of severity error (except the rules in `allow`) in the capture so far. */
  async toHaveNoProtocolErrors(
    this: ExpectMatcherState,
    embed: Embed,
    opts: { allow?: string[] } = {},
  ): Promise<MatcherReturnType> {
    const name = 'toHaveNoProtocolErrors';
    if (!isEmbed(embed)) {
      return notAnEmbed(this, name, embed);
    }
    const allow = new Set(opts.allow ?? []);
    // (navigations too: an embed frame's address and what it never said are errors of the integration)
    const q = { navigation: true, withIssues: true };
    const read = await settledRead<ClassifiedRecord>(embed, callOf(this, name), 'records', { q });
    const all = issuesOf(read.items, { severity: 'error' });
    const errors = all.filter((i) => !allow.has(i.rule));
    const allowed = all.length - errors.length;
    const hint = this.utils.matcherHint(name, 'embed', opts.allow ? '{ allow }' : '', { isNot: this.isNot });
    const seqs = new Set(errors.map((i) => i.seq));
    const offending = read.items.filter((r) => seqs.has(r.seq));
    const shown =
      errors.length === 0 && this.isNot ? await firstLines(embed, callOf(this, name), { navigation: true }) : null;
    return {
      pass: errors.length === 0,
      name,
      expected: this.isNot ? 'protocol errors' : 'no protocol errors',
      actual: errors.map((i) => `#${i.seq} ${i.rule}`),
      message: () =>
        errors.length
          ? `${hint}\n\n${errors.length} protocol error${errors.length === 1 ? '' : 's'}` +
            `${allowed ? ` (and ${allowed} allowed)` : ''} in ${read.scanned} records:\n${describeIssues(errors, { limit: LISTED_RECORDS })}` +
            recordsBlock('Offending records', offending)
          : `${hint}\n\nExpected protocol errors, found none${allowed ? ` but ${allowed} allowed (${[...allow].join(', ')})` : ''}` +
            linesBlock(shown, `${read.scanned} records`),
    };
  },

  /** Every type of `types` was seen (a post or a delivery), in any order. */
  async toHaveSeen(
    this: ExpectMatcherState,
    embed: Embed,
    types: string | string[],
    opts: { timeout?: number } = {},
  ): Promise<MatcherReturnType> {
    const name = 'toHaveSeen';
    if (!isEmbed(embed)) {
      return notAnEmbed(this, name, embed);
    }
    const wanted = list(types);
    const r = await retrying(this, embed, opts.timeout, async () => {
      const read = await settledRead<string>(embed, callOf(this, name), 'types', { partial: !this.isNot });
      const seen = new Set(read.items);
      const missing = wanted.filter((t) => !seen.has(t));
      return { pass: missing.length === 0, seen, missing, settled: read.settled };
    });
    const hint = this.utils.matcherHint(name, 'embed', 'types', { isNot: this.isNot });
    const present = wanted.filter((t) => r.seen.has(t));
    const fails = r.pass === this.isNot;
    const shown = fails ? await firstLines(embed, callOf(this, name), this.isNot ? { type: present } : {}) : null;
    return {
      pass: r.pass,
      name,
      expected: wanted,
      actual: [...r.seen],
      message: () =>
        this.isNot
          ? `${hint}\n\nExpected not to see: ${present.join(', ')}${linesBlock(shown, 'Seen')}`
          : `${hint}\n\nNot seen: ${r.missing.join(', ')}\nSeen: ${typeList([...r.seen]) || 'no svc-embed message'}` +
            cutNote(r) +
            linesBlock(shown),
    };
  },

  /**
   * `types` appear in this order among the svc-embed messages (a subsequence: others may come between), a post and
   * its delivery counted once.
   */
  async toHaveSeenInOrder(
    this: ExpectMatcherState,
    embed: Embed,
    types: string[],
    opts: { timeout?: number } = {},
  ): Promise<MatcherReturnType> {
    const name = 'toHaveSeenInOrder';
    if (!isEmbed(embed)) {
      return notAnEmbed(this, name, embed);
    }
    const r = await retrying(this, embed, opts.timeout, async () => {
      const read = await settledRead<string>(embed, callOf(this, name), 'types', { partial: !this.isNot });
      const sequence = read.items;
      let i = 0;
      for (const t of sequence) {
        if (i < types.length && t === types[i]) {
          i++;
        }
      }
      return { pass: i === types.length, sequence, matched: i, settled: read.settled };
    });
    const hint = this.utils.matcherHint(name, 'embed', 'types', { isNot: this.isNot });
    const shown = r.pass === this.isNot ? await firstLines(embed, callOf(this, name)) : null;
    return {
      pass: r.pass,
      name,
      expected: types,
      actual: r.sequence,
      message: () =>
        (this.isNot
          ? `${hint}\n\nExpected not to see in order: ${types.join(' → ')}`
          : `${hint}\n\nExpected in order: ${types.join(' → ')}\n` +
            `Found in order: ${types.slice(0, r.matched).join(' → ') || 'none'}; then no ${types[r.matched]}`) +
        `\nSequence: ${typeList(r.sequence) || 'no svc-embed message'}` +
        cutNote(r) +
        linesBlock(shown),
    };
  },

  /** A delivery (`receive`) of `type` whose payload contains `payload` (deep, partial; asymmetric matchers work). */
  async toHaveReceived(
    this: ExpectMatcherState,
    embed: Embed,
    type: string,
    payload?: unknown,
    opts: { timeout?: number } = {},
  ): Promise<MatcherReturnType> {
    const name = 'toHaveReceived';
    if (!isEmbed(embed)) {
      return notAnEmbed(this, name, embed);
    }
    const r = await retrying(this, embed, opts.timeout, async () => {
      const q = { type, kind: 'receive' as const };
      const read = await settledRead<ClassifiedRecord>(embed, callOf(this, name), 'records', {
        q,
        partial: !this.isNot,
      });
      const received = read.items;
      const hits = received.filter(
        (x) => payload === undefined || containsSubset((x.data as { payload?: unknown } | null)?.payload, payload),
      );
      return { pass: hits.length > 0, received, hits, settled: read.settled };
    });
    const hint = this.utils.matcherHint(name, 'embed', payload === undefined ? 'type' : 'type, payload', {
      isNot: this.isNot,
    });
    const what = `${type}${payload === undefined ? '' : ` with a payload containing ${this.utils.printExpected(payload)}`}`;
    const payloads = (rs: ClassifiedRecord[]) =>
      rs
        .slice(0, LISTED_RECORDS)
        .map(
          (x) =>
            `  #${String(x.seq).padEnd(5)} payload ${this.utils.stringify((x.data as { payload?: unknown }).payload)}`,
        )
        .join('\n');
    const shown = !r.pass && !this.isNot && !r.received.length ? await firstLines(embed, callOf(this, name)) : null;
    return {
      pass: r.pass,
      name,
      expected: payload === undefined ? type : { type, payload },
      actual: r.received.map((x) => (x.data as { payload?: unknown }).payload),
      message: () =>
        this.isNot
          ? `${hint}\n\nExpected no delivery of ${what}; received:\n${describeRecords(r.hits, { limit: LISTED_RECORDS })}\n${payloads(r.hits)}`
          : r.received.length
            ? `${hint}\n\nNo delivery of ${what}; ${r.received.length} of ${type}:\n${describeRecords(r.received, { limit: LISTED_RECORDS })}\n${payloads(r.received)}${cutNote(r)}`
            : `${hint}\n\nNo delivery of ${type}${cutNote(r)}${linesBlock(shown)}`,
    };
  },
};

/** The matchers `expect(embed)` has beside Playwright's own. */
export type EmbedMatchers = typeof matchers;

/** Playwright's `expect` with the `embed` matchers. */
export const expect: Expect<EmbedMatchers> = baseExpect.extend(matchers);
