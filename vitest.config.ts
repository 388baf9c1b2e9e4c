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
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          // Real browsers on a 2-core machine: one retry absorbs scheduling jitter; a failure that repeats fails.
          retry: 1,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
