// @ts-check
// Page load with the capture (issue 47): what a host page with an embed pays to load, the sandbox's host page and its
// dashboard embed (sandbox/server.mjs: two sites, 127.0.0.1 and localhost, so the embed is out of process), in four
// Chromiums alternated in one run: no extension; the extension with the sandbox out of scope (nothing of ours runs in
// the page); capturing both sites receive-only; capturing both in full mode. A new tab per load.
//   to ready / dashboard-loaded: navigation start → the host page's listener receives the embed's `svc:event:ready` /
//     `svc:event:dashboard-loaded` (the host page's own clock: its performance.now(), which starts at the navigation)
//   to load: navigation start → the host page's load event
//   each as the median over the rounds, the median of the rounds' paired ratios to no extension (in brackets the
//     interval that holds 90% of the medians of resampled rounds) and the median of the rounds' added ms
//   CPU per load: CPU time (from /proc, to the nanosecond: each thread's schedstat) of the tab's renderers and of the
//     extension's process, and of every process of the browser, from the navigation until 300 ms after
//     `dashboard-loaded` (the capture's records handed over and stored); added: the median of the rounds' differences
//     to no extension. Wall time on 2 shared cores moves ±10%: the CPU is the steadier measure.
// Goal (issue 47): full mode ≤ +5 ms or ≤ 1.03× to `ready`; receive-only and capture off reported beside it.
// Our scripts' thread ms per frame beyond the floor's (below): 7 traced rounds of those two browsers after the timed
//   ones, paired per round; proposed goal ≤ +5 ms a frame (steadier than the wall time, which the floor alone spends).
// --cpu-trace: a Chromium trace of every load (all processes), and per browser and frame (host, embed) the thread
//   time of each of our scripts at document_start (compile and run), of their calls later (listeners, timers), of ours
//   in all and of the frame's main thread in all: medians over the rounds (bench/trace.mjs). Tracing slows the loads:
//   the times of such a run are not the bench's figures (npm run bench does not record them).
// The floor: a fifth browser with a bare capture (bench/floor-extension.mjs: in both worlds of every frame at
//   document_start, a listener, the posts seen through postMessage and the windows that contentWindow and parent hand
//   out, and a port), the least any capture makes a load pay; full mode's
//   added ms beyond it, round by round, is what our design adds. `--browsers …,empty`: a sixth, the same two scripts
//   empty (what injecting them costs before any code runs); `…,trust`: the floor with the platform's part of what
//   keeps the page out (the worlds' private channel, every window path hooked, toString masked, a hello).
// --same-tab: one tab per browser, navigated again for each load (a reload: the host's renderer and V8's in-memory
//   compile cache are kept; a new tab compiles every script cold). Our scripts then hit that cache; but their
//   wall times compare only where each browser's processes live alike (BENCHMARKS.md).
// Usage: node bench/page-load.mjs [--rounds 21] [--each] [--cpu-trace] [--cpu-profile (EI_PROFILE_STACKS=prefix: the sums as JSON)] [--browsers without,off,receive-only,full,floor] [--same-tab]
//   (EI_EXTENSION_DIR: another build; EI_EXTENSION_DIR_B=<build>: a fifth browser, that build in EI_B_MODE (default
//    full; off: the sandbox out of scope; bare: no capture set, for a build whose worker does nothing), alternated with the rest, its rows beside the others; npm run bench runs it, after a build)
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchWithFloor } from './floor-extension.mjs';
import { startSandbox } from '../sandbox/server.mjs';
import { cpuParts, launch, settle, treeCpu } from './page-overhead.mjs';
import { median, medianInterval } from './stats.mjs';
import { goal, row } from './summary.mjs';
import { profileByFrame, scriptCostByFrame, traceBrowser } from './trace.mjs';

const root = new URL('..', import.meta.url).pathname;
const EXT = resolve(process.env.EI_EXTENSION_DIR ?? join(root, 'dist/chrome'));
const EXT_B = process.env.EI_EXTENSION_DIR_B && resolve(process.env.EI_EXTENSION_DIR_B);
const B_MODE = process.env.EI_B_MODE ?? 'full';

/** The goal of issue 47 for full mode, to `ready`: within +5 ms or 1.03× of no extension. */
export const LOAD_GOAL = { addedMs: 5, ratio: 1.03 };
/** The proposed goal (#47) of our scripts' thread ms per frame beyond the floor's: steadier than a load's wall time. */
const THREAD_GOAL_MS = 5;
/** The browsers a run may be limited to (`--browsers`; no extension is always there). */
export const LOAD_BROWSERS = ['without', 'off', 'receive-only', 'full', 'floor', 'empty', 'trust'];
/** After `dashboard-loaded`, the CPU window stays open this long: the capture's records handed over and stored. */
const TAIL_MS = 300;
const MARKS = ['ready', 'dashboard', 'load'];
const MARK_NAMES = { ready: 'ready', dashboard: 'dashboard-loaded', load: 'load event' };

// In the host document only (the top frame), before any of its scripts: when the page's listeners get the embed's
// ready and dashboard-loaded (the first of each), on the page's clock. The same script in every browser.
const RECORDER = `(() => {
  if (window !== window.top) return;
  const t = {};
  Object.defineProperty(window, '__loadTimes', { value: t });
  addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.source !== 'svc-embed' || typeof d.type !== 'string') return;
    const k = d.type === 'svc:event:ready' ? 'ready' : d.type === 'svc:event:dashboard-loaded' ? 'dashboard' : null;
    if (k && !(k in t)) t[k] = performance.now();
  });
})()`;

const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const sign = (x, d = 1) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(d)}` : '–');
const span = ([lo, hi], d = 2) => (Number.isFinite(lo) ? `${lo.toFixed(d)}–${hi.toFixed(d)}` : '–');

/**
 * One load of the sandbox's host page in a new tab of browser `b`: its marks (ms) and its CPU (ms); with `origins`,
 * a trace of the load too, and its scripts' thread ms by frame (`frames`).
 * @param {{ browser: import('puppeteer-core').Browser, tab?: import('puppeteer-core').Page }} b
 * @param {string} url
 * @param {{ host: string, embed: string } | null} [origins]
 * @returns {Promise<Record<string, any>>}
 */
async function loadOnce(b, url, origins = null, timeoutMs = 20_000, profile = false) {
  if (origins) {
    let out;
    const events = await traceBrowser(
      b.browser,
      async () => {
        out = await loadOnce(b, url, null, timeoutMs);
      },
      profile,
    );
    return {
      ...out,
      frames: scriptCostByFrame(events, origins),
      ...(profile ? { profile: profileByFrame(events, origins) } : {}),
    };
  }
  // --same-tab: the browser's one tab, navigated again (its renderer and V8's in-memory compile cache kept, as when
  // a host developer reloads); else a new tab per load (a new renderer: every script compiled cold).
  const page = b.tab ?? (await b.browser.newPage());
  try {
    if (!b.tab) {
      await page.evaluateOnNewDocument(RECORDER);
    }
    await settle();
    const pid = b.browser.process()?.pid;
    const before = treeCpu(pid);
    await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    await page.waitForFunction(() => window.__loadTimes && 'dashboard' in window.__loadTimes, {
      timeout: timeoutMs,
      polling: 10,
    });
    const marks = await page.evaluate(() => ({
      ...window.__loadTimes,
      load:
        /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType('navigation')[0])
          ?.loadEventStart ?? Number.NaN,
    }));
    // The CPU window closes TAIL_MS after dashboard-loaded (on the page's clock).
    const wait = (marks.dashboard ?? 0) + TAIL_MS - (await page.evaluate(() => performance.now()));
    await new Promise((r) => setTimeout(r, Math.max(0, wait)));
    return { ...marks, cpu: cpuParts(before, treeCpu(pid)) };
  } finally {
    if (!b.tab) {
      await page.close().catch(() => {});
    }
  }
}

/** The browsers of the run by kind, each launched with its capture scope (`only`: those kinds and no extension). */
async function launchAll(sb, only) {
  const sites = [sb.hostOrigin, sb.tenantOrigin];
  const want = (k) => !only || only.includes(k) || k === 'without';
  const browsers = {};
  /** @type {(k: string, ...args: Parameters<typeof launch>) => Promise<void>} */
  const add = async (k, ...args) => {
    if (want(k)) {
      browsers[k] = await launch(...args);
    }
  };
  await add('without', false);
  await add('off', true, { sites: [], mode: 'full' }, EXT);
  await add('receive-only', true, { sites, mode: 'receive-only' }, EXT);
  await add('full', true, { sites, mode: 'full' }, EXT);
  for (const k of ['floor', 'empty', 'trust']) {
    // The floor by default; the empty scripts and the trust floor only when asked for (--browsers …,empty,trust).
    if (k === 'floor' ? want(k) : only?.includes(k)) {
      browsers[k] = await launchWithFloor((dir) => launch(true, null, dir), {
        empty: k === 'empty',
        trust: k === 'trust',
      });
    }
  }
  if (EXT_B) {
    const setting = B_MODE === 'bare' ? null : B_MODE === 'off' ? { sites: [], mode: 'full' } : { sites, mode: B_MODE };
    browsers[`${B_MODE} B`] = await launch(true, setting, EXT_B);
  }
  return browsers;
}

/**
 * The rounds: each browser loads the host page once per round, in a turning order (after `warmup` loads each, not
 * kept); each round's figures by browser go to `runs`.
 */
async function loadRounds({ browsers, kinds, sb, rounds, warmup, each, traced, cpuProfile, runs, log }) {
  for (let i = -warmup; i < rounds; i++) {
    const order = kinds.map((_, j) => kinds[(j + Math.max(0, i)) % kinds.length]);
    const got = {};
    for (const k of order) {
      got[k] = await loadOnce(
        browsers[k],
        sb.hostUrl,
        traced ? { host: sb.hostOrigin, embed: sb.tenantOrigin } : null,
        20_000,
        cpuProfile,
      );
    }
    if (i < 0) {
      continue;
    }
    runs.push(got);
    if (each) {
      log(
        `  round ${i + 1}: ${kinds.map((k) => `${k} ${MARKS.map((m) => fmt(got[k][m], 0)).join('/')} ms, cpu ${fmt(got[k].cpu.all, 0)}`).join('; ')}`,
      );
    }
  }
}

/** Per browser: each mark's median ms, ratio and added ms to no extension (with intervals); the CPU per load. */
function figuresOf(runs, kinds) {
  const figures = {};
  for (const k of kinds) {
    const f = {};
    for (const m of MARKS) {
      const ratios = runs.map((r) => r[k][m] / r.without[m]);
      const added = runs.map((r) => r[k][m] - r.without[m]);
      f[m] = {
        ms: median(runs.map((r) => r[k][m])),
        ratio: median(ratios),
        interval: medianInterval(ratios),
        added: median(added),
        addedInterval: medianInterval(added),
      };
    }
    f.cpu = {};
    for (const part of ['renderers', 'extension', 'all']) {
      const added = runs.map((r) => r[k].cpu[part] - r.without.cpu[part]);
      f.cpu[part] = {
        ms: median(runs.map((r) => r[k].cpu[part])),
        added: median(added),
        addedInterval: medianInterval(added),
      };
    }
    figures[k] = f;
  }
  if (figures.floor && figures.full) {
    // What full mode adds beyond the floor's capture, round by round (both loaded in the same round).
    const beyond = runs.map((r) => r.full.ready - r.floor.ready);
    figures.full.beyondFloor = { added: median(beyond), addedInterval: medianInterval(beyond) };
  }
  return figures;
}

/** The tables of the figures: the marks, then the CPU per load; the goal line of full mode to ready. */
function logFigures(figures, kinds, rounds, ms, log) {
  log(`\n(${Math.round(ms / 1000)} s) ${rounds} rounds; medians, ratio and added ms to no extension`);
  log(`| browser | ${MARKS.map((m) => `to ${MARK_NAMES[m]} ms | ratio (90%) | added ms (90%)`).join(' | ')} |`);
  log(`|---|${MARKS.map(() => '---|---|---|').join('')}`);
  for (const k of kinds) {
    const cells = MARKS.map((m) => {
      const x = figures[k][m];
      return k === 'without'
        ? `${fmt(x.ms)} | | `
        : `${fmt(x.ms)} | ${fmt(x.ratio, 3)}× (${span(x.interval, 3)}) | ${sign(x.added)} (${span(x.addedInterval, 1)})`;
    });
    log(`| ${k} | ${cells.join(' | ')} |`);
  }
  log('\nCPU per load (ms, navigation → dashboard-loaded + 300 ms; added: median of the rounds’ differences)');
  log('| browser | tab renderers | added (90%) | extension process | added (90%) | whole browser | added (90%) |');
  log('|---|---|---|---|---|---|---|');
  for (const k of kinds) {
    const c = figures[k].cpu;
    const cell = (p) =>
      k === 'without' ? `${fmt(c[p].ms)} | ` : `${fmt(c[p].ms)} | ${sign(c[p].added)} (${span(c[p].addedInterval, 1)})`;
    log(`| ${k} | ${cell('renderers')} | ${cell('extension')} | ${cell('all')} |`);
  }
  const full = figures.full?.ready;
  if (full) {
    const met = full.added <= LOAD_GOAL.addedMs || full.ratio <= LOAD_GOAL.ratio;
    log(
      `\nGoal, full mode to ready ≤ +${LOAD_GOAL.addedMs} ms or ≤ ${LOAD_GOAL.ratio}×: ${sign(full.added)} ms, ${fmt(full.ratio, 3)}× — ${met ? 'met' : 'missed'}` +
        ['receive-only', 'off', 'floor']
          .filter((k) => figures[k])
          .map((k) => `; ${k} ${sign(figures[k].ready.added)} ms, ${fmt(figures[k].ready.ratio, 3)}×`)
          .join(''),
    );
  }
  const beyond = figures.full?.beyondFloor;
  if (beyond) {
    log(
      `Full mode beyond the floor (a bare capture, bench/floor-extension.mjs), to ready: ${sign(beyond.added)} ms (${span(beyond.addedInterval, 1)})`,
    );
  }
}

/**
 * Run the benchmark; prints its tables and returns the figures by browser.
 * `traceRounds`: traced rounds of full mode and the floor after the timed ones (0: none), for the thread ms per frame.
 * @param {{ rounds?: number, warmup?: number, each?: boolean, only?: string[] | null, cpuTrace?: boolean, cpuProfile?: boolean,
 *   traceRounds?: number, sameTab?: boolean, log?: (line: string) => void }} [options]
 */
export async function benchPageLoad({
  rounds = 21,
  warmup = 2,
  each = false,
  only = null,
  cpuTrace = false,
  cpuProfile = false,
  traceRounds = 7,
  sameTab = false,
  log = console.log,
} = {}) {
  const traced = cpuTrace || cpuProfile;
  if (!existsSync(join(EXT, 'manifest.json'))) {
    throw new Error('dist/chrome missing: run npm run build');
  }
  const sb = await startSandbox();
  const browsers = await launchAll(sb, only);
  if (sameTab) {
    for (const b of Object.values(browsers)) {
      b.tab = await b.browser.newPage();
      await b.tab.evaluateOnNewDocument(RECORDER);
    }
  }
  const kinds = Object.keys(browsers);
  const runs = [];
  const tracedRuns = [];
  const t0 = Date.now();
  try {
    log(
      `the sandbox's host page and dashboard embed (two sites), ${sameTab ? 'one tab per browser, navigated again for each load' : 'a new tab per load'}; ${kinds.length} browsers alternated per round (order turning); ${rounds} rounds after ${warmup} warm-up loads each`,
    );
    await loadRounds({ browsers, kinds, sb, rounds, warmup, each, traced, cpuProfile, runs, log });
    if (!traced && traceRounds > 0 && browsers.full && browsers.floor) {
      // The steadier measure (BENCHMARKS.md): our scripts' thread time per frame against the floor's, from traced
      // loads of those two browsers only, after the timed rounds (a trace slows what it watches).
      const pair = { full: browsers.full, floor: browsers.floor };
      await loadRounds({
        browsers: pair,
        kinds: Object.keys(pair),
        sb,
        rounds: traceRounds,
        warmup: 0,
        each: false,
        traced: true,
        cpuProfile: false,
        runs: tracedRuns,
        log,
      });
    }
  } finally {
    for (const b of Object.values(browsers)) {
      await b.close();
    }
    await sb.close();
  }
  const figures = figuresOf(runs, kinds);
  logFigures(figures, kinds, runs.length, Date.now() - t0, log);
  if (traced) {
    logScriptCost(runs, kinds, log);
  }
  const threadRuns = traced ? runs : tracedRuns;
  if (threadRuns.length && figures.full && figures.floor) {
    figures.full.threadBeyondFloor = threadBeyondFloor(threadRuns);
    logThreadBeyondFloor(figures.full.threadBeyondFloor, threadRuns.length, traced, log);
  }
  if (traced && figures.full && figures.floor && figures.trust) {
    // What keeping the page out costs the platform (the trust floor beyond the bare one), and what ours adds to it.
    for (const [kind, floor, what] of [
      ['trust', 'floor', "The trust floor's scripts beyond the floor's"],
      ['full', 'trust', "Our scripts beyond the trust floor's"],
    ]) {
      const x = Object.entries(threadBeyondFloor(runs, kind, floor));
      log(
        `${what}, thread ms per frame: ${x.map(([f, b]) => `${f} ${sign(b.added, 2)} ms (${span(b.addedInterval, 1)})`).join(', ')}`,
      );
    }
  }
  if (cpuProfile) {
    logProfile(runs, kinds, log);
  }
  return figures;
}

/**
 * The summary table's rows of a run of `benchPageLoad` (summary.mjs): full mode to `ready` against the goal (added
 * ms and ratio: the goal is met by either), to `dashboard-loaded` and the load event; receive-only and capture off to
 * `ready`; the CPU the extension's process adds to a load.
 */
export function summaryRows(figures, options = {}) {
  const rows = [];
  const full = figures.full;
  if (full) {
    rows.push(
      row('full: navigation → the host gets ready, added', {
        goal: goal('≤', LOAD_GOAL.addedMs, 'ms', { added: true, issue: 47 }),
        value: full.ready.added,
        interval: full.ready.addedInterval,
        unit: 'ms',
      }),
      row('full: navigation → ready ÷ no extension', {
        goal: goal('≤', LOAD_GOAL.ratio, '×', { issue: 47 }),
        value: full.ready.ratio,
        interval: full.ready.interval,
        unit: '×',
        digits: 3,
      }),
      row('full: navigation → dashboard-loaded ÷ no extension', {
        value: full.dashboard.ratio,
        interval: full.dashboard.interval,
        unit: '×',
        digits: 3,
      }),
      row('full: navigation → load event ÷ no extension', {
        value: full.load.ratio,
        interval: full.load.interval,
        unit: '×',
        digits: 3,
      }),
    );
  }
  for (const [k, name] of [
    ['receive-only', 'receive-only'],
    ['off', 'capture off'],
  ]) {
    if (figures[k]) {
      rows.push(
        row(`${name}: navigation → ready ÷ no extension`, {
          value: figures[k].ready.ratio,
          interval: figures[k].ready.interval,
          unit: '×',
          digits: 3,
        }),
      );
    }
  }
  if (figures.floor) {
    rows.push(
      row('a bare capture (the floor): navigation → ready, added', {
        value: figures.floor.ready.added,
        interval: figures.floor.ready.addedInterval,
        unit: 'ms',
      }),
    );
  }
  if (full?.beyondFloor) {
    rows.push(
      row('full: navigation → ready, added beyond the floor', {
        value: full.beyondFloor.added,
        interval: full.beyondFloor.addedInterval,
        unit: 'ms',
      }),
    );
  }
  for (const [f, x] of Object.entries(full?.threadBeyondFloor ?? {})) {
    rows.push(
      row(`full: our scripts’ thread ms, ${f} frame, beyond the floor’s (proposed)`, {
        goal: goal('≤', THREAD_GOAL_MS, 'ms', { added: true, issue: 47 }),
        value: x.added,
        interval: x.addedInterval,
        unit: 'ms',
      }),
    );
  }
  if (full) {
    rows.push(
      row('full: the extension process’s CPU per load', {
        value: full.cpu.extension.added,
        interval: full.cpu.extension.addedInterval,
        unit: 'ms',
      }),
    );
  }
  return { runs: `${options.rounds ?? 21} rounds`, rows };
}

/** `--cpu-trace`: per browser, the median over the rounds of each frame's thread ms by script (0 where a round had none). */
function logScriptCost(runs, kinds, log) {
  log('\nThread ms per load by frame and script, from a trace of each load (medians over the rounds; traced loads)');
  for (const k of kinds) {
    const keys = [...new Set(runs.flatMap((r) => Object.keys(r[k].frames)))].sort();
    log(`${k}:`);
    for (const key of keys) {
      log(`  ${fmt(median(runs.map((r) => r[k].frames[key] ?? 0)), 2).padStart(8)}  ${key}`);
    }
  }
}

/**
 * Per frame (host, embed): what `kind`'s scripts take of its main thread beyond what `floor`'s take (by default ours
 * beyond the floor's), paired per round (median and interval of the rounds' differences) — steadier than the wall
 * time to ready (BENCHMARKS.md).
 */
function threadBeyondFloor(runs, kind = 'full', floor = 'floor') {
  const out = {};
  for (const f of ['host', 'embed']) {
    const ms = (r, k) => r[k].frames[`${f} ours, all`] ?? 0;
    const beyond = runs.map((r) => ms(r, kind) - ms(r, floor));
    out[f] = { added: median(beyond), addedInterval: medianInterval(beyond) };
  }
  return out;
}

function logThreadBeyondFloor(beyond, rounds, traced, log) {
  const frames = Object.entries(beyond).map(([f, x]) => `${f} ${sign(x.added, 2)} ms (${span(x.addedInterval, 1)})`);
  log(
    `Our scripts beyond the floor's, thread ms per frame, full mode (proposed goal ≤ +${THREAD_GOAL_MS}; ${rounds} traced rounds${traced ? '' : ' after the timed ones'}): ${frames.join(', ')}`,
  );
}

/** `--cpu-profile`: per browser and frame, the sampled ms of our code a load (mean over the rounds), top functions. */
function logProfile(runs, kinds, log, top = 25) {
  log(
    '\nSampled ms of our code per load (V8 profile in the trace, ~100 µs samples; mean over the rounds; traced loads)',
  );
  /** @param {Record<string, number>} m */
  const rows = (m, n) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `    ${fmt(us / 1000 / runs.length, 2).padStart(7)}  ${k}`);
  for (const k of kinds) {
    const frames = [...new Set(runs.flatMap((r) => Object.keys(r[k].profile ?? {})))].sort();
    for (const f of frames) {
      /** @type {Record<string, Record<string, number>>} */
      const sum = { phase: {}, file: {}, self: {}, total: {}, stacks: {} };
      for (const r of runs) {
        for (const [part, m] of Object.entries(r[k].profile?.[f] ?? {})) {
          for (const [name, us] of Object.entries(m)) {
            sum[part][name] = (sum[part][name] ?? 0) + us;
          }
        }
      }
      log(`${k}, ${f} frame: by phase`);
      log(rows(sum.phase, 5).join('\n'));
      log('  by file (innermost of ours on the stack)');
      log(rows(sum.file, 10).join('\n'));
      log('  self (leaf; a builtin named with our caller)');
      log(rows(sum.self, top).join('\n'));
      log('  total (our functions)');
      log(rows(sum.total, top).join('\n'));
      if (process.env.EI_PROFILE_STACKS) {
        writeFileSync(`${process.env.EI_PROFILE_STACKS}-${k}-${f}.json`, JSON.stringify(sum));
      }
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const value = (k) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? String(process.argv[i + 1] ?? '') : undefined;
  };
  const rounds = Number(value('--rounds') ?? 21);
  const only = value('--browsers')?.split(',') ?? null;
  const bad = !(Number.isInteger(rounds) && rounds > 0)
    ? '--rounds takes a number of rounds'
    : only?.some((k) => !LOAD_BROWSERS.includes(k))
      ? '--browsers takes without, off, receive-only, full, floor, empty and/or trust, comma-separated'
      : null;
  if (bad) {
    console.error(`page-load: ${bad}`);
    process.exit(2);
  }
  await benchPageLoad({
    rounds,
    only,
    each: process.argv.includes('--each'),
    cpuTrace: process.argv.includes('--cpu-trace'),
    cpuProfile: process.argv.includes('--cpu-profile'),
    sameTab: process.argv.includes('--same-tab'),
  });
}
