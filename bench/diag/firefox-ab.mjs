// Diagnostic (not part of npm run bench): builds of the Firefox extension side by side in Firefox, alternated: the
// page-overhead bench's bursts (bench/page-overhead-firefox.mjs's pages), per build the wall time per message and
// the CPU time per message during the burst (from /proc: far less sensitive to the machine's load than wall time) of
// the browser's processes, and of its busiest child process (FISSION=0: the one content process of host and iframe).
// Usage: [MODE=receive-only|full] [DIR=h2e|e2h] [SIZE=200] [N=5000] [REPS=7] [FISSION=0|1]
//          node bench/diag/firefox-ab.mjs none dist/firefox /tmp/variant ...
const { launchFirefox, settle } = await import('../page-overhead-firefox.mjs');
const { HOST, EMBED, serve } = await import('../page-overhead.mjs');
const mode = process.env.MODE ?? 'receive-only';
const dir = process.env.DIR ?? 'h2e';
const size = Number(process.env.SIZE ?? 200);
const n = Number(process.env.N ?? 5000);
const reps = Number(process.env.REPS ?? 7);
const fission = process.env.FISSION !== '0';
const variants = process.argv.slice(2);
const h = await serve('127.0.0.1');
const e = await serve('localhost');
h.set(HOST(e.origin, true));
e.set(EMBED(h.origin, true));
const bs = [];
for (const v of variants) {
  bs.push(
    await launchFirefox(v !== 'none', v === 'none' ? null : { sites: [h.origin, e.origin], mode }, { fission, ext: v }),
  );
}
import { readFileSync } from 'node:fs';
/** CPU ticks of each child process of the browser (content, extension and utility processes), by pid. */
const children = (b) => {
  const out = new Map();
  for (const p of b.pids().slice(1)) {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8');
      const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
      out.set(p, Number(x[11]) + Number(x[12]));
    } catch {}
  }
  return out;
};
const busiest = variants.map(() => []);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const runs = variants.map(() => ({ wall: [], cpu: [] }));
try {
  for (let i = -1; i < reps; i++) {
    for (let k = 0; k < bs.length; k++) {
      const j = (k + Math.max(0, i)) % bs.length;
      const b = bs[j];
      const page = await b.browser.newPage();
      await page.goto(`${h.origin}/`, { waitUntil: 'load' });
      await new Promise((r) => setTimeout(r, 500));
      const c0 = b.cpu();
      const k0 = children(b);
      const r = await page.evaluate((d, n, s) => window[d](n, s), dir, i < 0 ? 500 : n, size);
      const c1 = b.cpu();
      const k1 = children(b);
      if (i >= 0) {
        let top = 0;
        for (const [p, t] of k1) {
          top = Math.max(top, t - (k0.get(p) ?? t));
        }
        busiest[j].push((top * 10_000) / n);
      }
      if (i >= 0) {
        runs[j].wall.push(((r.last - r.t0) / n) * 1000);
        runs[j].cpu.push(((c1 - c0) * 10_000) / n);
      }
      // The hand-over and storage (4 s and more after 5,000 × 10 KB), outside the next burst: until every browser is
      // quiet, not a fixed time that a long hand-over outlasts (it would then run into the next build's burst).
      await settle(bs, 30_000);
      await page.close();
    }
  }
} finally {
  for (const b of bs) {
    await b.close();
  }
  h.server.close();
  e.server.close();
}
console.log(`${mode} ${dir} ${size} B × ${n}, ${reps} runs, fission ${fission}; medians (µs/msg)`);
for (const [j, v] of variants.entries()) {
  console.log(
    `${v.padEnd(20)} wall ${median(runs[j].wall).toFixed(1)}  cpu ${median(runs[j].cpu).toFixed(1)}  busiest process cpu ${median(busiest[j]).toFixed(1)}   [${busiest[j].map((x) => x.toFixed(0)).join(' ')}]`,
  );
}
