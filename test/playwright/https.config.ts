// The `embed-inspector/playwright` fixture on a staging host with a self-signed certificate: Playwright's own
// `ignoreHTTPSErrors`, set in the project's `use` as the fixture reads it. test/e2e/https-self-signed.test.ts serves
// the pages over HTTPS (EI_PW_HTTPS_URL) with a certificate it makes, and runs this.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'https',
  testMatch: '*.https.ts',
  outputDir: '../../test-results/playwright-https',
  workers: 1,
  reporter: 'list',
  use: { baseURL: process.env.EI_PW_HTTPS_URL, headless: true, ignoreHTTPSErrors: true },
});
