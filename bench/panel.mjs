// @ts-check
// The panel with 100,000 records in real Chromium (issues 5, 27, 49): time to first render, filter changes, a live
// batch, scroll frame times and long tasks, JS heap; the same for the flow view. Each run is a new browser; the
// figures are the runs' medians with the interval that holds 90% of the medians of resampled runs (stats.mjs), and
// beside the time to the next frame, the panel's main-thread CPU (CDP `ThreadTime`: on a shared machine, time spent
// waiting for a core is not the panel's). Goals: `PANEL_GOALS`.
// Run: `npm run bench -- panel` (after npm run build), or `node bench/panel.mjs [records] [--runs N]` (default 7 runs);
// `EI_EXTENSION_DIR=<dir>` measures another build; `EI_BENCH_SHARED=1` loads the records uncloned.
// `--profile [--trace] [--filter JSON] [--save FILE]`: instead of the figures, where the first render (or that filter
// change) goes, by function or by trace event (panel-profile.mjs); one run unless --runs says more.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { median, medianInterval } from './stats.mjs';
import { goal, goalText, meets, row } from './summary.mjs';
import { raisePriority } from './priority.mjs';
import { profilePanel } from './panel-profile.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
export const EXT = process.env.EI_EXTENSION_DIR ?? join(ROOT, 'dist/chrome');
// The launcher the command line uses (src/node/chromium.ts, built to dist/node/chromium.js by npm run build).
import { chromiumPath as chromium, CHROMIUM_FLAGS } from './launcher.mjs';
const FLAGS = [...CHROMIUM_FLAGS];

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');

/** The filter changes timed after a load: a chip (verdict), a type, foreign records, a field search; each cleared. */
/** @typedef {Parameters<import('../src/panel/app/test-handle.ts').PanelTestHandle['view']['setFilters']>[0]} FilterPatch */
/** @type {[string, FilterPatch][]} */
const FILTER_CASES = [
  ['verdict invalid', { verdicts: ['invalid'] }],
  ['clear', { verdicts: [] }],
  ['type view', { types: ['svc:event:view'] }],
  ['clear', { types: [] }],
  ['show foreign', { showForeign: true }],
  ['clear', { showForeign: false }],
  ['search field payload.path:folder', { search: 'payload.path:folder' }],
  ['clear', { search: '' }],
];
/** Plain-text searches, timed once the search text is built (in idle time after a load). */
/** @type {[string, FilterPatch][]} */
const TEXT_CASES = [
  ['search text', { search: 'workbook 777' }],
  ['clear', { search: '' }],
  ['search text negated + field', { search: '-kind:receive top customers' }],
  ['clear', { search: '' }],
];
/** @type {[string, FilterPatch][]} */
const FLOW_CASES = [
  ['verdict invalid', { verdicts: ['invalid'] }],
  ['clear', { verdicts: [] }],
  ['type view', { types: ['svc:event:view'] }],
  ['clear', { types: [] }],
  ['show foreign', { showForeign: true }],
  ['clear', { showForeign: false }],
  ['search text', { search: 'workbook 777' }],
  ['clear', { search: '' }],
];

/**
 * The lines the bench reports, in order: how each is read from one run's figures, and its goal (met by the runs'
 * median; issue 49 for the first render and the filter changes, 5 for scrolling and the heap, 27 for the flow view).
 * BENCHMARKS.md's summary table (summary.mjs) lists the lines marked `summary`.
 */
/**
 * @typedef {{ id: string, name: string, unit: string, of: (r: any) => number, goal?: import('./summary.mjs').Goal,
 *   summary?: boolean }} PanelLine
 * @type {PanelLine[]}
 */
export const PANEL_LINES = [
  {
    id: 'first-render',
    name: 'first render, 100,000 records',
    unit: 'ms',
    of: (r) => r.firstRender,
    goal: goal('<', 150, 'ms', { issue: 49 }),
    summary: true,
  },
  {
    id: 'first-render-cpu',
    name: 'first render, main-thread CPU',
    unit: 'ms',
    of: (r) => r.firstRenderCpu,
    summary: true,
  },
  { id: 'ingest', name: 'of which the store ingest (synchronous)', unit: 'ms', of: (r) => r.ingest, summary: true },
  {
    id: 'judged',
    name: 'integration line judged, from the load',
    unit: 'ms',
    of: (r) => r.judged,
    summary: true,
  },
  ...FILTER_CASES.concat(TEXT_CASES)
    .filter(([name]) => name !== 'clear')
    .map(([name]) => ({
      id: `filter ${name}`,
      name: `filter change, ${name}`,
      unit: 'ms',
      of: (r) => r.filters[name].frame,
    })),
  {
    id: 'worst-filter',
    name: 'filter change, worst',
    unit: 'ms',
    of: (r) => r.worstFilter,
    goal: goal('<', 100, 'ms', { issue: 49 }),
    summary: true,
  },
  {
    id: 'worst-filter-cpu',
    name: 'filter change, worst, main-thread CPU',
    unit: 'ms',
    of: (r) => r.worstFilterCpu,
    summary: true,
  },
  { id: 'cold-search', name: 'plain-text search before the search text is built', unit: 'ms', of: (r) => r.cold },
  { id: 'index', name: 'search text complete, after the filter runs', unit: 'ms', of: (r) => r.indexMs },
  { id: 'live-sync', name: 'live batch of 500 records onto the full log', unit: 'ms', of: (r) => r.liveSync },
  { id: 'live-frame', name: 'live batch of 500 records, to the next frame', unit: 'ms', of: (r) => r.liveFrame },
  { id: 'scroll-median', name: 'scroll frame time, median', unit: 'ms', of: (r) => r.frameMedian },
  { id: 'scroll-p95', name: 'scroll frame time, p95', unit: 'ms', of: (r) => r.frameP95 },
  { id: 'scroll-slow', name: 'slow scroll (3 rows a frame) frame time', unit: 'ms', of: (r) => r.slowMedian },
  {
    id: 'long-task',
    name: 'scroll, longest long task',
    unit: 'ms',
    of: (r) => r.longTaskMax,
    goal: goal('≤', 50, 'ms', { issue: 5 }),
    summary: true,
  },
  {
    id: 'heap',
    name: 'JS heap after GC',
    unit: 'MB',
    of: (r) => r.heapMB,
    goal: goal('<', 200, 'MB', { issue: 5 }),
    summary: true,
  },
  {
    id: 'flow-first-render',
    name: 'flow view, first render',
    unit: 'ms',
    of: (r) => r.flow.firstRender,
    goal: goal('<', 200, 'ms', { issue: 27 }),
    summary: true,
  },
  {
    id: 'flow-worst-filter',
    name: 'flow view, filter change, worst',
    unit: 'ms',
    of: (r) => r.flow.worstFilter,
    goal: goal('<', 100, 'ms', { issue: 27 }),
    summary: true,
  },
  {
    id: 'flow-long-task',
    name: 'flow view, scroll, longest long task',
    unit: 'ms',
    of: (r) => r.flow.longTaskMax,
    goal: goal('≤', 50, 'ms', { issue: 27 }),
    summary: true,
  },
  {
    id: 'flow-heap',
    name: 'flow view, JS heap after GC',
    unit: 'MB',
    of: (r) => r.flow.heapMB,
    goal: goal('<', 200, 'MB', { issue: 27 }),
    summary: true,
  },
];

/**
 * A new browser with the extension `ext` and its panel page open once the worker answers; `withCpu(fn, ...args)`:
 * fn evaluated in the panel, with the main thread's CPU while it ran (`cpu`, ms).
 * @param {string} ext
 */
async function openPanel(ext) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'ei-bench-panel-'));
  const browser = await puppeteer.launch({
    executablePath: chromium(),
    headless: true,
    userDataDir,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [...FLAGS, `--disable-extensions-except=${ext}`, `--load-extension=${ext}`, '--enable-precise-memory-info'],
  });
  try {
    const sw = await browser.waitForTarget(
      (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'),
      { timeout: 15_000 },
    );
    const id = new URL(sw.url()).host;
    // Open the panel once the extension has started, as DevTools does: wait until the service worker answers.
    // A page opened while the worker's process is still starting gets V8's memory-reducing collector for its
    // whole life (BENCHMARKS.md, Findings that still hold), which the real panel does not get.
    await (await sw.worker())?.evaluate(() => 1);
    const page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(`chrome-extension://${id}/src/panel/index.html?theme=light`);
    await page.waitForFunction(() => !!window.__embedInspectorPanel);
    raisePriority(browser);
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    /** The panel's main-thread CPU so far, ms. */
    const threadMs = async () =>
      ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
    const withCpu = async (fn, ...args) => {
      const c0 = await threadMs();
      const out = await page.evaluate(fn, ...args);
      return { ...out, cpu: (await threadMs()) - c0 };
    };

    return { browser, userDataDir, page, cdp, withCpu };
  } catch (e) {
    await browser.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
}

/** @typedef {Awaited<ReturnType<typeof openPanel>>} OpenPanel */

/**
 * In the panel page (evaluated there, so self-contained): `window.__benchFilter(patch)`, a filter change through the
 * test handle timed to its next frame (`frame`), its synchronous part (`sync`), and the records shown after it.
 */
export function installFilterTimer() {
  const h = window.__embedInspectorPanel;
  window.__benchFilter = async (patch) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
    const a = performance.now();
    h.view.setFilters(patch);
    const sync = performance.now() - a;
    await frame();
    return { sync, frame: performance.now() - a, shown: h.view.length };
  };
}

/**
 * The records generated in the panel (outside the timed part), the long-task observer, the filter timer.
 * @param {OpenPanel['page']} page
 * @param {number} records
 */
async function primePanel(page, records) {
  // Generate outside the timed part, then time loading them into the panel until the rows are painted.
  await page.evaluate(
    (n, shared) => {
      /** @type {import('../src/panel/app/test-handle.ts').PanelTestHandle} */
      const h = window.__embedInspectorPanel;
      // Records reach the panel as copies (structured clones of the background's messages, or parsed JSON of a
      // capture file): every record with its own strings and message objects. The synthetic session shares
      // them, so each record is cloned, as the transport would deliver it (EI_BENCH_SHARED=1: not cloned).
      window.__benchRecords = shared ? h.synthetic(n) : h.synthetic(n).map((r) => structuredClone(r));
      const longTasks = (window.__benchLongTasks = []);
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) {
          longTasks.push(e.duration);
        }
      }).observe({ type: 'longtask' });
    },
    records,
    process.env.EI_BENCH_SHARED === '1',
  );
  await page.evaluate(installFilterTimer);
}

/**
 * Load the records until the rows are painted, and until the integration line is judged.
 * @param {OpenPanel['withCpu']} withCpu
 */
async function firstLoad(withCpu) {
  return await withCpu(async () => {
    const h = window.__embedInspectorPanel;
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
    await frame();
    const recs = window.__benchRecords;
    window.__benchRecords = null;
    const t0 = performance.now();
    h.load(recs, 'benchmark');
    const tIngest = performance.now();
    await frame();
    // the frame after the rows are in the DOM
    await new Promise((r) => setTimeout(r, 0));
    const tPaint = performance.now();
    // A large load's integration line is judged once the panel is idle after that frame (Integration.tsx).
    const line = document.querySelector('[data-testid="integration"]');
    while (line?.getAttribute('data-state') === 'judging') {
      await new Promise((r) => setTimeout(r, 1));
    }
    const tJudged = performance.now();
    return {
      ingest: tIngest - t0,
      firstRender: tPaint - t0,
      judged: tJudged - t0,
      rows: document.querySelectorAll('.grid-body [role="row"]').length,
      total: h.log.count,
    };
  });
}

/**
 * Filter changes after a load, the search text's idle index, a cold plain-text search.
 * @param {OpenPanel['page']} page
 * @param {OpenPanel['withCpu']} withCpu
 */
async function filterFigures(page, withCpu) {
  // Filter changes: each to its next frame, and the main thread's CPU meanwhile.
  const out = { filters: {}, indexMs: 0, cold: 0 };
  const timeFilter = (patch) => withCpu((p) => window.__benchFilter(p), patch);
  for (const [name, patch] of FILTER_CASES) {
    const r = await timeFilter(patch);
    if (name !== 'clear') {
      out.filters[name] = r;
    }
  }
  // Plain-text search uses the lower-cased text the panel builds in idle time after a load: measure it
  // once that is done (about a second after loading), and report the cold case apart.
  out.indexMs = await page.evaluate(async () => {
    const h = window.__embedInspectorPanel;
    const t0 = performance.now();
    while (h.log.textIndexed < h.log.count) {
      await new Promise((r) => setTimeout(r, 50));
    }
    return performance.now() - t0;
  });
  for (const [name, patch] of TEXT_CASES) {
    const r = await timeFilter(patch);
    if (name !== 'clear') {
      out.filters[name] = r;
    }
  }
  await page.evaluate(() => {
    const h = window.__embedInspectorPanel;
    h.log.replace(h.log.all().slice()); // forget the search text again
  });
  out.cold = (await timeFilter({ search: 'workbook 778' })).frame;
  await timeFilter({ search: '' });

  return out;
}

/**
 * A live batch: 500 records appended to the full log, to the next frame (made and their garbage collected first).
 * @param {OpenPanel['page']} page
 * @param {OpenPanel['cdp']} cdp
 */
async function liveBatch(page, cdp) {
  await page.evaluate(() => {
    const h = window.__embedInspectorPanel;
    const last = h.log.at(h.log.count - 1);
    window.__benchLive = h
      .synthetic(540)
      .slice(-500)
      .map((r, j) => ({ ...r, seq: last.seq + 1 + j, time: last.time + 1 + j, pairedWith: undefined }));
  });
  await cdp.send('HeapProfiler.collectGarbage');
  return await page.evaluate(async () => {
    const h = window.__embedInspectorPanel;
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
    const more = window.__benchLive;
    window.__benchLive = null;
    const la = performance.now();
    h.store.handle(/** @type {any} */ ({ v: 1, type: 'records', records: more }));
    h.log.flush();
    const liveSync = performance.now() - la;
    await frame();
    const liveFrame = performance.now() - la;
    while (h.log.textIndexed < h.log.count) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 100));
    return { liveSync, liveFrame };
  });
}

/**
 * The timeline's scroll: frame times and long tasks (the scroll helper is the flow view's too).
 * @param {OpenPanel['page']} page
 * @param {OpenPanel['cdp']} cdp
 */
async function scrollFigures(page, cdp) {
  // One scroll for the timeline and the flow view: 3 s at 600 px a frame, optionally 60 frames at 66 px (the slow
  // scroll's frame times apart), then 40 jumps to random places; each frame's time from the one before.
  await page.evaluate(() => {
    window.__benchScroll = async (body, { slow: withSlow }) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
      const deltas = [];
      const slow = [];
      let prev = performance.now();
      const step = async (into, move) => {
        move();
        await frame();
        const now = performance.now();
        into.push(now - prev);
        prev = now;
      };
      for (const end = prev + 3000; performance.now() < end; ) {
        await step(deltas, () => (body.scrollTop += 600));
      }
      for (let k = 0; withSlow && k < 60; k++) {
        await step(slow, () => (body.scrollTop += 66));
      }
      for (let k = 0; k < 40; k++) {
        await step(deltas, () => (body.scrollTop = Math.random() * body.scrollHeight));
      }
      return { deltas, slow };
    };
  });

  // Scroll a loaded, settled panel (garbage of the generation and loading collected first).
  await cdp.send('HeapProfiler.collectGarbage');
  return await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
    const longTasks = window.__benchLongTasks;
    // Scroll: 3 s of continuous scrolling (600 px a frame: 27 rows, most of the visible ones, show a new record),
    // 60 frames of a slow scroll (three rows a frame: a mouse wheel, or arrow keys held down), then jumps across
    // the whole list.
    const body = /** @type {HTMLElement} */ (document.querySelector('.grid-body'));
    body.scrollTop = 0;
    await frame();
    longTasks.length = 0;
    const { deltas, slow } = await window.__benchScroll(body, { slow: true });
    await new Promise((r) => setTimeout(r, 100));
    deltas.sort((a, b) => a - b);
    slow.sort((a, b) => a - b);
    return {
      slowMedian: slow[slow.length >> 1],
      frames: deltas.length,
      frameMedian: deltas[Math.floor(deltas.length / 2)],
      frameP95: deltas[Math.floor(deltas.length * 0.95)],
      frameMax: deltas[deltas.length - 1],
      longTasks: longTasks.length,
      longTaskMax: longTasks.length ? Math.max(...longTasks) : 0,
    };
  });
}

/**
 * The flow view on the same records: its first render, filter changes, a scroll, the heap.
 * @param {OpenPanel['page']} page
 * @param {OpenPanel['cdp']} cdp
 */
async function flowFigures(page, cdp) {
  // The flow view (issue 27) on the same 100,000 records, with the timeline's goals: the switch to it (its
  // model built from the timeline's order, the rows in view painted), filter changes while it is shown, a
  // scroll, the heap with it open.
  const flow = await page.evaluate(async (cases) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
    const s = window.__embedInspectorPanel.view;
    const longTasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        longTasks.push(e.duration);
      }
    }).observe({ type: 'longtask' });
    const t0 = performance.now();
    /** @type {HTMLElement} */ (document.querySelector('.vt-flow')).click();
    await frame();
    await new Promise((r) => setTimeout(r, 0));
    const firstRender = performance.now() - t0;
    const rows = document.querySelectorAll('.flow-row').length;
    const count = document.querySelector('.flow-count')?.textContent ?? '';
    const arrows = Number(count.split(' messages')[0].replace(/,/g, ''));
    const filters = {};
    for (const [name, patch] of cases) {
      const a = performance.now();
      s.setFilters(patch);
      await frame();
      if (name !== 'clear') {
        filters[name] = { frame: performance.now() - a, rows: document.querySelectorAll('.flow-row').length };
      }
    }
    await new Promise((r) => setTimeout(r, 100));
    longTasks.length = 0;
    const { deltas } = await window.__benchScroll(/** @type {Element} */ (document.querySelector('.flow-body')), {
      slow: false,
    });
    await new Promise((r) => setTimeout(r, 100));
    deltas.sort((a, b) => a - b);
    return {
      firstRender,
      rows,
      arrows,
      filters,
      frames: deltas.length,
      frameMedian: deltas[deltas.length >> 1],
      frameP95: deltas[Math.floor(deltas.length * 0.95)],
      longTasks: longTasks.length,
      longTaskMax: longTasks.length ? Math.max(...longTasks) : 0,
    };
  }, FLOW_CASES);
  await cdp.send('HeapProfiler.collectGarbage');
  const heapMB = (await cdp.send('Runtime.getHeapUsage')).usedSize / 1024 / 1024;
  const worstFilter = Math.max(...Object.values(flow.filters).map((f) => f.frame));
  return { ...flow, heapMB, worstFilter };
}

/** One run: a new browser with the extension `ext`, the panel loaded with `records` records, every figure. */
export async function panelRun({ records = 100_000, ext = EXT } = {}) {
  if (!existsSync(join(ext, 'manifest.json'))) {
    throw new Error(`${ext} is missing: run npm run build first`);
  }
  const { browser, userDataDir, page, cdp, withCpu } = await openPanel(ext);
  try {
    await primePanel(page, records);
    // The records were made in this page (`synthetic`: classified as a capture is): what they left on the heap is
    // collected first, so that a build's load does not pay for the generator's garbage (as panel-profile.mjs).
    await cdp.send('HeapProfiler.collectGarbage');
    const first = await firstLoad(withCpu);
    const out = { ...first, firstRenderCpu: first.cpu, ...(await filterFigures(page, withCpu)) };
    Object.assign(out, await liveBatch(page, cdp));
    const worst = Object.values(out.filters).reduce((a, b) => (b.frame > a.frame ? b : a));
    out.worstFilter = worst.frame;
    out.worstFilterCpu = worst.cpu;
    Object.assign(out, await scrollFigures(page, cdp));
    await cdp.send('HeapProfiler.collectGarbage');
    out.heapMB = (await cdp.send('Runtime.getHeapUsage')).usedSize / 1024 / 1024;
    return { ...out, flow: await flowFigures(page, cdp) };
  } finally {
    await browser.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

/** A line's figures over the runs: median, interval, each run's value. */
export function lineOf(line, runs) {
  const xs = runs.map((r) => line.of(r)).filter(Number.isFinite);
  return xs.length ? { median: median(xs), interval: medianInterval(xs), values: xs } : null;
}

/**
 * Run the benchmark `runs` times (a new browser each); prints one line per measure and returns the runs and lines.
 * With `profile`, profiles the first render (or a filter change) instead (panel-profile.mjs) and returns that.
 * @param {{ records?: number, runs?: number, ext?: string, log?: (line: string) => void,
 *   profile?: Omit<import('./panel-profile.mjs').ProfileOptions, 'ext' | 'records' | 'log'> | null }} [options]
 */
export async function benchPanel({ records = 100_000, runs = 7, ext = EXT, log = console.log, profile = null } = {}) {
  if (profile) {
    return { profile: await profilePanel({ ext, records, log, ...profile }) };
  }
  const all = [];
  for (let k = 0; k < runs; k++) {
    all.push(await panelRun({ records, ext }));
  }
  const r0 = all[0];
  log(
    `${r0.total.toLocaleString('en-US')} records loaded (${r0.rows} rows in the DOM); flow view: ${r0.flow.arrows.toLocaleString('en-US')} messages, ${r0.flow.rows} rows in the DOM. ${runs} runs, each in a new browser: median (90% interval) [each run]`,
  );
  const lines = [];
  for (const line of PANEL_LINES) {
    const f = lineOf(line, all);
    if (!f) {
      continue;
    }
    lines.push({ ...line, ...f });
    const ok = line.goal ? `   goal ${goalText(line.goal)}   ${meets(line.goal, f.median) ? 'OK' : 'MISSED'}` : '';
    log(
      `${line.name}: ${f1(f.median)} ${line.unit} (${f1(f.interval[0])}–${f1(f.interval[1])}) [${f.values.map((x) => x.toFixed(0)).join(' ')}]${ok}`,
    );
  }
  log(
    `(shown after each filter change, run 1: ${Object.entries(r0.filters)
      .map(([n, f]) => `${n} ${f.shown.toLocaleString('en-US')}`)
      .join(', ')})`,
  );
  return { runs: all, lines };
}

/** The summary table's rows of a run of `benchPanel` (summary.mjs). */
export function summaryRows(result) {
  return {
    runs: result.runs.length,
    rows: result.lines
      .filter((l) => l.summary)
      .map((l) => row(l.name, { goal: l.goal ?? null, value: l.median, interval: l.interval, unit: l.unit })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 7;
  const value = (k) => (args.includes(k) ? args[args.indexOf(k) + 1] : null);
  const records = Number(args.find((a, i) => /^\d+$/.test(a) && i !== at + 1 && args[i - 1] !== '--filter')) || 100_000;
  const profile = args.includes('--profile')
    ? { runs: at >= 0 ? runs : 1, trace: args.includes('--trace'), filter: value('--filter'), save: value('--save') }
    : null;
  await benchPanel({ records, runs, profile });
}
