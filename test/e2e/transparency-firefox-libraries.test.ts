// Transparency in Firefox ESR, messaging libraries: the eight libraries' scenarios (test/transparency/pages/lib-*.html,
// host 127.0.0.1 ↔ child localhost, out of process as Firefox ships, with a grandchild and a popup) without the
// extension and with capture on in `full` and `receive-only` mode. What each document observed must be the same,
// except what test/transparency/known-differences.ts lists for Firefox (issues 13 and 31). See
// test/transparency/README.md.
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
import { LIBRARIES, observeLibrary, type Library } from '../transparency/libraries.ts';
import type { Origins } from '../transparency/server.ts';

const only = process.env.TRANSPARENCY_LIBS?.split(',');

describe('transparency in Firefox: messaging libraries', () => {
  let browsers: Browsers;
  let origins: Origins;
  const seen = new Map<string, Promise<{ obs: Observations; captured?: Captured }>>();
  /** What one library's pages observed in one mode, once (a failed comparison drops the mode's, for a retry). */
  const observe = (lib: Library, mode: Mode) => {
    const key = `${lib} ${mode}`;
    let p = seen.get(key);
    if (!p) {
      p = browsers
        .get(mode)
        .then((b) => observeLibrary(b, origins, lib, mode))
        .then((r) => {
          dump(`firefox-lib-${lib}`, mode, r.obs);
          return r;
        });
      seen.set(key, p);
    }
    return p;
  };
  test.beforeAll(({ transparencyServer, transparencyFirefox }) => {
    origins = transparencyServer;
    browsers = transparencyFirefox;
    browsers.start();
  });

  for (const lib of LIBRARIES.filter((l) => !only || only.includes(l))) {
    describe(lib, () => {
      it('without the extension, the scenario completes', async () => {
        // The three modes run side by side (one browser each); each comparison below reads its mode's result.
        for (const m of ['full', 'receive-only'] as Mode[]) {
          observe(lib, m).catch(() => {});
        }
        const { obs: none } = await observe(lib, 'none');
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
      for (const mode of ['full', 'receive-only'] as CaptureMode[]) {
        it(`capture ${mode}: every document observes what it observes without the extension`, async () => {
          try {
            const { obs, captured } = await observe(lib, mode);
            assertCaptured(mode, captured);
            assertSame('libraries', (await observe(lib, 'none')).obs, obs, mode, 'firefox');
          } catch (e) {
            seen.delete(`${lib} ${mode}`);
            throw e;
          }
        });
      }
    });
  }
});
