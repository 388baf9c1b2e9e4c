// Diagnostic (not part of npm run bench): the capture's cost to one page, receiving and sending, without the other
// side's work on the same cores. For each build given (a dist/chrome-like directory, or 'none' for no extension;
// each its own browser, all open at once, capturing both sites in full mode), alternated:
//   recv: the top page posts N envelopes to itself (a window's own postMessage is never hooked: deliveries only);
//   send: the top page posts N envelopes to its cross-origin iframe (the hook, and the posts' serialization at the
//         end of the task).
// Reports the page's main-thread CPU per message (CDP ThreadTime), or with WALL=1 the page's own time until its last
// delivery (recv) or the end of its task's microtasks (send); median and minimum of REPS.
// Usage: [N=5000] [SIZE=200] [REPS=15] [TESTS=recv,send] [WALL=1] node bench/diag/renderer-cpu.mjs none dist/chrome /tmp/variant
const N = Number(process.env.N ?? 5000);
const SIZE = Number(process.env.SIZE ?? 200);
const REPS = Number(process.env.REPS ?? 15);
const TESTS = (process.env.TESTS ?? 'recv,send').split(',');
const builds = process.argv.slice(2);
if (!builds.length || TESTS.some((t) => t !== 'recv' && t !== 'send')) {
  console.error('usage: [TESTS=recv,send] node bench/diag/renderer-cpu.mjs none|<build dir> ...');
  process.exit(2);
}
const { serve, settle } = await import('../page-overhead.mjs');
const h = await serve('127.0.0.1');
const e = await serve('localhost');
h.set(`<!doctype html><script>
  const envelope = (size) => {
    const e = { source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path: '' }, timestamp: 0 };
    e.payload.path = '/'.padEnd(Math.max(1, size - JSON.stringify(e).length), 'x');
    return e;
  };
  let got = 0, want = 0, done = null;
  addEventListener('message', (ev) => { if (ev.data && ev.data.source === 'svc-embed' && ++got === want) done(performance.now()); });
  window.recv = (n, size) => new Promise((res) => {
    const m = envelope(size); got = 0; want = n;
    setTimeout(() => { const t0 = performance.now(); done = (t) => res(t - t0);
      for (let i = 0; i < n; i++) postMessage({ ...m, timestamp: i }, location.origin); }, 0);
  });
  window.send = (n, size) => new Promise((res) => {
    const m = envelope(size); const w = document.querySelector('iframe').contentWindow;
    setTimeout(() => { const t0 = performance.now();
      for (let i = 0; i < n; i++) w.postMessage({ ...m, timestamp: i }, '${e.origin}');
      queueMicrotask(() => queueMicrotask(() => res(performance.now() - t0))); }, 0);
  });
</script><iframe src="${e.origin}/embed"></iframe>`);
e.set('<!doctype html><p>embed</p>');

const open = [];
try {
  for (const v of builds) {
    if (v !== 'none') {
      process.env.EI_EXTENSION_DIR = v;
    }
    // (a fresh module per build: it reads EI_EXTENSION_DIR when loaded)
    const m = await import(`../page-overhead.mjs?${encodeURIComponent(v)}`);
    const b = await m.launch(v !== 'none', v !== 'none' ? { sites: [h.origin, e.origin], mode: 'full' } : null);
    open.push({ v, b });
    const page = await b.browser.newPage();
    await page.goto(`${h.origin}/`, { waitUntil: 'load' });
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    for (const t of TESTS) {
      await page.evaluate((t, s) => window[t](2000, s), t, SIZE); // warm-up
    }
    Object.assign(open[open.length - 1], { page, cdp, ...Object.fromEntries(TESTS.map((t) => [t, []])) });
  }
  const threadTime = async (cdp) =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
  for (let r = 0; r < REPS; r++) {
    for (const t of TESTS) {
      for (const o of r % 2 ? [...open].reverse() : open) {
        await settle();
        const c0 = await threadTime(o.cdp);
        const wall = ((await o.page.evaluate((t, n, s) => window[t](n, s), t, N, SIZE)) / N) * 1000;
        const cpu = (((await threadTime(o.cdp)) - c0) / N) * 1e6;
        o[t].push(process.env.WALL ? wall : cpu);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(
    `${N} envelopes of ${SIZE} B per run, ${REPS} alternated runs; ${process.env.WALL ? 'page time' : 'main-thread CPU'} µs per message`,
  );
  for (const t of TESTS) {
    for (const o of open) {
      console.log(
        `${t.padEnd(5)} ${o.v.padEnd(24)} median ${median(o[t]).toFixed(2)}  min ${Math.min(...o[t]).toFixed(2)}  (${o[t].map((x) => x.toFixed(1)).join(' ')})`,
      );
    }
  }
} finally {
  for (const o of open) {
    await o.b.close();
  }
  h.server.close();
  e.server.close();
}
