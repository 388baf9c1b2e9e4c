/**
 * A session becomes a test (issue 28), end to end with the built command line: record a scripted sandbox session
 * (the host sends all 7 actions after ready), `codegen` it, and run what it wrote the way a team would — the
 * Playwright spec with `playwright test` in a project of its own that has embed-inspector installed, the puppeteer
 * script with node. Against the same healthy page the tests pass; against the page with a protocol fault (`--url`)
 * they fail, on the fault.
 * Needs the build and the system Chromium; no browser is downloaded.
 */
import { afterAll } from 'vitest';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { ROOT } from '../helpers/paths.ts';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../helpers/panel.ts';

const dir = mkdtempSync(join(tmpdir(), 'ei-codegen-'));
let sb: Sandbox;

/** The environment of a child: ours without vitest's variables. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('VITEST')) {
      env[k] = v;
    }
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...extra };
}

/** A child process (the sandbox serves from this process, so never spawnSync). */
const exec = (cmd: string, args: string[], env: NodeJS.ProcessEnv = childEnv()) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
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
const cli = (...args: string[]) => exec(process.execPath, [join(ROOT, 'bin/embed-inspector.js'), ...args]);

interface Spec {
  title: string;
  file: string;
  tests: { status: string; results: { status: string; errors: { message?: string }[] }[] }[];
}
interface Suite {
  file?: string;
  specs?: Spec[];
  suites?: Suite[];
}

/** `playwright test` on the generated specs in the project dir: each spec file's outcome and error text. */
async function playwright(...files: string[]) {
  const report = join(dir, 'report.json');
  rmSync(report, { force: true });
  const r = await exec(
    process.execPath,
    [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--reporter=json', ...files],
    childEnv({ PLAYWRIGHT_JSON_OUTPUT_NAME: report }),
  );
  let json: { suites: Suite[]; errors?: { message?: string }[] };
  try {
    json = JSON.parse(readFileSync(report, 'utf8'));
  } catch (e) {
    throw new Error(`no JSON report (exit ${r.code}): ${(e as Error).message}\n${r.out}\n${r.err}`);
  }
  const byFile = new Map<string, { status: string; errors: string }>();
  const walk = (s: Suite) => {
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        const last = t.results[t.results.length - 1];
        byFile.set(spec.file, {
          status: last?.status ?? 'none',
          errors: (last?.errors ?? []).map((e) => e.message ?? '').join('\n'),
        });
      }
    }
    for (const child of s.suites ?? []) {
      walk(child);
    }
  };
  for (const s of json.suites) {
    walk(s);
  }
  return { code: r.code, byFile, errors: json.errors ?? [], output: `${r.out}\n${r.err}` };
}

test.beforeAll(async ({ sandbox }) => {
  sb = sandbox;
  // A project of a team's own: embed-inspector installed (this package), a Playwright config of its own.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'embed-inspector'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(
    join(dir, 'playwright.config.mjs'),
    "export default { testDir: '.', outputDir: './results', workers: 1, retries: 0, timeout: 60000, use: { headless: true } };\n",
  );
  // The scripted session: the host sends its 7 actions after ready; the recording ends once all 8 events came.
  writeFileSync(
    join(dir, 'done.mjs'),
    'export default async ({ page }) => {\n' +
      '  await page.waitForFunction(() => window.__sandboxHost?.scriptDone(), { timeout: 20000 });\n' +
      '};\n',
  );
  const r = await cli(
    'record',
    `${sb.hostUrl}?script=full`,
    '--script',
    'done.mjs',
    '--duration',
    '500',
    '--out',
    's.json',
  );
  if (r.code !== 0) {
    throw new Error(`record failed (${r.code}):\n${r.out}\n${r.err}`);
  }
}, 90_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe('embed-inspector codegen: a recorded session as a test', () => {
  it('the capture has the host’s 7 actions and the embed’s events', () => {
    const capture = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(capture.meta.pageUrl).toBe(`${sb.hostUrl}?script=full`);
    const hostActions = capture.messages.filter(
      (m: { kind: string; frameId?: number; data: { direction?: string } }) =>
        m.kind === 'post' && m.frameId === 0 && m.data?.direction === 'action',
    );
    expect(hostActions).toHaveLength(7);
  });

  it('the Playwright test passes on the recorded page and fails on a faulty one, on the fault', async () => {
    const gen = await cli('codegen', 's.json', '--playwright', '--assert-payloads', '--out', 'gen.spec.ts');
    expect(gen.code, gen.err).toBe(0);
    expect(gen.err).toMatch(/^wrote gen\.spec\.ts: 7 actions, 9 events in order, \d+ payload checks$/m);
    const code = readFileSync(join(dir, 'gen.spec.ts'), 'utf8');
    expect(code).toContain('from "embed-inspector/playwright"');
    expect(code).toContain(`await page.goto(${JSON.stringify(`${sb.hostUrl}?script=full`)});`);
    expect(code.match(/await embed\.send\(/g)).toHaveLength(7);
    expect(code).toContain(
      'await expect(embed).toHaveReceived("svc:event:download", { format: "csv", target: "widget" });',
    );
    expect(code).not.toMatch(/chatId|loadDurationMs|rowCount|widgetCount|deploymentId/);

    for (const fault of ['duplicate-ready', 'missing-surface']) {
      const r = await cli(
        'codegen',
        's.json',
        '--playwright',
        '--assert-payloads',
        '--url',
        `${sb.hostUrl}?script=full&faults=${fault}`,
        '--out',
        `${fault}.spec.ts`,
      );
      expect(r.code, r.err).toBe(0);
    }

    const run = await playwright('gen.spec.ts', 'duplicate-ready.spec.ts', 'missing-surface.spec.ts');
    expect(run.errors, run.output).toEqual([]);
    expect([...run.byFile.keys()].sort(), run.output).toEqual([
      'duplicate-ready.spec.ts',
      'gen.spec.ts',
      'missing-surface.spec.ts',
    ]);
    const healthy = run.byFile.get('gen.spec.ts')!;
    expect(healthy.status, healthy.errors).toBe('passed');
    const dup = run.byFile.get('duplicate-ready.spec.ts')!;
    expect(dup.status).toBe('failed');
    expect(dup.errors).toMatch(/toHaveNoProtocolErrors[\s\S]*session\.ready-duplicate/);
    const surface = run.byFile.get('missing-surface.spec.ts')!;
    expect(surface.status).toBe('failed');
    expect(surface.errors).toMatch(/envelope\.surface-missing/);
    expect(run.code).toBe(1);
  }, 240_000);

  it('the puppeteer script exits 0 on the recorded page and 1 on a faulty one', async () => {
    const gen = await cli('codegen', 's.json', '--puppeteer', '--assert-payloads', '--out', 'gen.mjs');
    expect(gen.code, gen.err).toBe(0);
    const ok = await exec(process.execPath, ['gen.mjs']);
    expect(ok.code, `${ok.out}\n${ok.err}`).toBe(0);
    expect(ok.out).toMatch(/^passed: 9 events in order, no protocol error$/m);

    const bad = await cli(
      'codegen',
      's.json',
      '--puppeteer',
      '--url',
      `${sb.hostUrl}?script=full&faults=duplicate-ready`,
    );
    expect(bad.code, bad.err).toBe(0);
    writeFileSync(join(dir, 'bad.mjs'), bad.out);
    const failed = await exec(process.execPath, ['bad.mjs']);
    expect(failed.code, `${failed.out}\n${failed.err}`).toBe(1);
    expect(failed.err).toMatch(/^failed: 1 protocol error:[\s\S]*session\.ready-duplicate/m);
  }, 180_000);
});
