/**
 * The transparency suites, each defined once and run per browser: test/e2e/transparency-chromium.test.ts calls them
 * for Chromium, transparency-firefox.test.ts for Firefox ESR. One file per browser, so that both suites share the
 * server and the three browsers (one per mode), which are fixtures of the file.
 */
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import {
  assertCaptured,
  assertSame,
  type BrowserKind,
  type Browsers,
  type Captured,
  type CaptureMode,
  dump,
  type Mode,
  type ModeBrowser,
  type Observations,
} from './harness.ts';
import { LIBRARIES, type Library, observeLibrary } from './libraries.ts';
import type { Origins } from './server.ts';
import { observeWindows } from './windows.ts';

/** What the browsers' runs of a suite differ in besides their browser: the suite's title and its dumps' names. */
const TRANSPARENCY_BROWSERS: Record<BrowserKind, { title: string; dumpPrefix: string }> = {
  chromium: { title: 'transparency', dumpPrefix: '' },
  firefox: { title: 'transparency in Firefox', dumpPrefix: 'firefox-' },
};

const CAPTURE_MODES: CaptureMode[] = ['full', 'receive-only'];

type Observed = { obs: Observations; captured?: Captured };

/**
 * The comparisons of one suite in one browser, for the enclosing `describe`: its `beforeAll` takes the file's server
 * and `browser`'s three browsers, and each case is observed once per mode (`dumpName` names its dumps).
 */
function comparisons<C extends string>(
  browser: BrowserKind,
  suite: 'windows' | 'libraries',
  observeCase: (launched: ModeBrowser, origins: Origins, c: C, mode: Mode) => Promise<Observed>,
  dumpName: (c: C) => string,
) {
  let browsers: Browsers;
  let origins: Origins;
  const seen = new Map<string, Promise<Observed>>();
  const key = (c: C, mode: Mode) => `${c} ${mode}`;
  const observe = (c: C, mode: Mode) => {
    let p = seen.get(key(c, mode));
    if (!p) {
      p = browsers
        .get(mode)
        .then((b) => observeCase(b, origins, c, mode))
        .then((r) => {
          dump(`${TRANSPARENCY_BROWSERS[browser].dumpPrefix}${dumpName(c)}`, mode, r.obs);
          return r;
        });
      seen.set(key(c, mode), p);
    }
    return p;
  };
  // Both fixtures only construct their browsers; the one of `browser` launches its three here.
  test.beforeAll(({ transparencyServer, transparencyBrowsers, transparencyFirefox }) => {
    origins = transparencyServer;
    browsers = browser === 'firefox' ? transparencyFirefox : transparencyBrowsers;
    browsers.start();
  });
  return {
    /**
     * What the case observed without the extension. The three modes run side by side (one browser each): the
     * capture modes' observations start here too, and each comparison reads its mode's.
     */
    async without(c: C): Promise<Observations> {
      for (const m of CAPTURE_MODES) {
        observe(c, m).catch(() => {});
      }
      return (await observe(c, 'none')).obs;
    },
    /**
     * Capture in `mode` recorded what that mode records, and every document observed what it observes without
     * the extension. A failure drops the mode's observations, so that a retry observes it again.
     */
    async same(c: C, mode: CaptureMode): Promise<void> {
      try {
        const { obs, captured } = await observe(c, mode);
        assertCaptured(mode, captured);
        assertSame(suite, (await observe(c, 'none')).obs, obs, mode, browser);
      } catch (e) {
        seen.delete(key(c, mode));
        throw e;
      }
    },
  };
}

/** The window-check table (window-checks.ts) in the frames of pages/win-*.html, in `browser`. */
export function windowsSuite(browser: BrowserKind): void {
  describe(`${TRANSPARENCY_BROWSERS[browser].title}: windows and messaging`, () => {
    const windows = comparisons(
      browser,
      'windows',
      (launched, origins, _c: 'windows', mode) => observeWindows(launched, origins, mode),
      (c) => c,
    );

    it('without the extension, the checks observe what the platform specifies', async () => {
      const none = await windows.without('windows');
      const failed = Object.entries(none).filter(
        ([, v]) => typeof v === 'string' && /^evaluation failed|Timeout/.test(v),
      );
      expect(failed).toEqual([]);
      expect(none['host: frames[0] === xoF.contentWindow']).toBe('true');
      expect(none['host: (f => f.contentWindow.parent === window)(T.blank())']).toBe('true');
      expect(none["host: T.thrown(() => (xoF.contentWindow).postMessage(function f() {}, '*'))"]).toMatch(
        /^threw DOMException DataCloneError/,
      );
      expect(none["host: T.thrown(() => (xoF.contentWindow).postMessage(0, 'not an origin'))"]).toMatch(
        /^threw DOMException SyntaxError/,
      );
      expect(none['host: Object.getOwnPropertySymbols(window).map(String)']).toEqual([]);
    });

    for (const mode of CAPTURE_MODES) {
      it(`capture ${mode}: the page observes exactly what it observes without the extension`, () =>
        windows.same('windows', mode));
    }
  });
}

/** `TRANSPARENCY_LIBS=penpal,zoid` runs only these libraries. */
const only = process.env.TRANSPARENCY_LIBS?.split(',');

/** Each library's scenario (pages/lib-<library>.html), in `browser`. */
export function librariesSuite(browser: BrowserKind): void {
  describe(`${TRANSPARENCY_BROWSERS[browser].title}: messaging libraries`, () => {
    const libraries = comparisons(browser, 'libraries', observeLibrary, (lib: Library) => `lib-${lib}`);

    for (const lib of LIBRARIES.filter((l) => !only || only.includes(l))) {
      describe(lib, () => {
        it('without the extension, the scenario completes', async () => {
          const none = await libraries.without(lib);
          const logs = Object.entries(none).filter(([k]) => k.endsWith(' log')) as Array<[string, string[]]>;
          expect(logs.length).toBeGreaterThanOrEqual(2);
          for (const [name, entries] of logs) {
            expect(entries, name).toContain('(done)');
            // Only the steps named "(expected error)" fail; nothing uncaught.
            expect(
              entries.filter((e) => / → error |uncaught|unhandled/.test(e)),
              name,
            ).toEqual(entries.filter((e) => /\(expected error\) → error /.test(e)));
          }
        });
        for (const mode of CAPTURE_MODES) {
          it(`capture ${mode}: every document observes what it observes without the extension`, () =>
            libraries.same(lib, mode));
        }
      });
    }
  });
}
