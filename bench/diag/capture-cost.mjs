// Diagnostic (not part of npm run bench): the capture's cost per delivered message in the receiving page, without
// cross-process noise. N synthetic MessageEvents (fresh envelopes of SIZE bytes) dispatched on one page's window,
// for each build given (a dist/chrome-like directory, or 'none' for no extension); prints the dispatch loop time
// and the renderer's and the extension process's CPU per message (from /proc), medians of REPS runs.
// Usage: [N=20000] [SIZE=200] [REPS=3] [MODE=full|receive-only] node bench/diag/capture-cost.mjs none dist/chrome /tmp/variant
import { processCpu, cpuDelta } from './proc.mjs';
const variants = process.argv.slice(2);
const n = Number(process.env.N ?? 20000),
  size = Number(process.env.SIZE ?? 200);
const { serve } = await import('../page-overhead.mjs');
const h = await serve('127.0.0.1');
h.set(`<!doctype html><script>
  addEventListener('message', (e) => { if (e.data && e.data.source === 'svc-embed') window.got++; });
  window.got = 0;
  window.run = (n, size) => {
    const e = { source: 'svc-embed', direction: 'event', type: 'svc:event:view', surface: 'dashboard', payload: { surface: 'dashboard', path: '' }, timestamp: 0 };
    e.payload.path = '/'.padEnd(Math.max(1, size - JSON.stringify(e).length), 'x');
    const t0 = performance.now();
    for (let i = 0; i < n; i++) dispatchEvent(new MessageEvent('message', { data: { ...e, timestamp: i }, origin: 'http://localhost:1' }));
    return performance.now() - t0;
  };
</script>`);
const res = {};
for (let rep = 0; rep < Number(process.env.REPS ?? 3); rep++) {
  for (const v of variants) {
    if (v !== 'none') {
      process.env.EI_EXTENSION_DIR = v;
    }
    const { launch } = await import(`../page-overhead.mjs?${v}`);
    const b = await launch(v !== 'none', v !== 'none' ? { sites: [h.origin], mode: process.env.MODE ?? 'full' } : null);
    const page = await b.browser.newPage();
    await page.goto(`${h.origin}/`, { waitUntil: 'load' });
    await page.evaluate((s) => window.run(500, s), size);
    await new Promise((r) => setTimeout(r, 800));
    const c0 = processCpu(b.browser.process().pid);
    const ms = await page.evaluate((n, s) => window.run(n, s), n, size);
    await new Promise((r) => setTimeout(r, 1500));
    const { byKind } = cpuDelta(c0, processCpu(b.browser.process().pid));
    (res[v] ??= []).push({
      us: (ms / n) * 1000,
      cpu: ((byKind.renderer ?? 0) / n) * 1000,
      ext: ((byKind['renderer+ext'] ?? 0) / n) * 1000,
    });
    await b.close();
  }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [v, rows] of Object.entries(res)) {
  console.log(
    v.padEnd(16),
    'dispatch µs/msg',
    med(rows.map((r) => r.us)).toFixed(2),
    ' renderer cpu µs/msg',
    med(rows.map((r) => r.cpu)).toFixed(2),
    ' ext µs/msg',
    med(rows.map((r) => r.ext)).toFixed(2),
    '  all:',
    rows.map((r) => r.us.toFixed(1)).join(' '),
  );
}
h.server.close();
