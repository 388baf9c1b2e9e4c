// Diagnostic (not part of npm run bench): CPU time of every Chromium process (from /proc) during one burst of the
// page-overhead benchmark, for each build given (a dist/chrome-like directory, or 'none' for no extension).
// "renderers": CPU of each page renderer that worked (host and embed, by process id); "ext": the extension process
// (service worker); "browser": the browser process.
// Usage: [SIZE=200] [DIR=h2e|e2h] [REPS=2] [MODE=full|receive-only] node bench/diag/process-cpu.mjs none dist/chrome /tmp/variant
import { processCpu, cpuDelta } from './proc.mjs';
const n = Number(process.env.N ?? 20000),
  size = Number(process.env.SIZE ?? 200),
  dir = process.env.DIR ?? 'h2e';
const variants = process.argv.slice(2);
const results = {};

for (let rep = 0; rep < Number(process.env.REPS ?? 2); rep++) {
  for (const v of variants) {
    if (v !== 'none') {
      process.env.EI_EXTENSION_DIR = v;
    }
    const { HOST, EMBED, serve, launch } = await import(`../page-overhead.mjs?${v}`);
    const h = await serve('127.0.0.1');
    const e = await serve('localhost');
    h.set(HOST(e.origin, true));
    e.set(EMBED(h.origin, true));
    const b = await launch(
      v !== 'none',
      v !== 'none' ? { sites: [h.origin, e.origin], mode: process.env.MODE ?? 'full' } : null,
    );
    const pid = b.browser.process().pid;
    const page = await b.browser.newPage();
    await page.goto(`${h.origin}/`, { waitUntil: 'load' });
    await page.evaluate((d) => window[d](500, 200), dir);
    await new Promise((r) => setTimeout(r, 1500));
    const before = processCpu(pid);
    const r = await page.evaluate((d, n, s) => window[d](n, s), dir, n, size);
    const { byKind, renderers } = cpuDelta(before, processCpu(pid)); // the burst only (deferred processing not included)
    const row = {
      us: ((r.last - r.t0) / n) * 1000,
      loop: (r.loop / n) * 1000,
      ext: byKind['renderer+ext'] ?? 0,
      browser: byKind.browser ?? 0,
    };
    (results[v] ??= []).push(row);
    console.log(
      v.padEnd(12),
      Object.entries(row)
        .map(([k, x]) => `${k} ${x.toFixed(1)}`)
        .join('  '),
      ' renderers',
      Object.values(renderers)
        .filter((x) => x > 5)
        .join(' '),
    );
    await b.close();
    h.server.close();
    e.server.close();
  }
}
