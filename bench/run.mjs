// `npm run bench`: every benchmark, each printing figures measured side by side in one run. Each suite run records
// its rows (measure, goal, figure with its interval) in bench/results.json, and BENCHMARKS.md's summary block is
// rewritten from them (summary.mjs).
// `npm run bench -- --quick`: the page-overhead suites at fewer rounds (Chromium: bursts of 5,000 and 20,000 only; the
// default measures 1,000 to 100,000). Other arguments select suites by file name (`npm run bench -- page-overhead`).
// `npm run bench -- --compare REF`: REF (a git ref) built in a worktree of its own under /tmp against the working
// tree, the panel and page-overhead suites alternated A/B, the ratio per line (compare.mjs); `--runs N` panel
// pairs, `--reps N` page-overhead runs per case.
// `npm run bench -- --summary`: only rewrite BENCHMARKS.md's summary block from bench/results.json (no build).
// `npm run bench -- --no-record`: run without recording; `--no-build`: with the build that is there.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { recordSuite, writeSummary, readResults } from './summary.mjs';
import { suites } from './suites.mjs';

const args = process.argv.slice(2);
const optionValue = (name) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : args[i + 1];
};
const valued = new Set(['--compare', '--runs', '--reps'].map((o) => args.indexOf(o) + 1).filter((i) => i > 0));
// `npm run bench -- page-overhead-firefox`: the suites whose file is named so (`page-overhead` alone: both).
const only = args.filter((a, i) => !a.startsWith('--') && !valued.has(i));
const quick = args.includes('--quick');
const record = !args.includes('--no-record');
const order = suites.map((s) => s.key);
const options = {
  './page-overhead.mjs': quick ? { bursts: [5_000, 20_000], reps: 5 } : {},
  './page-overhead-firefox.mjs': quick ? { reps: 5 } : {},
  './page-load.mjs': quick ? { rounds: 9 } : {},
  './panel.mjs': optionValue('runs') ? { runs: Number(optionValue('runs')) } : {},
};
const command = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;

let failed = false;
if (!args.includes('--summary') && !args.includes('--no-build')) {
  execFileSync(process.execPath, [new URL('../scripts/build.mjs', import.meta.url).pathname], { stdio: 'inherit' });
}
if (args.includes('--summary')) {
  writeSummary(readResults(), order);
  console.log('BENCHMARKS.md: the summary block rewritten from bench/results.json');
} else if (optionValue('compare')) {
  const { compare, compareRows } = await import('./compare.mjs');
  try {
    const out = await compare(optionValue('compare'), {
      suites: only,
      runs: optionValue('runs') ? Number(optionValue('runs')) : undefined,
      reps: optionValue('reps') ? Number(optionValue('reps')) : undefined,
      keep: args.includes('--keep'),
      settle,
    });
    if (record) {
      for (const [key, result] of Object.entries(out.suites)) {
        const s = suites.find((x) => x.key === key);
        recordSuite(key, { title: s.title, ...compareRows(key, result, out), command });
      }
      writeSummary(readResults(), order);
    }
  } catch (err) {
    failed = true;
    console.error(`bench failed: ${err?.stack ?? err}`);
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
    } catch (err) {
      failed = true;
      console.error(`bench failed: ${err?.stack ?? err}`);
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
    if ((b.idle - a.idle) / Math.max(1, b.total - a.total) > 0.8) {
      return;
    }
  }
}
