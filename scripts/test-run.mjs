// The test runner of `npm test`: vitest with no automatic retry. When a run fails, the failed files run once more,
// alone, and a report says of each failure whether it passed on that rerun (flaky) or failed again; the exit status
// is the first run's either way, so a flaky test keeps CI red until its cause is found.
//
//   node scripts/test-run.mjs [--project unit|'e2e*'] [vitest options…]
//
// Each run ends with what it cost the machine (wall time, CPU time, the floor that sets on these cores).
//
// The options are passed to both runs (not file filters: the rerun names its files).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedFiles, outcomes, reportLines } from './rerun-report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const args = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'ei-test-run-'));

/** CPU seconds the whole machine has been busy (Linux's /proc/stat), or null elsewhere. */
function busySeconds() {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (ticks.reduce((a, b) => a + b, 0) - ticks[3] - ticks[4]) / 100;
  } catch {
    return null;
  }
}

/**
 * What a run cost the machine: its wall time beside the CPU time all cores were busy (every process, the browsers'
 * included) and the floor that CPU time sets on this many cores. A run well above its floor leaves cores idle; a run
 * at its floor is made shorter only by less work.
 */
function costLine(name, started, busy0) {
  const wall = (performance.now() - started) / 1000;
  const busy = busySeconds();
  if (busy0 === null || busy === null) {
    return `${name}: ${wall.toFixed(0)} s`;
  }
  const cores = availableParallelism();
  const cpu = busy - busy0;
  return `${name}: ${wall.toFixed(0)} s; the machine busy ${cpu.toFixed(0)} CPU s, a floor of ${(cpu / cores).toFixed(0)} s on ${cores} cores (${((100 * cpu) / (wall * cores)).toFixed(0)}% busy)`;
}

/** One vitest run with its usual output and a JSON report; its exit status and the report (null if none). */
function run(name, extra) {
  const out = join(dir, `${name}.json`);
  const started = performance.now();
  const busy0 = busySeconds();
  const r = spawnSync(
    process.execPath,
    [vitest, 'run', ...args, ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { cwd: root, stdio: 'inherit' },
  );
  console.log(`\n${costLine(name === 'first' ? 'vitest' : 'vitest, the rerun', started, busy0)}`);
  const report = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null;
  return { status: r.status ?? 1, report };
}

let status;
try {
  const first = run('first', []);
  status = first.status;
  if (status !== 0 && first.report) {
    const files = failedFiles(first.report, root);
    if (files.length) {
      console.log(
        `\nrerun: ${files.length} file${files.length === 1 ? '' : 's'} failed; running ${files.join(' ')} again`,
      );
      const again = run('rerun', files);
      console.log(`\nrerun report (the first run's failures):`);
      console.log(reportLines(outcomes(first.report, again.report, root)).join('\n'));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
