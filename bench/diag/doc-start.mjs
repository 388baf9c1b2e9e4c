// Diagnostic (not part of npm run bench): what the capture's document_start scripts cost each frame of a page load,
// from a Chromium trace (all processes), as thread CPU time (the trace's `tdur`: steady on a busy machine).
// For each build given (dist/chrome-like, or 'none'), its own browser capturing the sandbox's two sites in MODE
// (full, receive-only), alternated over REPS loads of the sandbox's host page (its dashboard embed). Per load and
// frame: the compile and run of each of our scripts (v8.compile / EvaluateScript … with a chrome-extension: URL), the
// work of our listeners and tasks later (FunctionCall events in our scripts), and the extension process's
// (service worker's) main-thread time; medians over the loads.
// Usage: [MODE=full] [REPS=9] node bench/diag/doc-start.mjs dist/chrome /tmp/variant …
import { startSandbox } from '../../sandbox/server.mjs';
import { median } from '../stats.mjs';

const MODE = process.env.MODE ?? 'full';
const REPS = Number(process.env.REPS ?? 9);
const builds = process.argv.slice(2);
if (!builds.length) {
  console.error('usage: [MODE=full|receive-only] [REPS=9] node bench/diag/doc-start.mjs none|<build dir> ...');
  process.exit(2);
}
const CATEGORIES = ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline', '__metadata'];

/** Record a trace of the whole browser while `fn` runs; its events. */
async function traced(browser, fn) {
  const s = await browser.target().createCDPSession();
  const done = new Promise((r) => s.once('Tracing.tracingComplete', r));
  await s.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES }, transferMode: 'ReturnAsStream' });
  try {
    await fn();
  } finally {
    await s.send('Tracing.end');
  }
  const { stream } = await done;
  let text = '';
  for (;;) {
    const r = await s.send('IO.read', { handle: stream, size: 1 << 20 });
    text += r.base64Encoded ? Buffer.from(r.data, 'base64').toString() : r.data;
    if (r.eof) {
      break;
    }
  }
  await s.send('IO.close', { handle: stream });
  await s.detach();
  return JSON.parse(text).traceEvents ?? JSON.parse(text);
}

const urlOf = (e) => e.args?.data?.url ?? e.args?.data?.scriptName ?? e.args?.fileName ?? e.args?.data?.fileName ?? '';
const ours = (u) => typeof u === 'string' && u.startsWith('chrome-extension://');

/** The frame a renderer process shows, from the page URLs its events name: host (127.0.0.1) or embed (localhost). */
function frameOf(events, hostOrigin, tenantOrigin) {
  const of = new Map();
  for (const e of events) {
    const u = e.args?.data?.url ?? e.args?.beginData?.url;
    if (typeof u === 'string' && !of.has(e.pid)) {
      if (u.startsWith(hostOrigin)) {
        of.set(e.pid, 'host');
      } else if (u.startsWith(tenantOrigin)) {
        of.set(e.pid, 'embed');
      }
    }
  }
  return of;
}

/**
 * Per frame (host, embed): thread ms of our scripts' evaluation at document_start (compile and run) and of their
 * calls later (listeners, timers), and of the frame's main thread in all; and the extension process's main thread.
 */
function summarize(events, hostOrigin, tenantOrigin) {
  const frame = frameOf(events, hostOrigin, tenantOrigin);
  const threadName = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') {
      threadName.set(`${e.pid}:${e.tid}`, e.args.name);
    }
  }
  const out = {};
  const add = (key, ms) => {
    out[key] = (out[key] ?? 0) + ms;
  };
  const lastEnd = new Map(); // thread → end of the last of our events counted in "ours, all" (nested ones are in it)
  const sorted = events.filter((e) => e.ph === 'X' && typeof e.tdur === 'number').sort((a, b) => a.ts - b.ts);
  for (const e of sorted) {
    const ms = e.tdur / 1000;
    const f = frame.get(e.pid);
    const thread = `${e.pid}:${e.tid}`;
    const outer = () => {
      if (e.ts < (lastEnd.get(thread) ?? 0)) {
        return false;
      }
      lastEnd.set(thread, e.ts + e.dur);
      return true;
    };
    const u = urlOf(e);
    if (f && ours(u)) {
      const file = u.slice(u.lastIndexOf('/') + 1);
      if (e.name === 'EvaluateScript') {
        add(`${f} ${file} at document_start`, ms);
        if (outer()) {
          add(`${f} ours, all`, ms);
        }
      } else if (e.name === 'v8.compile') {
        add(`${f} ${file} at document_start: compile`, ms);
      } else if (e.name === 'FunctionCall') {
        add(`${f} ${file} later calls`, ms);
        if (outer()) {
          add(`${f} ours, all`, ms);
        }
      }
    } else if (threadName.get(thread) === 'CrRendererMain' && e.name === 'RunTask') {
      add(`${f ?? 'other renderer'} main thread, all`, ms);
    }
  }
  return out;
}

const sb = await startSandbox();
const sites = [sb.hostOrigin, sb.tenantOrigin];
const open = [];
try {
  for (const v of builds) {
    if (v !== 'none') {
      process.env.EI_EXTENSION_DIR = v;
    }
    const m = await import(`../page-overhead.mjs?${encodeURIComponent(v)}`);
    open.push({ v, m, b: await m.launch(v !== 'none', v !== 'none' ? { sites, mode: MODE } : null) });
  }
  const rows = new Map(); // build → key → ms[]
  for (let i = -1; i < REPS; i++) {
    for (const { v, m, b } of open) {
      const page = await b.browser.newPage();
      await m.settle();
      const events = await traced(b.browser, async () => {
        await page.goto(sb.hostUrl, { waitUntil: 'load' });
        await page.waitForFunction(() => document.querySelector('iframe'), { timeout: 20_000 });
        await new Promise((r) => setTimeout(r, 1500));
      });
      await page.close();
      if (i < 0) {
        continue;
      }
      const s = summarize(events, sb.hostOrigin, sb.tenantOrigin);
      const r = rows.get(v) ?? new Map();
      rows.set(v, r);
      for (const [k, ms] of Object.entries(s)) {
        r.set(k, [...(r.get(k) ?? []), ms]);
      }
    }
  }
  for (const [v, r] of rows) {
    console.log(`\n${v} (${MODE}), median thread ms over ${REPS} loads:`);
    for (const [k, xs] of [...r].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      console.log(`  ${median(xs).toFixed(2).padStart(8)}  ${k}  (${xs.length} loads)`);
    }
  }
} finally {
  for (const { b } of open) {
    await b.close();
  }
  await sb.close();
}
