// Playwright Test for the `embed-inspector/playwright` fixture's own suite (test/playwright): the sandbox on fixed
// ports, the system Chromium with the built extension (the fixture launches it; no browser is downloaded).
//
//   node scripts/build.mjs && npx playwright test [--workers=N] [--shard=i/n]
//
// EI_PW_HOST_PORT / EI_PW_TENANT_PORT move the sandbox; test/e2e/playwright-fixture.test.ts runs this suite.
import { defineConfig } from '@playwright/test';

const port = (name: string, fallback: number) => Number(process.env[name] || fallback);
export const HOST_PORT = port('EI_PW_HOST_PORT', 4310);
export const TENANT_PORT = port('EI_PW_TENANT_PORT', 4311);
/** The sandbox's host site (the tests' baseURL) and its tenant (the embed emulator). */
export const HOST_ORIGIN = `http://127.0.0.1:${HOST_PORT}`;
export const TENANT_ORIGIN = `http://localhost:${TENANT_PORT}`;

export default defineConfig({
  testDir: 'test/playwright',
  outputDir: 'test-results/playwright',
  // Every test on any worker: a worker's browser carries no state from one test to the next.
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  workers: process.env.EI_PW_WORKERS ? Number(process.env.EI_PW_WORKERS) : undefined,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: HOST_ORIGIN,
    headless: true,
  },
  webServer: {
    command: `node sandbox/server.mjs --host-port ${HOST_PORT} --tenant-port ${TENANT_PORT} --quiet`,
    url: `${HOST_ORIGIN}/`,
    reuseExistingServer: false,
    timeout: 20_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
