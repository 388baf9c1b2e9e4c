// @ts-check
// What a rerun of the failed test files says about each failure (scripts/test-run.mjs): read from vitest's JSON
// reports (`--reporter=json`) of the first run and of the rerun. Pure, so that the unit tests can hold it.

/**
 * @typedef {{ fullName: string, status: string }} JsonTest
 * @typedef {{ name: string, status: string, message?: string, assertionResults: JsonTest[] }} JsonFile
 * @typedef {{ testResults: JsonFile[] }} JsonReport
 * @typedef {{ file: string, test: string | null, again: 'passed' | 'failed' | 'not run' }} Outcome
 */

/**
 * The failures of a run: each failed test, and a failed file that has no failed test (a hook or an import failed:
 * its tests never ran), with `test` null.
 * @param {JsonReport} report
 * @param {string} root the directory the file names are made relative to
 * @returns {{ file: string, test: string | null }[]}
 */
export function failures(report, root) {
  const out = [];
  for (const f of report.testResults) {
    const file = relativeTo(f.name, root);
    const failed = f.assertionResults.filter((t) => t.status === 'failed');
    for (const t of failed) {
      out.push({ file, test: t.fullName });
    }
    if (f.status === 'failed' && failed.length === 0) {
      out.push({ file, test: null });
    }
  }
  return out;
}

/** The failed files of a run, relative to `root`, in the report's order.
 * @param {JsonReport} report @param {string} root */
export function failedFiles(report, root) {
  return [...new Set(failures(report, root).map((f) => f.file))];
}

/**
 * How each failure of the first run did in the rerun of its file: `passed` (flaky), `failed` (again), or `not run`
 * (the rerun did not report it: its file failed before it, or the rerun did not start).
 * @param {JsonReport} first @param {JsonReport | null} rerun @param {string} root
 * @returns {Outcome[]}
 */
export function outcomes(first, rerun, root) {
  const again = new Map();
  for (const f of rerun?.testResults ?? []) {
    const file = relativeTo(f.name, root);
    for (const t of f.assertionResults) {
      again.set(`${file}\0${t.fullName}`, t.status);
    }
    again.set(`${file}\0`, f.status);
  }
  return failures(first, root).map(({ file, test }) => {
    const status = again.get(`${file}\0${test ?? ''}`);
    return { file, test, again: status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'not run' };
  });
}

/**
 * The report's lines: one per failure of the first run, then the tally. A flaky test fails the run as a failing one
 * does: it is a bug whose cause is to be found.
 * @param {Outcome[]} list
 * @returns {string[]}
 */
export function reportLines(list) {
  const label = { passed: 'flaky: passed on rerun', failed: 'failed again', 'not run': 'not run again' };
  const lines = list.map(
    (o) => `  ${label[o.again].padEnd(22)} ${o.file}${o.test ? ` > ${o.test}` : ' (the file itself)'}`,
  );
  const n = (what) => list.filter((o) => o.again === what).length;
  lines.push(
    `rerun: ${n('passed')} flaky, ${n('failed')} failed again, ${n('not run')} not run again; ` +
      'the run fails either way (a flaky test is a bug: find its cause)',
  );
  return lines;
}

/** @param {string} name @param {string} root */
function relativeTo(name, root) {
  const r = root.endsWith('/') ? root : `${root}/`;
  return name.startsWith(r) ? name.slice(r.length) : name;
}
