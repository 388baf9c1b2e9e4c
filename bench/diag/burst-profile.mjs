// Diagnostic (not part of npm run bench): where the capture's per-message cost grows with the burst's length. CPU
// profiles (CDP Profiler) of the sending page, the receiving page (its main world and the relay's isolated world:
// one V8 isolate, one profile) and the extension's service worker, over one burst of each length given, in full
// mode; prints each process's time per message by function (self time, ours and the top others) side by side.
// Usage: [DIR=h2e|e2h] [SIZE=200] [BURSTS=5000,20000] [REPS=2] [TOP=14] [SAVE=<dir>] node bench/diag/burst-profile.mjs
// SAVE: also write each profile as <dir>/<process>-<burst>-<rep>.cpuprofile (for cpuprofile-top/-lines.mjs), with
// the burst's window on the profile clock in <dir>/<process>-<burst>-<rep>.window.json.
const DIR = process.env.DIR ?? 'h2e';
const SIZE = Number(process.env.SIZE ?? 200);
const BURSTS = (process.env.BURSTS ?? '5000,20000').split(',').map(Number);
const REPS = Number(process.env.REPS ?? 2);
const TOP = Number(process.env.TOP ?? 14);
const SAVE = process.env.SAVE;
const { mkdirSync, writeFileSync } = await import('node:fs');
if (SAVE) {
  mkdirSync(SAVE, { recursive: true });
}
const { HOST, EMBED, serve, launch, settle } = await import('../page-overhead.mjs');
const h = await serve('127.0.0.1');
const e = await serve('localhost');
h.set(HOST(e.origin, true));
e.set(EMBED(h.origin, true));
const b = await launch(true, { sites: [h.origin, e.origin], mode: process.env.MODE ?? 'full' });

/** Self time (ms) by "function url:line" of a CDP profile, in [from, to] (profile clock, µs) or outside it. */
function selfTimes(profile, from = -Infinity, to = Infinity, inside = true) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ms = new Map();
  const dt = profile.timeDeltas;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += dt[i];
    if (t >= from && t <= to) {
      if (!inside) {
        continue;
      }
    } else if (inside) {
      continue;
    }
    const n = byId.get(profile.samples[i]);
    const f = n.callFrame;
    const url = f.url.replace(/^.*\//, '');
    const key = `${f.functionName || '(anon)'} ${url}${url ? `:${f.lineNumber + 1}` : ''}`;
    ms.set(key, (ms.get(key) ?? 0) + (dt[i + 1] ?? 0) / 1000);
  }
  return ms;
}
/** The burst's window on the profile clock: the receiving page's first and last sample in its own script. */
function window_(profile, page) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let t = profile.startTime,
    from = Infinity,
    to = -Infinity;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const u = byId.get(profile.samples[i]).callFrame.url;
    if (u.startsWith(page)) {
      from = Math.min(from, t);
      to = Math.max(to, t);
    }
  }
  return [from, to];
}

const table = {}; // process -> burst -> Map(fn -> µs/msg summed over reps)
const add = (proc, n, times) => {
  const t = ((table[proc] ??= {})[n] ??= new Map());
  for (const [k, v] of times) {
    t.set(k, (t.get(k) ?? 0) + (v * 1000) / n / REPS);
  }
};

for (let rep = 0; rep < REPS; rep++) {
  for (const n of BURSTS) {
    const page = await b.browser.newPage();
    await page.goto(`${h.origin}/`, { waitUntil: 'load' });
    await page.evaluate((d) => window[d](500, 200), DIR);
    const frameTarget = b.browser.targets().find((t) => t.type() === 'other' && t.url().startsWith(e.origin));
    const sessions = {
      host: await page.createCDPSession(),
      embed: frameTarget ? await frameTarget.createCDPSession() : null,
      worker: await (
        await b.browser.waitForTarget((x) => x.type() === 'service_worker' && x.url().startsWith('chrome-extension://'))
      ).createCDPSession(),
    };
    for (const s of Object.values(sessions).filter(Boolean)) {
      await s.send('Profiler.enable');
      await s.send('Profiler.setSamplingInterval', { interval: 200 });
      await s.send('Profiler.start');
    }
    await settle();
    const r = await page.evaluate((d, n, s) => window[d](n, s), DIR, n, SIZE);
    // Until the records are stored (the hand-over and the worker's work after the burst count too).
    await new Promise((res) => setTimeout(res, 1500 + n / 20));
    const profiles = {};
    for (const [name, s] of Object.entries(sessions)) {
      if (s) {
        profiles[name] = (await s.send('Profiler.stop')).profile;
      }
    }
    const [from, to] = DIR === 'h2e' ? window_(profiles.embed, e.origin) : window_(profiles.host, h.origin);
    console.log(`  window ${((to - from) / 1000).toFixed(0)} ms`);
    for (const [name, p] of Object.entries(profiles)) {
      if (SAVE) {
        writeFileSync(`${SAVE}/${name}-${n}-${rep}.cpuprofile`, JSON.stringify(p));
        writeFileSync(`${SAVE}/${name}-${n}-${rep}.window.json`, JSON.stringify({ from, to }));
      }
      add(`${name} during the burst`, n, selfTimes(p, from, to, true));
      add(`${name} after`, n, selfTimes(p, from, to, false));
    }
    console.log(`rep ${rep} burst ${n}: ${(((r.last - r.t0) / n) * 1000).toFixed(1)} µs/msg`);
    await page.close();
  }
}
await b.close();
h.server.close();
e.server.close();

for (const [proc, byBurst] of Object.entries(table)) {
  const keys = new Set();
  for (const m of Object.values(byBurst)) {
    for (const k of m.keys()) {
      keys.add(k);
    }
  }
  const last = byBurst[BURSTS[BURSTS.length - 1]];
  const rows = [...keys].filter((k) => k !== '(idle) ' && k !== '(program) ');
  rows.sort((a, b) => (last.get(b) ?? 0) - (last.get(a) ?? 0));
  const total = (m) => [...m].filter(([k]) => k !== '(idle) ').reduce((s, [, v]) => s + v, 0);
  console.log(`\n${proc} (${DIR}, ${SIZE} B), self µs per message of the burst | ${BURSTS.join(' | ')}`);
  console.log(`  busy (all but idle) | ${BURSTS.map((n) => total(byBurst[n]).toFixed(2)).join(' | ')}`);
  for (const k of rows.slice(0, TOP)) {
    console.log(`  ${k} | ${BURSTS.map((n) => (byBurst[n].get(k) ?? 0).toFixed(2)).join(' | ')}`);
  }
  const ours = (m) =>
    [...m].filter(([k]) => /\.js:\d+$/.test(k) && !/^\(anon\) :|^\w+ :/.test(k)).reduce((s, [, v]) => s + v, 0);
  console.log(`  (extension scripts, all functions) | ${BURSTS.map((n) => ours(byBurst[n]).toFixed(2)).join(' | ')}`);
}
