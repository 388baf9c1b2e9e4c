// The `embed-inspector/playwright` fixture on busy pages (test/playwright/load/*.load.ts): two workers, each test's
// page flooding 10,000 messages (20,000 behind a wait); test/e2e/playwright-load.test.ts runs it held to one core.
//
//   node scripts/build.mjs && npx playwright test -c test/playwright/load.config.ts
//
// Its own sandbox ports (EI_PW_LOAD_HOST_PORT / EI_PW_LOAD_TENANT_PORT); the main suite (playwright.config.ts) does
// not match `.load.ts` files.
import { defineConfig } from '@playwright/test';

const port = (name: string, fallback: number) => Number(process.env[name] || fallback);
export const HOST_PORT = port('EI_PW_LOAD_HOST_PORT', 4320);
export const TENANT_PORT = port('EI_PW_LOAD_TENANT_PORT', 4321);
export const HOST_ORIGIN = `http://127.0.0.1:${HOST_PORT}`;
export const TENANT_ORIGIN = `http://localhost:${TENANT_PORT}`;

export default defineConfig({
  testDir: 'load',
  testMatch: '*.load.ts',
  outputDir: '../../test-results/playwright-load',
  fullyParallel: true,
  workers: 2,
  reporter: 'list',
  // A CI project's usual test timeout: a flood and its reads fit in it on a loaded machine, or say why not.
  timeout: 60_000,
  use: { baseURL: HOST_ORIGIN, headless: true },
  webServer: {
    command: `node sandbox/server.mjs --host-port ${HOST_PORT} --tenant-port ${TENANT_PORT} --quiet`,
    cwd: '../..',
    url: `${HOST_ORIGIN}/`,
    reuseExistingServer: false,
    timeout: 20_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
