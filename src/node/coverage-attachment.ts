/**
 * The coverage summary the Playwright fixture attaches to every test that ran (`embed-coverage.json`, protocol/
 * coverage.ts: versioned, a few kilobytes at most, redacted), passed or failed, for `embed-inspector/playwright/
 * reporter` to add up; attachments travel in blob reports, so a sharded suite merged with `merge-reports` adds up
 * the same. A capture that cannot be read (a stuck browser) gives a summary that says why.
 */
import type { TestInfo } from '@playwright/test';
import { failedSummary, summarizeCapture, type CoverageSummary } from '../protocol/coverage.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { readerOf, type Embed } from './embed.ts';

/** The attachment's name; the reporter reads the attachments of this name. */
export const COVERAGE_ATTACHMENT = 'embed-coverage.json';
/** The capture's attachment (the fixture's, on failure or with `attachCapture: 'on'`), linked from the report. */
export const CAPTURE_ATTACHMENT = 'embed-capture.json';

/**
 * The summary of the test's page: its capture read (as it came: verdicts are judged on it) until `until`, in the
 * teardown's own time as the evidence is (embed.ts), then summarized. A capture read only in part is no summary: its
 * rules of what did not happen would judge records it lacks.
 */
async function coverageOf(embed: Embed, until: number): Promise<CoverageSummary> {
  const reader = readerOf(embed);
  try {
    // Settling may take part of the time (what the frames still hold); the read the rest.
    await reader.settle(Date.now() + Math.max(0, until - Date.now()) * 0.4).catch(() => {});
    const read = await reader.read<CaptureFile['messages'][number]>('capture', {
      until,
      createdBy: 'embed-inspector test library',
    });
    if (!read.complete) {
      return failedSummary(`capture read in part: ${read.missing}`);
    }
    return summarizeCapture({ ...(read.head as CaptureFile), messages: read.items });
  } catch (e) {
    return failedSummary(`capture not read: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
  }
}

/** Attach the test's coverage summary to its result (every test that ran; a skipped one did nothing to cover). */
export async function attachCoverage(embed: Embed, testInfo: TestInfo): Promise<void> {
  if (testInfo.status === 'skipped') {
    return;
  }
  // (a fifth of the teardown's time: a failed test's evidence took at most 70% of it before)
  const budget = Math.max(testInfo.project.timeout, testInfo.timeout);
  const summary = await coverageOf(embed, Date.now() + (budget > 0 ? budget * 0.2 : 120_000));
  await testInfo.attach(COVERAGE_ATTACHMENT, { body: JSON.stringify(summary), contentType: 'application/json' });
}
