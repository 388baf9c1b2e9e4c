// `npm test`'s runner (scripts/test-run.mjs): no automatic retry; after a failed run the failed files run once more
// and a report says which failures were flaky, and the run fails either way.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { failedFiles, outcomes, reportLines, type JsonReport } from '../../scripts/rerun-report.mjs';
import { ROOT } from '../helpers/paths.ts';

const file = (name: string, status: string, tests: Array<[string, string]>, message?: string) => ({
  name: `/repo/${name}`,
  status,
  message,
  assertionResults: tests.map(([fullName, s]) => ({ fullName, status: s })),
});

describe('the rerun report', () => {
  const first: JsonReport = {
    testResults: [
      file('a.test.ts', 'passed', [['a works', 'passed']]),
      file('b.test.ts', 'failed', [
        ['b one', 'failed'],
        ['b two', 'passed'],
        ['b three', 'failed'],
      ]),
      file('c.test.ts', 'failed', [['c one', 'skipped']], 'beforeAll: the browser did not start'),
    ],
  };
  const rerun: JsonReport = {
    testResults: [
      file('b.test.ts', 'failed', [
        ['b one', 'passed'],
        ['b two', 'passed'],
        ['b three', 'failed'],
      ]),
      file('c.test.ts', 'passed', [['c one', 'passed']]),
    ],
  };

  it('reruns the failed files only, a file whose hook failed too', () => {
    expect(failedFiles(first, '/repo')).toEqual(['b.test.ts', 'c.test.ts']);
  });

  it('says of each failure whether it passed again, failed again, or did not run again', () => {
    expect(outcomes(first, rerun, '/repo')).toEqual([
      { file: 'b.test.ts', test: 'b one', again: 'passed' },
      { file: 'b.test.ts', test: 'b three', again: 'failed' },
      { file: 'c.test.ts', test: null, again: 'passed' },
    ]);
    expect(outcomes(first, null, '/repo').map((o) => o.again)).toEqual(['not run', 'not run', 'not run']);
  });

  it('names each one and tallies them; the run fails either way', () => {
    const lines = reportLines(outcomes(first, rerun, '/repo'));
    expect(lines).toEqual([
      '  flaky: passed on rerun b.test.ts > b one',
      '  failed again           b.test.ts > b three',
      '  flaky: passed on rerun c.test.ts (the file itself)',
      'rerun: 2 flaky, 1 failed again, 0 not run again; the run fails either way (a flaky test is a bug: find its cause)',
    ]);
  });
});

// The runner itself on a project of three files: one passes, one fails on its first run only, one always fails.
describe('scripts/test-run.mjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ei-test-run-case-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs without retry, reruns the failed files, reports flaky and failing tests, and exits 1', () => {
    const mark = join(dir, 'ran-once');
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `import ${JSON.stringify(join(ROOT, 'test/helpers/node20.ts'))};\nexport default { test: { include: ["*.test.mjs"] } };\n`,
    );
    writeFileSync(join(dir, 'ok.test.mjs'), 'import { it } from "vitest";\nit("passes", () => {});\n');
    writeFileSync(
      join(dir, 'flaky.test.mjs'),
      `import { existsSync, writeFileSync } from "node:fs";\nimport { it } from "vitest";\n` +
        `it("fails the first time", () => {\n  const again = existsSync(${JSON.stringify(mark)});\n` +
        `  writeFileSync(${JSON.stringify(mark)}, "");\n  if (!again) throw new Error("first run");\n});\n`,
    );
    writeFileSync(
      join(dir, 'broken.test.mjs'),
      'import { it } from "vitest";\nit("always fails", () => { throw new Error("broken"); });\n',
    );
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts/test-run.mjs'), '--root', dir, '--config', join(dir, 'vitest.config.mjs')],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
    );
    const out = r.stdout + r.stderr;
    expect(r.status, out).toBe(1);
    expect(out).toMatch(
      /rerun: 2 files failed; running .*broken\.test\.mjs.*flaky\.test\.mjs|rerun: 2 files failed; running .*flaky\.test\.mjs.*broken\.test\.mjs/,
    );
    expect(out).toMatch(/flaky: passed on rerun .*flaky\.test\.mjs > fails the first time/);
    expect(out).toMatch(/failed again +.*broken\.test\.mjs > always fails/);
    expect(out).toContain('rerun: 1 flaky, 1 failed again, 0 not run again');
  }, 60_000);
});
