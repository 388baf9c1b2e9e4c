/**
 * `npx playwright test` as a project runs it, read back from its JSON report: the end-to-end tests of the
 * `embed-inspector/playwright` fixture (playwright-fixture.test.ts, playwright-load.test.ts) run suites with it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playwrightPortsEnv } from './free-ports.ts';
import { ROOT } from './paths.ts';

export interface Attachment {
  name: string;
  contentType: string;
  path?: string;
  body?: string;
}
interface Result {
  status: string;
  workerIndex: number;
  parallelIndex: number;
  duration: number;
  attachments: Attachment[];
  errors: { message?: string }[];
}
interface JsonTest {
  expectedStatus: string;
  status: string;
  results: Result[];
}
interface Suite {
  title: string;
  specs?: { title: string; tests: JsonTest[] }[];
  suites?: Suite[];
}
interface Report {
  suites: Suite[];
  stats: { expected: number; unexpected: number; flaky: number; skipped: number; duration: number };
  errors: { message?: string }[];
}
export interface Run {
  code: number | null;
  stderr: string;
  report: Report;
  tests: (JsonTest & { title: string })[];
  seconds: number;
  /** What the run left in its own temporary folder (its TMPDIR) that a fixture's browser profile would be named. */
  leftProfiles: string[];
  /** The cores the run's process might use, as Linux lists them (`0`, `0-1`), read while it ran. */
  affinity?: string;
}

/** An attachment's text, whether the report holds it or a file it names (read before the output is removed). */
export const body = (a: Attachment) =>
  (a.body !== undefined ? Buffer.from(a.body, 'base64') : readFileSync(a.path as string)).toString();

/**
 * `npx playwright test ...args --reporter=json` in the repo, with `env` added: exit code, the report, the stderr.
 * `check` sees the run while its output folder (the attachments' files) still exists. The run has its own sandbox
 * ports and its own temporary folder, so that runs side by side neither collide nor see each other's profiles.
 * `cpus` (e.g. `'0'`) holds the run, its browsers and its server to those cores (`taskset -c`): a slower machine.
 */
export async function runPlaywright(
  args: string[],
  opts: { check?: (run: Run) => void; env?: NodeJS.ProcessEnv; cpus?: string } = {},
): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'ei-pw-run-'));
  const reportPath = join(dir, 'report.json');
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('VITEST')) {
      env[k] = v;
    }
  }
  Object.assign(env, {
    PLAYWRIGHT_JSON_OUTPUT_NAME: reportPath,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    TMPDIR: tmp,
    ...(await playwrightPortsEnv()),
    ...opts.env,
  });
  const started = performance.now();
  let affinity: string | undefined;
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const command = ['npx', '--no-install', 'playwright', 'test', ...args, '--reporter=json'];
    const [file, ...rest] = opts.cpus ? ['taskset', '-c', opts.cpus, ...command] : command;
    const child = spawn(file, [...rest, `--output=${join(dir, 'results')}`], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // (a second in, taskset has long set the cores and run npx in its place)
    const peek = setTimeout(() => {
      try {
        affinity = /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      } catch {}
    }, 1000);
    child.on('close', () => clearTimeout(peek));
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c, stderr: err }));
  });
  const seconds = (performance.now() - started) / 1000;
  try {
    let report: Report;
    try {
      report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
    } catch (e) {
      throw new Error(`no JSON report (exit ${code}): ${(e as Error).message}\n${stderr}`);
    }
    const tests: (JsonTest & { title: string })[] = [];
    const walk = (s: Suite, path: string[]) => {
      for (const spec of s.specs ?? []) {
        for (const t of spec.tests) {
          tests.push({ ...t, title: [...path, spec.title].join(' › ') });
        }
      }
      for (const child of s.suites ?? []) {
        walk(child, [...path, child.title]);
      }
    };
    for (const file of report.suites) {
      walk(file, []);
    }
    const leftProfiles = readdirSync(tmp).filter((f) => f.startsWith('ei-playwright-'));
    const run = { code, stderr, report, tests, seconds, leftProfiles, affinity };
    opts.check?.(run);
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
