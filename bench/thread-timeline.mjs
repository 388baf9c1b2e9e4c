// @ts-check
// Diagnostic (issue 47: the capture lag against its floor): which threads of the browser use the CPU over one burst
// of the page-overhead pages and the lag after it, in full mode. No trace and no profile (either slows what it
// watches by several times): each thread's run time read from /proc (`schedstat`) every SAMPLE_MS, binned by its time
// from the last delivery, beside the whole machine's busy time (/proc/stat: this sampler and the bench's polling of
// the log's count are in it, not in any thread's row). Threads are named by process (host and
// embed renderers, told apart by a busy loop in each frame; the extension's process; the browser) and thread.
//   - the bins show when each thread works: the senders' and receivers' main threads, the service worker, its
//     process's thread pool, the browser's threads;
//   - the tail: from the end of the renderers' work (their main threads' last busy bin) to the end of the lag, and
//     how much of a core the extension's threads used there: what the lag's end waits for, on one thread or more.
// Never recorded. Usage: npm run bench -- --threads [--bursts 5000] [--sizes 200] [--dirs h2e] [--runs 2] (the first
// of each list). Linux only (/proc).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { EMBED, HOST, launch, serve, settle, treeCpu } from './page-overhead.mjs';
import { burstTab } from './worker-profile.mjs';

const SAMPLE_MS = 10;
/** Bins: at least this wide, and about this many over the lag. */
const MIN_BIN_MS = 25;
const BINS = 30;
/** A renderer's main thread busier than this share of a bin is still at work. */
const BUSY_SHARE = 0.2;
const WORKER = 'ext service worker';

/** @param {string} f */
const read = (f) => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return null; // the thread or process ended meanwhile
  }
};
/** The machine's busy ms so far, all cores (/proc/stat's first line, in 10 ms ticks). */
const machineMs = () => {
  const f = (read('/proc/stat') ?? '').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6]) * 10;
};

/**
 * @param {{ burst?: number, size?: number, dir?: 'h2e' | 'e2h', rounds?: number, log?: (line: string) => void }} [o]
 */
export async function threadTimeline({ burst = 5_000, size = 200, dir = 'h2e', rounds = 2, log = console.log } = {}) {
  if (!existsSync('/proc/self/task')) {
    throw new Error("--threads reads each thread's CPU from /proc: Linux only");
  }
  const h = await serve('127.0.0.1');
  const e = await serve('localhost');
  h.set(HOST(e.origin, true));
  e.set(EMBED(h.origin, true));
  const b = await launch(true, { sites: [h.origin, e.origin], mode: 'full' });
  const root = b.browser.process()?.pid;
  log(`threads over ${dir} ${size} B × ${burst.toLocaleString('en-US')}, full mode, ${rounds} rounds after a warm-up`);
  try {
    for (let round = 0; round <= rounds; round++) {
      const r = await sampledBurst(b, root, `${h.origin}/`, dir, burst, size);
      if (round > 0) {
        report(r, log);
      }
    }
  } finally {
    await b.close();
    h.server.close();
    e.server.close();
  }
}

/**
 * The threads of the tab's renderers, the extension's process and the browser, each `{ key, file }`.
 * @param {number | undefined} root @param {import('puppeteer-core').Page} page
 */
async function threadsOf(root, page) {
  /** @type {Record<string, string>} */
  const name = {};
  const child = page.frames().find((f) => f !== page.mainFrame());
  for (const [label, frame] of /** @type {const} */ ([
    ['host', page.mainFrame()],
    ['embed', child],
  ])) {
    const before = treeCpu(root);
    await frame?.evaluate(() => {
      const t = performance.now();
      while (performance.now() - t < 150) {
        /* busy: the process that gains ~150 ms is this frame's */
      }
    });
    const after = Object.entries(treeCpu(root)).map(
      ([p, a]) => /** @type {const} */ ([p, a.ms - (before[p]?.ms ?? 0)]),
    );
    const [pid] = after.sort((x, y) => y[1] - x[1])[0] ?? [];
    if (pid) {
      name[pid] = label;
    }
  }
  for (const [p, a] of Object.entries(treeCpu(root))) {
    if (a.kind.includes('+ext')) {
      name[p] = 'ext';
    } else if (a.kind === 'browser') {
      name[p] = 'browser';
    }
  }
  const out = [];
  for (const [pid, label] of Object.entries(name)) {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const comm = (read(`/proc/${pid}/task/${tid}/comm`) ?? '?').trim();
      // (a process's main thread is named after the program; the kernel keeps 15 characters of a name)
      const thread =
        tid === pid
          ? 'main'
          : /^ServiceWorker/.test(comm)
            ? 'service worker'
            : /^ThreadPool/.test(comm)
              ? 'thread pool'
              : /IOT/.test(comm)
                ? 'IO'
                : comm;
      out.push({ key: `${label} ${thread}`, file: `/proc/${pid}/task/${tid}/schedstat` });
    }
  }
  return out;
}

/**
 * One burst on a new tab, the threads sampled from before it until the log counts every record.
 * @param {Awaited<ReturnType<typeof launch>>} b @param {number | undefined} root @param {string} url
 * @param {string} dir @param {number} n @param {number} size
 */
async function sampledBurst(b, root, url, dir, n, size) {
  const { page, total, base } = await burstTab(b, url, n);
  const threads = await threadsOf(root, page);
  await settle();
  /** @type {Array<{ t: number, machine: number, ms: Map<string, number> }>} */
  const samples = [];
  const sample = () => {
    /** @type {Map<string, number>} */
    const ms = new Map();
    for (const th of threads) {
      const s = read(th.file);
      if (s) {
        ms.set(th.key, (ms.get(th.key) ?? 0) + Number(s.split(' ')[0]) / 1e6);
      }
    }
    samples.push({ t: Date.now(), machine: machineMs(), ms });
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  let lag = 0;
  let last = 0;
  let loop = 0;
  try {
    const r = await page.evaluate((d, n, s) => /** @type {any} */ (window)[d](n, s), dir, n, size);
    last = Math.round(r.last);
    loop = r.loop;
    while ((await total()) - base < 2 * n) {
      await new Promise((res) => setTimeout(res, 5));
    }
    lag = Date.now() - last;
    sample();
  } finally {
    clearInterval(timer);
    await page.close();
  }
  return { samples, last, lag, loop };
}

/**
 * The round's bins (each thread's ms in each, the machine's) and its tail.
 * @param {{ samples: Array<{ t: number, machine: number, ms: Map<string, number> }>, last: number, lag: number, loop: number }} r
 * @param {(line: string) => void} log
 */
function report({ samples, last, lag, loop }, log) {
  const bin = Math.max(MIN_BIN_MS, Math.ceil(lag / BINS / MIN_BIN_MS) * MIN_BIN_MS);
  /** @type {Map<number, Map<string, number>>} */
  const bins = new Map();
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1];
    const z = samples[i];
    const k = Math.floor((z.t - last) / bin);
    const m = bins.get(k) ?? new Map();
    for (const [key, ms] of z.ms) {
      m.set(key, (m.get(key) ?? 0) + ms - (a.ms.get(key) ?? ms));
    }
    m.set('machine, all cores', (m.get('machine, all cores') ?? 0) + z.machine - a.machine);
    bins.set(k, m);
  }
  const from = -Math.ceil(loop / bin) - 1;
  const to = Math.ceil(lag / bin);
  const cols = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  /** @type {Map<string, number>} */
  const sums = new Map();
  for (const k of cols) {
    for (const [key, ms] of bins.get(k) ?? []) {
      sums.set(key, (sums.get(key) ?? 0) + ms);
    }
  }
  log(
    `lag ${lag} ms (the posting loop ${Math.round(loop)} ms); CPU ms of each thread by ${bin} ms from the last delivery`,
  );
  log(`${'thread'.padEnd(30)}${'all'.padStart(6)} ${cols.map((k) => String(k * bin).padStart(5)).join('')}`);
  const rows = [...sums].filter(([, ms]) => ms >= 10).sort((x, y) => y[1] - x[1]);
  for (const [key, ms] of rows) {
    const cells = cols.map((k) => String(Math.round(bins.get(k)?.get(key) ?? 0)).padStart(5)).join('');
    log(`${key.slice(0, 30).padEnd(30)}${ms.toFixed(0).padStart(6)} ${cells}`);
  }
  // The tail: after the renderers' main threads' last busy bin.
  const renderers = (/** @type {number} */ k) =>
    (bins.get(k)?.get('host main') ?? 0) + (bins.get(k)?.get('embed main') ?? 0);
  const lastBusy = cols.filter((k) => renderers(k) > BUSY_SHARE * bin).at(-1) ?? from;
  const tail = cols.filter((k) => k > lastBusy);
  const tailMs = (/** @type {(key: string) => boolean} */ which) =>
    tail.reduce((s, k) => s + [...(bins.get(k) ?? [])].reduce((t, [key, ms]) => t + (which(key) ? ms : 0), 0), 0);
  const span = tail.length * bin;
  if (span) {
    const share = (/** @type {number} */ ms) => `${((100 * ms) / span).toFixed(0)}%`;
    log(
      `tail: ${span} ms after the renderers' last busy ${bin} ms; of a core there: the service worker ` +
        `${share(tailMs((k) => k === WORKER))}, the rest of its process ` +
        `${share(tailMs((k) => k.startsWith('ext ') && k !== WORKER))}, the browser ` +
        `${share(tailMs((k) => k.startsWith('browser ')))}, the machine ${share(tailMs((k) => k === 'machine, all cores'))}`,
    );
  }
}
