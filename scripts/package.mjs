// `npm run package` (after the build, which the npm script runs first): what users install, in artifacts/.
//
//   artifacts/embed-inspector-chrome-<version>.zip    the Chrome Web Store upload (dist/chrome, manifest at the root)
//   artifacts/embed-inspector-firefox-<version>.zip   the addons.mozilla.org upload (`web-ext build` of dist/firefox),
//                                                     then `web-ext lint` on that zip: any error fails
//   artifacts/embed-inspector-<version>.tgz           the npm package (`npm pack`: command line + library)
//
// <version> is package.json's; the build writes it into both manifests, and this script checks that they carry it.
// The build is the release one (`build.mjs --release`): a dist/ that holds test code (the test build that
// `npm run build` makes for the tests) is refused.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { testCodeIn } from './test-code.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (line) => console.log(`package: ${line}`);
const fail = (line, detail = '') => {
  if (detail) {
    console.error(detail.trim());
  }
  console.error(`package: ${line}`);
  process.exit(1);
};
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const out = join(root, 'artifacts');
mkdirSync(out, { recursive: true });
const kB = (bytes) => `${Math.round(bytes / 1024)} kB`;
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

for (const browser of ['chrome', 'firefox']) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(root, 'dist', browser, 'manifest.json'), 'utf8'));
  } catch {
    fail(`dist/${browser} is not built: run npm run build`);
  }
  if (manifest.version !== version) {
    fail(`dist/${browser}/manifest.json has version ${manifest.version}, package.json ${version}: run npm run build`);
  }
  const testCode = testCodeIn(join(root, 'dist', browser));
  if (testCode.length) {
    fail(
      `dist/${browser} is a test build: run npm run package (it builds with --release)`,
      testCode.map((f) => `dist/${browser}/${f}`).join('\n'),
    );
  }
}

// ---- Chrome: a zip of dist/chrome, entries sorted and dated 1980-01-01 so that one build gives one zip -------------
const files = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
const chromeDir = join(root, 'dist/chrome');
const entries = {};
for (const file of files(chromeDir)) {
  entries[relative(chromeDir, file).split('\\').join('/')] = [readFileSync(file), { mtime: new Date(1980, 0, 1) }];
}
const chromeZip = zipSync(entries, { level: 9 });
const chromeName = `embed-inspector-chrome-${version}.zip`;
writeFileSync(join(out, chromeName), chromeZip);
const back = unzipSync(chromeZip, { filter: (f) => f.name === 'manifest.json' });
if (JSON.parse(strFromU8(back['manifest.json'])).version !== version) {
  fail(`${chromeName}: its manifest lost the version`);
}
say(
  `artifacts/${chromeName} (${Object.keys(entries).length} files, ${kB(chromeZip.length)}, sha256 ${sha256(chromeZip).slice(0, 16)}…)`,
);

// ---- Firefox: web-ext build, then web-ext lint on the zip it wrote ------------------------------------------------------
const webExt = (args) =>
  spawnSync(process.execPath, [join(root, 'node_modules/web-ext/bin/web-ext.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
const firefoxName = `embed-inspector-firefox-${version}.zip`;
const firefoxZip = join(out, firefoxName);
rmSync(firefoxZip, { force: true });
const built = webExt([
  'build',
  '--source-dir',
  'dist/firefox',
  '--artifacts-dir',
  'artifacts',
  '--filename',
  firefoxName,
  '--overwrite-dest',
]);
if (built.status !== 0) {
  fail('web-ext build failed', `${built.stdout}${built.stderr}`);
}
const ffBytes = readFileSync(firefoxZip);
say(
  `artifacts/${firefoxName} (web-ext build, ${kB(statSync(firefoxZip).size)}, sha256 ${sha256(ffBytes).slice(0, 16)}…)`,
);

const lint = webExt(['lint', '--source-dir', firefoxZip, '--self-hosted=false', '--output', 'json', '--boring']);
let report;
try {
  report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{')));
} catch {
  fail('web-ext lint printed no report', `${lint.stdout}${lint.stderr}`);
}
const { errors = 0, warnings = 0, notices = 0 } = report.summary ?? {};
const codes = (list = []) => [...new Set(list.map((m) => m.code))].join(', ');
if (errors > 0) {
  fail(
    `web-ext lint: ${errors} error(s) in ${firefoxName}`,
    report.errors.map((e) => `${e.code} ${e.file ?? ''}${e.line ? `:${e.line}` : ''}: ${e.message}`).join('\n'),
  );
}
const n = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;
say(
  `web-ext lint of ${firefoxName}: 0 errors, ${n(warnings, 'warning')}${warnings ? ` (${codes(report.warnings)})` : ''}, ${n(notices, 'notice')}`,
);

// ---- npm: the command line and the library ---------------------------------------------------------------------------
const npmArgs = ['pack', '--pack-destination', 'artifacts', '--json'];
const execpath = process.env.npm_execpath;
const packed =
  execpath && /\.[cm]?js$/.test(execpath)
    ? spawnSync(process.execPath, [execpath, ...npmArgs], { cwd: root, encoding: 'utf8' })
    : spawnSync('npm', npmArgs, { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' });
if (packed.status !== 0) {
  fail('npm pack failed', `${packed.stdout}${packed.stderr}`);
}
const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
say(`artifacts/${info.filename} (npm pack, ${info.entryCount} files, ${kB(info.size)})`);
