// Diagnostic (not part of npm run bench): a profile of Firefox's content processes while the page-overhead bench's
// bursts run (bench/page-overhead-firefox.mjs's pages), taken with Firefox's own profiler from the command line,
// and a summary of self time by function of each content process's main thread.
// Usage: [MODE=full|receive-only|none] [DIR=h2e|e2h] [SIZE=200] [N=5000] [BURSTS=10] [FISSION=0|1]
//          [OUT=/tmp/ff-profile.json] node bench/diag/firefox-profile.mjs
//        [BURST=1] node bench/diag/firefox-profile.mjs --summary /tmp/ff-profile.json [TOP=40]
//   (BURST=1: only the samples taken during a burst, from its first post to its last delivery: the times the run
//    wrote beside the profile, <OUT>.bursts.json; what a process does after the burst, such as the hand-over, is
//    left out)
// What it runs: Firefox with, in its environment,
//   MOZ_PROFILER_STARTUP=1 MOZ_PROFILER_SHUTDOWN=$OUT MOZ_PROFILER_STARTUP_INTERVAL=0.5
//   MOZ_PROFILER_STARTUP_ENTRIES=16777216 MOZ_PROFILER_STARTUP_FEATURES=js,cpu
//   MOZ_PROFILER_STARTUP_FILTERS=GeckoMain
// (the profiler starts with the browser in every process, and writes the raw Gecko profile at shutdown).
import { readFileSync, writeFileSync } from 'node:fs';

const TOP = Number(process.env.TOP ?? 40);

if (process.argv[2] === '--summary') {
  const file = process.argv[3];
  const windows = process.env.BURST ? JSON.parse(readFileSync(`${file}.bursts.json`, 'utf8')) : null;
  summarise(JSON.parse(readFileSync(file, 'utf8')), windows);
} else {
  await run();
}

async function run() {
  const mode = process.env.MODE ?? 'full';
  const dir = process.env.DIR ?? 'h2e';
  const size = Number(process.env.SIZE ?? 200);
  const n = Number(process.env.N ?? 5000);
  const bursts = Number(process.env.BURSTS ?? 10);
  const out = process.env.OUT ?? '/tmp/ff-profile.json';
  const env = {
    MOZ_PROFILER_STARTUP: '1',
    MOZ_PROFILER_SHUTDOWN: out,
    MOZ_PROFILER_STARTUP_INTERVAL: '0.5',
    MOZ_PROFILER_STARTUP_ENTRIES: '16777216',
    MOZ_PROFILER_STARTUP_FEATURES: 'js,cpu',
    MOZ_PROFILER_STARTUP_FILTERS: 'GeckoMain',
  };
  Object.assign(process.env, env);
  const { launchFirefox } = await import('../page-overhead-firefox.mjs');
  const { HOST, EMBED, serve } = await import('../page-overhead.mjs');
  const h = await serve('127.0.0.1');
  const e = await serve('localhost');
  h.set(HOST(e.origin, true));
  e.set(EMBED(h.origin, true));
  const b = await launchFirefox(mode !== 'none', mode === 'none' ? null : { sites: [h.origin, e.origin], mode }, {
    fission: process.env.FISSION !== '0',
  });
  const windows = [];
  try {
    for (let i = 0; i < bursts; i++) {
      const page = await b.browser.newPage();
      await page.goto(`${h.origin}/`, { waitUntil: 'load' });
      await new Promise((r) => setTimeout(r, 300));
      const r = await page.evaluate((d, n, s) => window[d](n, s), dir, n, size);
      console.log(`burst ${i + 1}: ${(((r.last - r.t0) / n) * 1000).toFixed(1)} µs/msg`);
      windows.push([r.t0, r.last]);
      await new Promise((r) => setTimeout(r, 1000)); // the hand-over and the background's work, in the profile too
      await page.close();
    }
  } finally {
    // The profile is written as the browser shuts down, which takes seconds: puppeteer's close() would kill the
    // process first. Ask the browser to close (WebDriver BiDi browser.close) and wait for it to exit.
    const proc = b.browser.process();
    const exited = new Promise((r) => (proc.exitCode !== null ? r() : proc.once('exit', r)));
    await b.browser.connection.send('browser.close', {}).catch(() => {});
    await Promise.race([exited, new Promise((r) => setTimeout(r, 180_000))]);
    await b.close().catch(() => {});
    writeFileSync(`${out}.bursts.json`, JSON.stringify(windows));
    h.server.close();
    e.server.close();
  }
  console.log(`profile: ${out} (node bench/diag/firefox-profile.mjs --summary ${out})`);
}

/**
 * CPU time by function, per content process's main thread (the raw Gecko profile format): each sample weighs its
 * thread CPU delta (the `cpu` feature), and counts for the innermost frame that has a name (a JS function or a
 * profiler label such as `MessageEvent.data` or `EventDispatcher::Dispatch`: native addresses are not symbolicated
 * here); `total` counts each named frame once per sample, for our scripts' frames (moz-extension://, and the MAIN
 * world's `<anonymous code>`), or every frame with ALL=1; PID=<pid> prints one process.
 */
function summarise(profile, windows) {
  const threads = [];
  const walk = (p) => {
    for (const t of p.threads ?? []) {
      threads.push({
        t,
        proc: t.processType ?? p.meta?.processType,
        categories: p.meta?.categories,
        start: p.meta?.startTime ?? 0,
      });
    }
    for (const c of p.processes ?? []) {
      walk(c);
    }
  };
  walk(profile);
  const named = (l) => !/^0x[0-9a-f]+$/.test(l);
  // Ours: the isolated world's scripts (moz-extension:// URLs) and the MAIN world's (Firefox compiles a MAIN-world
  // content script without a URL: `<anonymous code>`).
  const isOurs = (l) => l.includes('moz-extension://') || l.includes('<anonymous code>');
  // PID=<pid>: only that process; ALL=1: the `total` list counts every named frame, not only ours.
  const onlyPid = process.env.PID;
  // A sample's time is ms from its process's profile start (meta.startTime, ms since the epoch); the bursts' are
  // the page's performance.timeOrigin + now().
  const during = (at) => !windows || windows.some(([a, b]) => at >= a && at <= b);
  for (const { t, proc, categories, start } of threads) {
    if (t.name !== 'GeckoMain' || !/tab|web|content/i.test(String(proc)) || (onlyPid && String(t.pid) !== onlyPid)) {
      continue;
    }
    const S = t.samples.schema;
    const ST = t.stackTable.schema;
    const FT = t.frameTable.schema;
    const str = t.stringTable;
    const frames = t.frameTable.data;
    const stacks = t.stackTable.data;
    const self = new Map();
    const total = new Map();
    const byCategory = new Map();
    let cpu = 0;
    let ours = 0;
    const add = (m, k, w) => m.set(k, (m.get(k) ?? 0) + w);
    for (const s of t.samples.data) {
      let st = s[S.stack];
      const w = S.threadCPUDelta !== undefined ? (s[S.threadCPUDelta] ?? 0) : 1;
      if (st === null || st === undefined || !w || !during(start + s[S.time])) {
        continue;
      }
      const leafFrame = frames[stacks[st][ST.frame]];
      const cat = categories?.[leafFrame[FT.category]]?.name ?? String(leafFrame[FT.category]);
      if (cat === 'Idle') {
        continue;
      }
      cpu += w;
      add(byCategory, cat, w);
      let key = null;
      const seen = new Set();
      let mine = false;
      for (; st !== null && st !== undefined; st = stacks[st][ST.prefix]) {
        const l = str[frames[stacks[st][ST.frame]][FT.location]];
        if (!named(l)) {
          continue;
        }
        key ??= l;
        if (!seen.has(l)) {
          seen.add(l);
          add(total, l, w);
        }
        mine ||= isOurs(l);
      }
      if (mine) {
        ours += w;
      }
      add(self, key ?? '(native, unnamed)', w);
    }
    if (!cpu) {
      continue;
    }
    const pct = (v) => `${((100 * v) / cpu).toFixed(1).padStart(5)}%`;
    console.log(
      `\n# ${proc} pid ${t.pid}: ${(cpu / 1000).toFixed(0)} ms of CPU (samples not idle), ${pct(ours)} under a frame of ours (moz-extension:// or the MAIN world's <anonymous code>)`,
    );
    console.log(
      `  by category: ${[...byCategory]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${pct(v).trim()}`)
        .join(', ')}`,
    );
    const top = (m, n) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `  ${pct(v)}  ${k.replace(/moz-extension:\/\/[^/]+\//, '').slice(0, 150)}`)
        .join('\n');
    console.log('## self (innermost named frame)');
    console.log(top(self, TOP));
    console.log(process.env.ALL ? '## total, every frame' : '## total, frames of ours');
    console.log(top(new Map([...total].filter(([k]) => process.env.ALL || isOurs(k))), TOP));
  }
}
