// Diagnostic (not part of npm run bench): where the panel's first render at 100,000 records goes. Opens the panel as
// bench/panel.mjs does, generates and clones the records outside the profile, then takes a CDP CPU profile of the
// load (`h.load`) to the frame after the rows are painted, or of one filter change to its next frame (`--filter`);
// prints the functions by self time and by total time (the outermost frame of ours counted once per sample), and
// the main thread's CPU (CDP `ThreadTime`) beside the wall time. `--save <file>` keeps the .cpuprofile.
// `--trace`: a trace instead of a profile: the main thread's CPU by trace event (script, style, layout, paint, GC:
// each event's thread time less its children's), which holds on a busy machine where a profile's samples (wall
// time) do not.
// Usage: node bench/diag/panel-profile.mjs [--runs N] [--records N] [--filter '{"types":["svc:event:view"]}']
//   [--top N] [--save file] [--trace] [<dist/chrome>]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../../dist/node/chromium.js';
import { commandLine } from './args.mjs';
import { median } from '../stats.mjs';
import { raisePriority } from '../priority.mjs';

const { opt, rest } = commandLine();
const runs = Number(opt('runs', 1));
const records = Number(opt('records', 100_000));
const filter = opt('filter', null);
const top = Number(opt('top', 30));
const save = opt('save', null);
const rest0 = rest();
const trace = rest0.includes('--trace');
const ext = rest0.filter((a) => a !== '--trace')[0] ?? join(new URL('../..', import.meta.url).pathname, 'dist/chrome');

const self = new Map();
const total = new Map();
const walls = [];
const cpus = [];
let sampled = 0;
for (let run = 0; run < runs; run++) {
  const l = await launchChromium({ extensionDir: ext });
  try {
    await (await l.worker()).evaluate(() => 1);
    const page = await l.browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    await page.goto(`chrome-extension://${l.extensionId}/src/panel/index.html?theme=light`);
    await page.waitForFunction(() => !!window.__embedInspectorPanel);
    raisePriority(l.browser);
    await page.evaluate((n) => {
      const h = window.__embedInspectorPanel;
      window.__recs = h.synthetic(n).map((r) => structuredClone(r));
    }, records);
    if (filter) {
      await page.evaluate(async () => {
        window.__embedInspectorPanel.load(window.__recs, 'benchmark');
        window.__recs = null;
        await new Promise((r) => setTimeout(r, 3000)); // idle work after a load (text index, compaction)
      });
    }
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    const threadTime = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value * 1000;
    const c0 = await threadTime();
    const s0 = schedstats(l.browser.process().pid);
    if (trace) {
      await cdp.send('Tracing.start', {
        categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,blink.user_timing',
        transferMode: 'ReturnAsStream',
      });
    } else {
      await cdp.send('Profiler.start');
    }
    const wall = await page.evaluate(async (f) => {
      const h = window.__embedInspectorPanel;
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      await frame();
      const t0 = performance.now();
      if (f) {
        h.view.setFilters(JSON.parse(f));
        await frame();
      } else {
        h.load(window.__recs, 'benchmark');
        await frame();
        await new Promise((r) => setTimeout(r, 0));
      }
      return performance.now() - t0;
    }, filter);
    const s1 = schedstats(l.browser.process().pid);
    for (const [k, b] of Object.entries(s1)) {
      const a = s0[k];
      if (a && b.run - a.run > 20) {
        console.log(
          `  ${k}: on CPU ${(b.run - a.run).toFixed(0)} ms, waiting for a CPU ${(b.wait - a.wait).toFixed(0)} ms, ${b.slices - a.slices} slices`,
        );
      }
    }
    if (trace) {
      cpus.push((await threadTime()) - c0);
      walls.push(wall);
      const events = await traceEvents(cdp);
      if (save) {
        writeFileSync(runs > 1 ? save.replace(/(\.json)?$/, `-${run}.json`) : save, JSON.stringify(events));
      }
      addTrace(events);
      continue;
    }
    const { profile } = await cdp.send('Profiler.stop');
    cpus.push((await threadTime()) - c0);
    walls.push(wall);
    if (save) {
      writeFileSync(runs > 1 ? save.replace(/(\.cpuprofile)?$/, `-${run}.cpuprofile`) : save, JSON.stringify(profile));
    }
    add(profile);
  } finally {
    await l.close();
  }
}

/** Per main thread of the browser's processes (tid = pid): ms on a CPU, ms runnable but waiting for one
 * (/proc/<pid>/schedstat), timeslices. */
function schedstats(root) {
  const out = {};
  const kids = new Map();
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const st = readFileSync(`/proc/${p}/stat`, 'utf8');
      kids.set(p, st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {}
  }
  const tree = new Set([String(root)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, pp] of kids) {
      if (!tree.has(p) && tree.has(pp)) {
        tree.add(p);
        grew = true;
      }
    }
  }
  for (const p of tree) {
    try {
      for (const t of readdirSync(`/proc/${p}/task`)) {
        const [run, wait, slices] = readFileSync(`/proc/${p}/task/${t}/schedstat`, 'utf8')
          .trim()
          .split(' ')
          .map(Number);
        const name = readFileSync(`/proc/${p}/task/${t}/comm`, 'utf8').trim();
        out[`${p}/${t} ${name}`] = { run: run / 1e6, wait: wait / 1e6, slices };
      }
    } catch {}
  }
  return out;
}

/** The events of the trace being recorded, once it is stopped. */
async function traceEvents(cdp) {
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let text = '';
  for (;;) {
    const c = await cdp.send('IO.read', { handle: stream });
    text += c.base64Encoded ? Buffer.from(c.data, 'base64').toString() : c.data;
    if (c.eof) {
      break;
    }
  }
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** Sum the main thread's complete events (the thread with most script time) into `self` by name: thread time less
 * the thread time of the events nested in it. */
function addTrace(events) {
  const byThread = new Map();
  for (const e of events) {
    if (e.ph === 'X' && e.tdur !== undefined) {
      const k = `${e.pid}:${e.tid}`;
      (byThread.get(k) ?? byThread.set(k, []).get(k)).push(e);
    }
  }
  const scriptTime = (es) => es.filter((e) => e.name === 'FunctionCall' || e.name === 'EvaluateScript').length;
  const main = [...byThread.values()].sort((a, b) => scriptTime(b) - scriptTime(a))[0] ?? [];
  main.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const stack = [];
  for (const e of main) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) {
      stack.pop();
    }
    const parent = stack[stack.length - 1];
    const name = e.name === 'FunctionCall' || e.name === 'EvaluateScript' ? `${e.name} (script)` : e.name;
    self.set(name, (self.get(name) ?? 0) + e.tdur);
    sampled += parent ? 0 : e.tdur;
    if (parent) {
      const pn =
        parent.name === 'FunctionCall' || parent.name === 'EvaluateScript' ? `${parent.name} (script)` : parent.name;
      self.set(pn, (self.get(pn) ?? 0) - e.tdur);
    }
    total.set(name, (total.get(name) ?? 0) + (parent?.name === e.name ? 0 : e.tdur));
    stack.push(e);
  }
}

/** Sum a profile's samples into `self` and `total` (each function once per sample, however deep it recurs). */
function add(p) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) {
    for (const c of n.children ?? []) {
      parent.set(c, n.id);
    }
  }
  const key = (n) => {
    const c = n.callFrame;
    const u = c.url.replace(/^.*\//, '');
    return `${c.functionName || '(anonymous)'}${u ? ` ${u}:${c.lineNumber + 1}` : ''}`;
  };
  for (let i = 0; i < p.samples.length; i++) {
    const us = p.timeDeltas[i + 1] ?? 0;
    const leaf = byId.get(p.samples[i]);
    if (leaf.callFrame.functionName === '(idle)') {
      continue;
    }
    sampled += us;
    self.set(key(leaf), (self.get(key(leaf)) ?? 0) + us);
    const seen = new Set();
    for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
      const k = key(byId.get(id));
      if (!seen.has(k)) {
        seen.add(k);
        total.set(k, (total.get(k) ?? 0) + us);
      }
    }
  }
}

const ms = (us) => (us / 1000 / runs).toFixed(1).padStart(7);
console.log(
  `${filter ? `filter ${filter}` : `load of ${records.toLocaleString('en-US')} records to the painted frame`}, ${runs} run(s): wall ${walls.map((x) => x.toFixed(0)).join(' ')} ms (median ${median(walls).toFixed(0)}), main-thread CPU ${cpus.map((x) => x.toFixed(0)).join(' ')} ms (median ${median(cpus).toFixed(0)}); ${trace ? 'top-level events' : 'JS samples'} ${ms(sampled).trim()} ms a run`,
);
console.log('\nself time, ms a run:');
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${ms(us)}  ${k}`);
}
console.log(`\n${trace ? 'main-thread CPU by trace event, with its nested events' : 'total time'}, ms a run:`);
for (const [k, us] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top * 2)) {
  console.log(`${ms(us)}  ${k}`);
}
