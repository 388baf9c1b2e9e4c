// Diagnostic (not part of npm run bench): CPU time of each thread kind (from /proc, 10 ms ticks) during one burst of
// the page-overhead benchmark, for each build given (a dist/chrome-like directory, or 'none' for no extension),
// alternated, averaged over REPS. The host's and the embed's renderers are told apart (the host page spins for 300
// ms first, and the renderer that took it is the host's): main thread, task pool (V8's concurrent GC runs there)
// and the rest; then every thread name of the browser and the extension's process.
// WARM: the messages of the burst the page makes first, unmeasured (500).
// Usage: [N=5000] [SIZE=200] [DIR=h2e|e2h] [REPS=6] [WARM=500] node bench/diag/thread-cpu.mjs none dist/chrome /tmp/variant
import { threadCpu } from './proc.mjs';

const n = Number(process.env.N ?? 5000);
const size = Number(process.env.SIZE ?? 200);
const dir = process.env.DIR ?? 'h2e';
const reps = Number(process.env.REPS ?? 6);
const warm = Number(process.env.WARM ?? 500);
const builds = process.argv.slice(2);
if (!builds.length || (dir !== 'h2e' && dir !== 'e2h')) {
  console.error('usage: [DIR=h2e|e2h] node bench/diag/thread-cpu.mjs none|<build dir> ...');
  process.exit(2);
}

const sums = {};
for (let rep = 0; rep < reps; rep++) {
  for (const v of builds) {
    if (v !== 'none') {
      process.env.EI_EXTENSION_DIR = v;
    }
    // (a fresh module per build: it reads EI_EXTENSION_DIR when loaded)
    const { HOST, EMBED, serve, launch } = await import(`../page-overhead.mjs?${encodeURIComponent(v)}`);
    const h = await serve('127.0.0.1');
    const e = await serve('localhost');
    h.set(HOST(e.origin, true));
    e.set(EMBED(h.origin, true));
    const b = await launch(v !== 'none', v !== 'none' ? { sites: [h.origin, e.origin], mode: 'full' } : null);
    try {
      const pid = b.browser.process().pid;
      const page = await b.browser.newPage();
      await page.goto(`${h.origin}/`, { waitUntil: 'load' });
      await page.evaluate((d, k, s) => window[d](k, s), dir, warm, size);
      await new Promise((r) => setTimeout(r, 1500));
      const s0 = threadCpu(pid);
      await page.evaluate(() => {
        const t = performance.now();
        while (performance.now() - t < 300) {
          /* spin */
        }
      });
      const s1 = threadCpu(pid);
      let hostPid = null;
      let most = 0;
      for (const [k, t] of Object.entries(s1)) {
        const d = t.cpu - (s0[k]?.cpu ?? 0);
        if (t.kind === 'renderer' && t.name === 'chromium' && d > most) {
          most = d;
          hostPid = t.pid;
        }
      }
      const before = threadCpu(pid);
      await page.evaluate((d, k, s) => window[d](k, s), dir, n, size);
      const after = threadCpu(pid);
      const row = (sums[v] ??= {});
      for (const [k, t] of Object.entries(after)) {
        const d = t.cpu - (before[k]?.cpu ?? 0);
        if (d <= 0) {
          continue;
        }
        const key =
          t.kind === 'renderer'
            ? `${t.pid === hostPid ? 'host' : 'embed'} ${t.name === 'chromium' ? 'main' : t.name.startsWith('ThreadPool') ? 'task pool' : 'other threads'}`
            : `${t.kind}: ${t.name}`;
        row[key] = (row[key] ?? 0) + d / reps;
      }
    } finally {
      await b.close();
      h.server.close();
      e.server.close();
    }
  }
}
console.log(`${n} envelopes of ${size} B ${dir}, CPU ms during the burst, mean of ${reps} alternated runs`);
const keys = [...new Set(Object.values(sums).flatMap((r) => Object.keys(r)))].sort();
console.log(`${''.padEnd(34)}${builds.map((b) => b.slice(-14).padStart(16)).join('')}`);
for (const k of keys) {
  console.log(`${k.padEnd(34)}${builds.map((b) => (sums[b]?.[k] ?? 0).toFixed(1).padStart(16)).join('')}`);
}
