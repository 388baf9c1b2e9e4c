// Transparency, windows and messaging: what the web-platform-tests check about window access paths,
// postMessage's exceptions, functions read from windows and cross-origin objects (test/transparency/
// window-checks.ts), observed without the extension and with capture on in `full` and `receive-only`
// mode; any difference not listed in test/transparency/known-differences.ts fails (issue 13). The suite is
// test/transparency/suites.ts's, the same as Firefox's; see test/transparency/README.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { ROOT } from '../helpers/paths.ts';
import { KNOWN_DIFFERENCES, KNOWN_REORDERS } from '../transparency/known-differences.ts';
import { windowsSuite } from '../transparency/suites.ts';

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

windowsSuite('chromium');
