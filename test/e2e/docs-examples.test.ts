/**
 * The samples the README and the guides show (docs/examples/, each code block checked equal to its file by
 * test/unit/docs-examples.test.ts), run as a team would run them, against the sandbox: the Playwright specs with
 * `playwright test` in a project of its own that has embed-inspector installed, the puppeteer script with node, the
 * flow script with `embed-inspector record --script`. A sample that no longer works fails here.
 * Needs the build and the system Chromium; no browser is downloaded.
 */
import { afterAll } from 'vitest';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { ROOT } from '../helpers/paths.ts';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../helpers/panel.ts';

const EXAMPLES = join(ROOT, 'docs/examples');
const dir = mkdtempSync(join(tmpdir(), 'ei-docs-examples-'));
let sb: Sandbox;

/** A child process with our environment less vitest's (the sandbox serves from this process: never spawnSync). */
const exec = (cmd: string, args: string[], extra: Record<string, string> = {}) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (!k.startsWith('VITEST')) {
        env[k] = v;
      }
    }
    Object.assign(env, { NO_COLOR: '1', FORCE_COLOR: '0', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' }, extra);
    const child = spawn(cmd, args, { cwd: dir, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });

test.beforeAll(async ({ sandbox }) => {
  sb = sandbox;
  // A project of a team's own: embed-inspector installed (this package), the samples copied in as they are.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'embed-inspector'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(
    join(dir, 'playwright.config.mjs'),
    `export default { testDir: '.', outputDir: './results', workers: 1, retries: 0, timeout: 60000,
      use: { headless: true, baseURL: ${JSON.stringify(`${sb.hostOrigin}/`)} } };\n`,
  );
  for (const f of readdirSync(EXAMPLES)) {
    copyFileSync(join(EXAMPLES, f), join(dir, f));
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Spec {
  title: string;
  file: string;
  tests: { status: string; results: { status: string; errors: { message?: string }[] }[] }[];
}
interface Suite {
  specs?: Spec[];
  suites?: Suite[];
}

describe('the samples of the README and the guides', () => {
  it('the Playwright specs pass against the sandbox', async () => {
    const specs = readdirSync(EXAMPLES).filter((f) => f.endsWith('.spec.ts'));
    expect(specs.length).toBeGreaterThan(0);
    const report = join(dir, 'report.json');
    const r = await exec(
      process.execPath,
      [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--reporter=json', ...specs],
      { PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    );
    const json = JSON.parse(readFileSync(report, 'utf8')) as { suites: Suite[]; errors?: { message?: string }[] };
    const outcomes: string[] = [];
    const walk = (s: Suite) => {
      for (const spec of s.specs ?? []) {
        for (const t of spec.tests) {
          const last = t.results.at(-1);
          const why = (last?.errors ?? []).map((e) => e.message ?? '').join('\n');
          outcomes.push(`${spec.file} › ${spec.title}: ${last?.status ?? 'not run'}${why ? `\n${why}` : ''}`);
        }
      }
      s.suites?.forEach(walk);
    };
    json.suites.forEach(walk);
    expect(json.errors ?? [], r.err).toEqual([]);
    expect(outcomes.length, r.out).toBeGreaterThanOrEqual(specs.length);
    expect(outcomes.filter((o) => !/: passed$/.test(o))).toEqual([]);
    expect(r.code, r.err).toBe(0);
  }, 180_000);

  it('the puppeteer script exits 0 on a page with no protocol error', async () => {
    const r = await exec(process.execPath, ['qa.mjs'], { APP_URL: sb.hostUrl });
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    expect(r.out.trim()).toBe('no protocol errors');
  }, 90_000);

  it('the flow script drives `record --script` to the action it expects', async () => {
    const r = await exec(process.execPath, [
      join(ROOT, 'bin/embed-inspector.js'),
      'record',
      sb.hostUrl,
      '--script',
      'flow.mjs',
      '--duration',
      '0',
      '--expect',
      'svc:action:refresh',
      '--out',
      'run.json',
    ]);
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    const capture = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    const posts = capture.messages.filter(
      (m: { kind: string; data: { type?: string } }) => m.kind === 'post' && m.data?.type === 'svc:action:refresh',
    );
    expect(posts).toHaveLength(1);
  }, 90_000);
});
