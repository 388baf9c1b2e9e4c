// Diagnostic (not part of npm run bench): what the capture lag is made of on this machine, as CPU. One full-mode
// browser per build given; after each burst (host→iframe or iframe→host), the CPU time every process of the
// browser spends from the page's last delivery until the tab's log counts every record of the burst, from /proc,
// by kind (the page renderers, the extension's process, the browser process). The records are written, sent,
// stored and classified in that time, and nothing else runs, so however the work is scheduled the lag cannot be
// shorter than that CPU spread over every core, plus the receiver's quiet period (the outbox's QUIET_MS) before its
// hand-over starts: the "floor" column. The CPU spent between the last delivery and the first /proc reading (the
// page's reply reaching puppeteer) is not counted, so the floor is, if anything, too low.
// The count is polled inside the service worker (every 5 ms), not over CDP, so the waiting adds little CPU.
// Usage: node bench/diag/lag-floor.mjs [--dir h2e|e2h] [--n 5000] [--size 200] [--reps 5] [build dirs...]
//   (default build: dist/chrome)
import { availableParallelism } from 'node:os';
import { launch, servePages, settle, tabAndCount } from '../page-overhead.mjs';
import { median } from '../stats.mjs';
import { burstCommandLine } from './args.mjs';
import { processCpu, cpuDelta } from './proc.mjs';

const { dir, n, size, reps, builds } = burstCommandLine({ n: 5000, reps: 5 });
// The receiver's quiet period before it hands its deliveries over (src/capture/outbox.ts, QUIET_MS).
const QUIET_MS = 50;
const cores = availableParallelism();

const { h, e } = await servePages();
const sites = [h.origin, e.origin];
const browsers = [];
for (const b of builds) {
  browsers.push({ name: b, ...(await launch(true, { sites, mode: 'full' }, b)) });
}
const rows = {};
try {
  for (let i = 0; i < reps + 1; i++) {
    for (const b of browsers) {
      const burst = i === 0 ? 500 : n; // the first round warms the browsers up, and is not counted
      const page = await b.browser.newPage();
      await page.goto(`${h.origin}/`, { waitUntil: 'load' });
      const w = await b.worker();
      const { tabId, base } = await tabAndCount(w, page);
      await settle();
      const pid = b.browser.process().pid;
      const r = await page.evaluate((d, m, s) => window[d](m, s), dir, burst, size);
      const before = processCpu(pid);
      // Every post and delivery of the burst, and the bench's own control messages (expect/done or go/stats).
      const target = base + 2 * burst + 4;
      const done = await w.evaluate(
        async (id, t) => {
          const giveUp = Date.now() + 60_000;
          while ((await globalThis.embedInspector.count(id)) < t && Date.now() < giveUp) {
            await new Promise((res) => setTimeout(res, 5));
          }
          return (await globalThis.embedInspector.count(id)) >= t ? performance.timeOrigin + performance.now() : 0;
        },
        tabId,
        target,
      );
      const { byKind } = cpuDelta(before, processCpu(pid));
      await page.close();
      if (i === 0) {
        continue;
      }
      if (!done) {
        console.log(`${b.name}: the log did not count the burst within 60 s`);
        continue;
      }
      const lag = done - r.last;
      const renderers = byKind.renderer ?? 0;
      const ext = byKind['renderer+ext'] ?? 0;
      const browser = byKind.browser ?? 0;
      const all = Object.values(byKind).reduce((a, x) => a + x, 0);
      const row = { lag, all, renderers, ext, browser, floor: QUIET_MS + all / cores };
      (rows[b.name] ??= []).push(row);
      console.log(
        `${b.name} ${dir} ${n}×${size}: lag ${lag.toFixed(0)} ms; CPU after the last delivery ${all.toFixed(0)} ms` +
          ` (renderers ${renderers.toFixed(0)}, extension ${ext.toFixed(0)}, browser ${browser.toFixed(0)});` +
          ` floor ${QUIET_MS} + ${all.toFixed(0)}/${cores} = ${row.floor.toFixed(0)} ms`,
      );
    }
  }
  console.log(
    `\n| build | ${dir} ${n} × ${size} B | lag ms | CPU after ms (renderers / extension / browser) | floor ms |`,
  );
  console.log('|---|---|---|---|---|');
  for (const [name, rs] of Object.entries(rows)) {
    const m = (k) => median(rs.map((x) => x[k])).toFixed(0);
    console.log(
      `| ${name} | ${rs.length} runs, medians | ${m('lag')} | ${m('all')} (${m('renderers')} / ${m('ext')} / ${m('browser')}) | ${m('floor')} |`,
    );
  }
} finally {
  for (const b of browsers) {
    await b.close();
  }
  h.server.close();
  e.server.close();
}
