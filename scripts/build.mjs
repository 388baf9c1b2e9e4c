// `npm run build`: the Chrome and Firefox extensions and the Node side (command line + library), one line each.
//
//   node scripts/build.mjs [chrome] [firefox] [node] [--release] [--verbose]
//
// --release (`npm run package`) builds the extensions users install: without the panel's test handle and demo
// session (EI_RELEASE=1 for vite.config.ts). Without it, the test build that the end-to-end tests load.
//
// Each build runs as a child process (the same commands as before: `vite build --mode chrome|firefox`,
// `vite build -c vite.node.config.ts` then `tsc -p tsconfig.lib.json`); their whole output goes to
// dist/build.log, and to the terminal as it comes with --verbose. A failed build prints its whole output.
// The built manifests get package.json's version (the one version both store packages carry): vite.config.ts
// and manifest.json stay as they are.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const verbose = args.includes('--verbose') || args.includes('-v');
const release = args.includes('--release');
const unknown = args.filter((a) => a.startsWith('-') && !['--verbose', '-v', '--release'].includes(a));
const ALL = ['chrome', 'firefox', 'node'];
const wanted = args.filter((a) => !a.startsWith('-'));
const bad = wanted.filter((t) => !ALL.includes(t));
if (unknown.length || bad.length) {
  console.error(
    `build: unknown ${[...unknown, ...bad].join(' ')}; usage: node scripts/build.mjs [chrome] [firefox] [node] [--release] [--verbose]`,
  );
  process.exit(2);
}
const targets = wanted.length ? ALL.filter((t) => wanted.includes(t)) : ALL;

const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
// Chrome and Firefox take 1 to 4 dot-separated integers (no pre-release tag) as an extension's version.
if (!/^\d+(\.\d+){0,3}$/.test(version)) {
  console.error(
    `build: package.json version "${version}" is not a valid extension version (1 to 4 dot-separated integers)`,
  );
  process.exit(2);
}

const node = process.execPath;
const vite = join(root, 'node_modules/vite/bin/vite.js');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const BUILDS = {
  chrome: { out: 'dist/chrome', steps: [[vite, 'build', '--mode', 'chrome']], manifest: 'dist/chrome/manifest.json' },
  firefox: {
    out: 'dist/firefox',
    steps: [[vite, 'build', '--mode', 'firefox']],
    manifest: 'dist/firefox/manifest.json',
  },
  node: {
    out: 'dist/node',
    steps: [
      [vite, 'build', '-c', 'vite.node.config.ts'],
      [tsc, '-p', 'tsconfig.lib.json'],
    ],
  },
};

const run = (_name, argv, log) =>
  new Promise((resolve) => {
    const child = spawn(node, argv, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...(verbose && process.stdout.isTTY ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }),
        EI_RELEASE: release ? '1' : '0',
      },
    });
    const take = (chunk) => {
      log.push(chunk.toString());
      if (verbose) {
        process.stdout.write(chunk);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (err) => {
      log.push(`${err.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

async function build(name) {
  const { out, steps, manifest } = BUILDS[name];
  const started = performance.now();
  const log = [];
  for (const argv of steps) {
    log.push(`$ ${argv.map((a) => a.replace(root, '')).join(' ')}\n`);
    const code = await run(name, argv, log);
    if (code !== 0) {
      return { name, ok: false, log: log.join(''), seconds: (performance.now() - started) / 1000 };
    }
  }
  if (manifest) {
    const path = join(root, manifest);
    const m = JSON.parse(readFileSync(path, 'utf8'));
    if (m.version !== version) {
      log.push(`manifest version ${m.version} -> ${version} (package.json)\n`);
      m.version = version;
      writeFileSync(path, `${JSON.stringify(m, null, 2)}\n`);
    }
  }
  return { name, out, ok: true, log: log.join(''), seconds: (performance.now() - started) / 1000 };
}

// One after another: on two cores the three at once took 3.8 s instead of 4.8 s, but competed with the
// browsers of tests running beside them; the lines also come out in order.
const results = [];
for (const name of targets) {
  const r = await build(name);
  results.push(r);
  if (!r.ok) {
    break;
  }
  const last = name === targets.at(-1) ? `; version ${version}, whole log in dist/build.log` : '';
  const kind = name === 'node' ? '' : release ? ' (release)' : ' (test build)';
  console.log(`build: ${name.padEnd(7)} -> ${r.out}${kind} in ${r.seconds.toFixed(1)} s${last}`);
}

mkdirSync(join(root, 'dist'), { recursive: true });
const logPath = join(root, 'dist/build.log');
writeFileSync(
  logPath,
  results.map((r) => `==== ${r.name} (${r.ok ? 'ok' : 'FAILED'}, ${r.seconds.toFixed(1)} s)\n${r.log}`).join('\n'),
);
const failed = results.find((r) => !r.ok);
if (failed) {
  if (!verbose) {
    process.stderr.write(failed.log);
  }
  console.error(`build: ${failed.name} FAILED after ${failed.seconds.toFixed(1)} s (whole log: dist/build.log)`);
  process.exit(1);
}
