// `embed-inspector/playwright` as a project runs it: `npx playwright test` on test/playwright (playwright.config.ts
// starts the sandbox) on two workers, read back from Playwright's JSON report. Every test has its expected status
// (the action-star one is an expected failure), the failed test carries the capture and the timeline, two workers
// really share the suite (each running several tests one after another, as one worker runs them all), and no worker
// leaves its browser profile behind.
// Needs the build (`npm test` builds first) and the system Chromium; no browser is downloaded.
import { describe, expect, it } from 'vitest';
import { checkCapture } from '../../src/protocol/capture.ts';
import type { CaptureFile } from '../../src/protocol/record.ts';
import { body, runPlaywright as run, type Run } from '../helpers/playwright-run.ts';

const FAILING = 'a host that posts its actions to "*" fails toHaveNoProtocolErrors';

/** `npx playwright test --workers=N` on test/playwright (playwright.config.ts), checked by `checkRun`. */
const runPlaywright = (workers: number) => run([`--workers=${workers}`], { check: checkRun });

/** Every test ran once and ended as expected; the failing one as an expected failure with its attachments. */
function checkRun(run: Run) {
  const summary = run.tests
    .map((t) => `${t.title}: ${t.status} (${t.results.map((r) => r.status).join(', ')})`)
    .join('\n');
  expect(run.code, `${run.stderr}\n${summary}`).toBe(0);
  expect(run.report.errors ?? []).toEqual([]);
  expect(run.tests.length).toBeGreaterThanOrEqual(10);
  expect(run.report.stats).toMatchObject({ expected: run.tests.length, unexpected: 0, flaky: 0, skipped: 0 });
  for (const t of run.tests) {
    expect(t.status, `${t.title}\n${t.results.flatMap((r) => r.errors.map((e) => e.message)).join('\n')}`).toBe(
      'expected',
    );
    expect(t.results).toHaveLength(1);
  }

  const failing = run.tests.find((t) => t.title.endsWith(FAILING));
  expect(failing, summary).toBeDefined();
  expect(failing!.expectedStatus).toBe('failed');
  const [result] = failing!.results;
  expect(result.status).toBe('failed');
  expect(result.errors.map((e) => e.message).join('\n')).toMatch(
    /toHaveNoProtocolErrors[\s\S]*origin\.action-wildcard/,
  );
  const byName = new Map(result.attachments.map((a) => [a.name, a]));
  const captureAttachment = byName.get('embed-capture.json');
  expect(captureAttachment?.contentType).toBe('application/json');
  const capture = JSON.parse(body(captureAttachment!)) as CaptureFile;
  expect(capture.format).toBe('embed-inspector-capture');
  expect(capture.version).toBe(1);
  expect(capture.tenantOrigin).toMatch(/^http:\/\/localhost:\d+$/);
  const wildcard = capture.messages.filter(
    (m) =>
      m.kind === 'post' &&
      m.targetOrigin === '*' &&
      (m.data as { direction?: string; type?: string }).type === 'svc:action:set-color-scheme',
  );
  expect(wildcard).toHaveLength(1);
  // The attached capture says the same as the test: `embed-inspector check` finds the wildcard action in it.
  expect(checkCapture(capture).summary.rules['origin.action-wildcard']).toBeGreaterThanOrEqual(1);
  // Redacted: the embed URL's session parameter is not in the file.
  expect(JSON.stringify(capture)).not.toMatch(/session=demo/);
  const timeline = body(byName.get('embed-timeline.txt')!);
  expect(timeline).toMatch(/svc:action:set-color-scheme\s+post → \*\s+invalid/);
  expect(timeline).toContain('origin.action-wildcard');

  // A test that passed attaches nothing of ours.
  for (const t of run.tests.filter((x) => x !== failing)) {
    expect(t.results[0].attachments.map((a) => a.name)).not.toContain('embed-capture.json');
  }
}

describe('embed-inspector/playwright under npx playwright test', () => {
  it('two workers: every test as expected, the failed one with its capture and timeline, a browser each', async () => {
    const run = await runPlaywright(2);
    const slots = new Set(run.tests.map((t) => t.results[0].parallelIndex));
    expect(slots).toEqual(new Set([0, 1]));
    expect(new Set(run.tests.map((t) => t.results[0].workerIndex)).size).toBeGreaterThanOrEqual(2);
    // Each worker ran several tests in turn in its browser, as a single worker does.
    for (const slot of slots) {
      expect(run.tests.filter((t) => t.results[0].parallelIndex === slot).length).toBeGreaterThanOrEqual(3);
    }
    expect(run.leftProfiles).toEqual([]);
    console.log(`playwright, 2 workers: ${run.tests.length} tests in ${run.seconds.toFixed(1)} s`);
  }, 240_000);
});
