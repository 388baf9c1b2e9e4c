// The test runner of `npm test`: vitest with no automatic retry. When a run fails, the failed files run once more,
// alone, and a report says of each failure whether it passed on that rerun (flaky) or failed again; the exit status
// is the first run's either way, so a flaky test keeps CI red until its cause is found.
//
//   node scripts/test-run.mjs [--project unit|e2e] [vitest options…]
//
// The options are passed to both runs (not file filters: the rerun names its files).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedFiles, outcomes, reportLines } from './rerun-report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const args = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'ei-test-run-'));

/** One vitest run with its usual output and a JSON report; its exit status and the report (null if none). */
function run(name, extra) {
  const out = join(dir, `${name}.json`);
  const r = spawnSync(
    process.execPath,
    [vitest, 'run', ...args, ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { cwd: root, stdio: 'inherit' },
  );
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
