import { defineConfig } from 'vitest/config';
import './test/helpers/node20.ts';

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
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/helpers/e2e-setup.ts'],
          fileParallelism: false,
          // No retry: a flaky test is a bug whose cause is to be found. `npm test` (scripts/test-run.mjs) reruns the
          // failed files once to say which failures were flaky, and fails either way.
          retry: 0,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
