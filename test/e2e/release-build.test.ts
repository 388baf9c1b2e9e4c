// What users install holds no test code (issue 46): the release build (`npm run package` builds with --release)
// leaves out the panel's test handle, the demo session and the background's test fakes, which the test build that
// the other end-to-end tests load carries. No browser: two builds into scratch folders (dist/ stays the test build).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { ROOT } from '../helpers/paths.ts';
import { testCodeIn } from '../../scripts/test-code.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'ei-release-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `vite build --mode <browser>` as scripts/build.mjs --release runs it, into a scratch folder. */
function releaseBuild(browser: 'chrome' | 'firefox'): string {
  const out = join(scratch, browser);
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--mode', browser, '--outDir', out, '--emptyOutDir'],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, EI_RELEASE: '1', NO_COLOR: '1' }, timeout: 120_000 },
  );
  expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  return out;
}

const panelScript = (dir: string) => {
  const name = readdirSync(join(dir, 'assets')).find((f) => /^panel-.*\.js$/.test(f));
  return readFileSync(join(dir, 'assets', name!), 'utf8');
};

describe('the release build', () => {
  it('the test build that the tests load carries the handle and the demo session (what the check looks for)', () => {
    for (const browser of ['chrome', 'firefox']) {
      const found = testCodeIn(join(ROOT, 'dist', browser));
      expect(found.join('\n'), browser).toContain('__embedInspectorPanel');
      expect(found.join('\n'), browser).toContain('window.__xss=');
    }
  });

  it.each(['chrome', 'firefox'] as const)(
    'for %s holds no test code, and still the whole panel',
    (browser) => {
      const dir = releaseBuild(browser);
      expect(testCodeIn(dir)).toEqual([]);
      expect(existsSync(join(dir, 'manifest.json'))).toBe(true);
      const panel = panelScript(dir);
      for (const part of ['function createPanelApp', 'function mountPanel', 'function readEnv']) {
        expect(panel, part).toContain(part);
      }
    },
    180_000,
  );
});
