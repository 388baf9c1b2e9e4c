// Where the capture lag goes (issue 30): one full-mode browser per build given, bursts host→iframe or iframe→host,
// and after each burst the tab's record count polled every few ms: when the count steps, from the last delivery.
// With each burst, the service worker's IndexedDB read-write transactions after the last delivery: how many, and
// the time from their creation to `complete` (summed, and the last one's end), as a share of the lag.
// Usage: node bench/diag/lag-timeline.mjs [--dir h2e|e2h] [--n 5000] [--size 200] [--reps 3] [build dirs...]
//   (default build: dist/chrome)
import { launch, servePages, settle, tabAndCount } from '../page-overhead.mjs';
import { burstCommandLine } from './args.mjs';

const { dir, n, size, reps, builds } = burstCommandLine({ n: 5000, reps: 3 });

const { h, e } = await servePages();
const sites = [h.origin, e.origin];
const browsers = [];
const lags = {};
for (const b of builds) {
  browsers.push({ name: b, ...(await launch(true, { sites, mode: 'full' }, b)) });
}
try {
  for (let i = 0; i < reps + 1; i++) {
    for (const b of browsers) {
      const page = await b.browser.newPage();
      await page.goto(`${h.origin}/`, { waitUntil: 'load' });
      const w = await b.worker();
      await w.evaluate(() => {
        const g = globalThis;
        g.__idb = [];
        if (g.__idbPatched) {
          return;
        }
        g.__idbPatched = true;
        const tx = IDBDatabase.prototype.transaction;
        IDBDatabase.prototype.transaction = function (...a) {
          const t = tx.apply(this, a);
          if (a[1] === 'readwrite') {
            const start = performance.timeOrigin + performance.now();
            t.addEventListener('complete', () => g.__idb.push([start, performance.timeOrigin + performance.now()]));
          }
          return t;
        };
      });
      const { tabId, base } = await tabAndCount(w, page);
      await settle();
      const r = await page.evaluate((d, n, s) => window[d](n, s), dir, i === 0 ? 500 : n, size);
      const target = base + 2 * (i === 0 ? 500 : n) + 4;
      const steps = [];
      let c = base;
      const giveUp = Date.now() + 60_000;
      while (c < target && Date.now() < giveUp) {
        const c2 = await w.evaluate((id) => globalThis.embedInspector.count(id), tabId);
        if (c2 !== c) {
          steps.push(`${Date.now() - Math.round(r.last)}ms:+${c2 - c}`);
          c = c2;
        }
        await new Promise((res) => setTimeout(res, 2));
      }
      if (i > 0 && c >= target) {
        (lags[b.name] ??= []).push(Number(steps.at(-1).split('ms')[0]));
      }
      if (i > 0) {
        const tx = (await w.evaluate(() => globalThis.__idb)).filter(([, end]) => end > r.last);
        const busy = tx.reduce((a, [start, end]) => a + end - Math.max(start, r.last), 0);
        const lastEnd = tx.length ? Math.round(Math.max(...tx.map(([, e]) => e)) - r.last) : 0;
        console.log(
          `${b.name.split('/').slice(-2).join('/')} ${dir} ${n}×${size}: ${steps.join(' ')}  | idb after: ${tx.length} tx, ${Math.round(busy)} ms open, last done at ${lastEnd} ms`,
        );
      }
      await page.close();
    }
  }
  for (const [name, l] of Object.entries(lags)) {
    const sorted = [...l].sort((a, b) => a - b);
    console.log(`${name}: lag ms ${l.join(' ')}; median ${sorted[Math.floor((sorted.length - 1) / 2)]}`);
  }
} finally {
  for (const b of browsers) {
    await b.close();
  }
  h.server.close();
  e.server.close();
}
