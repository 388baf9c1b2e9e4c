// @ts-check
// `npm run bench -- panel --profile`: where the panel's first render at 100,000 records goes. Opens the panel as
// panel.mjs does, generates and clones the records outside the profile, then takes a CDP CPU profile of the load
// (`h.load`) to the frame after the rows are painted, or of one filter change to its next frame (`--filter JSON`,
// after the load and its idle work); prints the functions by self time and by total time (a function once per
// sample), and the main thread's CPU (CDP `ThreadTime`) beside the wall time.
// --trace: a trace instead of a profile: the main thread's CPU by trace event (script, style, layout, paint, GC: each
//   event's thread time less its children's), which holds on a busy machine where a profile's samples do not.
// --save FILE: keep the .cpuprofile (or the trace's events as JSON; -N before the extension per run when --runs N > 1)
//   to open in Chrome DevTools' Performance panel.
import { writeFileSync } from 'node:fs';
import { median } from './stats.mjs';
import { raisePriority } from './priority.mjs';
import { endTrace, TimeByName } from './trace.mjs';

import { launchChromium } from './launcher.mjs';

/**
 * @typedef {object} ProfileOptions
 * @property {string} ext the extension's build directory
 * @property {number} [runs] runs, each in a new browser (default 1)
 * @property {number} [records] records loaded (default 100,000)
 * @property {string | null} [filter] a filter patch (JSON) profiled instead of the load
 * @property {boolean} [trace] a trace instead of a CPU profile
 * @property {string | null} [save] where the profile or trace goes
 * @property {number} [top] functions listed by self time (twice as many by total time)
 * @property {(line: string) => void} [log]
 */

/** @param {ProfileOptions} options */
export async function profilePanel({
  ext,
  runs = 1,
  records = 100_000,
  filter = null,
  trace = false,
  save = null,
  top = 30,
  log = console.log,
}) {
  const times = new TimeByName();
  /** @type {number[]} */
  const walls = [];
  /** @type {number[]} */
  const cpus = [];
  for (let run = 0; run < runs; run++) {
    const one = await profileOnce({ ext, records, filter, trace });
    walls.push(one.wall);
    cpus.push(one.cpu);
    if (save) {
      const ending = trace ? '.json' : '.cpuprofile';
      const file = runs > 1 ? save.replace(new RegExp(`(\\${ending})?$`), `-${run}${ending}`) : save;
      writeFileSync(file, JSON.stringify(one.events ?? one.profile));
    }
    if (one.events) {
      times.addTrace(one.events);
    } else if (one.profile) {
      times.addProfile(one.profile);
    }
  }
  /** @param {number[]} xs */
  const list = (xs) => `${xs.map((x) => x.toFixed(0)).join(' ')} ms (median ${median(xs).toFixed(0)})`;
  log(
    `${filter ? `filter ${filter}` : `load of ${records.toLocaleString('en-US')} records to the painted frame`}, ${runs} run(s): wall ${list(walls)}, main-thread CPU ${list(cpus)}; ${trace ? 'top-level events' : 'JS samples'} ${(times.sampled / 1000 / runs).toFixed(1)} ms a run`,
  );
  const totalTitle = trace ? 'main-thread CPU by trace event, with its nested events' : 'total time';
  log(`\n${times.lines({ runs, top, totalTitle }).join('\n')}`);
  return { walls, cpus, self: times.self, total: times.total };
}

/**
 * One new browser: the panel loaded (and, for a filter, settled), then the load or the filter change profiled.
 * @param {{ ext: string, records: number, filter: string | null, trace: boolean }} o
 */
async function profileOnce({ ext, records, filter, trace }) {
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
      window.__benchRecords = h.synthetic(n).map((r) => structuredClone(r));
    }, records);
    if (filter) {
      await page.evaluate(async () => {
        window.__embedInspectorPanel.load(window.__benchRecords ?? [], 'benchmark');
        window.__benchRecords = null;
        await new Promise((r) => setTimeout(r, 3000)); // idle work after a load (text index, compaction)
      });
    }
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    const threadMs = async () =>
      ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
    const c0 = await threadMs();
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
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
      await frame();
      const t0 = performance.now();
      if (f) {
        h.view.setFilters(JSON.parse(f));
        await frame();
      } else {
        h.load(window.__benchRecords ?? [], 'benchmark');
        await frame();
        await new Promise((r) => setTimeout(r, 0));
      }
      return performance.now() - t0;
    }, filter);
    if (trace) {
      const cpu = (await threadMs()) - c0;
      return { wall, cpu, events: await endTrace(cdp) };
    }
    const { profile } = await cdp.send('Profiler.stop');
    return { wall, cpu: (await threadMs()) - c0, profile };
  } finally {
    await l.close();
  }
}
