// Transparency in Firefox ESR, windows and messaging: the window-check table (test/transparency/window-checks.ts)
// evaluated in the frames of pages/win-*.html without the extension and with capture on in `full` and
// `receive-only` mode, each site in its own process as Firefox ships (Fission); any difference not listed for
// Firefox in test/transparency/known-differences.ts fails, and so does a Firefox entry no longer found (issues 13
// and 31). See test/transparency/README.md.
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import {
  assertCaptured,
  assertSame,
  type Browsers,
  dump,
  type Captured,
  type CaptureMode,
  type Mode,
  type Observations,
} from '../transparency/harness.ts';
import type { Origins } from '../transparency/server.ts';
import { observeWindows } from '../transparency/windows.ts';

describe('transparency in Firefox: windows and messaging', () => {
  let browsers: Browsers;
  let origins: Origins;
  const seen = new Map<Mode, Promise<{ obs: Observations; captured?: Captured }>>();
  /** What the checks gave in one mode, observed once (a failed comparison drops the mode's, so that a retry observes it again). */
  const observe = (mode: Mode) => {
    let p = seen.get(mode);
    if (!p) {
      p = browsers
        .get(mode)
        .then((b) => observeWindows(b, origins, mode))
        .then((r) => {
          dump('firefox-windows', mode, r.obs);
          return r;
        });
      seen.set(mode, p);
    }
    return p;
  };
  test.beforeAll(({ transparencyServer, transparencyFirefox }) => {
    origins = transparencyServer;
    browsers = transparencyFirefox;
    browsers.start();
  });

  it('without the extension, the checks observe what the platform specifies', async () => {
    // The three modes run side by side (one browser each); each comparison below reads its mode's result.
    for (const m of ['full', 'receive-only'] as Mode[]) {
      observe(m).catch(() => {});
    }
    const { obs: none } = await observe('none');
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

  for (const mode of ['full', 'receive-only'] as CaptureMode[]) {
    it(`capture ${mode}: the page observes exactly what it observes without the extension`, async () => {
      try {
        const { obs, captured } = await observe(mode);
        assertCaptured(mode, captured);
        assertSame('windows', (await observe('none')).obs, obs, mode, 'firefox');
      } catch (e) {
        seen.delete(mode);
        throw e;
      }
    });
  }
});
