/**
 * The coverage summary the Playwright fixture attaches to every test that ran (`embed-coverage.json`, protocol/
 * coverage.ts: versioned, a few kilobytes at most, redacted), passed or failed, for `embed-inspector/playwright/
 * reporter` to add up; attachments travel in blob reports, so a sharded suite merged with `merge-reports` adds up
 * the same. A capture that cannot be read (a stuck browser) gives a summary that says why.
 */
import type { TestInfo } from '@playwright/test';
import { failedSummary, summarizeCapture, type CoverageSummary } from '../protocol/coverage.ts';
import type { Embed } from './embed.ts';

/** The attachment's name; the reporter reads the attachments of this name. */
export const COVERAGE_ATTACHMENT = 'embed-coverage.json';
/** The capture's attachment (the fixture's, on failure or with `attachCapture: 'on'`), linked from the report. */
export const CAPTURE_ATTACHMENT = 'embed-capture.json';

const READ_MS = 8_000;

/** The summary of the test's page: its capture read (as it came: verdicts are judged on it), then summarized. */
async function coverageOf(embed: Embed): Promise<CoverageSummary> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const file = await Promise.race([
      embed.capture({ redact: false }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READ_MS} ms`)), READ_MS);
      }),
    ]);
    return summarizeCapture(file);
  } catch (e) {
    return failedSummary(`capture not read: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Attach the test's coverage summary to its result (every test that ran; a skipped one did nothing to cover). */
export async function attachCoverage(embed: Embed, testInfo: TestInfo): Promise<void> {
  if (testInfo.status === 'skipped') {
    return;
  }
  const summary = await coverageOf(embed);
  await testInfo.attach(COVERAGE_ATTACHMENT, { body: JSON.stringify(summary), contentType: 'application/json' });
}
