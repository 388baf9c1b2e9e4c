import { defineConfig } from 'vitest/config';

// vitest 5 targets Node 22: its reporter calls Map.groupBy, which Node 20 lacks, and then hides every failure.
// These machines run Node 20, so supply it (the same semantics as the standard one).
if (typeof (Map as unknown as { groupBy?: unknown }).groupBy !== 'function') {
  (Map as unknown as { groupBy: unknown }).groupBy = <T, K>(items: Iterable<T>, key: (item: T, i: number) => K) => {
    const out = new Map<K, T[]>();
    let i = 0;
    for (const item of items) {
      const k = key(item, i++);
      const list = out.get(k);
      if (list) {
        list.push(item);
      } else {
        out.set(k, [item]);
      }
    }
    return out;
  };
}

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
