// Diagnostic (not part of npm run bench): what the post hook costs inside the page's own posting loop. One browser
// per build (a dist/chrome-like directory, or 'none' for no extension), each capturing both sites in MODE (full by
// default), alternated; each run posts a burst of N envelopes of SIZE bytes in one task (bench/page-overhead.mjs's
// pages) and reads the time of the page's loop alone, then waits until every browser is quiet. Prints the median
// µs per post of each build, with every run.
// Usage: [DIR=h2e|e2h] [N=5000] [SIZE=200] [REPS=9] [MODE=full|receive-only]
//          node bench/diag/post-loop.mjs none dist/chrome /tmp/variant
const { HOST, EMBED, serve, launch, settle } = await import('../page-overhead.mjs');
const dir = process.env.DIR ?? 'h2e';
const n = Number(process.env.N ?? 5000);
const size = Number(process.env.SIZE ?? 200);
const reps = Number(process.env.REPS ?? 9);
const mode = process.env.MODE ?? 'full';
const variants = process.argv.slice(2);
if (!variants.length) {
  console.error('usage: node bench/diag/post-loop.mjs none dist/chrome /tmp/variant ...');
  process.exit(2);
}
const h = await serve('127.0.0.1');
const e = await serve('localhost');
h.set(HOST(e.origin, true));
e.set(EMBED(h.origin, true));
const browsers = [];
for (const v of variants) {
  browsers.push(await launch(v !== 'none', v === 'none' ? null : { sites: [h.origin, e.origin], mode }, v));
}
const loops = variants.map(() => []);
try {
  // Round -1 warms each browser up (not counted); the order turns each round.
  for (let i = -1; i < reps; i++) {
    for (let k = 0; k < browsers.length; k++) {
      const j = (k + Math.max(0, i)) % browsers.length;
      const page = await browsers[j].browser.newPage();
      await page.goto(`${h.origin}/`, { waitUntil: 'load' });
      await settle();
      const r = await page.evaluate((d, n, s) => window[d](n, s), dir, n, size);
      if (i >= 0) {
        loops[j].push((r.loop / n) * 1000);
      }
      await page.close();
      await settle();
    }
  }
} finally {
  for (const b of browsers) {
    await b.browser.close();
  }
  h.server.close();
  e.server.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${mode} ${dir} ${size} B × ${n}, ${reps} runs: the page's posting loop, µs a post`);
for (const [j, v] of variants.entries()) {
  console.log(`${v.padEnd(28)} ${median(loops[j]).toFixed(2)}   [${loops[j].map((x) => x.toFixed(1)).join(' ')}]`);
}
