/**
 * Running one case three ways (no extension, capture `full`, capture `receive-only`) and comparing what the
 * page observed. One browser per mode, reused across the cases of a test file; Chromium or Firefox.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { vi } from 'vitest';
import { launchChromium, type Launched } from '../../src/node/chromium.ts';
import { launchFirefox } from '../../src/node/firefox.ts';
import { EXT, tabIdOf } from '../helpers/capture.ts';
import { FIREFOX_EXT } from '../helpers/paths.ts';
import { isBuiltInName, KNOWN_DIFFERENCES, KNOWN_REORDERS, type KnownDifference } from './known-differences.ts';

export type Mode = 'none' | 'full' | 'receive-only';
const MODES: Mode[] = ['none', 'full', 'receive-only'];
export type CaptureMode = Exclude<Mode, 'none'>;
export type BrowserKind = 'chromium' | 'firefox';

/**
 * The extension under test: dist/chrome or dist/firefox, or TRANSPARENCY_EXTENSION_DIR (to compare another build
 * locally; for Firefox, TRANSPARENCY_FIREFOX_EXTENSION_DIR).
 */
const EXTENSION_DIR = process.env.TRANSPARENCY_EXTENSION_DIR || EXT;
const FIREFOX_EXTENSION_DIR = process.env.TRANSPARENCY_FIREFOX_EXTENSION_DIR || FIREFOX_EXT;

/** The browser of one mode: what the cases drive, and the extension's automation API (`embedInspector`). */
export interface ModeBrowser {
  kind: BrowserKind;
  browser: Browser;
  /**
   * `fn(embedInspector, arg)` run in the extension's background (Chromium: the service worker; Firefox: from an
   * extension page, through `runtime.getBackgroundPage()`), its result as JSON gives it.
   */
  inBackground<T, A = null>(fn: (api: any, arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  /** The id of the newest tab showing the page's URL. */
  tabIdOf(page: Page): Promise<number>;
  close(): Promise<void>;
}

const call = (fn: (...a: any[]) => unknown, api: string, arg: unknown) =>
  `(async () => { const r = await (${String(fn)})(${api}, ${JSON.stringify(arg ?? null)}); return r === undefined ? null : JSON.parse(JSON.stringify(r)); })()`;

function chromiumMode(launched: Launched): ModeBrowser {
  return {
    kind: 'chromium',
    browser: launched.browser,
    inBackground: async (fn, arg) =>
      (await launched.worker()).evaluate(call(fn, 'globalThis.embedInspector', arg)) as Promise<any>,
    tabIdOf: (page) => tabIdOf(launched, page),
    close: () => launched.close(),
  };
}

/**
 * Firefox as it ships: each site in its own process (Fission), so the cross-origin frames are out of process. With
 * the extension, an extension page opened at launch (before any case, so that `withPage` leaves it open) reaches
 * the background page.
 */
async function firefoxMode(mode: Mode): Promise<ModeBrowser> {
  if (mode === 'none') {
    const launched = await launchFirefox({ siteIsolation: true });
    const none = async (): Promise<never> => {
      throw new Error('no extension in this browser');
    };
    return { kind: 'firefox', browser: launched.browser, inBackground: none, tabIdOf: none, close: launched.close };
  }
  const launched = await launchFirefox({
    siteIsolation: true,
    extensionDir: FIREFOX_EXTENSION_DIR,
    capture: { sites: 'all', mode },
  });
  try {
    const ext = await launched.extensionPage('theme=light');
    const inBackground: ModeBrowser['inBackground'] = (fn, arg) =>
      ext.evaluate(call(fn, '(await browser.runtime.getBackgroundPage()).embedInspector', arg)) as Promise<any>;
    const tabIdOf = async (page: Page): Promise<number> => {
      const url = page.url();
      const newest = () =>
        ext.evaluate(
          async (u: string) =>
            ((await (globalThis as any).browser.tabs.query({})) as Array<{ id?: number; url?: string }>)
              .filter((t) => t.url === u && t.id !== undefined)
              .reduce<number | null>((found, t) => Math.max(found ?? -1, t.id!), null),
          url,
        );
      return vi.waitUntil(newest, { timeout: 5_000, interval: 100 }).then(
        (id) => id!,
        () => {
          throw new Error(`no tab for ${url}`);
        },
      );
    };
    return { kind: 'firefox', browser: launched.browser, inBackground, tabIdOf, close: launched.close };
  } catch (e) {
    await launched.close();
    throw e;
  }
}

/**
 * A browser for one mode. With the extension, capture is turned on for every site through the background's
 * automation API (`embedInspector.setCapture({ sites: 'all', mode })`, which resolves once the content scripts
 * are registered; the launchers' `capture` option calls it), and read back.
 */
async function launchMode(mode: Mode, kind: BrowserKind = 'chromium'): Promise<ModeBrowser> {
  const dir = kind === 'firefox' ? FIREFOX_EXTENSION_DIR : EXTENSION_DIR;
  if (mode !== 'none' && !existsSync(join(dir, 'manifest.json'))) {
    throw new Error(`${dir} is missing: run npm run build first`);
  }
  if (kind === 'firefox') {
    const b = await firefoxMode(mode);
    return mode === 'none' ? b : checkedScope(b, mode);
  }
  if (mode === 'none') {
    return chromiumMode(await launchChromium({}));
  }
  return checkedScope(
    chromiumMode(await launchChromium({ extensionDir: EXTENSION_DIR, capture: { sites: 'all', mode } })),
    mode,
  );
}

/** The browser, once its capture scope reads back as every site in `mode` (closed, and an error, otherwise). */
async function checkedScope(b: ModeBrowser, mode: CaptureMode): Promise<ModeBrowser> {
  try {
    const scope = await b.inBackground((api) => api.getCapture());
    if (scope?.sites !== 'all' || scope?.mode !== mode) {
      throw new Error(`capture scope is ${JSON.stringify(scope)}, not every site in ${mode} mode`);
    }
    // A short ready limit, so that what the diagnosis would say of these pages is said while they are read.
    await b.inBackground((api) => api.setReadyTimeout(1000));
  } catch (e) {
    await b.close();
    throw e;
  }
  return b;
}

/** What the extension recorded for a page's tab: evidence that capture really ran in the mode under test. */
export interface Captured {
  posts: number;
  receives: number;
  /**
   * The embed-address and silence findings (url.*, silence.*) on the page's records: none of these pages embeds
   * the platform, so any would be a false verdict.
   */
  diagnosis: string[];
}

/**
 * Wait (up to 5 s) until the extension holds the deliveries of the page's tab, and its posts in full mode;
 * then return the counts. Without this a mode whose capture silently did not run would pass every comparison.
 */
export async function captured(launched: ModeBrowser, page: Page, mode: CaptureMode): Promise<Captured> {
  const tabId = await launched.tabIdOf(page);
  let c: Captured = { posts: 0, receives: 0, diagnosis: [] };
  const read = async () => {
    c = await launched.inBackground(async (api, id: number) => {
      const rs = (await api.records(id)) as Array<{
        kind: string;
        issues: Array<{ rule: string }>;
      }>;
      return {
        posts: rs.filter((r) => r.kind === 'post').length,
        receives: rs.filter((r) => r.kind === 'receive').length,
        diagnosis: rs.flatMap((r) =>
          r.issues.filter((i) => /^(url|silence)\./.test(i.rule)).map((i) => `#${(r as any).seq} ${i.rule}`),
        ),
      };
    }, tabId);
    return c.receives > 0 && (mode === 'receive-only' || c.posts > 0);
  };
  // What is there after 5 s is returned either way: assertCaptured says what is missing.
  await vi.waitUntil(read, { timeout: 5_000, interval: 100 }).catch(() => {});
  return c;
}

/**
 * The three browsers, launched lazily and in parallel. A mode that cannot be launched (e.g. receive-only
 * on a build without setCapture) fails only the tests of that mode.
 */
export class Browsers {
  private readonly launching = new Map<Mode, Promise<ModeBrowser>>();
  constructor(readonly kind: BrowserKind = 'chromium') {}
  start(modes: Mode[] = MODES): void {
    for (const m of modes) {
      this.get(m).catch(() => {});
    }
  }
  get(mode: Mode): Promise<ModeBrowser> {
    let p = this.launching.get(mode);
    if (!p) {
      p = launchMode(mode, this.kind);
      this.launching.set(mode, p);
    }
    return p;
  }
  async close(): Promise<void> {
    await Promise.all(
      [...this.launching.values()].map((p) =>
        p.then(
          (l) => l.close(),
          () => {},
        ),
      ),
    );
  }
}

/** Run `fn` on a fresh tab, then close every page the case opened (popups included). */
export async function withPage<T>(browser: Browser, fn: (page: Page) => Promise<T>): Promise<T> {
  const before = new Set(await browser.pages());
  const page = await browser.newPage();
  try {
    return await fn(page);
  } finally {
    for (const p of await browser.pages()) {
      if (!before.has(p)) {
        await p.close().catch(() => {});
      }
    }
  }
}

/** Frames of every open page, with the label their document gave itself (pages/t.js), unlabelled ones left out. */
export async function labelledFrames(browser: Browser): Promise<Array<{ label: string; frame: Frame }>> {
  const out: Array<{ label: string; frame: Frame }> = [];
  for (const page of await browser.pages()) {
    for (const frame of page.frames()) {
      if (frame.detached) {
        continue;
      }
      const label = await frame.evaluate(() => (window as any).__t?.label ?? null).catch(() => null);
      if (label) {
        out.push({ label, frame });
      }
    }
  }
  return out;
}

export async function frameLabelled(browser: Browser, label: string, timeoutMs = 10_000, done = true): Promise<Frame> {
  const find = async () => {
    for (const { label: l, frame } of await labelledFrames(browser)) {
      if (
        l === label &&
        (!done || (await frame.evaluate(() => (window as any).__t?.done === true).catch(() => false)))
      ) {
        return frame;
      }
    }
    return undefined;
  };
  return vi.waitUntil(find, { timeout: timeoutMs, interval: 50 }).catch(() => {
    throw new Error(`no frame labelled ${label} (done) within ${timeoutMs} ms`);
  });
}

/** With TRANSPARENCY_DUMP=<dir>, each mode's observations are also written to <dir>/<suite>-<mode>.json (to study them). */
export function dump(suite: string, mode: Mode, obs: Observations): Observations {
  const dir = process.env.TRANSPARENCY_DUMP;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${suite}-${mode}.json`), JSON.stringify(obs, null, 1));
  }
  return obs;
}

/** Fail unless the extension recorded what its mode records: deliveries, and posts in full mode only. */
export function assertCaptured(mode: CaptureMode, c: Captured | undefined): void {
  if (c?.diagnosis.length) {
    throw new Error(`the capture judged a page without an embed: ${c.diagnosis.join(', ')} (a false verdict)`);
  }
  const ok = !!c && c.receives > 0 && (mode === 'full' ? c.posts > 0 : c.posts === 0);
  if (!ok) {
    throw new Error(
      `capture in ${mode} mode did not record what it should (deliveries${mode === 'full' ? ' and posts' : ', no posts'}): ` +
        `${JSON.stringify(c)}: the comparison would prove nothing`,
    );
  }
}

// ——— Comparing ———

/** One observation: a name (an expression, or a frame's transcript) and what the page saw, as text. */
export type Observations = Record<string, string | string[]>;

export interface Difference {
  suite: string;
  /** Absent: Chromium. */
  browser?: BrowserKind;
  name: string;
  mode: CaptureMode;
  none: string | string[];
  other: string | string[] | undefined;
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function differences(
  suite: string,
  none: Observations,
  other: Observations,
  mode: CaptureMode,
  browser: BrowserKind = 'chromium',
): Difference[] {
  const names = [...new Set([...Object.keys(none), ...Object.keys(other)])];
  return names
    .filter((n) => !equal(none[n], other[n]))
    .map((name) => ({ suite, browser, name, mode, none: none[name] ?? '<absent>', other: other[name] }));
}

/** An origin of the local test servers, whose port changes from run to run, as the known differences write it. */
const withoutPort = (s: string) => s.replace(/http:\/\/(127\.0\.0\.1|localhost):\d+/g, 'http://$1:<port>');
const linesOf = (v: string | string[] | undefined): string[] =>
  v === undefined ? ['<absent>'] : (Array.isArray(v) ? v : v.split('\n')).map(withoutPort);
/** The items of `a` not in `b`, counting repeats. */
function onlyIn(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) {
    left.set(x, (left.get(x) ?? 0) + 1);
  }
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    left.set(x, n - 1);
    return n <= 0;
  });
}

/**
 * What exactly differs between two observations, as known-differences.ts pins it: the lines of a text (the
 * entries of a transcript) found only without the extension, and only with it; the test servers' ports left out.
 */
export function pinnedDifference(
  none: string | string[] | undefined,
  other: string | string[] | undefined,
): { without: string[]; full: string[] } {
  const a = linesOf(none);
  const b = linesOf(other);
  return { without: onlyIn(a, b), full: onlyIn(b, a) };
}

/** The browser a known difference is found in (absent: Chromium). */
const browserOf = (k: KnownDifference): BrowserKind => k.browser ?? 'chromium';

/** Whether a difference is one docs/capture-modes.md lists as platform-imposed (known-differences.ts), and as it pins it. */
export function isKnown(d: Difference, known: KnownDifference[] = KNOWN_DIFFERENCES): boolean {
  return known.some(
    (k) =>
      k.suite === d.suite &&
      browserOf(k) === (d.browser ?? 'chromium') &&
      k.name === d.name &&
      d.mode === 'full' &&
      equal(pinnedDifference(d.none, d.other), { without: k.without, full: k.full }),
  );
}

/**
 * A difference KNOWN_REORDERS lists: the same items as without the extension, in the same order once the entry's
 * `moved` names are left out of both lists.
 */
export function isKnownReorder(d: Difference): boolean {
  if (!Array.isArray(d.none) || !Array.isArray(d.other) || d.none.length !== d.other.length) {
    return false;
  }
  const k = KNOWN_REORDERS.find(
    (k) => k.suite === d.suite && k.browser === (d.browser ?? 'chromium') && k.mode === d.mode && k.name === d.name,
  );
  if (!k) {
    return false;
  }
  const moved = new Set(k.moved);
  const rest = (xs: string[]) =>
    JSON.stringify(xs.filter((x) => !moved.has(x) && !(k.builtInsMove && isBuiltInName(x))));
  const sorted = (xs: string[]) => JSON.stringify([...xs].sort());
  return sorted(d.none) === sorted(d.other) && rest(d.none) === rest(d.other);
}

/**
 * The items of `b` out of place against `a` (the same items): those outside a longest common subsequence of the
 * two, so that leaving them out of both lists leaves the same list. For a reorder's report and its `moved` pin.
 */
function outOfPlace(a: readonly string[], b: readonly string[]): string[] {
  const n = a.length;
  const m = b.length;
  // lengths of the longest common subsequences of a's and b's suffixes (rows of m + 1)
  const L = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      L[i * (m + 1) + j] =
        a[i] === b[j] ? L[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(L[(i + 1) * (m + 1) + j], L[i * (m + 1) + j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (j < m) {
    if (i < n && a[i] === b[j]) {
      i++;
      j++;
    } else if (i < n && L[(i + 1) * (m + 1) + j] >= L[i * (m + 1) + j + 1]) {
      i++;
    } else {
      out.push(b[j++]);
    }
  }
  return out.sort();
}

/**
 * The known differences this comparison covers (every one of the windows suite; a library's when its pages were
 * observed) that it did not find: each no longer differs, or differs otherwise than pinned.
 */
export function staleKnown(
  suite: string,
  diffs: Difference[],
  observed: Observations,
  known: KnownDifference[] = KNOWN_DIFFERENCES,
  browser: BrowserKind = 'chromium',
): KnownDifference[] {
  const libraryOf = (name: string) => name.split(' › ')[0];
  const libraries = new Set(Object.keys(observed).map(libraryOf));
  return known.filter(
    (k) =>
      k.suite === suite &&
      browserOf(k) === browser &&
      (suite === 'windows' || libraries.has(libraryOf(k.name))) &&
      !diffs.some((d) => d.name === k.name && isKnown(d, [k])),
  );
}

const clip = (s: string, n = 600) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A difference as text: both values, or for lists what one has that the other lacks, and the first reordering. */
function describeDifference(d: Difference): string {
  const head = `• ${d.suite} › ${d.name}\n`;
  if (Array.isArray(d.none) && Array.isArray(d.other)) {
    const a = d.none;
    const b = d.other;
    const missing = a.filter((x) => !b.includes(x));
    const extra = b.filter((x) => !a.includes(x));
    const lines: string[] = [];
    if (missing.length) {
      lines.push(`    only without extension: ${clip(JSON.stringify(missing))}`);
    }
    if (extra.length) {
      lines.push(`    only with ${d.mode}: ${clip(JSON.stringify(extra))}`);
    }
    if (!missing.length && !extra.length) {
      const i = a.findIndex((x, j) => x !== b[j]);
      lines.push(
        `    same items, order differs from #${i}: without ${clip(JSON.stringify(a.slice(i, i + 4)))} / ${d.mode} ${clip(JSON.stringify(b.slice(i, i + 4)))}`,
        `    out of place (a KNOWN_REORDERS entry's \`moved\`): ${JSON.stringify(outOfPlace(a, b))}`,
      );
    }
    return head + lines.join('\n');
  }
  return (
    head +
    `    without extension: ${clip(JSON.stringify(d.none))}\n    ${d.mode}: ${clip(JSON.stringify(d.other ?? '<absent>'))}`
  );
}

/**
 * Fail (with every unlisted difference named) unless `other` equals `none` up to the known differences; in full mode,
 * fail too when a known difference it covers is not found as pinned (a stale entry).
 */
export function assertSame(
  suite: string,
  none: Observations,
  other: Observations,
  mode: CaptureMode,
  browser: BrowserKind = 'chromium',
): void {
  const all = differences(suite, none, other, mode, browser);
  const diffs = all.filter((d) => !isKnown(d) && !isKnownReorder(d));
  const reorders = KNOWN_REORDERS.filter((k) => k.suite === suite && k.browser === browser && k.mode === mode);
  const problems: string[] = [];
  if (diffs.length) {
    problems.push(
      `${diffs.length} difference(s) in ${browser} between no extension and capture ${mode} not listed in test/transparency/known-differences.ts:\n` +
        diffs.map(describeDifference).join('\n'),
    );
  }
  const stale = mode === 'full' ? staleKnown(suite, all, none, KNOWN_DIFFERENCES, browser) : [];
  if (stale.length) {
    problems.push(
      `${stale.length} ${browser} entr(y/ies) of test/transparency/known-differences.ts no longer found as pinned (remove or re-pin them):\n` +
        stale
          .map((k) => {
            const now = all.find((d) => d.name === k.name);
            const seen = now ? pinnedDifference(now.none, now.other) : { without: [], full: [] };
            return `• ${k.suite} › ${k.name}\n    pinned: ${clip(JSON.stringify({ without: k.without, full: k.full }))}\n    found:  ${clip(JSON.stringify(seen))}`;
          })
          .join('\n'),
    );
  }
  const staleReorders = reorders.filter((k) => !all.some((d) => d.name === k.name && isKnownReorder(d)));
  if (staleReorders.length) {
    problems.push(
      `${staleReorders.length} reorder(s) of test/transparency/known-differences.ts (KNOWN_REORDERS) no longer found in ${browser} ${mode} (remove them):\n` +
        staleReorders.map((k) => `• ${k.suite} › ${k.name}`).join('\n'),
    );
  }
  if (problems.length) {
    throw new Error(problems.join('\n'));
  }
}
