// `npm run bench`: every benchmark, each printing figures measured side by side in one run.
// Results are recorded in BENCHMARKS.md with the command that produced them.
import { existsSync } from 'node:fs';

const suites = [
  ['classify throughput (issue 2)', './classify.mjs', 'benchClassify'],
  ['page overhead of capture (issue 4)', './page-overhead.mjs', 'benchPageOverhead'],
  ['panel with 100,000 records (issue 5)', './panel.mjs', 'benchPanel'],
];
const only = process.argv.slice(2);
let failed = false;
for (const [title, file, fn] of suites) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  if (!existsSync(new URL(file, import.meta.url))) { console.log(`\n## ${title}: not present`); continue; }
  console.log(`\n## ${title}`);
  try {
    const mod = await import(file);
    await mod[fn]();
  } catch (err) {
    failed = true;
    console.error(`bench failed: ${err?.stack ?? err}`);
  }
}
process.exitCode = failed ? 1 : 0;
