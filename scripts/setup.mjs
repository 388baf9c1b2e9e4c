// Installs what `npm start` / `npm test` need and is missing, one line per step; a second run only checks.
//
//   node scripts/setup.mjs [deps|start|test]
//
//   deps   the npm dependencies, when node_modules is absent or out of date with package-lock.json
//   start  deps, and the system Chromium
//   test   deps, Chromium, Firefox ESR and Xvfb
//
// Runs before node_modules exists (`npm start` on a fresh clone), so it uses Node's built-ins only.
// Browsers: on Debian as root they are installed with apt-get (`apt-get update` once, then one install);
// elsewhere a missing browser is one line naming the package and the variable that points at an existing one.
// Nothing here downloads a browser build of its own: the system browsers are the ones tested.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const mode = process.argv[2] ?? 'deps';
if (!['deps', 'start', 'test'].includes(mode)) {
  console.error(`setup: unknown mode ${mode}; usage: node scripts/setup.mjs [deps|start|test]`);
  process.exit(2);
}
const say = (line) => console.log(`setup: ${line}`);
const fail = (line) => {
  console.error(`setup: ${line}`);
  process.exit(1);
};
const logFile = join(root, 'dist/setup.log');
const log = (title, text) => {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(logFile, `==== ${title}\n${text}\n`, { flag: 'a' });
};
const tail = (text, n = 25) => text.trim().split('\n').slice(-n).join('\n');

const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  fail(`Node 20 or later is needed (this is Node ${process.versions.node})`);
}

// ---- npm dependencies ----------------------------------------------------------------------------------------
// node_modules/.embed-inspector-setup holds a hash of package-lock.json and of package.json's dependency fields
// as of the last install this script made or checked: equal hashes are the fast path (a few milliseconds).
const DEP_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'overrides'];
const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'));
const lockText = readFileSync(join(root, 'package-lock.json'), 'utf8');
const pkg = readJson(join(root, 'package.json'));
const hash = createHash('sha256')
  .update(lockText)
  .update(JSON.stringify(DEP_FIELDS.map((f) => pkg[f] ?? null)))
  .digest('hex');
const stampPath = join(root, 'node_modules/.embed-inspector-setup');
const stamp = existsSync(stampPath) ? readFileSync(stampPath, 'utf8').trim() : '';

/** Why node_modules does not match the lock file, or '' when it does (read from npm's own record of it). */
function depsOutOfDate() {
  if (!existsSync(join(root, 'node_modules'))) {
    return 'node_modules is missing';
  }
  const hiddenPath = join(root, 'node_modules/.package-lock.json');
  if (!existsSync(hiddenPath)) {
    return 'node_modules has no record of what npm installed';
  }
  const lock = JSON.parse(lockText).packages ?? {};
  const same = (a = {}, b = {}) =>
    JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
  for (const f of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    if (!same(pkg[f], lock['']?.[f])) {
      return `package.json's ${f} differ from package-lock.json`;
    }
  }
  const installed = readJson(hiddenPath).packages ?? {};
  for (const [path, entry] of Object.entries(lock)) {
    if (path === '' || entry.optional || entry.devOptional) {
      continue; // optional: may be absent on this platform
    }
    const have = installed[path];
    if (!have || have.version !== entry.version) {
      return `${path.replace(/^node_modules\//, '')} is not at ${entry.version}`;
    }
  }
  return '';
}

function npm(args) {
  // Under `npm start` / `npm test`, npm says where its own CLI is; run that one.
  const execpath = process.env.npm_execpath;
  const [cmd, argv] = execpath && /\.[cm]?js$/.test(execpath) ? [process.execPath, [execpath, ...args]] : ['npm', args];
  return spawnSync(cmd, argv, { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' && cmd === 'npm' });
}

if (stamp === hash) {
  say('npm dependencies match package-lock.json (nothing to install)');
} else {
  const why = depsOutOfDate();
  if (!why) {
    say('npm dependencies match package-lock.json (checked against node_modules)');
  } else {
    say(`installing npm dependencies with npm ci (${why})`);
    const started = performance.now();
    const r = npm(['ci', '--no-audit', '--no-fund']);
    log('npm ci', `${r.stdout ?? ''}${r.stderr ?? ''}`);
    if (r.status !== 0) {
      console.error(tail(`${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`));
      fail(`npm ci failed (whole output in dist/setup.log)`);
    }
    say(`npm dependencies installed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  writeFileSync(stampPath, `${hash}\n`);
}

if (mode === 'deps') {
  process.exit(0);
}

// ---- browsers --------------------------------------------------------------------------------------------------
// The same places src/node/chromium.ts (chromiumPath) looks; the Firefox tests use $FIREFOX_PATH or
// /usr/bin/firefox-esr.
const chromium = () =>
  [
    process.env.CHROMIUM_PATH,
    process.env.PUPPETEER_EXECUTABLE_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ].find((p) => p && existsSync(p));
const firefox = () => {
  const p = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
  return existsSync(p) ? p : undefined;
};
const onPath = (name) =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((d) => join(d, name))
    .find((p) => existsSync(p));
const linux = process.platform === 'linux';
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

const wants = [
  { name: 'Chromium', pkg: 'chromium', find: chromium, env: 'CHROMIUM_PATH' },
  ...(mode === 'test'
    ? [
        { name: 'Firefox ESR', pkg: 'firefox-esr', find: firefox, env: 'FIREFOX_PATH' },
        // Xvfb gives a headful browser a display: the browsers run headless, but `view`'s window is checked on
        // one (test/e2e/cli-view.test.ts); openssl makes the self-signed certificate of https-self-signed.test.ts.
        ...(linux ? [{ name: 'Xvfb', pkg: 'xvfb', find: () => onPath('Xvfb') }] : []),
        { name: 'openssl', pkg: 'openssl', find: () => onPath('openssl') },
      ]
    : []),
];
let missing = wants.filter((w) => !w.find());

if (process.env.FIREFOX_PATH && mode === 'test' && !existsSync(process.env.FIREFOX_PATH)) {
  fail(`FIREFOX_PATH is ${process.env.FIREFOX_PATH}, which does not exist`);
}

const apt = linux && existsSync('/etc/debian_version') && process.getuid?.() === 0 && onPath('apt-get');
if (missing.length && apt) {
  // A text font for the panel's rendering in tests and screenshots (--no-install-recommends leaves it out).
  const pkgs = [...missing.map((w) => w.pkg), ...(existsSync(FONT) ? [] : ['fonts-dejavu-core'])];
  say(`installing ${pkgs.join(' ')} with apt-get (update, then install; output in dist/setup.log)`);
  const started = performance.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const argv of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...pkgs],
  ]) {
    const r = spawnSync('apt-get', argv, { encoding: 'utf8', env });
    log(`apt-get ${argv.join(' ')}`, `${r.stdout ?? ''}${r.stderr ?? ''}`);
    if (r.status !== 0) {
      console.error(tail(`${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}`));
      fail(`apt-get ${argv[0]} failed (whole output in dist/setup.log)`);
    }
  }
  missing = wants.filter((w) => !w.find());
  if (missing.length) {
    fail(`apt-get installed ${pkgs.join(' ')}, yet ${missing.map((w) => w.name).join(', ')} is still not found`);
  }
  say(`installed ${pkgs.join(' ')} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

for (const w of missing) {
  const how = w.env
    ? `install it (Debian: sudo apt-get install ${w.pkg}) or set ${w.env} to an existing ${w.name === 'Chromium' ? 'Chromium or Chrome' : 'Firefox'} binary`
    : `install it (Debian: sudo apt-get install ${w.pkg}): the end-to-end tests need it`;
  console.error(`setup: ${w.name} not found: ${how}`);
}
if (missing.length) {
  process.exit(1);
}
const found = wants.map((w) => [w, w.find()]).filter(([, p]) => p);
if (found.length) {
  say(`browsers and tools found: ${found.map(([w, p]) => `${w.name} ${p}`).join(', ')}`);
}
