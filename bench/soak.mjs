// @ts-check
// A long session (issue 47): what the extension's memory, storage and panel do over minutes or an hour of a live embed.
// The sandbox (sandbox/server.mjs, free loopback ports; host 127.0.0.1, embed on localhost: out of process) in
// Chromium with the extension capturing both sites in full mode, the panel page open on the host page's tab (in a tab
// of its own, `?tabId=`, as the e2e tests and bench/panel.mjs open it), for `--minutes` (default 5; an hour: 60).
// The traffic, about 22 messages (44 records: a post and its delivery each) a second:
//   - a dashboard refreshing: every 2.5 s the host page sends, by its own `sendAction` (what its buttons call),
//     `refresh` or a `set-filter` in turn; the embed re-runs its widgets (their queries) and says `dashboard-loaded`;
//   - a chat streaming answers: the embed posts 10 questions a second to its dashboard agent (`ai-query` submitted,
//     completed 300 ms later; 10 conversations of 20 questions in turn), and every 10 s asks its real assistant one.
// The tab's "Keep at most" (`setOptions`, as the panel's Settings) is set so that the log reaches it at a quarter of
// the run. The service worker is stopped as Chrome stops an idle one (CDP `ServiceWorker.stopWorker`: its ports close)
// at 30%, 40% and 50% of the run; the panel and the page's relays wake it again. The second half has no stop: a leak
// of a worker that lives long has that long to show.
// A sample every 20th of the run (15–30 s; at least 5 s for a short run): the worker's JS heap after a GC (CDP on the
// worker's target), the records it holds and let go; the extension's IndexedDB bytes (navigator.storage.estimate()
// in the panel, an extension page, and the profile's IndexedDB folder of the extension on disk); the panel's JS heap
// after a GC and the records it holds; a filter change in the panel (its test handle's `setFilters`, a type and a
// text search, each to the next frame, as bench/panel.mjs times them: the slower); the records a second; the CPU of
// the extension's process and of the whole browser (from /proc) over the interval.
// Goals (`SOAK_GOALS`; growth: the median of the last third of the samples ÷ that of the first third):
//   worker heap < 100 MB at every sample, and flat over the second half (no stop): growth ≤ 1.2×;
//   storage bounded by the cap: IndexedDB bytes from the cap reached on, growth ≤ 1.25×; the worker never holds
//   more records than the cap; the panel heap from the cap reached on, growth ≤ 1.2×; the filter change < 100 ms
//   (the last third's median); every message the two pages posted and got is one record, held or let go by the cap,
//   worker stops included (none lost, none extra, none of the stream's held twice). A goal missed fails the run
//   (npm run bench exits 1); the figures are recorded all the same (BENCHMARKS.md's table: the lines with a goal).
// Usage: npm run bench -- soak [--minutes N], or node bench/soak.mjs [--minutes N] (EI_EXTENSION_DIR: another build).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startSandbox } from '../sandbox/server.mjs';
import { launchChromium } from './launcher.mjs';
import { cpuParts, treeCpu } from './page-overhead.mjs';
import { raisePriority } from './priority.mjs';
import { median } from './stats.mjs';
import { goal, goalText, meets, row } from './summary.mjs';
import { installFilterTimer } from './panel.mjs';

const root = new URL('..', import.meta.url).pathname;
const EXT = resolve(process.env.EI_EXTENSION_DIR ?? join(root, 'dist/chrome'));
const MB = 1024 * 1024;
/** Records a second the traffic makes (about 22 messages, each a post and a delivery): sizes the cap. */
const NOMINAL_RECORDS_PER_S = 44;

/** The goals, by line id (see the file's comment); `SUMMARY_NAMES`, the lines of BENCHMARKS.md's table. */
export const SOAK_GOALS = {
  workerMax: goal('<', 100, 'MB', { issue: 47 }),
  workerGrowth: goal('≤', 1.2, '×', { issue: 47 }),
  storageGrowth: goal('≤', 1.25, '×', { issue: 47 }),
  heldOverCap: goal('≤', 1, '×', { issue: 47 }),
  panelGrowth: goal('≤', 1.2, '×', { issue: 47 }),
  filter: goal('<', 100, 'ms', { issue: 47 }),
  once: goal('≤', 0, 'records', { issue: 47 }),
};

const SUMMARY_NAMES = {
  workerMax: 'worker heap, most',
  workerGrowth: 'worker heap, 2nd half, growth',
  storageGrowth: 'IndexedDB after the cap, growth',
  heldOverCap: 'records held ÷ the cap, most',
  panelGrowth: 'panel heap after the cap, growth',
  filter: 'filter change, last third',
  once: 'records not exactly once',
};

const f1 = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Poll `fn` until it returns something truthy (returned), or throw `what` after `timeoutMs`. */
async function waitUntil(fn, what, timeoutMs = 15_000, every = 50) {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(every)) {
    const v = await fn();
    if (v) {
      return v;
    }
  }
  throw new Error(`soak: timed out waiting for ${what}`);
}

/** When things happen in a run of `minutes` (ms from the start), and the cap. */
export function soakPlan(minutes) {
  const runMs = minutes * 60_000;
  const intervalMs = Math.min(30_000, Math.max(5_000, Math.round(runMs / 20 / 1000) * 1000));
  // Each stop half an interval after a sample, so that the next sample reads the worker that woke up.
  const stops = [0.3, 0.4, 0.5].map((f) => Math.round((f * runMs) / intervalMs) * intervalMs + intervalMs / 2);
  const cap = Math.max(100, Math.round((NOMINAL_RECORDS_PER_S * runMs) / 1000 / 4 / 100) * 100);
  return { runMs, intervalMs, stops, cap };
}

/**
 * The host page (dashboard surface), its tab id, the cap set, and the panel page of the tab, connected; the panel's
 * filter timing installed (`window.__benchFilter`, as bench/panel.mjs has it).
 * @param {import('../src/node/chromium.ts').Launched} launched
 * @param {import('../sandbox/server.mjs').Sandbox} sb
 * @param {number} cap
 */
async function openSession(launched, sb, cap) {
  const page = await launched.browser.newPage();
  await page.goto(`${sb.hostUrl}?surface=dashboard`);
  await page.waitForFunction(() => /** @type {any} */ (window).__sandboxHost?.isReady(), { timeout: 30_000 });
  const url = page.url();
  const tabId = await waitUntil(
    async () =>
      (await launched.worker()).evaluate(
        async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id ?? null,
        url,
      ),
    'the host page’s tab',
  );
  await (await launched.worker()).evaluate(
    (id, m) => /** @type {any} */ (globalThis).embedInspector.setOptions(id, { maxRecords: m }),
    tabId,
    cap,
  );
  const panel = await launched.browser.newPage();
  await panel.setViewport({ width: 1280, height: 900 });
  await panel.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?tabId=${tabId}&theme=light`);
  await panel.waitForFunction(() => window.__embedInspectorPanel?.store.status === 'connected', { timeout: 15_000 });
  await panel.evaluate(() => window.__embedInspectorPanel.resetFilters());
  await panel.evaluate(installFilterTimer);
  const panelCdp = await panel.createCDPSession();
  return { page, panel, panelCdp, tabId };
}

/** The embed frame of the host page. @param {import('puppeteer-core').Page} page @param {string} tenantOrigin */
const embedFrame = (page, tenantOrigin) =>
  waitUntil(() => page.frames().find((f) => f.url().startsWith(tenantOrigin)), 'the embed frame');

/**
 * Start the traffic (the file's comment) in the host page and its embed frame; `stop` ends it and returns what the
 * two pages posted and got in all (their own counts).
 * @param {import('puppeteer-core').Page} page
 * @param {string} tenantOrigin
 */
async function startTraffic(page, tenantOrigin) {
  const frame = await embedFrame(page, tenantOrigin);
  await page.evaluate(() => {
    const h = /** @type {any} */ (window).__sandboxHost;
    const filters = ['["EMEA"]', '["APAC","AMER"]', 'null'];
    let k = 0;
    /** @type {any} */ (window).__soakTimer = setInterval(() => {
      if (k % 2) {
        h.sendAction('svc:action:refresh', {});
      } else {
        h.sendAction('svc:action:set-filter', { filterUrlParameter: `f_orders.region=${filters[(k / 2) % 3]}` });
      }
      k++;
    }, 2500);
  });
  await frame.evaluate(() => {
    const e = /** @type {any} */ (window).__sandboxEmbed;
    /** @type {{ query: string, chatId: string, agentId: string }[]} */
    const open = [];
    let i = 0;
    /** @type {any} */ (window).__soakTimer = setInterval(() => {
      const asked = {
        query: `question ${i}: revenue by region, week ${i % 52}`,
        chatId: `chat-${Math.floor(i / 20) % 10}`,
        agentId: 'dashboard-agent',
      };
      e.emit('svc:event:ai-query', { ...asked, status: 'submitted' });
      open.push(asked);
      if (open.length > 3) {
        e.emit('svc:event:ai-query', { .../** @type {object} */ (open.shift()), status: 'completed' });
      }
      if (++i % 100 === 0) {
        e.askAI(`top customers, turn ${i / 100}`);
      }
    }, 100);
  });
  return {
    async stop() {
      await page.evaluate(() => clearInterval(/** @type {any} */ (window).__soakTimer));
      await frame.evaluate(() => clearInterval(/** @type {any} */ (window).__soakTimer));
      await sleep(1_000); // the last answers (400 ms) and dashboard runs
      return (await pageCounts(page, tenantOrigin)).messages;
    },
  };
}

/**
 * Every message the two pages posted and got, by their own counts (host: actions sent, events received or ignored;
 * embed: events sent, actions accepted or ignored).
 * @param {import('puppeteer-core').Page} page
 * @param {string} tenantOrigin
 */
async function pageCounts(page, tenantOrigin) {
  const host = await page.evaluate(() => {
    const h = /** @type {any} */ (window).__sandboxHost;
    return h.sent.length + h.received.length + h.ignored.length;
  });
  const embed = await (await embedFrame(page, tenantOrigin)).evaluate(() => {
    const e = /** @type {any} */ (window).__sandboxEmbed;
    return e.sent.length + e.accepted.length + e.ignored.length;
  });
  return { messages: host + embed };
}

/**
 * Stop the extension's service worker as Chrome stops an idle one (CDP ServiceWorker.stopWorker: it ends, its ports
 * close) and wait until it runs again, woken by what reconnects (the panel, a relay with records). Our debugger stays
 * attached across the stop, so Chrome holds the next start until it is told to run: it is let run at once, as a
 * user's worker is (test/helpers/capture.ts, stopWorkerAsIdle). Returns the ms from the stop to running again.
 * @param {import('../src/node/chromium.ts').Launched} launched
 * @param {import('puppeteer-core').Page} page
 */
async function stopWorker(launched, page) {
  const script = `chrome-extension://${launched.extensionId}/`;
  const cdp = await page.createCDPSession();
  /** @type {Map<string, string>} */
  const status = new Map();
  let stoppedOnce = false;
  let released = false;
  const release = async () => {
    released = true;
    for (const t of launched.browser.targets()) {
      if (t.type() === 'service_worker' && t.url().startsWith(script)) {
        const s = await within(t.createCDPSession(), 3_000, 'a worker target').catch(() => null);
        await s?.send('Runtime.runIfWaitingForDebugger').catch(() => {});
        await s?.detach().catch(() => {});
      }
    }
  };
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions.filter((x) => x.scriptURL.startsWith(script))) {
      status.set(v.versionId, v.runningStatus);
      stoppedOnce ||= v.runningStatus === 'stopped';
      if (stoppedOnce && !released && (v.runningStatus === 'starting' || v.runningStatus === 'running')) {
        void release();
      }
    }
  });
  try {
    await cdp.send('ServiceWorker.enable');
    const versionId = await waitUntil(
      () => [...status].find(([, s]) => s === 'running')?.[0],
      'the running worker',
      5_000,
    );
    stoppedOnce = false;
    const t0 = Date.now();
    await cdp.send('ServiceWorker.stopWorker', { versionId });
    await waitUntil(() => stoppedOnce, 'the worker to stop', 5_000);
    // Released at its start; again while it has not run (its target may have come after the first release).
    await waitUntil(
      async () => {
        if (status.get(versionId) === 'running') {
          return true;
        }
        if (released) {
          await release();
        }
        return false;
      },
      'the worker to run again',
      30_000,
      100,
    );
    return Date.now() - t0;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** `p`, or an error after `ms` (a call to a worker that went away may never answer). */
const within = (p, ms, what) =>
  Promise.race([
    p,
    sleep(ms).then(() => {
      throw new Error(`soak: ${what} did not answer in ${ms} ms`);
    }),
  ]);

/**
 * `fn` with a CDP session on the extension's live worker: the newest of its worker targets whose automation API
 * answers. After a stop the old target can linger, and puppeteer's handle of a worker woken again can stop answering
 * (src/node/chromium.ts, workerOverSession): a session of our own per call, let run if it waits for a debugger.
 * @template T
 * @param {import('../src/node/chromium.ts').Launched} launched
 * @param {(s: import('puppeteer-core').CDPSession) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withWorker(launched, fn) {
  const script = `chrome-extension://${launched.extensionId}/`;
  for (const end = Date.now() + 30_000; Date.now() < end; await sleep(200)) {
    const targets = launched.browser
      .targets()
      .filter((t) => t.type() === 'service_worker' && t.url().startsWith(script));
    for (const t of targets.reverse()) {
      const s = await within(t.createCDPSession(), 3_000, 'a worker target').catch(() => null);
      if (!s) {
        continue;
      }
      try {
        await within(s.send('Runtime.runIfWaitingForDebugger'), 3_000, 'the worker').catch(() => {});
        const up = await within(
          s.send('Runtime.evaluate', { expression: "'embedInspector' in globalThis", returnByValue: true }),
          3_000,
          'the worker',
        );
        if (up.result.value === true) {
          return await within(fn(s), 20_000, 'the worker');
        }
      } catch {
        /* a worker that went away: the next target, or again */
      } finally {
        await s.detach().catch(() => {});
      }
    }
  }
  throw new Error('soak: no live service worker answered for 30 s');
}

/** `expression` (an async function's source, called with `arg`) evaluated in the worker, by value. */
async function inWorker(s, expression, arg) {
  const r = await s.send('Runtime.evaluate', {
    expression: `(${expression})(${JSON.stringify(arg)})`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (r.exceptionDetails) {
    throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
  }
  return r.result.value;
}

/**
 * What the worker's log of the tab holds (records, let go by the cap, the cap) and the worker's JS heap after a GC.
 * @param {import('../src/node/chromium.ts').Launched} launched
 * @param {number} tabId
 */
const workerLog = (launched, tabId) =>
  withWorker(launched, async (s) => {
    const log = await inWorker(
      s,
      `async (id) => {
        const api = globalThis.embedInspector;
        const [held, st] = await Promise.all([api.count(id), api.state(id)]);
        return { held, dropped: st.dropped, cap: st.maxRecords };
      }`,
      tabId,
    );
    await s.send('HeapProfiler.collectGarbage');
    return { ...log, workerMB: (await s.send('Runtime.getHeapUsage')).usedSize / MB };
  });

/** Bytes of the files under `dir` (0 when it is not there). */
function dirBytes(dir) {
  let n = 0;
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      n += e.isDirectory() ? dirBytes(p) : e.isFile() ? statSync(p).size : 0;
    }
  } catch {
    /* gone meanwhile, or never made */
  }
  return n;
}

/**
 * The extension's storage: what `navigator.storage.estimate()` says in the panel (an extension page: the
 * extension's origin), all and IndexedDB; and the extension's IndexedDB folders in the profile on disk.
 * @param {import('puppeteer-core').Page} panel
 * @param {string} profile
 * @param {string} extensionId
 */
async function storageMB(panel, profile, extensionId) {
  const est = await panel.evaluate(async () => {
    const e = /** @type {any} */ (await navigator.storage.estimate());
    return { usage: e.usage ?? Number.NaN, idb: e.usageDetails?.indexedDB ?? Number.NaN };
  });
  const idbDir = join(profile, 'Default', 'IndexedDB');
  const ours = existsSync(idbDir)
    ? readdirSync(idbDir).filter((d) => d.startsWith(`chrome-extension_${extensionId}`))
    : [];
  const disk = ours.reduce((n, d) => n + dirBytes(join(idbDir, d)), 0);
  return { usageMB: est.usage / MB, idbMB: est.idb / MB, diskMB: disk / MB };
}

/**
 * The panel: its JS heap after a GC (MB), the records it holds, and a filter change (a type, then a text search,
 * each cleared; each to the next frame): the slower of the two, ms.
 * @param {import('puppeteer-core').Page} panel
 * @param {import('puppeteer-core').CDPSession} cdp
 */
async function panelFigures(panel, cdp) {
  /** @type {[string, Parameters<Window['__benchFilter']>[0]][]} */
  const cases = [
    ['type', { types: ['svc:event:dashboard-loaded'] }],
    ['clear', { types: [] }],
    ['search', { search: 'week 17' }],
    ['clear', { search: '' }],
  ];
  let filterMs = 0;
  for (const [name, patch] of cases) {
    const r = await panel.evaluate((p) => window.__benchFilter(p), patch);
    filterMs = name === 'clear' ? filterMs : Math.max(filterMs, r.frame);
  }
  await cdp.send('HeapProfiler.collectGarbage');
  const heapMB = (await cdp.send('Runtime.getHeapUsage')).usedSize / MB;
  const records = await panel.evaluate(() => window.__embedInspectorPanel.counts().records);
  return { heapMB, records, filterMs };
}

/**
 * One sample (the file's comment): `prev`, the sample before (for the rate and the CPU over the interval).
 * @param {{ launched: import('../src/node/chromium.ts').Launched, panel: import('puppeteer-core').Page,
 *   panelCdp: import('puppeteer-core').CDPSession, tabId: number, profile: string, t0: number, stops: number }} s
 * @param {any} prev
 */
async function takeSample(s, prev) {
  const t = (Date.now() - s.t0) / 1000;
  const cpu = treeCpu(s.launched.browser.process()?.pid);
  const log = await workerLog(s.launched, s.tabId);
  const storage = await storageMB(s.panel, s.profile, /** @type {string} */ (s.launched.extensionId));
  const panel = await panelFigures(s.panel, s.panelCdp);
  const seen = log.held + log.dropped;
  const dt = prev ? t - prev.t : Number.NaN;
  const used = prev ? cpuParts(prev.cpu, cpu) : null;
  return {
    t,
    ...log,
    seen,
    rate: prev ? (seen - prev.seen) / dt : Number.NaN,
    ...storage,
    panelMB: panel.heapMB,
    panelRecords: panel.records,
    filterMs: panel.filterMs,
    extCpu: used ? used.extension / 10 / dt : Number.NaN, // % of a core
    allCpu: used ? used.all / 10 / dt : Number.NaN,
    stops: s.stops,
    cpu,
  };
}

/** The median of the last third of `xs` ÷ that of the first third (NaN under 3 values). */
export function growth(xs) {
  const ys = xs.filter(Number.isFinite);
  if (ys.length < 3) {
    return Number.NaN;
  }
  const k = Math.floor(ys.length / 3);
  return median(ys.slice(-k)) / median(ys.slice(0, k));
}

/**
 * The run's lines (measure, figure, goal) from its samples: `capAt`, the first sample past the cap; the second half
 * (no stop), the samples after the last stop.
 */
function judge(samples, { plan, lost, twice, restarts }) {
  const capAt = samples.findIndex((s) => s.dropped > 0);
  const post = capAt < 0 ? [] : samples.slice(capAt);
  const calm = post.filter((s) => s.t * 1000 > Math.max(...plan.stops));
  const pick = (xs, k) => xs.map((s) => s[k]);
  const last = samples.at(-1);
  const lastThird = post.slice(-Math.max(1, Math.floor(post.length / 3)));
  const storageGrowth = Math.max(growth(pick(post, 'diskMB')), growth(pick(post, 'idbMB')));
  /** @type {[keyof typeof SOAK_GOALS | null, string, number, string, number?][]} */
  const lines = [
    ['workerMax', 'service worker JS heap after GC, most', Math.max(...pick(samples, 'workerMB')), 'MB'],
    [null, 'service worker JS heap after GC, at the end', last.workerMB, 'MB'],
    [
      'workerGrowth',
      'service worker JS heap, second half (no stop): last third ÷ first third',
      growth(pick(calm, 'workerMB')),
      '×',
    ],
    [null, 'IndexedDB on disk at the end', last.diskMB, 'MB'],
    [null, 'IndexedDB as navigator.storage.estimate() says, at the end', last.idbMB, 'MB'],
    [
      'storageGrowth',
      'IndexedDB from the cap on: last third ÷ first third (on disk or estimate, the larger)',
      storageGrowth,
      '×',
    ],
    ['heldOverCap', 'records the worker holds, most ÷ the cap', Math.max(...pick(samples, 'held')) / plan.cap, '×'],
    [null, 'panel JS heap after GC, at the end', last.panelMB, 'MB'],
    ['panelGrowth', 'panel JS heap from the cap on: last third ÷ first third', growth(pick(post, 'panelMB')), '×'],
    ['filter', 'filter change to the next frame, median of the last third', median(pick(lastThird, 'filterMs')), 'ms'],
    [null, 'filter change to the next frame, slowest', Math.max(...pick(samples, 'filterMs')), 'ms'],
    [null, 'records lost (posted or got by the pages, neither held nor let go)', Math.max(0, lost), 'records', 0],
    [null, 'records more than the pages posted and got (counted twice)', Math.max(0, -lost), 'records', 0],
    [null, 'records held twice (of the stream, at the end)', twice, 'records', 0],
    ['once', 'messages not exactly one record (lost, extra or held twice)', Math.abs(lost) + twice, 'records', 0],
    [null, 'records a second, median', median(pick(samples.slice(1), 'rate')), 'records/s'],
    [null, `worker stops (${restarts.length}): to running again, slowest`, Math.max(...restarts), 'ms', 0],
  ];
  const out = lines.map(([id, name, value, unit, digits = 1]) => {
    const g = id ? SOAK_GOALS[id] : null;
    return { id, name, value, unit, digits, goal: g, met: meets(g, value) };
  });
  const missed = out.filter((l) => l.goal && l.met !== true).map((l) => `${l.name} ${f1(l.value, 2)} ${l.unit}`);
  if (capAt < 0) {
    missed.unshift(`the cap (${plan.cap}) was never reached`);
  }
  return { lines: out, capAt, failed: missed.length ? missed.join('; ') : null };
}

/** The time series' header: a row a sample follows (`seriesRow`). */
const SERIES_HEAD = [
  '| t s | records/s | worker holds | let go | worker heap MB | IDB disk MB | IDB estimate MB | panel records | panel heap MB | filter ms | ext. CPU % | browser CPU % | stops |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
const seriesRow = (s) =>
  `| ${f1(s.t, 0)} | ${f1(s.rate, 0)} | ${s.held} | ${s.dropped} | ${f1(s.workerMB)} | ${f1(s.diskMB)} | ${f1(s.idbMB)} | ${s.panelRecords} | ${f1(s.panelMB)} | ${f1(s.filterMs)} | ${f1(s.extCpu, 0)} | ${f1(s.allCpu, 0)} | ${s.stops} |`;

/** Each line against its goal, then the goal line. */
function logLines({ lines, failed }, samples, log) {
  log(`\n${samples.length} samples; growth: the median of the last third of the samples ÷ that of the first third`);
  for (const l of lines) {
    const ok = l.goal ? `   goal ${goalText(l.goal)}   ${l.met ? 'OK' : 'MISSED'}` : '';
    log(`${l.name}: ${f1(l.value, l.unit === '×' ? 2 : l.digits)}${l.unit === '×' ? '×' : ` ${l.unit}`}${ok}`);
  }
  const judged = lines.filter((l) => l.goal);
  log(
    `\nGoal (issue 47), worker < 100 MB and flat, storage bounded by the cap, panel flat and responsive, nothing lost: ${judged.map((l) => `${l.id} ${f1(l.value, l.unit === '×' ? 2 : l.digits)}${l.unit === '×' ? '×' : ` ${l.unit}`}`).join(', ')} — ${failed ? `missed: ${failed}` : 'met'}`,
  );
}

/**
 * The stream's records (ai-query posts and deliveries: each question's text is its own) the worker holds more than
 * once: a record stored twice, e.g. a batch taken in again after a stop.
 */
const heldTwice = (launched, tabId) =>
  withWorker(launched, (s) =>
    inWorker(
      s,
      `async (id) => {
        const seen = new Set();
        let twice = 0;
        for (const r of await globalThis.embedInspector.records(id)) {
          if (r.data?.type !== 'svc:event:ai-query') continue;
          const key = r.kind + ' ' + r.frameUrl + ' ' + JSON.stringify(r.data);
          twice += seen.has(key) ? 1 : 0;
          seen.add(key);
        }
        return twice;
      }`,
      tabId,
    ),
  );

/** Every frame of the tab hands over what it holds (the automation API's settle; again while one stays silent). */
async function settleTab(launched, tabId) {
  for (let i = 0; i < 10; i++) {
    const r = await withWorker(launched, (s) => inWorker(s, '(id) => globalThis.embedInspector.settle(id)', tabId));
    if (!r.silent) {
      return;
    }
  }
}

/**
 * Run the soak for `minutes`; prints the time series (a row a sample, as it is taken), each line against its goal
 * and the goal line. Returns the plan, the samples, the lines and `failed` (what missed its goal, or null).
 * @param {{ minutes?: number, log?: (line: string) => void }} [options]
 */
export async function benchSoak({ minutes = 5, log = console.log } = {}) {
  if (!existsSync(join(EXT, 'manifest.json'))) {
    throw new Error(`${EXT} is missing: run npm run build first`);
  }
  const plan = soakPlan(minutes);
  const sb = await startSandbox();
  const launched = await launchChromium({
    extensionDir: EXT,
    capture: { sites: [sb.hostOrigin, sb.tenantOrigin], mode: 'full' },
  });
  const profile =
    launched.browser
      .process()
      ?.spawnargs.find((a) => a.startsWith('--user-data-dir='))
      ?.slice('--user-data-dir='.length) ?? '';
  try {
    const { page, panel, panelCdp, tabId } = await openSession(launched, sb, plan.cap);
    raisePriority(launched.browser);
    log(
      `the sandbox's host page (dashboard) captured in full mode, the panel open on its tab, ${minutes} min: about 22 messages a second; "Keep at most" ${plan.cap.toLocaleString('en-US')}; a sample every ${plan.intervalMs / 1000} s; the worker stopped at ${plan.stops.map((s) => `${Math.round(s / 1000)} s`).join(', ')}`,
    );
    await settleTab(launched, tabId);
    const w0 = await workerLog(launched, tabId);
    const before = { messages: (await pageCounts(page, sb.tenantOrigin)).messages, seen: w0.held + w0.dropped };
    const traffic = await startTraffic(page, sb.tenantOrigin);
    const ctx = { launched, panel, panelCdp, tabId, profile, t0: Date.now(), stops: 0 };
    const samples = [await takeSample(ctx, null)];
    log(['', ...SERIES_HEAD, seriesRow(samples[0])].join('\n'));
    /** @type {number[]} */
    const restarts = [];
    const times = Array.from({ length: Math.floor(plan.runMs / plan.intervalMs) }, (_, k) => (k + 1) * plan.intervalMs);
    for (const at of [...times, ...plan.stops].sort((a, b) => a - b)) {
      await sleep(Math.max(0, ctx.t0 + at - Date.now()));
      if (plan.stops.includes(at)) {
        restarts.push(await stopWorker(launched, page));
        ctx.stops++;
      } else {
        samples.push(await takeSample(ctx, samples.at(-1)));
        log(seriesRow(samples.at(-1)));
      }
    }
    const messages = await traffic.stop();
    await settleTab(launched, tabId);
    const end = await workerLog(launched, tabId);
    const lost = messages - before.messages - (end.held + end.dropped - before.seen);
    const twice = await heldTwice(launched, tabId);
    const verdict = judge(samples, { plan, lost, twice, restarts });
    logLines(verdict, samples, log);
    return { minutes, plan, samples: samples.map(({ cpu, ...s }) => s), restarts, ...verdict };
  } finally {
    await launched.close();
    await sb.close();
  }
}

/** The summary table's rows of a run of `benchSoak` (summary.mjs). */
export function summaryRows(result) {
  return {
    runs: `${result.minutes} min`,
    rows: result.lines
      .filter((l) => l.id)
      .map((l) => row(SUMMARY_NAMES[l.id], { goal: l.goal, value: l.value, unit: l.unit, digits: l.digits })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--minutes');
  const minutes = i > 0 ? Number(process.argv[i + 1]) : 5;
  if (!(minutes > 0)) {
    console.error('soak: --minutes takes a number of minutes above 0');
    process.exit(2);
  }
  const result = await benchSoak({ minutes });
  process.exitCode = result.failed ? 1 : 0;
}
