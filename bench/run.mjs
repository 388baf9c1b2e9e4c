// `npm run bench`: every benchmark, each printing figures measured side by side in one run.
// Results are recorded in BENCHMARKS.md with the command that produced them.
// `npm run bench -- --quick`: the page-overhead suites at fewer rounds (Chromium: bursts of 5,000 and 20,000 only; the
// default measures 1,000 to 100,000). Other arguments select suites by file name (`npm run bench -- page-overhead`).
import { existsSync, readFileSync } from 'node:fs';

const suites = [
  ['classify throughput (issues 2, 30)', './classify.mjs', 'benchClassify'],
  ['page overhead of capture (issues 4, 13, 30)', './page-overhead.mjs', 'benchPageOverhead'],
  ['page overhead of capture in Firefox (issue 31)', './page-overhead-firefox.mjs', 'benchPageOverheadFirefox'],
  ['panel with 100,000 records (issue 5)', './panel.mjs', 'benchPanel'],
  ['page load with capture (issue 47)', './page-load.mjs', 'benchPageLoad'],
];
// `npm run bench -- page-overhead-firefox`: the suites whose file is named so (`page-overhead` alone: both).
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const quick = process.argv.includes('--quick');
const options = {
  './page-overhead.mjs': quick ? { bursts: [5_000, 20_000], reps: 5 } : {},
  './page-overhead-firefox.mjs': quick ? { reps: 5 } : {},
  './page-load.mjs': quick ? { rounds: 9 } : {},
};
let failed = false;
for (const [title, file, fn] of suites) {
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
    await mod[fn](options[file] ?? {});
  } catch (err) {
    failed = true;
    console.error(`bench failed: ${err?.stack ?? err}`);
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
