// @ts-check
// `npm run bench -- --compare REF`: a build of REF (any git ref) against the working tree's, side by side in one run.
// REF is checked out in a temporary worktree under /tmp with this tree's node_modules linked in, and built there
// (its own `scripts/build.mjs chrome`); the working tree's build is `npm run bench`'s own. Then the panel suite
// (panel.mjs) and the page-overhead suite (page-overhead.mjs) run alternated A/B with this tree's harness: for each
// line, each build's median and the ratio working tree ÷ REF (the median of the paired runs' ratios, with the interval
// that holds 90% of the medians of resampled pairs: below 1 is faster). The figures go to bench/results.json and
// BENCHMARKS.md's summary block (summary.mjs).
// Options: --runs N (panel pairs, default 7), --reps N (page-overhead runs per case, default 7), --bursts
// 1000,5000, --sizes 200,10000, --dirs h2e,e2h, --keep (leave REF's worktree), --ref-dir DIR (an already built
// dist/chrome to use as REF instead of building it; REF then only names it).
// Alone: `node bench/compare.mjs REF [options] [panel] [page-overhead]` (after npm run build).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { median, medianInterval } from './stats.mjs';
import { EXT, PANEL_LINES, panelRun } from './panel.mjs';
import { goalText, meets, row } from './summary.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');

/** The commit REF names, its short form, and the working tree's (with "+" when it has uncommitted changes). */
export function builds(ref) {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  return { refSha: sha, ref: sha.slice(0, 7), head: `${git('rev-parse', '--short=7', 'HEAD')}${dirty ? '+' : ''}` };
}

/** REF's dist/chrome, built in a worktree of its own under /tmp (reused when already built); returns its path and
 * how to remove the worktree. */
export function buildRef(sha, log = console.log) {
  const dir = `/tmp/ei-bench-ref-${sha.slice(0, 12)}`;
  const ext = join(dir, 'dist/chrome');
  const remove = () => {
    try {
      git('worktree', 'remove', '--force', dir);
    } catch (e) {
      log(`(could not remove the worktree ${dir}: ${String(/** @type {Error} */ (e)?.message ?? e).split('\n')[0]})`);
    }
  };
  if (existsSync(join(ext, 'manifest.json')) && git('-C', dir, 'rev-parse', 'HEAD') === sha) {
    log(`REF ${sha.slice(0, 7)}: built already in ${dir}`);
    return { ext, remove };
  }
  if (!existsSync(dir)) {
    git('worktree', 'add', '--detach', dir, sha);
  }
  if (!existsSync(join(dir, 'node_modules'))) {
    // The working tree's dependencies, unless REF locked others (a dependency added or dropped since): then its own.
    const lock = (d) => readFileSync(join(d, 'package-lock.json'), 'utf8');
    if (lock(dir) === lock(ROOT)) {
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    } else {
      log(`REF ${sha.slice(0, 7)}: its package-lock.json differs: npm ci in ${dir}`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], {
        cwd: dir,
        stdio: 'inherit',
        env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PUPPETEER_SKIP_DOWNLOAD: '1' },
      });
    }
  }
  log(`REF ${sha.slice(0, 7)}: building in ${dir}`);
  execFileSync(process.execPath, ['scripts/build.mjs', 'chrome'], { cwd: dir, stdio: 'inherit' });
  return { ext, remove };
}

/** Paired figures of one line: each build's median and the ratio B ÷ A of the pairs, with its interval. */
export function paired(as, bs) {
  const ok = as.map((a, k) => [a, bs[k]]).filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
  const ratios = ok.filter(([a]) => a > 0).map(([a, b]) => b / a);
  return {
    a: median(ok.map(([a]) => a)),
    b: median(ok.map(([, b]) => b)),
    aInterval: medianInterval(ok.map(([a]) => a)),
    bInterval: medianInterval(ok.map(([, b]) => b)),
    ratio: ratios.length ? median(ratios) : NaN,
    interval: ratios.length ? medianInterval(ratios) : [NaN, NaN],
    pairs: ok.length,
  };
}

/** The panel suite, A (REF) and B (the working tree) alternated, `runs` pairs; the order turns with each pair. */
export async function comparePanel({ a, b, names, runs = 7, log = console.log }) {
  const ra = [],
    rb = [];
  for (let k = 0; k < runs; k++) {
    for (const side of k % 2 ? ['b', 'a'] : ['a', 'b']) {
      (side === 'a' ? ra : rb).push(await panelRun({ ext: side === 'a' ? a : b }));
    }
  }
  log(`panel, ${runs} pairs (A = ${names.a}, B = ${names.b}; each run a new browser; order turning):`);
  log(`| measure | goal | A ${names.a} | B ${names.b} | B ÷ A (90%) |`);
  log('|---|---|---|---|---|');
  const lines = [];
  for (const line of PANEL_LINES) {
    const p = paired(
      ra.map((r) => line.of(r)),
      rb.map((r) => line.of(r)),
    );
    if (!p.pairs) {
      continue;
    }
    lines.push({ ...line, ...p });
    const goal = line.goal ? `${goalText(line.goal)} (B ${meets(line.goal, p.b) ? 'met' : 'missed'})` : '';
    log(
      `| ${line.name} | ${goal} | ${f1(p.a)} ${line.unit} | ${f1(p.b)} ${line.unit} | ${f2(p.ratio)}× (${f2(p.interval[0])}–${f2(p.interval[1])}) |`,
    );
  }
  return { lines, runs, a: ra, b: rb };
}

/** The page-overhead suite with both builds in full and receive-only mode, alternated (page-overhead.mjs). */
export async function comparePageOverhead({ a, b, names, reps = 7, bursts, sizes, dirs, log = console.log }) {
  const { benchPageOverheadCompare } = await import('./page-overhead.mjs');
  return benchPageOverheadCompare({ a, b, names, reps, bursts, sizes, dirs, log });
}

/** The summary table's rows of a compare run's suite: the working tree's figures, REF's beside them, the ratio. */
export function compareRows(key, result, { ref }) {
  if (key === 'panel') {
    return {
      runs: `${result.runs} pairs`,
      rows: result.lines
        .filter((l) => l.summary)
        .map((l) =>
          row(l.name, {
            goal: l.goal ?? null,
            value: l.b,
            interval: l.bInterval,
            unit: l.unit,
            against: { build: ref, value: l.a, ratio: l.ratio, interval: l.interval },
          }),
        ),
    };
  }
  return result.summary;
}

/** `--compare REF`: build REF, run the chosen suites alternated, return what summary.mjs records. */
export async function compare(ref, opts = {}) {
  const log = opts.log ?? console.log;
  const { refSha, ref: refShort, head } = builds(ref);
  const built = opts.refDir ? { ext: resolve(opts.refDir), remove: () => {} } : buildRef(refSha, log);
  const names = { a: refShort, b: head };
  const suites = opts.suites?.length ? opts.suites : ['panel', 'page-overhead'];
  const out = { ref: refShort, head, suites: {} };
  try {
    if (suites.includes('panel')) {
      await opts.settle?.();
      log(`\n## panel with 100,000 records: ${refShort} against ${head}`);
      out.suites.panel = await comparePanel({ a: built.ext, b: EXT, names, runs: opts.runs ?? 7, log });
    }
    if (suites.includes('page-overhead')) {
      await opts.settle?.();
      log(`\n## page overhead of capture: ${refShort} against ${head}`);
      out.suites['page-overhead'] = await comparePageOverhead({
        a: built.ext,
        b: EXT,
        names,
        reps: opts.reps ?? 7,
        bursts: opts.bursts,
        sizes: opts.sizes,
        dirs: opts.dirs,
        log,
      });
    }
  } finally {
    if (!opts.keep && !opts.refDir) {
      built.remove();
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name) => {
    const i = args.indexOf(`--${name}`);
    return i < 0 ? undefined : args.splice(i, 2)[1];
  };
  const list = (v) => v?.split(',').map(Number);
  const opts = {
    runs: Number(opt('runs') ?? 7),
    reps: Number(opt('reps') ?? 7),
    bursts: list(opt('bursts')),
    sizes: list(opt('sizes')),
    dirs: opt('dirs')?.split(','),
    refDir: opt('ref-dir'),
    keep: args.includes('--keep'),
  };
  const [ref, ...suites] = args.filter((x) => !x.startsWith('--'));
  if (!ref) {
    console.error('usage: node bench/compare.mjs REF [panel] [page-overhead] [--runs N] [--reps N] [--keep]');
    process.exit(2);
  }
  await compare(ref, { ...opts, suites });
}
