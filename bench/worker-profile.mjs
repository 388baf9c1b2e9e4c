// @ts-check
// Diagnostic (issue 47: the capture lag against its floor): where the service worker's time goes over one burst of
// the page-overhead pages and the lag after it, in full mode. A CPU profile of the worker (V8's sampler, ~100 µs) from
// the burst's start until the log counts every record, in `rounds` rounds after a warm-up, each on a new tab:
//   - the lag of each round (last delivery → every record counted, as page-overhead.mjs measures it) and when the
//     log's count grew (ms after the last delivery: records);
//   - the worker's time in 50 ms steps from the last delivery: storing (IndexedDB puts and their transaction),
//     processing (everything else of ours: reading batches, classifying, pairing, judging), garbage collection;
//     idle is the rest of each step. The lag's end is one thread: what the worker does alone there is its tail;
//   - the functions by self time (ms a round), file and line in the built worker.
// Never recorded (a profile slows what it watches). Usage: npm run bench -- --worker-profile [--bursts 5000]
//   [--sizes 200] [--dirs h2e] [--runs 3] (the first of each list).
import { EMBED, HOST, launch, serve, settle } from './page-overhead.mjs';

/** @typedef {{ nodes: Array<{ id: number, callFrame: { functionName: string, url: string, lineNumber: number } }>, samples: number[], timeDeltas: number[] }} Profile */

const STEP_MS = 50;
const STORE = /^(put|apply|transaction|commit)$/;

/**
 * @param {{ burst?: number, size?: number, dir?: 'h2e' | 'e2h', rounds?: number, log?: (line: string) => void }} [o]
 */
export async function workerProfile({ burst = 5_000, size = 200, dir = 'h2e', rounds = 3, log = console.log } = {}) {
  const h = await serve('127.0.0.1');
  const e = await serve('localhost');
  h.set(HOST(e.origin, true));
  e.set(EMBED(h.origin, true));
  const b = await launch(true, { sites: [h.origin, e.origin], mode: 'full' });
  /** @type {Map<string, number>} */
  const self = new Map();
  const lags = [];
  log(
    `the worker over ${dir} ${size} B × ${burst.toLocaleString('en-US')}, full mode, ${rounds} rounds after a warm-up`,
  );
  try {
    for (let round = 0; round <= rounds; round++) {
      const r = await profiledBurst(b, `${h.origin}/`, dir, burst, size, round > 0);
      if (!r.profile) {
        continue; // the warm-up
      }
      lags.push(r.lag);
      log(`round ${round}: lag ${r.lag} ms; records counted (ms after the last delivery: records) ${r.counts}`);
      log(
        `  the worker by ${STEP_MS} ms from the last delivery (store/processing/GC ms): ${steps(r.profile, r.offset)}`,
      );
      bySelf(r.profile, self);
    }
  } finally {
    await b.close();
    h.server.close();
    e.server.close();
  }
  const sorted = lags.toSorted((x, y) => x - y);
  log(`lag, median: ${sorted[Math.floor(sorted.length / 2)]} ms`);
  log('self ms a round, by function (file:line of the built worker):');
  for (const [k, ms] of [...self].sort((x, y) => y[1] - x[1]).slice(0, 30)) {
    log(`${(ms / rounds).toFixed(1).padStart(8)}  ${k}`);
  }
  return { lags };
}

/**
 * A new tab at `url` whose log holds a burst of `n` messages whole: the page, the log's count (`total`) and its count
 * before the burst (`base`).
 * @param {Awaited<ReturnType<typeof launch>>} b @param {string} url @param {number} n
 */
export async function burstTab(b, url, n) {
  const worker = /** @type {() => Promise<import('puppeteer-core').WebWorker>} */ (b.worker);
  /** @type {(fn: (...a: any[]) => any, ...a: any[]) => Promise<any>} */
  const api = async (fn, ...a) => (await worker()).evaluate(fn, ...a);
  const page = await b.browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const tabId = await api(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? null, page.url());
  await api((id) => globalThis.embedInspector.settle(id), tabId);
  await api((id, m) => globalThis.embedInspector.setOptions(id, { maxRecords: m }), tabId, 4 * n + 1_000);
  /** @type {() => Promise<number>} */
  const total = async () => (await api((id) => globalThis.embedInspector.state(id), tabId)).total ?? 0;
  return { page, total, base: await total() };
}

/**
 * One burst on a new tab, profiled when `profiled`: its lag, the log's count over time, the profile and where the
 * last delivery falls in it (ms from its start).
 * @param {Awaited<ReturnType<typeof launch>>} b @param {string} url @param {string} dir @param {number} n
 * @param {number} size @param {boolean} profiled
 */
async function profiledBurst(b, url, dir, n, size, profiled) {
  const { page, total, base } = await burstTab(b, url, n);
  await settle();
  const target = await b.browser.waitForTarget(
    (x) => x.type() === 'service_worker' && x.url().startsWith('chrome-extension://'),
  );
  const cdp = await target.createCDPSession();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  if (profiled) {
    await cdp.send('Profiler.start');
  }
  const start = Date.now();
  const r = await page.evaluate((d, n, s) => /** @type {any} */ (window)[d](n, s), dir, n, size);
  const last = Math.round(r.last);
  const counts = [];
  for (let prev = -1; ; ) {
    const c = (await total()) - base;
    if (c !== prev) {
      counts.push(`${Date.now() - last}:${c}`);
      prev = c;
    }
    if (c >= 2 * n) {
      break;
    }
    await new Promise((res) => setTimeout(res, 5));
  }
  const lag = Date.now() - last;
  const profile = profiled ? /** @type {Profile} */ ((await cdp.send('Profiler.stop')).profile) : null;
  await cdp.detach();
  await page.close();
  return { lag, counts: counts.join(' '), profile, offset: last - start };
}

/** The worker's storing / processing / GC ms in each step from the last delivery (`offset` ms into the profile). */
function steps(/** @type {Profile} */ p, /** @type {number} */ offset) {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  /** @type {Map<number, { store: number, proc: number, gc: number }>} */
  const out = new Map();
  let us = 0;
  for (let i = 0; i < p.samples.length; i++) {
    us += p.timeDeltas[i] ?? 0;
    const fn = byId.get(p.samples[i])?.callFrame.functionName ?? '';
    if (fn === '(idle)' || fn === '(program)') {
      continue;
    }
    const step = Math.floor((us / 1000 - offset) / STEP_MS) * STEP_MS;
    const o = out.get(step) ?? { store: 0, proc: 0, gc: 0 };
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    if (STORE.test(fn)) {
      o.store += ms;
    } else if (fn === '(garbage collector)') {
      o.gc += ms;
    } else {
      o.proc += ms;
    }
    out.set(step, o);
  }
  return [...out]
    .filter(([s]) => s >= -STEP_MS)
    .sort((x, y) => x[0] - y[0])
    .map(([s, o]) => `${s}:${o.store.toFixed(0)}/${o.proc.toFixed(0)}/${o.gc.toFixed(0)}`)
    .join(' ');
}

/** Adds the profile's self ms by function (name, file:line) to `into`. */
function bySelf(/** @type {Profile} */ p, /** @type {Map<string, number>} */ into) {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  for (let i = 0; i < p.samples.length; i++) {
    const f = byId.get(p.samples[i])?.callFrame;
    if (!f || f.functionName === '(idle)') {
      continue;
    }
    const at = f.url ? ` ${f.url.split('/').pop()}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'}${at}`;
    into.set(key, (into.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
}
