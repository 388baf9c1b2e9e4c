// Diagnostic (not part of npm run bench): what becomes of one flood, the page-overhead bench's burst, in the log.
// One browser capturing both sites in MODE; one burst of N envelopes of SIZE bytes in DIR; the log's bound left at
// its default or set to MAX first (the automation API's setOptions, as the panel's ⚙ Settings "Keep at most").
// Once the page's burst is over, `settle` (every frame hands over what it holds); then prints what the log holds and
// what its bound let go (the counts the panel's summary bar and the CLI's "discarded by the buffer bound" show), and
// whether the burst's records that are held are in the order they were posted, each once.
// PROFILE=1: a CPU profile (CDP Profiler) of the sending frame over the burst and its hand-over, the top functions.
// Usage: [NOEXT=1] [MODE=full|receive-only] [DIR=h2e|e2h] [SIZE=200] [N=100000] [MAX=default|<records>] [PROFILE=1]
//   [TIMEOUT_S=600] node bench/diag/flood.mjs
const MODE = process.env.MODE ?? 'full';
const DIR = process.env.DIR ?? 'h2e';
const SIZE = Number(process.env.SIZE ?? 200);
const N = Number(process.env.N ?? 100_000);
const MAX = process.env.MAX && process.env.MAX !== 'default' ? Number(process.env.MAX) : null;
const TIMEOUT_MS = Number(process.env.TIMEOUT_S ?? 600) * 1000;
const { HOST, EMBED, serve, launch, settle, burstAudit } = await import('../page-overhead.mjs');
/** The `count` functions of a CDP profile with the most self time: `share%  ms  function file:line`. */
function cpuprofileTop(profile, count) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((x, y) => x + y, 0);
  return [...self]
    .sort((x, y) => y[1] - x[1])
    .slice(0, count)
    .map(
      ([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`,
    );
}
const h = await serve('127.0.0.1');
const e = await serve('localhost');
h.set(HOST(e.origin, true));
e.set(EMBED(h.origin, true));
// NOEXT=1: the same burst in Chromium without the extension (the page's own cost).
const NOEXT = !!process.env.NOEXT;
const b = await launch(!NOEXT, { sites: [h.origin, e.origin], mode: MODE });
const t = (ms) => `${(ms / 1000).toFixed(1)} s`;
try {
  const page = await b.browser.newPage();
  await page.goto(`${h.origin}/`, { waitUntil: 'load' });
  const w = async () => b.worker();
  const tabId = NOEXT
    ? null
    : await (await w()).evaluate(
        async (u) => (await chrome.tabs.query({})).find((x) => x.url === u)?.id ?? null,
        page.url(),
      );
  if (MAX !== null && !NOEXT) {
    await (await w()).evaluate((id, m) => globalThis.embedInspector.setOptions(id, { maxRecords: m }), tabId, MAX);
  }
  const sender =
    DIR === 'h2e'
      ? await page.createCDPSession()
      : await b.browser
          .targets()
          .find((x) => x.type() === 'other' && x.url().startsWith(e.origin))
          ?.createCDPSession();
  if (process.env.PROFILE && sender) {
    await sender.send('Profiler.enable');
    await sender.send('Profiler.setSamplingInterval', { interval: 1000 });
    await sender.send('Profiler.start');
  }
  const totalNow = async () =>
    (await (await w()).evaluate((id) => globalThis.embedInspector.state(id), tabId)).total ?? 0;
  const before = NOEXT ? 0 : await totalNow();
  await settle();
  const t0 = Date.now();
  // The page's promise, raced against our own deadline (puppeteer's protocol timeout would end it silently).
  const burst = await Promise.race([
    page
      .evaluate((d, n, s) => window[d](n, s), DIR, N, SIZE)
      .then(
        (r) => ({ r }),
        (err) => ({ err: String(err) }),
      ),
    new Promise((res) => setTimeout(() => res({ err: `no end after ${t(TIMEOUT_MS)}` }), TIMEOUT_MS)),
  ]);
  const t1 = Date.now();
  console.log(
    `${MODE} ${DIR} ${N} × ${SIZE} B, bound ${MAX ?? 'default'}: burst ${burst.err ? `failed: ${burst.err}` : `over in ${t(t1 - t0)} (posting loop ${t(burst.r.loop)})`}`,
  );
  if (process.env.PROFILE && sender) {
    const { profile } = await sender.send('Profiler.stop');
    console.log(`sending frame (${DIR === 'h2e' ? 'host' : 'iframe'}), self time from the burst's start:`);
    for (const line of cpuprofileTop(profile, 16)) {
      console.log(`  ${line}`);
    }
  }
  if (!NOEXT) {
    await (await w()).evaluate((id) => globalThis.embedInspector.settle(id), tabId);
    const t2 = Date.now();
    const want = MODE === 'full' ? 2 * N + 4 : N + 2; // the burst and the bench's control messages
    console.log(
      `settle() resolved ${t(t2 - t1)} after the burst's end: ${(await totalNow()) - before} of ${want} records came`,
    );
    // Then until every record came, or none came for 20 s.
    let got = (await totalNow()) - before;
    for (let last = got, since = Date.now(); got < want && Date.now() - since < 20_000; ) {
      await new Promise((r) => setTimeout(r, 250));
      got = (await totalNow()) - before;
      if (got !== last) {
        last = got;
        since = Date.now();
      }
    }
    console.log(`${got} of ${want} records came ${t(Date.now() - t1)} after the burst's end`);
    const a = await (await w()).evaluate(burstAudit, tabId);
    console.log(JSON.stringify(a));
  }
  await page.close();
} finally {
  await b.close();
  h.server.close();
  e.server.close();
}
process.exit(0);
