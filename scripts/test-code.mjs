// What marks test code in a built extension: the panel's test handle, the demo session, the background's test fakes.
// `npm run package` refuses to package a build that holds any (scripts/package.mjs), and test/e2e/release-build.test.ts
// checks that a release build holds none while the test build does.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A string each test-only module leaves in a bundle that includes it (the builds are not minified). */
export const TEST_CODE_MARKERS = {
  __embedInspectorPanel: 'the panel test handle (src/panel/app/test-handle.ts)',
  'window.__xss=': 'the demo session (src/panel/app/synthetic.ts)',
  'demo-session': 'the demo session (src/panel/app/synthetic.ts)',
  'function relayBatchOf': 'the background test fakes',
  'function fakeStore': 'the background test fakes',
};

const files = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(m?js|html)$/.test(e.name) ? [join(dir, e.name)] : [],
  );

/** Each file of a built extension (its scripts and pages) that holds test code, with what it holds. */
export function testCodeIn(dir) {
  const found = [];
  for (const file of files(dir)) {
    const text = readFileSync(file, 'utf8');
    for (const [marker, what] of Object.entries(TEST_CODE_MARKERS)) {
      if (text.includes(marker)) {
        found.push(`${relative(dir, file)}: ${what} ("${marker}")`);
      }
    }
  }
  return found;
}
