// Types of test-code.mjs for the TypeScript that imports it (test/e2e/release-build.test.ts).
export const TEST_CODE_MARKERS: Record<string, string>;
export function testCodeIn(dir: string): string[];
