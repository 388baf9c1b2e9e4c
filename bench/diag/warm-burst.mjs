// Diagnostic (not part of npm run bench): whether the capture's cost per message in a short burst is paid once per
// page. In each new page the bench's burst runs twice (the same direction, length and size), the second time after
// the first's records were handed over; browsers alternated as in page-overhead.mjs (no extension, receive-only,
// full), ratios to no extension for the first burst of a page and for the second.
// Usage: node bench/diag/warm-burst.mjs [--dir h2e|e2h] [--n 1000] [--size 200] [--reps 9]
import { launch, servePages, settle } from '../page-overhead.mjs';
import { burstCommandLine } from './args.mjs';
import { median, medianInterval } from '../stats.mjs';

const { dir, n, size, reps } = burstCommandLine({ n: 1000, reps: 9 });

const { h, e } = await servePages();
const sites = [h.origin, e.origin];
const browsers = {
  without: await launch(false),
  'receive-only': await launch(true, { sites, mode: 'receive-only' }),
  full: await launch(true, { sites, mode: 'full' }),
};
const kinds = Object.keys(browsers);
const perMsg = (r) => ((r.last - r.t0) / n) * 1000;
const runs = [];
try {
  for (let i = 0; i < reps + 1; i++) {
    const got = {};
    for (const k of kinds.map((_, j) => kinds[(j + i) % kinds.length])) {
      const page = await browsers[k].browser.newPage();
      await page.goto(`${h.origin}/`, { waitUntil: 'load' });
      await settle();
      const first = perMsg(await page.evaluate((d, m, s) => window[d](m, s), dir, n, size));
      await new Promise((r) => setTimeout(r, 1500)); // the first burst's records handed over
      await settle();
      const second = perMsg(await page.evaluate((d, m, s) => window[d](m, s), dir, n, size));
      await page.close();
      got[k] = { first, second };
    }
    if (i > 0) {
      runs.push(got); // the first round warms the browsers up
    }
  }
} finally {
  for (const b of Object.values(browsers)) {
    await b.close();
  }
  h.server.close();
  e.server.close();
}
const fmt = ([lo, hi]) => `${lo.toFixed(2)}–${hi.toFixed(2)}`;
console.log(`${dir} ${n} × ${size} B, ${runs.length} pages per browser, two bursts in each`);
console.log('| browser | first burst µs/msg | ratio (90%) | second burst µs/msg | ratio (90%) |');
console.log('|---|---|---|---|---|');
for (const k of kinds) {
  const cells = ['first', 'second'].map((w) => {
    const ratios = runs.map((r) => r[k][w] / r.without[w]);
    return `${median(runs.map((r) => r[k][w])).toFixed(1)} | ${median(ratios).toFixed(2)}× (${fmt(medianInterval(ratios))})`;
  });
  console.log(`| ${k} | ${cells.join(' | ')} |`);
}
