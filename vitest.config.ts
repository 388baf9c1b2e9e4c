import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import './test/helpers/node20.ts';

/**
 * The end-to-end files that keep both cores busy on their own (measured by /proc/stat, 1.7-1.9 cores each: several
 * browsers or Playwright workers side by side, a flood), and playwright-load, which holds its run to one core on
 * purpose: a file beside it would make that core slower than the test is written for (`npm test` runs it first,
 * held to core 0, beside the checks and the unit tests held to core 1: scripts/test-run.mjs).
 */
const ALONE = [
  'test/e2e/playwright-load.test.ts',
  'test/e2e/transparency-chromium.test.ts',
  'test/e2e/transparency-firefox.test.ts',
  'test/e2e/playwright-fixture.test.ts',
  'test/e2e/coverage-reporter.test.ts',
  'test/e2e/capture-flood.test.ts',
];

/**
 * The end-to-end files on the `chromium` fixture (test/helpers/fixtures.ts): each vitest worker keeps one Chromium
 * for the files it runs, reset for each file (its pages closed, the capture scope and settings back to their
 * defaults, the panel's storage and the download behaviour cleared: helpers/capture.ts `freshChromium`, checked by
 * shared-chromium.test.ts). Launching one per file cost ~4 CPU s a file: these files took 386 CPU s so, 287 sharing.
 * A file does not count on the files before it: `--sequence.shuffle.files --sequence.seed=N` runs them in another
 * order (a file's tests keep theirs).
 */
const SHARED_CHROMIUM = [
  'act-export-spec',
  'act-export',
  'act-idle',
  'act-inject',
  'act-replay',
  'capture-fidelity',
  'capture-lossless',
  'capture-order',
  'capture-sandbox',
  'capture-transparency',
  'diagnosis',
  'extension-load',
  'panel-a11y',
  'panel-fit',
  'panel-flow-lanes',
  'panel-flow',
  'panel-grid',
  'panel-limits',
  'panel-live',
  'panel-rest',
  'panel-ui',
  'panel-verdicts',
  'panel-words',
  'panel-worker-restart',
  'shared-chromium',
  'verdicts-sandbox',
].map((f) => `test/e2e/${f}.test.ts`);

const E2E: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  setupFiles: ['test/helpers/e2e-setup.ts'],
  // No retry: a flaky test is a bug whose cause is to be found. `npm test` (scripts/test-run.mjs) reruns the failed
  // files once to say which failures were flaky, and fails either way.
  retry: 0,
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

// Own config on purpose: the app's vite config loads vite-plugin-solid, which would switch tests to jsdom.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/unit/**/*.test.ts', 'test/sandbox/**/*.test.ts'],
          environment: 'node',
          // Files share their workers and modules: 55 s -> 25 s here (most of the time went to loading each file's
          // modules again). A test must not depend on what ran before it: shuffled orders
          // (`--sequence.shuffle --sequence.seed=N`) pass.
          isolate: false,
          // (as the e2e project's, which runs beside it: a group's projects share one worker count)
          maxWorkers: 2,
        },
      },
      {
        test: {
          // Two files at a time, beside the unit tests: a file that drives one browser leaves part of the 2 cores
          // idle (its waits, its server), which the other file's work fills.
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE, ...SHARED_CHROMIUM],
          maxWorkers: 2,
          ...E2E,
        },
      },
      {
        test: {
          // The files of SHARED_CHROMIUM, beside the e2e project's: a worker's files share its modules (so its
          // worker-scoped Chromium lives from one file to the next) and run one after another in it.
          name: 'e2e-shared',
          include: SHARED_CHROMIUM,
          maxWorkers: 2,
          isolate: false,
          ...E2E,
        },
      },
      {
        test: {
          // The files of ALONE, one at a time once the others are done.
          name: 'e2e-alone',
          include: ALONE,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          ...E2E,
        },
      },
    ],
  },
});
