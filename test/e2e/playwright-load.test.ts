// `embed-inspector/playwright` on a busy page of a slow machine: test/playwright/load (its own config) floods 10,000
// actions per test (20,000 behind a wait) on two Playwright workers held to one core (`taskset -c 0`: the workers,
// their browsers and the sandbox share it, and whatever else the machine runs may use it too). The failing
// `toHaveNoProtocolErrors()` still carries the whole capture and timeline, and waits that outlast the test end before
// its timeout with their own names, not "Test timeout exceeded".
// The tests whose wait outlasts them wait while the page floods: on one core the flood outlasts any test time, and
// what must end first is the wait, not the flood.
// Needs the build, the system Chromium and taskset (util-linux); no browser is downloaded.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { checkCapture } from '../../src/protocol/capture.ts';
import type { CaptureFile } from '../../src/protocol/record.ts';
import { body, runPlaywright, type Run } from '../helpers/playwright-run.ts';

/** As test/playwright/load/flood.load.ts floods in the tests that wait for it. */
const FLOOD = 10_000;
const errorsOf = (t: Run['tests'][number]) => t.results.flatMap((r) => r.errors.map((e) => e.message ?? '')).join('\n');

/** CPU seconds core 0 has been busy (/proc/stat's `cpu0` line, in clock ticks of 1/100 s), whoever used it. */
function core0Busy(): number {
  const line = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('cpu0 ')) as string;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  return (ticks.reduce((a, b) => a + b, 0) - ticks[3] - ticks[4]) / 100;
}

/** What the run must show; read while its output folder (the attachments) still exists. */
function check(run: Run) {
  // (each test's errors cut to their first lines, the statuses last: a CI log shows its tail)
  const head = (text: string) => text.split('\n').slice(0, 12).join('\n');
  const summary = [
    ...run.tests.filter((t) => t.status !== 'expected').map((t) => `${t.title}:\n${head(errorsOf(t))}`),
    ...run.tests.map(
      (t) => `${t.title}: ${t.status} (${t.results.map((r) => `${r.status} in ${(r.duration / 1000).toFixed(1)} s`)})`,
    ),
  ].join('\n');
  expect(run.code, `${run.stderr}\n${summary}`).toBe(0);
  expect(run.report.stats).toMatchObject({ expected: 4, unexpected: 0, flaky: 0 });
  for (const t of run.tests) {
    expect(t.results, t.title).toHaveLength(1);
    // Nothing ended by Playwright's test timeout: a wait that outlasts the test ends first, with its name.
    expect(t.results[0].status, `${t.title}\n${errorsOf(t)}`).not.toBe('timedOut');
    expect(errorsOf(t)).not.toMatch(/Test timeout of \d+ms exceeded/);
  }
  const test = (title: string) => run.tests.find((t) => t.title.startsWith(title)) as Run['tests'][number];

  const failing = test('a flooding host with one action posted to "*"');
  expect(errorsOf(failing)).toMatch(
    /toHaveNoProtocolErrors[\s\S]*1 protocol error in [\d,]+ records[\s\S]*origin\.action-wildcard/,
  );
  const byName = new Map(failing.results[0].attachments.map((a) => [a.name, a]));
  const captured = byName.get('embed-capture.json');
  expect(captured?.contentType).toBe('application/json');
  const capture = JSON.parse(body(captured!)) as CaptureFile;
  const sets = capture.messages.filter((m) => (m.data as { type?: string }).type === 'svc:action:set-color-scheme');
  // The whole flood, each post and its delivery, and the one wildcard action.
  expect(sets.filter((m) => m.kind === 'post')).toHaveLength(FLOOD + 1);
  expect(sets.filter((m) => m.kind === 'receive')).toHaveLength(FLOOD + 1);
  expect(sets.filter((m) => m.targetOrigin === '*')).toHaveLength(1);
  expect(checkCapture(capture).summary.rules['origin.action-wildcard']).toBe(1);
  const timeline = body(byName.get('embed-timeline.txt')!);
  expect(timeline).not.toMatch(/incomplete|not read/);
  expect(timeline).toMatch(/svc:action:set-color-scheme\s+post → \*\s+invalid/);
  expect(timeline.split('\n').filter((l) => /^ {2}#\d+ +svc:action:set-color-scheme/.test(l))).toHaveLength(
    2 * (FLOOD + 1),
  );

  const wait = test('a wait that outlasts the test');
  expect(errorsOf(wait)).toMatch(
    /EmbedTimeoutError: embed\.waitFor\('svc:event:download', \{ timeout: 120000 \}\): svc:event:download not delivered before the test's time ran out/,
  );
  const assertion = test('an assertion that outlasts the test');
  expect(errorsOf(assertion)).toMatch(
    /toHaveSeen[\s\S]*Not seen: svc:event:download[\s\S]*the test's time ran out before the assertion's own timeout/,
  );
  // Those failed tests carry their evidence too.
  for (const t of [wait, assertion]) {
    const names = t.results[0].attachments.map((a) => a.name);
    expect(names).toEqual(expect.arrayContaining(['embed-capture.json', 'embed-timeline.txt']));
  }
  expect(test('every action of the flood is captured').status).toBe('expected');
}

describe('embed-inspector/playwright on a busy page of a slow machine', () => {
  it('two workers on one core, 10,000 messages a test: evidence whole, every wait named', async () => {
    const started = performance.now();
    const busy0 = core0Busy();
    const run = await runPlaywright(['-c', 'test/playwright/load.config.ts', '--workers=2'], { check, cpus: '0' });
    // The run was held to its one core, and that core was busy throughout (not a quiet machine).
    expect(run.affinity).toBe('0');
    const wall = (performance.now() - started) / 1000;
    const busy = core0Busy() - busy0;
    expect(busy / wall).toBeGreaterThan(0.8);
    console.log(
      `playwright load: 4 tests in ${run.seconds.toFixed(1)} s on one core, busy ${busy.toFixed(0)} CPU-s of ${wall.toFixed(0)} s`,
    );
  }, 300_000);
});
