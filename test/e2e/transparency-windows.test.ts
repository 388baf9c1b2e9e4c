// Transparency, windows and messaging: what the web-platform-tests check about window access paths,
// postMessage's exceptions, functions read from windows and cross-origin objects (test/transparency/
// window-checks.ts), observed without the extension and with capture on in `full` and `receive-only`
// mode; any difference not listed in test/transparency/known-differences.ts fails (issue 13).
// See test/transparency/README.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { ROOT } from '../helpers/paths.ts';
import { KNOWN_DIFFERENCES, KNOWN_REORDERS } from '../transparency/known-differences.ts';
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

describe('transparency: the allowed differences', () => {
  it('are each a sentence of the README, named once', () => {
    const readme = readFileSync(`${ROOT}/README.md`, 'utf8').replace(/\s+/g, ' ');
    const names = KNOWN_DIFFERENCES.map((k) => `${k.browser ?? 'chromium'} ${k.suite} ${k.name}`);
    expect(new Set(names).size).toBe(names.length);
    for (const k of KNOWN_DIFFERENCES) {
      expect(['windows', 'libraries'], k.name).toContain(k.suite);
      expect(k.readme.trim().length, k.name).toBeGreaterThan(0);
      expect(k.without.length + k.full.length, `${k.name} pins what differs`).toBeGreaterThan(0);
      expect(readme.includes(k.readme.replace(/\s+/g, ' ').trim()), `README.md does not contain: ${k.readme}`).toBe(
        true,
      );
    }
    for (const k of KNOWN_REORDERS) {
      expect(readme.includes(k.readme.replace(/\s+/g, ' ').trim()), `README.md does not contain: ${k.readme}`).toBe(
        true,
      );
    }
  });
});

describe('transparency: windows and messaging', () => {
  let browsers: Browsers;
  let origins: Origins;
  const seen = new Map<Mode, Promise<{ obs: Observations; captured?: Captured }>>();
  /** What the checks gave in one mode, observed once (a failed comparison drops the mode's, so that a retry observes it again). */
  const observe = (mode: Mode) => {
    let p = seen.get(mode);
    if (!p) {
      p = browsers
        .get(mode)
        .then((l) => observeWindows(l, origins, mode))
        .then((r) => {
          dump('windows', mode, r.obs);
          return r;
        });
      seen.set(mode, p);
    }
    return p;
  };
  test.beforeAll(({ transparencyServer, transparencyBrowsers }) => {
    origins = transparencyServer;
    browsers = transparencyBrowsers;
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
        assertSame('windows', (await observe('none')).obs, obs, mode);
      } catch (e) {
        seen.delete(mode);
        throw e;
      }
    });
  }
});
