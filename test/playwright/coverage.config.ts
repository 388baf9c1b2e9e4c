// The sandbox suite (test/playwright, as playwright.config.ts runs it) with every test's capture attached and the
// coverage reporter, for the reporter's own tests (test/e2e/coverage-reporter.test.ts): they run it at once and in two
// shards merged with merge-reports, with EI_PW_COVERAGE_MIN (JSON) and EI_PW_COVERAGE_OPEN as the reporter's `min`
// and `open`, and EMBED_INSPECTOR_REPORT_DIR as its folder.
//
//   node scripts/build.mjs && npx playwright test -c test/playwright/coverage.config.ts [--shard=1/2 --reporter=blob]
import { createRequire } from 'node:module';
import { defineConfig } from '@playwright/test';
import type { EmbedInspectorOptions } from 'embed-inspector/playwright';
import base from '../../playwright.config.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
// (the workers inherit it: sandbox.spec.ts's own `test.use` of the option then attaches the capture too)
process.env.EI_PW_ATTACH_CAPTURE = 'on';
const env = process.env;
// The reporter by the package's name, resolved here as Playwright resolves a reporter (require.resolve): from this
// folder, inside the package, its own name resolves; Playwright's own resolution from its folder would not.
const REPORTER = createRequire(import.meta.url).resolve('embed-inspector/playwright/reporter');

export default defineConfig<{ embedInspector: EmbedInspectorOptions }>({
  ...base,
  // (this config's folder is test/playwright: the base config's paths are from the repository's root)
  testDir: '.',
  testMatch: 'sandbox.spec.ts',
  outputDir: `${ROOT}test-results/playwright-coverage`,
  reporter: [
    [
      REPORTER,
      {
        ...(env.EI_PW_COVERAGE_MIN ? { min: JSON.parse(env.EI_PW_COVERAGE_MIN) } : {}),
        ...(env.EI_PW_COVERAGE_OPEN ? { open: env.EI_PW_COVERAGE_OPEN } : {}),
      },
    ],
  ],
  use: { ...base.use, embedInspector: { attachCapture: 'on' } },
  webServer: { ...(base.webServer as object), cwd: ROOT } as typeof base.webServer,
});
