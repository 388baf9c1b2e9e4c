// `embed-inspector/playwright/reporter` as a team runs it: the sandbox suite (test/playwright/coverage.config.ts: every
// test carries its capture) once at once and once in two shards into blob reports merged with
// `npx playwright merge-reports --reporter embed-inspector/playwright/reporter`; both give the same coverage.json
// (ordering aside), which its schema validates and whose tests' figures `embed-inspector coverage` gives again from
// their captures. A minimum not met fails the run (and the merge) with the type named and opens the page; the page
// opens offline in Chromium with every type's row, no request and no console error. The three runs go side by side,
// each with its own sandbox ports and output folder.
// Needs the build (`npm test` builds first) and the system Chromium; no browser is downloaded.
import Ajv2020 from 'ajv/dist/2020.js';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
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
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { ACTION_TYPES, EVENT_TYPES } from '../../src/protocol/catalog.ts';
import type { Coverage } from '../../src/protocol/coverage.ts';
import { cliIn } from '../helpers/cli.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { playwrightPortsEnv } from '../helpers/free-ports.ts';
import { ROOT } from '../helpers/paths.ts';

const CONFIG = 'test/playwright/coverage.config.ts';
const schema = JSON.parse(readFileSync(join(ROOT, 'schema/coverage.schema.json'), 'utf8'));
const validate = new (Ajv2020 as any)({ strict: true, allErrors: true }).compile(schema);

let dir: string;
/** Where a fake $BROWSER writes what it was asked to open. */
let opened: string;

/** `playwright …` (this repository's) in `cwd`, with the environment given: exit code and output. */
async function playwright(args: string[], extra: Record<string, string>, cwd = ROOT) {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('VITEST') && !k.startsWith('EI_PW_') && k !== 'EMBED_INSPECTOR_REPORT_DIR') {
      env[k] = v;
    }
  }
  Object.assign(env, {
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    BROWSER: join(dir, 'browser.sh'),
    ...(await playwrightPortsEnv()),
    ...extra,
  });
  return new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/@playwright/test/cli.js'), ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      out += c;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const read = (folder: string) => JSON.parse(readFileSync(join(dir, folder, 'coverage.json'), 'utf8')) as Coverage;

/** The coverage with every list sorted: the same content whatever the order things were added in. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) {
    return v.map(sorted).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sorted(x)]));
  }
  return v;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ei-coverage-e2e-'));
  opened = join(dir, 'opened.txt');
  writeFileSync(join(dir, 'browser.sh'), `#!/bin/sh\necho "$1" >> ${JSON.stringify(opened)}\n`);
  chmodSync(join(dir, 'browser.sh'), 0o755);
  const output = (name: string) => `--output=${join(dir, `results-${name}`)}`;
  const [whole, ...shards] = await Promise.all([
    playwright(['test', '-c', CONFIG, output('whole')], { EMBED_INSPECTOR_REPORT_DIR: join(dir, 'whole') }),
    ...['1/2', '2/2'].map((shard) =>
      playwright(['test', '-c', CONFIG, `--shard=${shard}`, '--reporter=blob', output(shard[0])], {
        PLAYWRIGHT_BLOB_OUTPUT_DIR: join(dir, `blob-${shard[0]}`),
      }),
    ),
  ]);
  expect(whole.code, whole.out).toBe(0);
  mkdirSync(join(dir, 'all-blob-reports'));
  for (const [i, run] of shards.entries()) {
    expect(run.code, run.out).toBe(0);
    // (as CI's download-artifact with merge-multiple does)
    cpSync(join(dir, `blob-${i + 1}`), join(dir, 'all-blob-reports'), { recursive: true });
  }
}, 600_000);
afterAll(() => {
  if (dir) {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('embed-inspector/playwright/reporter', () => {
  it('gives the same coverage.json for the suite in two shards merged with merge-reports as run at once', async () => {
    expect(readdirSync(join(dir, 'all-blob-reports')).filter((f) => f.endsWith('.zip'))).toHaveLength(2);
    // The merge job of a project that installed the package: its reporter by name, its default folder.
    const project = join(dir, 'project');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(ROOT, join(project, 'node_modules/embed-inspector'));
    const merge = await playwright(
      ['merge-reports', '--reporter', 'embed-inspector/playwright/reporter', '../all-blob-reports'],
      {},
      project,
    );
    expect(merge.code, merge.out).toBe(0);
    cpSync(join(project, 'embed-report'), join(dir, 'merged'), { recursive: true });
    expect(merge.out).toMatch(/^Embed protocol coverage: 11 tests, \d+ messages$/m);
    const whole = read('whole');
    const merged = read('merged');
    expect(sorted(merged)).toEqual(sorted(whole));
    expect(validate(whole), JSON.stringify(validate.errors)).toBe(true);
    // What the suite does: every test has data and a capture, the wildcard action fired in the test about it.
    expect(whole.summary.tests).toMatchObject({ total: 11, withData: 11 });
    expect(whole.tests.every((t) => t.capture && existsSync(join(dir, 'merged', t.capture)))).toBe(true);
    expect(whole.types['svc:event:ready']).toMatchObject({ seen: true, direction: 'event' });
    expect(whole.types['svc:event:ready'].tests.length).toBeGreaterThanOrEqual(8);
    expect(whole.types['svc:event:download'].values.format).toMatchObject({ csv: expect.any(Number), pdf: 0 });
    expect(whole.types['svc:event:download'].values.format.csv).toBeGreaterThan(0);
    expect(whole.rules['origin.action-wildcard'].status).toBe('fired');
    expect(whole.rules['origin.action-wildcard'].tests).toEqual([
      expect.stringMatching(/a host that posts its actions to "\*" fails toHaveNoProtocolErrors$/),
      expect.stringMatching(/the wildcard action is one error, and can be allowed$/),
    ]);
    expect(whole.tests.find((t) => t.title.endsWith('captures nothing'))).toMatchObject({ messages: 0, types: [] });
    expect(whole.gaps[0]).toMatch(/^never sent: svc:/);
    expect(existsSync(opened)).toBe(false); // open: never, the default
  }, 120_000);

  it('`embed-inspector coverage` over a test’s capture gives that test’s figures', async () => {
    const whole = read('whole');
    const cli = cliIn(join(dir, 'whole'));
    const tests = whole.tests.filter((x) => x.messages > 0);
    const runs = await Promise.all(tests.map((t) => cli('coverage', t.capture!, '--format', 'json')));
    for (const [i, t] of tests.entries()) {
      expect(runs[i].code, runs[i].err).toBe(0);
      const [one] = (JSON.parse(runs[i].out) as Coverage).tests;
      expect({ types: one.types, fired: one.fired }, t.title).toEqual({ types: t.types, fired: t.fired });
    }
  }, 60_000);

  it('a minimum not met fails the merge, one line per miss naming the types, and opens the page', async () => {
    const merge = await playwright(['merge-reports', '-c', CONFIG, join(dir, 'all-blob-reports')], {
      EMBED_INSPECTOR_REPORT_DIR: join(dir, 'min'),
      EI_PW_COVERAGE_MIN: JSON.stringify({ events: 100, actions: 100, values: 0 }),
      EI_PW_COVERAGE_OPEN: 'on-failure',
    });
    expect(merge.code, merge.out).toBe(1);
    const whole = read('whole');
    const neverSent = [...EVENT_TYPES, ...ACTION_TYPES].filter((t) => !whole.types[t].seen);
    expect(neverSent).toContain('svc:action:set-locale');
    const lines = merge.out.split('\n').filter((l) => l.startsWith('Embed protocol coverage: ') && l.includes('below'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^Embed protocol coverage: events \d\/8 \(.*%\) is below the minimum of 100%: never sent: /,
    );
    expect(lines[1]).toMatch(
      /^Embed protocol coverage: actions \d\/7 \(.*%\) is below the minimum of 100%: never sent: /,
    );
    expect(lines[1]).toContain('svc:action:set-locale');
    expect(read('min').minimum?.misses).toHaveLength(2);
    expect(readFileSync(opened, 'utf8').trim()).toBe(join(dir, 'min', 'index.html'));
  }, 120_000);

  it('a minimum not met fails a test run too', async () => {
    const run = await playwright(
      ['test', '-c', CONFIG, '--grep', 'embed.send posts an action', `--output=${join(dir, 'results-one')}`],
      {
        EMBED_INSPECTOR_REPORT_DIR: join(dir, 'one'),
        EI_PW_COVERAGE_MIN: JSON.stringify({ actions: 100 }),
      },
    );
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(
      /^Embed protocol coverage: actions 1\/7 \(14\.3%\) is below the minimum of 100%: never sent: svc:action:set-theme, /m,
    );
    expect(read('one').summary.tests).toMatchObject({ total: 1, withData: 1 });
  }, 120_000);

  it('index.html opens offline in Chromium: every type’s row, the gaps first, no request, no console error', async ({
    plainChromium,
  }) => {
    const page = await plainChromium.browser.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => {
      requests.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') {
        errors.push(m.text());
      }
    });
    page.on('pageerror', (e) => {
      errors.push(String(e));
    });
    await page.setOfflineMode(true);
    const url = pathToFileURL(join(dir, 'merged', 'index.html')).href;
    await page.goto(url);
    const view = await page.evaluate(() => ({
      types: [...document.querySelectorAll('tr[data-type]')].map((r) => r.getAttribute('data-type')),
      first: document.querySelector('main > section')?.id,
      gap: document.querySelector('#gaps li')?.textContent,
      links: [...document.querySelectorAll<HTMLAnchorElement>('#tests a[href]')].map((a) => a.href),
      scripts: document.scripts.length,
    }));
    expect(view.types).toEqual([...EVENT_TYPES, ...ACTION_TYPES]);
    expect(view.first).toBe('gaps');
    expect(view.gap).toMatch(/^never sent: svc:/);
    expect(view.scripts).toBe(0);
    expect(view.links).toHaveLength(11);
    for (const link of view.links) {
      expect(existsSync(new URL(link).pathname), link).toBe(true);
    }
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
