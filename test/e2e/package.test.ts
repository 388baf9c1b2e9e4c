// The npm package as another project gets it: `npm pack`, installed into a scratch project with no network
// (`npm ci --offline`: the dependencies come from the npm cache that installing this repo filled), then its
// `bin` (check, and record against the sandbox) and its `exports` (the library, the JSON Schema, the types). The
// samples the README and the guides show (docs/examples/, each code block held equal to its file by
// test/unit/docs-examples.test.ts) run here as a team would run them, against the sandbox: the flow script with
// `record --script`, the puppeteer script with node (an ES module project), the Playwright specs with
// `playwright test` (a CommonJS one). A sample that no longer works fails here.
// Needs the build (`npm test` builds first); the record part needs Chromium.
import { afterAll, beforeAll } from 'vitest';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
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
import { ROOT } from '../helpers/paths.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const FIXTURE = join(ROOT, 'test/fixtures/captures/clean-session.json');
const sh = (cmd: string, args: string[], cwd: string, timeout = 120_000) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, NO_COLOR: '1' } });
  return {
    code: r.status,
    out: r.stdout ?? '',
    err: (r.stderr ?? '')
      .split('\n')
      .filter((l) => l && !l.startsWith('npm warn'))
      .join('\n'),
  };
};

type LockEntry = {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [k: string]: unknown;
};

/**
 * A lock file for a project that depends on the tarball alone: the tarball's entry, and the entries of this
 * repo's lock for the packages the tarball depends on, at the same paths (the package sits at
 * node_modules/embed-inspector, so its dependencies resolve where this repo's own do). `npm ci --offline`
 * then needs only the cached tarballs, not registry metadata, which `npm install --offline` would ask for.
 */
function scratchLock(tarball: string, name: string, project = 'scratch') {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')).packages as Record<string, LockEntry>;
  const spec = `file:./${name}`;
  const packages: Record<string, LockEntry> = {
    '': { name: project, dependencies: { 'embed-inspector': spec } },
    'node_modules/embed-inspector': {
      version: pkg.version,
      resolved: spec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  // Node's lookup: node_modules/<dep> beside the dependent, then in each folder above it.
  const find = (from: string, dep: string) => {
    for (let at = from; ; at = at.includes('/node_modules/') ? at.slice(0, at.lastIndexOf('/node_modules/')) : '') {
      const path = `${at ? `${at}/` : ''}node_modules/${dep}`;
      if (lock[path]) {
        return path;
      }
      if (!at) {
        return undefined;
      }
    }
  };
  const queue: [string, Record<string, string> | undefined][] = [['', pkg.dependencies]];
  while (queue.length) {
    const [from, deps] = queue.shift()!;
    for (const dep of Object.keys(deps ?? {})) {
      const path = find(from, dep);
      if (!path) {
        throw new Error(`${dep} (needed by ${from || 'embed-inspector'}) is not in package-lock.json`);
      }
      if (packages[path]) {
        continue;
      }
      const { dev, devOptional, peer, ...entry } = lock[path];
      packages[path] = entry;
      queue.push([path, { ...entry.dependencies, ...entry.optionalDependencies }]);
    }
  }
  return { name: project, lockfileVersion: 3, requires: true, packages };
}

/** `npm pack` into `dir`: the tarball's file name and the files it holds. */
function packInto(dir: string): { filename: string; files: string[] } {
  for (const f of ['dist/node/cli.js', 'dist/node/protocol.js', 'dist/chrome/manifest.json']) {
    if (!existsSync(join(ROOT, f))) {
      throw new Error(`${f} is missing: run npm run build first`);
    }
  }
  const packed = sh('npm', ['pack', '--json', '--pack-destination', dir], ROOT);
  expect(packed.code, packed.err).toBe(0);
  const [info] = JSON.parse(packed.out.slice(packed.out.indexOf('[')));
  return { filename: info.filename, files: info.files.map((f: { path: string }) => f.path) };
}

let packed: { dir: string; filename: string; files: string[] } | undefined;
/** The tarball, packed once for both projects of this file and copied into `dir`. */
function pack(dir: string): { filename: string; files: string[] } {
  if (!packed) {
    const at = mkdtempSync(join(tmpdir(), 'ei-package-tgz-'));
    packed = { dir: at, ...packInto(at) };
  }
  copyFileSync(join(packed.dir, packed.filename), join(dir, packed.filename));
  return { filename: packed.filename, files: packed.files };
}
afterAll(() => {
  if (packed) {
    rmSync(packed.dir, { recursive: true, force: true });
  }
});

/** Install the tarball `filename` (in `dir`) as the project's one dependency, offline (see scratchLock). */
function installOffline(dir: string, filename: string) {
  const project = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  project.dependencies = { 'embed-inspector': `file:./${filename}` };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(project, null, 2));
  const lock = scratchLock(join(dir, filename), filename, project.name);
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  const installed = sh('npm', ['ci', '--offline', '--no-audit', '--no-fund'], dir);
  // ENOTCACHED: the npm cache lacks a dependency's tarball (a cleaned cache); `npm ci` in the repo fills it.
  expect(installed.code, `${installed.out}\n${installed.err}`).toBe(0);
}

/** A child process in `cwd` (the sandbox serves from this process, so never spawnSync); vitest's variables left out. */
function run(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', FORCE_COLOR: '0' };
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('VITEST') && k !== 'EMBED_INSPECTOR_EXTENSION' && k !== 'FORCE_COLOR') {
      env[k] = v;
    }
  }
  return new Promise<{ code: number | null; text: string }>((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...env, ...extra } });
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
    });
    child.stderr.on('data', (d) => {
      text += d;
    });
    child.on('close', (code) => resolve({ code, text }));
  });
}

describe('the npm package (npm pack, installed offline in a scratch project)', () => {
  let dir: string;
  let files: string[];
  const bin = () => join(dir, 'node_modules/.bin/embed-inspector');

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ei-package-'));
    const packed = pack(dir);
    files = packed.files;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    installOffline(dir, packed.filename);
  }, 180_000);
  afterAll(() => {
    if (dir) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds the command line, the library with its types, the built Chrome extension and the docs; no sources', () => {
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'bin/embed-inspector.js',
      'dist/node/cli.js',
      'dist/node/protocol.js',
      'dist/node/puppeteer.js',
      'dist/node/playwright.js',
      'dist/node/protocol.cjs',
      'dist/node/puppeteer.cjs',
      'dist/node/playwright.cjs',
      'dist/node/types/protocol/index.d.ts',
      'dist/chrome/manifest.json',
      'schema/svc-embed.schema.json',
      'docs/capture-format.md',
      'docs/rules.md',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(
      files.filter((f) => /^(src|test|sandbox|bench|scripts|node_modules|dist\/firefox|artifacts)\//.test(f)),
    ).toEqual([]);
    const manifest = JSON.parse(
      readFileSync(join(dir, 'node_modules/embed-inspector/dist/chrome/manifest.json'), 'utf8'),
    );
    expect(manifest.version).toBe(pkg.version);
  });

  it('runs `embed-inspector check` from node_modules/.bin', () => {
    const text = sh(bin(), ['check', FIXTURE], dir);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain('5 messages: 4 valid, 0 invalid, 1 foreign');
    const json = sh(bin(), ['check', FIXTURE, '--format', 'json'], dir);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out).summary).toMatchObject({ valid: 4 });
    expect(sh(bin(), ['check', join(dir, 'missing.json')], dir).code).toBe(2);
  });

  it('imports the library and the JSON Schema by the package name', () => {
    writeFileSync(
      join(dir, 'use.mjs'),
      `
      import { classify, checkCapture, EVENTS, ACTIONS, RULES } from 'embed-inspector';
      import schema from 'embed-inspector/schema.json' with { type: 'json' };
      import { readFileSync } from 'node:fs';
      const refresh = { source: 'svc-embed', direction: 'action', type: 'svc:action:refresh', payload: {}, timestamp: 0 };
      const bad = classify({ kind: 'post', origin: 'https://host.example', targetOrigin: '*', data: refresh },
        { tenantOrigin: 'https://acme.example.com' });
      const report = checkCapture(JSON.parse(readFileSync(${JSON.stringify(FIXTURE)}, 'utf8')));
      console.log(JSON.stringify({ events: EVENTS.length, actions: ACTIONS.length,
        rules: Object.keys(RULES).length, verdict: bad.verdict, rulesHit: bad.issues.map((i) => i.rule),
        schema: typeof schema.$schema, report: typeof report }));
    `,
    );
    const r = sh(process.execPath, ['use.mjs'], dir);
    expect(r.code, r.err).toBe(0);
    const got = JSON.parse(r.out);
    expect(got).toMatchObject({ events: 8, actions: 7, schema: 'string', report: 'object' });
    expect(got.rules).toBeGreaterThan(10);
    expect(got.verdict).not.toBe('valid');
    expect(got.rulesHit.length).toBeGreaterThan(0);
  });

  it('gives TypeScript users the types through `exports`', () => {
    writeFileSync(
      join(dir, 'use.ts'),
      `
      import { classify, type SvcEvent } from 'embed-inspector';
      type EventType = SvcEvent['type'];
      export const ready: EventType = 'svc:event:ready';
      export const verdict: string = classify({ kind: 'receive', origin: 'https://h.example', data: { type: ready } }).verdict;
      // @ts-expect-error: not an event of the catalog
      export const wrong: EventType = 'svc:event:nope';
    `,
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['use.ts'],
      }),
    );
    const r = sh(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
  });

  it('runs the docs’ flow script with `record --script` and their puppeteer script, with the extension it carries', async ({
    sandbox: sb,
  }) => {
    // The samples as the README and docs/testing.md show them (docs/examples/; test/unit/docs-examples.test.ts
    // holds each code block equal to its file), run as a team would: `record` and node, in a project that installed
    // the tarball, whose own extension records (not this repo's build).
    for (const f of ['flow.mjs', 'qa.mjs']) {
      copyFileSync(join(ROOT, 'docs/examples', f), join(dir, f));
    }
    const out = join(dir, 'flow.json');
    const rec = await run(
      bin(),
      ['record', sb.hostUrl, '--script', 'flow.mjs', '--duration', '0', '--expect', 'svc:action:refresh', '--out', out],
      dir,
    );
    expect(rec.code, rec.text).toBe(0);
    const capture = JSON.parse(readFileSync(out, 'utf8'));
    expect(capture.format).toBe('embed-inspector-capture');
    const refreshes = capture.messages.filter(
      (m: { kind: string; data: { type?: string } }) => m.kind === 'post' && m.data?.type === 'svc:action:refresh',
    );
    expect(refreshes).toHaveLength(1);
    const again = sh(bin(), ['check', out], dir);
    expect(again.code, again.err).toBe(0);

    const qa = await run(process.execPath, ['qa.mjs'], dir, { APP_URL: sb.hostUrl });
    expect(qa.code, qa.text).toBe(0);
    expect(qa.text.trim().split('\n').at(-1)).toBe('no protocol errors');
  }, 90_000);
});

/** The Playwright specs the docs show (README.md's and docs/testing.md's blocks are these files). */
const DOC_SPECS = readdirSync(join(ROOT, 'docs/examples')).filter((f) => f.endsWith('.spec.ts'));

describe('the npm package in a default CommonJS project (npm init -y, no "type": "module")', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ei-package-cjs-'));
    const { filename } = pack(dir);
    expect(sh('npm', ['init', '-y'], dir).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
    installOffline(dir, filename);
    // Playwright Test as the project has it (no browser download: the fixture drives the system Chromium).
    mkdirSync(join(dir, 'node_modules/@playwright'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules/@playwright/test'), join(dir, 'node_modules/@playwright/test'), 'dir');
  }, 180_000);
  afterAll(() => {
    if (dir) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('requires the library, the puppeteer helper and the Playwright fixture', () => {
    writeFileSync(
      join(dir, 'use.js'),
      `const { classify, EVENTS } = require('embed-inspector');
      const { launchWithInspector, attachInspector, extensionPath } = require('embed-inspector/puppeteer');
      const { test, expect } = require('embed-inspector/playwright');
      const EmbedCoverageReporter = require('embed-inspector/playwright/reporter');
      const refresh = { source: 'svc-embed', direction: 'action', type: 'svc:action:refresh', payload: {}, timestamp: 0 };
      console.log(JSON.stringify({ events: EVENTS.length, verdict: classify({ kind: 'post', origin: 'https://h.example',
        targetOrigin: '*', data: refresh }, { tenantOrigin: 'https://t.example' }).verdict,
        libraries: [launchWithInspector, attachInspector, test, expect, EmbedCoverageReporter].map((f) => typeof f),
        extension: extensionPath() }));\n`,
    );
    const r = sh(process.execPath, ['use.js'], dir);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      events: 8,
      verdict: 'invalid',
      libraries: ['function', 'function', 'function', 'function', 'function'],
      extension: join(dir, 'node_modules/embed-inspector/dist/chrome'),
    });
  });

  it('runs the docs’ Playwright specs and a codegen test with Playwright Test', async ({ sandbox: sb }) => {
    const bin = join(dir, 'node_modules/.bin/embed-inspector');
    mkdirSync(join(dir, 'e2e'), { recursive: true });
    writeFileSync(
      join(dir, 'playwright.config.ts'),
      "import { defineConfig } from '@playwright/test';\n\n" +
        "export default defineConfig({ testDir: 'e2e', outputDir: 'results', workers: 1, retries: 0, timeout: 60_000,\n" +
        '  use: { baseURL: process.env.BASE_URL } });\n',
    );
    // The README's spec and docs/testing.md's, as written (TypeScript Playwright compiles to CommonJS here).
    for (const f of DOC_SPECS) {
      copyFileSync(join(ROOT, 'docs/examples', f), join(dir, 'e2e', f));
    }
    // A recorded session, and the test codegen writes from it.
    writeFileSync(
      join(dir, 'done.mjs'),
      'export default async ({ page }) => {\n' +
        '  await page.waitForFunction(() => window.__sandboxHost?.scriptDone(), { timeout: 20000 });\n' +
        '};\n',
    );
    const rec = await run(
      bin,
      ['record', `${sb.hostUrl}?script=full`, '--script', 'done.mjs', '--duration', '500', '--out', 's.json'],
      dir,
    );
    expect(rec.code, rec.text).toBe(0);
    const gen = await run(bin, ['codegen', 's.json', '--playwright', '--out', 'e2e'], dir);
    expect(gen.code, gen.text).toBe(0);
    const pw = await run(
      process.execPath,
      // (and the coverage reporter by its name, from a CommonJS project)
      [
        join(dir, 'node_modules/@playwright/test/cli.js'),
        'test',
        '--reporter=list,embed-inspector/playwright/reporter',
      ],
      dir,
      {
        BASE_URL: `${sb.hostOrigin}/`,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
      },
    );
    expect(pw.code, pw.text).toBe(0);
    // The docs' three tests and the generated one.
    expect(pw.text).toMatch(/\b4 passed\b/);
    expect(pw.text).toMatch(/^Embed protocol coverage: 4 tests, \d+ messages$/m);
    for (const f of DOC_SPECS) {
      expect(pw.text).toContain(f);
    }
    expect(pw.text).toMatch(/embed-session-[^ ]+\.spec\.ts/);
  }, 180_000);
});
