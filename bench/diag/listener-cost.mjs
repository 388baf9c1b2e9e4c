// Diagnostic (not part of npm run bench): what one more `message` listener costs a page per delivery, in the page's
// own (main) world and in an isolated world like a content script's (made with CDP Page.createIsolatedWorld), in
// Chromium without the extension. One page per setup, alternated; each posts N envelopes to itself and reports the
// main thread's CPU per message (CDP Performance.getMetrics ThreadTime, threadTicks), median and minimum of REPS.
// Usage: [N=20000] [REPS=11] [SETUPS=none,main-count,...] node bench/diag/listener-cost.mjs
const N = Number(process.env.N ?? 20000);
const REPS = Number(process.env.REPS ?? 11);
const { serve, launch, settle } = await import('../page-overhead.mjs');

const count = `let seen = 0; addEventListener('message', () => { seen++; }, true);`;
const hold = `window.__held = []; addEventListener('message', (e) => { window.__held.push(e); }, true);`;
/** Each setup: scripts to run first, in the page's world ('main') or in one isolated world ('iso'). */
const SETUPS = {
  none: [],
  'main-count': [['main', count]],
  'iso-count': [['iso', count]],
  'iso-hold': [['iso', hold]],
  // The relay's counter (deliveries.ts): the event held and a detached Text node written per delivery.
  'iso-hold-text': [
    [
      'iso',
      `window.__held = []; let c = 0; const t = document.createTextNode('0');
       addEventListener('message', (e) => { c++; t.data = '' + c; window.__held.push(e); }, true);`,
    ],
  ],
  // The previous design: the relay's listener and a counting one in the page's world.
  'iso-hold+main-count': [
    ['iso', hold],
    ['main', count],
  ],
  // A private event from the page's world to the isolated one per delivery (what asking the relay per post costs).
  'main-event-to-iso': [
    ['iso', `let w = 0; document.addEventListener('ei-diag', (e) => { w = e.detail; });`],
    [
      'main',
      `let b = 0; addEventListener('message', () => { document.dispatchEvent(new CustomEvent('ei-diag', { detail: String(++b) })); }, true);`,
    ],
  ],
};
const names = (process.env.SETUPS ?? Object.keys(SETUPS).join(',')).split(',');
for (const n of names) {
  if (!SETUPS[n]) {
    console.error(`listener-cost: unknown setup ${n} (known: ${Object.keys(SETUPS).join(', ')})`);
    process.exit(2);
  }
}

const h = await serve('127.0.0.1');
h.set(`<!doctype html><script>
  const m = { source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path: '/'.padEnd(100, 'x') }, timestamp: 0 };
  let got = 0, want = 0, done = null;
  addEventListener('message', (ev) => { if (ev.data && ev.data.source === 'svc-embed' && ++got === want) done(); });
  window.recv = (n) => new Promise((res) => { got = 0; want = n; done = res;
    setTimeout(() => { for (let i = 0; i < n; i++) postMessage({ ...m, timestamp: i }, location.origin); }, 0); });
</script>`);
const b = await launch(false, null);
const pages = [];
try {
  for (const name of names) {
    const page = await b.browser.newPage();
    await page.goto(`${h.origin}/`, { waitUntil: 'load' });
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const { frameTree } = await cdp.send('Page.getFrameTree');
    let iso = null;
    for (const [where, code] of SETUPS[name]) {
      if (where === 'main') {
        await page.evaluate(code);
      } else {
        iso ??= (await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'diag' }))
          .executionContextId;
        await cdp.send('Runtime.evaluate', { expression: code, contextId: iso });
      }
    }
    await page.evaluate(() => window.recv(2000)); // warm-up
    pages.push({ name, page, cdp, iso, us: [] });
  }
  const threadTime = async (cdp) =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
  for (let r = 0; r < REPS; r++) {
    for (const p of r % 2 ? [...pages].reverse() : pages) {
      await settle();
      if (p.iso) {
        await p.cdp.send('Runtime.evaluate', {
          expression: 'window.__held && (window.__held.length = 0)',
          contextId: p.iso,
        });
      }
      const t0 = await threadTime(p.cdp);
      await p.page.evaluate((n) => window.recv(n), N);
      p.us.push((((await threadTime(p.cdp)) - t0) / N) * 1e6);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`${N} self-posts per run, ${REPS} alternated runs; main-thread CPU µs per message`);
  for (const p of pages) {
    console.log(
      `${p.name.padEnd(20)} median ${median(p.us).toFixed(2)}  min ${Math.min(...p.us).toFixed(2)}  (${p.us.map((x) => x.toFixed(1)).join(' ')})`,
    );
  }
} finally {
  await b.close();
  h.server.close();
}
