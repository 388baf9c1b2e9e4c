// The test runner of `npm test`: the static checks, then vitest with no automatic retry. When a run fails, the
// failed files run once more, alone, and a report says of each failure whether it passed on that rerun (flaky) or
// failed again; the exit status is the first run's either way, so a flaky test keeps CI red until its cause is found.
//
//   node scripts/test-run.mjs [--checks] [--project unit|'e2e*'] [vitest options…]
//
// `--checks` (npm test) runs lint, typecheck and lint:firefox first; a failed check ends the run before the tests.
// A whole run (`--checks` and no vitest option) on Linux with two cores or more and `taskset`: playwright-load holds
// its Playwright run to core 0 on purpose (a slow machine), which left core 1 idle for its minute; so it runs first,
// its vitest held to core 0, while core 1 runs the checks and the unit tests; then every other end-to-end file.
// Elsewhere the checks run, then one vitest run.
//
// Each run ends with what it cost the machine (wall time, CPU time, the floor that sets on these cores).
//
// The options are passed to every run (not file filters: the rerun names its files).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedFiles, outcomes, reportLines } from './rerun-report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const argv = process.argv.slice(2);
const checks = argv.includes('--checks');
const args = argv.filter((a) => a !== '--checks');
const dir = mkdtempSync(join(tmpdir(), 'ei-test-run-'));
/** The end-to-end file that holds its Playwright run to one core (vitest.config.ts's ALONE). */
const LOAD = 'test/e2e/playwright-load.test.ts';
const CHECKS = ['lint', 'typecheck', 'lint:firefox'];

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

/** vitest's arguments for a run named `name`: its usual output and a JSON report in this run's folder. */
const vitestArgs = (name, extra) => [
  vitest,
  'run',
  ...args,
  ...extra,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${join(dir, `${name}.json`)}`,
];
const reportOf = (name) => {
  const file = join(dir, `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
};

/** One vitest run with its output shown as it goes; its exit status and its report (null if none). */
function run(name, label, extra) {
  const started = performance.now();
  const busy0 = busySeconds();
  const r = spawnSync(process.execPath, vitestArgs(name, extra), { cwd: root, stdio: 'inherit' });
  console.log(`\n${costLine(label, started, busy0)}`);
  return { status: r.status ?? 1, report: reportOf(name) };
}

/** The checks one after another, their output shown as it goes; false at the first that fails. */
function checksInline() {
  for (const c of CHECKS) {
    if (spawnSync('npm', ['run', c], { cwd: root, stdio: 'inherit' }).status !== 0) {
      return false;
    }
  }
  return true;
}

/**
 * A command held to `cpus` (taskset), its output kept: `done` gives its exit status and that output; `stop()` ends
 * it and what it started (its own process group).
 */
function held(cpus, command) {
  // (colours as the command would show them on this terminal: its output is a pipe)
  const env = { ...process.env, ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}) };
  const child = spawn('taskset', ['-c', cpus, ...command], { cwd: root, env, detached: true });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const done = new Promise((resolve) => {
    child.on('error', (e) => resolve({ status: 1, out: `${out}\n${e.message}` }));
    child.on('close', (status) => resolve({ status: status ?? 1, out }));
  });
  const stop = () => {
    // (never without a pid: process.kill(-0) would signal this run's own group)
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGINT');
      } catch {}
    }
  };
  return { done, stop };
}

/** Core 1's share of the first part: the checks, then (if they pass) the unit tests. */
async function checksThenUnit() {
  let out = '';
  for (const c of CHECKS) {
    const r = await held('1', ['npm', 'run', c]).done;
    out += r.out;
    if (r.status !== 0) {
      return { status: r.status, out, checked: false };
    }
  }
  const unit = await held('1', [process.execPath, ...vitestArgs('unit', ['--project', 'unit'])]).done;
  return { status: unit.status, out: out + unit.out, checked: true };
}

/**
 * The first part of a whole run: playwright-load on core 0, the checks and the unit tests on core 1, side by side;
 * each side's output is shown when it ends (a failed check ends playwright-load and the run). Then every other
 * end-to-end file.
 */
async function split() {
  console.log('\ncore 0: playwright-load; core 1: the checks, then the unit tests (each shown when it ends)\n');
  const started = performance.now();
  const busy0 = busySeconds();
  const loading = held('0', [process.execPath, ...vitestArgs('load', ['--project', 'e2e-alone', LOAD])]);
  const side = await checksThenUnit();
  process.stdout.write(`${side.out}\n`);
  if (!side.checked) {
    loading.stop();
    console.log('a check failed: playwright-load stopped, no test run');
    return { status: side.status, reports: [] };
  }
  const load = await loading.done;
  process.stdout.write(`${load.out}\n`);
  console.log(`\n${costLine('core 0 and core 1', started, busy0)}`);
  const rest = run('rest', 'vitest, the other end-to-end files', [
    '--project',
    'e2e',
    '--project',
    'e2e-shared',
    '--project',
    'e2e-alone',
    '--exclude',
    LOAD,
  ]);
  const status = [load.status, side.status, rest.status].find((s) => s !== 0) ?? 0;
  return { status, reports: [reportOf('load'), reportOf('unit'), rest.report] };
}

/** The failed files of the runs' reports run again, and what that says of each failure. */
function rerun(reports) {
  const first = { testResults: reports.flatMap((r) => r?.testResults ?? []) };
  const files = failedFiles(first, root);
  if (!files.length) {
    return;
  }
  console.log(`\nrerun: ${files.length} file${files.length === 1 ? '' : 's'} failed; running ${files.join(' ')} again`);
  const again = run('rerun', 'vitest, the rerun', files);
  console.log(`\nrerun report (the first run's failures):`);
  console.log(reportLines(outcomes(first, again.report, root)).join('\n'));
}

const canSplit =
  checks && args.length === 0 && availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0;
let status;
try {
  const started = performance.now();
  const busy0 = busySeconds();
  let result;
  if (canSplit) {
    result = await split();
  } else if (checks && !checksInline()) {
    result = { status: 1, reports: [] };
  } else {
    const first = run('first', 'vitest', []);
    result = { status: first.status, reports: [first.report] };
  }
  status = result.status;
  if (status !== 0) {
    rerun(result.reports);
  }
  if (canSplit) {
    console.log(`\n${costLine('all of it', started, busy0)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
