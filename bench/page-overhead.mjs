// Page overhead of capture (issue 4): bursts of svc-embed envelopes across two origins (two sites:
// 127.0.0.1 and localhost, so the iframe is out of process as a real embed is), host→iframe and
// iframe→host, with the extension and without it, alternated in one run.
//   per message: time from the first post to the last delivery / n (paired ratio with/without: the median of the
//     runs' ratios, and in brackets the interval that holds 90% of the medians of resampled runs)
//   sender loop: the sender's own loop time (paired ratio)
//   capture lag: last delivery → the last record stored by the extension
// Usage: node bench/page-overhead.mjs [--n 5000] [--reps 15] [--reuse] [--each] [--sizes 200,10000] [--dirs h2e,e2h]
//   (--each: each run's figures before its case's row)
//   (npm run bench runs it; build first)
// HOST, EMBED, serve and launch are exported for ad-hoc profiling scripts (CDP Profiler per target).
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const root = new URL('..', import.meta.url).pathname;
const EXT = process.env.EI_EXTENSION_DIR ?? join(root, 'dist/chrome'); // A/B: a copy of a variant build
// The launcher the command line uses (src/node/chromium.ts, built to dist/node/chromium.js by npm run build).
const { chromiumPath, CHROMIUM_FLAGS } = await import('../dist/node/chromium.js');
const FLAGS = CHROMIUM_FLAGS;

// Default: a new envelope per post (as SDKs do): posts pair with their deliveries. `--reuse`: one envelope
// mutated between posts (the capture serializes posts at the end of the posting task, so every post is then
// recorded with the last envelope and none pairs with its delivery).
export const HOST = (embed, fresh = false) => `<!doctype html><script>
  const FRESH = ${fresh};
  const envelope = (size) => {
    const e = { source: 'svc-embed', direction: 'action', type: 'svc:action:navigate', payload: { path: '' }, timestamp: Date.now() };
    e.payload.path = '/'.padEnd(Math.max(1, size - JSON.stringify(e).length), 'x');
    return e;
  };
  const now = () => performance.timeOrigin + performance.now();
  let want = 0, got = 0, resolveIn = null;
  addEventListener('message', (e) => {
    if (e.data && e.data.source === 'svc-embed' && e.data.direction === 'event' && ++got === want) resolveIn(now());
  });
  window.h2e = (n, size) => new Promise((resolve) => {
    const w = document.querySelector('iframe').contentWindow;
    let t0 = 0, loop = 0;
    const onDone = (e) => { if (e.data && e.data.bench === 'done') { removeEventListener('message', onDone); resolve({ t0, loop, last: e.data.last }); } };
    addEventListener('message', onDone);
    w.postMessage({ bench: 'expect', n }, '${embed}');
    setTimeout(() => {
      const m = envelope(size);
      t0 = now();
      if (FRESH) for (let i = 0; i < n; i++) w.postMessage({ ...m, timestamp: i }, '${embed}');
      else for (let i = 0; i < n; i++) { m.timestamp = i; w.postMessage(m, '${embed}'); }
      loop = now() - t0;
    }, 50);
  });
  window.e2h = (n, size) => new Promise((resolve) => {
    want = n; got = 0;
    let stats;
    const onStats = (e) => { if (e.data && e.data.bench === 'stats') { removeEventListener('message', onStats); stats = e.data; if (last) resolve({ ...stats, last }); } };
    let last = 0;
    resolveIn = (t) => { last = t; if (stats) resolve({ ...stats, last }); };
    addEventListener('message', onStats);
    document.querySelector('iframe').contentWindow.postMessage({ bench: 'go', n, size }, '${embed}');
  });
</script><iframe src="${embed}/embed/dashboard/bench"></iframe>`;

export const EMBED = (host, fresh = false) => `<!doctype html><script>
  const FRESH = ${fresh};
  const now = () => performance.timeOrigin + performance.now();
  let want = 0, got = 0;
  addEventListener('message', (e) => {
    const d = e.data;
    if (d && d.source === 'svc-embed') { if (++got === want) parent.postMessage({ bench: 'done', last: now() }, '${host}'); return; }
    if (d && d.bench === 'expect') { want = d.n; got = 0; }
    if (d && d.bench === 'go') {
      setTimeout(() => {
        const e = { source: 'svc-embed', direction: 'event', type: 'svc:event:view', surface: 'dashboard', payload: { surface: 'dashboard', path: '' }, timestamp: Date.now() };
        e.payload.path = '/'.padEnd(Math.max(1, d.size - JSON.stringify(e).length), 'x');
        const t0 = now();
        if (FRESH) for (let i = 0; i < d.n; i++) parent.postMessage({ ...e, timestamp: i }, '${host}');
        else for (let i = 0; i < d.n; i++) { e.timestamp = i; parent.postMessage(e, '${host}'); }
        const loop = now() - t0;
        parent.postMessage({ bench: 'stats', t0, loop }, '${host}');
      }, 50);
    }
  });
</script>`;

export function serve(host, body) {
  return new Promise((resolve) => {
    const pages = {};
    const server = createServer((req, res) => {
      const b = pages.body;
      if (!req.url.startsWith('/embed') && !req.url.startsWith('/?') && req.url !== '/') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(b);
    });
    server.listen(0, host, () =>
      resolve({
        server,
        origin: `http://${host}:${server.address().port}`,
        set: (b) => {
          pages.body = b;
        },
      }),
    );
  });
}

/**
 * Chromium without the extension, or with it and `capture` (the argument of `embedInspector.setCapture`, e.g.
 * `{ sites: [hostOrigin, embedOrigin], mode: 'full' }`) set once its worker is up; no capture: nothing captured.
 */
export async function launch(withExtension, capture = null) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'ei-bench-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    userDataDir,
    ignoreDefaultArgs: withExtension ? ['--disable-extensions'] : undefined,
    args: [...FLAGS, ...(withExtension ? [`--disable-extensions-except=${EXT}`, `--load-extension=${EXT}`] : [])],
  });
  // The worker is stopped when idle: look it up again each time (the lookup wakes it up when needed).
  const worker = withExtension
    ? async () => {
        const t = await browser.waitForTarget(
          (x) => x.type() === 'service_worker' && x.url().startsWith('chrome-extension://'),
          { timeout: 15000 },
        );
        return t.worker();
      }
    : null;
  if (worker) {
    const w = await worker();
    if (capture) {
      await w.evaluate((c) => globalThis.embedInspector.setCapture(c), capture);
    }
  }
  const captures = !!worker && !!capture && (capture.sites === 'all' || capture.sites.length > 0);
  return {
    browser,
    worker,
    captures,
    close: async () => {
      await browser.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * How far the median of `xs` can be trusted: the 5th and 95th percentiles of the medians of 2,000 resamples (with
 * replacement; a fixed seed, so that one run's figures print the same interval each time they are computed).
 */
export function medianInterval(xs) {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const ms = [];
  for (let k = 0; k < 2000; k++) {
    ms.push(median(xs.map(() => xs[Math.floor(rand() * xs.length)])));
  }
  ms.sort((a, b) => a - b);
  return [ms[Math.floor(0.05 * ms.length)], ms[Math.ceil(0.95 * ms.length) - 1]];
}
const interval = ([lo, hi]) => `${lo.toFixed(2)}–${hi.toFixed(2)}`;

/** Busy and total jiffies of the whole machine (/proc/stat), or null where there is no /proc. */
function cpuTimes() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3] + (f[4] ?? 0);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Wait until the machine is quiet (under 10% busy over 100 ms, at most 10 s): the three browsers stay open,
 * and what one of them still does after its burst (the extension classifying and storing the burst's records,
 * or forgetting a closed tab's) must not run during the next browser's burst.
 */
export async function settle() {
  const give_up = Date.now() + 10_000;
  for (let a = cpuTimes(); a && Date.now() < give_up; ) {
    await new Promise((r) => setTimeout(r, 100));
    const b = cpuTimes();
    if ((b.busy - a.busy) / Math.max(1, b.total - a.total) < 0.1) {
      return;
    }
    a = b;
  }
}

async function once(b, url, dir, n, size, log = console.log) {
  const page = await b.browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  let tabId = null,
    base = 0;
  if (b.captures) {
    tabId = await (await b.worker()).evaluate(
      async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? null,
      page.url(),
    );
    await new Promise((r) => setTimeout(r, 200));
    base = await (await b.worker()).evaluate((id) => globalThis.embedInspector.count(id), tabId);
  }
  await settle();
  const r = await page.evaluate((d, n, s) => window[d](n, s), dir, n, size);
  const out = { perMsgUs: ((r.last - r.t0) / n) * 1000, loopUs: (r.loop / n) * 1000, lagMs: null };
  if (b.captures) {
    // posts and deliveries: 2 records per message (+ the few control messages)
    const target = base + 2 * n;
    const give_up = Date.now() + 60_000;
    let c = 0;
    for (;;) {
      c = await (await b.worker()).evaluate((id) => globalThis.embedInspector.count(id), tabId);
      if (c >= target || Date.now() > give_up) {
        break;
      }
      await new Promise((res) => setTimeout(res, 5));
    }
    out.lagMs = c >= target ? Date.now() - Math.round(r.last) : NaN;
    if (c < target) {
      log(`  (capture incomplete: ${c - base} of ${2 * n} records after 60 s)`);
    }
  }
  await page.close();
  return out;
}

/** Run the benchmark; prints a table and returns the figures. */
export async function benchPageOverhead({
  n = 5_000,
  reps = 15,
  sizes = [200, 10_000],
  dirs = ['h2e', 'e2h'],
  fresh = true,
  each = false,
  log = console.log,
} = {}) {
  if (!existsSync(join(EXT, 'manifest.json'))) {
    throw new Error('dist/chrome missing: run npm run build');
  }
  const h = await serve('127.0.0.1');
  const e = await serve('localhost');
  h.set(HOST(e.origin, fresh));
  e.set(EMBED(h.origin, fresh));
  // Three browsers, alternated: no extension; the extension with capture off for these sites (nothing of ours
  // runs: the out-of-scope figure); the extension capturing both sites in full mode.
  const plain = await launch(false);
  const off = await launch(true, { sites: [], mode: 'full' });
  const ext = await launch(true, { sites: [h.origin, e.origin], mode: 'full' });
  const results = [];
  try {
    log(
      `${n} messages per burst, ${reps} alternated runs per case (median shown); iframe out of process (two sites); ${fresh ? 'a fresh envelope per post' : 'one envelope reused (--reuse)'}`,
    );
    log(
      '| direction | size | µs/msg without | out of scope | ratio (90%) | full mode | ratio (90%) | sender loop µs without | full | loop ratio | capture lag ms |',
    );
    log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const dir of dirs) {
      for (const size of sizes) {
        const rows = [];
        for (const b of [plain, off, ext]) {
          await once(b, h.origin + '/', dir, 500, size); // warm-up
        }
        for (let i = 0; i < reps; i++) {
          // The order of the three turns with each run, so that none always follows the same one (the extension's
          // worker may still be classifying the previous burst's records while the next browser runs).
          const order = [plain, off, ext].map((_, k, all) => all[(k + i) % all.length]);
          const got = new Map();
          for (const br of order) {
            got.set(br, await once(br, h.origin + '/', dir, n, size));
          }
          const a = got.get(plain);
          const o = got.get(off);
          const b = got.get(ext);
          rows.push({
            a,
            o,
            b,
            offRatio: o.perMsgUs / a.perMsgUs,
            ratio: b.perMsgUs / a.perMsgUs,
            loopRatio: b.loopUs / a.loopUs,
          });
        }
        const row = {
          direction: dir === 'h2e' ? 'host→iframe' : 'iframe→host',
          size,
          without: median(rows.map((r) => r.a.perMsgUs)),
          off: median(rows.map((r) => r.o.perMsgUs)),
          offRatio: median(rows.map((r) => r.offRatio)),
          offInterval: medianInterval(rows.map((r) => r.offRatio)),
          with: median(rows.map((r) => r.b.perMsgUs)),
          ratio: median(rows.map((r) => r.ratio)),
          ratioInterval: medianInterval(rows.map((r) => r.ratio)),
          loopWithout: median(rows.map((r) => r.a.loopUs)),
          loopWith: median(rows.map((r) => r.b.loopUs)),
          loopRatio: median(rows.map((r) => r.loopRatio)),
          lagMs: median(rows.map((r) => r.b.lagMs)),
          runs: rows.map((r) => ({ without: r.a.perMsgUs, off: r.o.perMsgUs, with: r.b.perMsgUs })),
        };
        results.push(row);
        if (each) {
          const list = (k) => row.runs.map((r) => r[k].toFixed(1)).join(' ');
          log(`  runs, µs/msg: without ${list('without')}; out of scope ${list('off')}; full ${list('with')}`);
        }
        log(
          `| ${row.direction} | ${size} B | ${row.without.toFixed(1)} | ${row.off.toFixed(1)} | ${row.offRatio.toFixed(2)}× (${interval(row.offInterval)}) | ${row.with.toFixed(1)} | ${row.ratio.toFixed(2)}× (${interval(row.ratioInterval)}) | ${row.loopWithout.toFixed(2)} | ${row.loopWith.toFixed(2)} | ${row.loopRatio.toFixed(2)}× | ${row.lagMs} |`,
        );
      }
    }
  } finally {
    await plain.close();
    await off.close();
    await ext.close();
    h.server.close();
    e.server.close();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k, d) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const list = (k, d) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? String(process.argv[i + 1] ?? '').split(',') : d;
  };
  const sizes = list('--sizes', ['200', '10000']).map(Number);
  const dirs = list('--dirs', ['h2e', 'e2h']);
  const bad =
    !sizes.length || sizes.some((x) => !Number.isInteger(x) || x < 100)
      ? '--sizes takes envelope sizes in bytes, e.g. 200,10000 (at least 100)'
      : dirs.some((x) => x !== 'h2e' && x !== 'e2h')
        ? '--dirs takes h2e (host to iframe) and/or e2h (iframe to host), comma-separated'
        : null;
  if (bad) {
    console.error(`page-overhead: ${bad}`);
    process.exit(2);
  }
  await benchPageOverhead({
    n: arg('--n', 5_000),
    reps: arg('--reps', 15),
    fresh: !process.argv.includes('--reuse'),
    each: process.argv.includes('--each'),
    sizes,
    dirs,
  });
}
