// @ts-check
// `npm run bench`: every benchmark, each printing figures measured side by side in one run. Each suite run records
// its rows (measure, goal, figure with its interval) in bench/results.json, and BENCHMARKS.md's summary block is
// rewritten from them (summary.mjs). `npm run bench -- --help`: the options (USAGE below).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { recordSuite, writeSummary, readResults } from './summary.mjs';
import { suites } from './suites.mjs';
import { LOAD_BROWSERS } from './page-load.mjs';

const USAGE = `usage: npm run bench -- [suite ...] [options]
  suite                 the suites whose file is named so: ${suites.map((s) => s.key).join(', ')}
                        (page-overhead alone: both page-overhead suites); none: every suite
  --quick               the page-overhead suites at fewer rounds (Chromium: bursts of 5,000 and 20,000 only),
                        page-load at 9 rounds, soak for 2 minutes
  --runs N              panel: runs, each in a new browser (default 7; with --profile 1); --compare: panel pairs
  --rounds N            page-load: rounds (default 21)
  --browsers A,B        page-load: only these browsers beside no extension (off, receive-only, full, floor; empty:
                        the floor's scripts empty; trust: the floor with what keeps the page out, as ours does; these
                        two only when named); such a run is not recorded
  --minutes N           soak: minutes of the session (default 5; an hour: 60)
  --compare REF         REF (a git ref) built in a worktree under /tmp against the working tree, the panel and
                        page-overhead suites alternated A/B, the ratio per line (compare.mjs); --reps N page-overhead
                        runs per case, --bursts 1000,5000, --sizes 200,10000, --dirs h2e,e2h, --keep leaves REF's
                        worktree, --ref-dir DIR an already built dist/chrome as REF
  --summary             only rewrite BENCHMARKS.md's summary block from bench/results.json (no build)
  --no-record           run without recording in bench/results.json; --no-build: with the build that is there
  --cpu                 page-overhead (Chromium): per case also print each browser's CPU per message by part (tab
                        renderers / extension process / whole browser) and what each adds to no extension
  --bursts, --reps      page-overhead (Chromium): only these bursts (e.g. 1000,5000: the rows of the summary table),
                        runs per case
diagnostics (a suite's run that prints where the time goes; never recorded):
  page-load --cpu-trace a trace of each load: thread ms of each of our scripts per frame (host, embed), at
                        document_start and later, beside each frame's main thread (trace.mjs)
  page-load --same-tab  one tab per browser, navigated again for each load (a reload), instead of a new tab each
  page-load --cpu-profile  the same with V8's sampling profile (~100 µs): our code's sampled ms per frame by
                        phase, file and function, self and total (trace.mjs profileByFrame)
  --worker-profile      the service worker's CPU profile over one page-overhead burst and the lag after it, full
                        mode: its time by 50 ms from the last delivery (storing, processing, GC) and by function
                        (worker-profile.mjs); the first of --bursts, --sizes, --dirs (5000, 200, h2e); --runs N rounds
  --threads             each browser thread's CPU from /proc over one page-overhead burst and the lag after it, full
                        mode, binned from the last delivery, and the lag's tail: which threads work once the renderers
                        are done (thread-timeline.mjs); the first of --bursts, --sizes, --dirs; --runs N rounds (2)
  panel --profile       a CPU profile of the first render of 100,000 records: functions by self and total time
                        (panel-profile.mjs); --trace: by trace event (thread time) instead; --filter JSON: one filter
                        change (e.g. '{"types":["svc:event:view"]}') instead of the load; --save FILE keeps the
                        profile or trace for Chrome DevTools`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
/** @param {string} name */
const optionValue = (name) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : args[i + 1];
};
/** @param {string} name */
const optionNumber = (name) => {
  if (!args.includes(`--${name}`)) {
    return undefined;
  }
  const v = optionValue(name);
  if (!v || !/^[1-9]\d*$/.test(v)) {
    console.error(`bench: --${name} takes a whole number above 0, not ${v ?? 'nothing'} (npm run bench -- --help)`);
    process.exit(2);
  }
  return Number(v);
};
const VALUED = [
  '--compare',
  '--runs',
  '--reps',
  '--rounds',
  '--browsers',
  '--minutes',
  '--filter',
  '--save',
  '--bursts',
  '--sizes',
  '--dirs',
  '--ref-dir',
];
const FLAGS = [
  '--quick',
  '--summary',
  '--no-record',
  '--no-build',
  '--keep',
  '--cpu',
  '--same-tab',
  '--cpu-trace',
  '--cpu-profile',
  '--profile',
  '--trace',
  '--worker-profile',
  '--threads',
];
const valued = new Set(VALUED.map((o) => args.indexOf(o) + 1).filter((i) => i > 0));
const bare = VALUED.filter((o) => args.includes(o) && (args[args.indexOf(o) + 1] ?? '--').startsWith('--'));
if (bare.length) {
  console.error(`bench: ${bare.join(', ')} needs a value (npm run bench -- --help)`);
  process.exit(2);
}
const unknown = args.filter((a, i) => a.startsWith('-') && !valued.has(i) && !VALUED.includes(a) && !FLAGS.includes(a));
if (unknown.length) {
  console.error(`bench: unknown option ${unknown.join(', ')} (npm run bench -- --help lists the options)`);
  process.exit(2);
}
// `npm run bench -- page-overhead-firefox`: the suites whose file is named so (`page-overhead` alone: both).
const only = args.filter((a, i) => !a.startsWith('--') && !valued.has(i));
const stray = only.filter((o) => !suites.some((s) => s.file.includes(o)));
if (stray.length && !optionValue('compare')) {
  console.error(`bench: no suite is named ${stray.join(', ')} (the suites: ${suites.map((s) => s.key).join(', ')})`);
  process.exit(2);
}
const quick = args.includes('--quick');
const runs = optionNumber('runs');
const rounds = optionNumber('rounds');
const minutes = optionNumber('minutes');
const reps = optionNumber('reps');
const browsers = optionValue('browsers')?.split(',');
if (browsers?.some((b) => !LOAD_BROWSERS.includes(b))) {
  console.error(`bench: --browsers takes some of ${LOAD_BROWSERS.join(', ')}, comma-separated`);
  process.exit(2);
}
const cpuTrace = args.includes('--cpu-trace');
const cpuProfile = args.includes('--cpu-profile');
const sameTab = args.includes('--same-tab');
const profile = args.includes('--profile')
  ? {
      runs: runs ?? 1,
      trace: args.includes('--trace'),
      filter: optionValue('filter') ?? null,
      save: optionValue('save') ?? null,
    }
  : null;
// A diagnostic run's figures are taken with a trace or a profile on, a run of some browsers lacks rows: neither is
// the suite's.
const workerProfile = args.includes('--worker-profile');
const threads = args.includes('--threads');
const record =
  !args.includes('--no-record') &&
  !cpuTrace &&
  !cpuProfile &&
  !sameTab &&
  !profile &&
  !browsers &&
  !workerProfile &&
  !threads;
const order = suites.map((s) => s.key);
const bursts = optionValue('bursts');
/** @type {Record<string, object>} */
const options = {
  './page-overhead.mjs': {
    ...(quick ? { bursts: [5_000, 20_000], reps: 5 } : {}),
    ...(bursts ? { bursts: bursts.split(',').map(Number) } : {}),
    ...(reps ? { reps } : {}),
    cpu: args.includes('--cpu'),
  },
  './page-overhead-firefox.mjs': quick ? { reps: 5 } : {},
  './page-load.mjs': {
    ...(quick ? { rounds: 9 } : {}),
    ...(rounds ? { rounds } : {}),
    ...(browsers ? { only: browsers } : {}),
    cpuTrace,
    cpuProfile,
    sameTab,
  },
  './panel.mjs': { ...(runs ? { runs } : {}), profile },
  './soak.mjs': { ...(quick ? { minutes: 2 } : {}), ...(minutes ? { minutes } : {}) },
};
const command = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;

let failed = false;
if (!args.includes('--summary') && !args.includes('--no-build')) {
  execFileSync(process.execPath, [new URL('../scripts/build.mjs', import.meta.url).pathname], { stdio: 'inherit' });
}
if (workerProfile || threads) {
  const first = (/** @type {string} */ name) => optionValue(name)?.split(',')[0];
  const dir = first('dirs') ?? 'h2e';
  if (dir !== 'h2e' && dir !== 'e2h') {
    console.error('bench: --dirs takes h2e or e2h');
    process.exit(2);
  }
  await settle();
  const o = {
    burst: Number(first('bursts') ?? 5_000),
    size: Number(first('sizes') ?? 200),
    dir: /** @type {'h2e' | 'e2h'} */ (dir),
  };
  if (workerProfile) {
    const { workerProfile: run } = await import('./worker-profile.mjs');
    await run({ ...o, rounds: runs ?? 3 });
  } else {
    const { threadTimeline } = await import('./thread-timeline.mjs');
    await threadTimeline({ ...o, rounds: runs ?? 2 });
  }
} else if (args.includes('--summary')) {
  writeSummary(readResults(), order);
  console.log('BENCHMARKS.md: the summary block rewritten from bench/results.json');
} else if (optionValue('compare')) {
  const { compare, compareRows } = await import('./compare.mjs');
  try {
    const out = await compare(optionValue('compare'), {
      suites: only,
      runs,
      reps,
      bursts: optionValue('bursts')?.split(',').map(Number),
      sizes: optionValue('sizes')?.split(',').map(Number),
      dirs: optionValue('dirs')?.split(','),
      refDir: optionValue('ref-dir'),
      keep: args.includes('--keep'),
      settle,
    });
    if (record) {
      for (const [key, result] of Object.entries(out.suites)) {
        const title = suites.find((x) => x.key === key)?.title ?? key;
        recordSuite(key, { title, ...compareRows(key, result, out), command });
      }
      writeSummary(readResults(), order);
    }
  } catch (err) {
    failed = true;
    console.error(`bench failed: ${/** @type {Error} */ (err)?.stack ?? err}`);
  }
} else {
  for (const { key, title, file, fn } of suites) {
    if (only.length && !only.some((o) => file.includes(o))) {
      continue;
    }
    if (!existsSync(new URL(file, import.meta.url))) {
      console.log(`\n## ${title}: not present`);
      continue;
    }
    await settle();
    console.log(`\n## ${title}`);
    try {
      const mod = await import(file);
      const result = await mod[fn](options[file] ?? {});
      if (record && mod.summaryRows) {
        recordSuite(key, { title, ...mod.summaryRows(result, options[file] ?? {}), command });
        writeSummary(readResults(), order);
      }
      // A suite whose goals are its pass mark (soak) says what failed: the run fails, its figures recorded.
      if (result?.failed) {
        failed = true;
        console.error(`bench failed: ${title}: ${result.failed}`);
      }
    } catch (err) {
      failed = true;
      console.error(`bench failed: ${/** @type {Error} */ (err)?.stack ?? err}`);
    }
  }
}
process.exitCode = failed ? 1 : 0;

/**
 * Wait (at most 10 s) until the machine is quiet (over 80% of the CPU time idle for 300 ms, from /proc/stat where
 * there is one): Chromium's renderers outlive `browser.close()` by a second or two, and would run beside the next
 * suite's measurements.
 */
async function settle() {
  const sample = () => {
    try {
      const [, ...t] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
      return { idle: t[3] + (t[4] || 0), total: t.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  for (let i = 0; i < 33; i++) {
    const a = sample();
    if (!a) {
      return;
    }
    await new Promise((r) => setTimeout(r, 300));
    const b = sample();
    if (!b || (b.idle - a.idle) / Math.max(1, b.total - a.total) > 0.8) {
      return;
    }
  }
}
