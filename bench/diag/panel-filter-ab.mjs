// What a chip filter change costs in the panel, builds side by side: 100,000 records loaded (cloned, as the transport
// delivers them), then `verdict invalid`, `show foreign` and `type view` on and off.
//
// Usage: node bench/diag/panel-filter-ab.mjs [--reps N] [--restyle] <dist/chrome> [<dist/chrome> ...]
//   (each build's `dist/chrome`; a build before a change: a worktree with its own `node scripts/build.mjs`)
// Default: the time from `setFilters` to the next frame (as bench/panel.mjs reads it), four changes of each filter
//   per launch, builds alternated per launch, medians (means) of every change.
// --restyle: one traced launch per build instead: style passes and elements restyled (`UpdateLayoutTree`'s
//   `elementCount`, the panel's main thread) over 12 changes (verdict invalid and show foreign on and off, three
//   times, each to its second frame). The counts are the same in every run of a build.
import { launchChromium } from '../../dist/node/chromium.js';
import { median } from '../stats.mjs';

const args = process.argv.slice(2);
const repsAt = args.indexOf('--reps');
const reps = repsAt >= 0 ? Number(args[repsAt + 1]) : 5;
const restyle = args.includes('--restyle');
const builds = args.filter((a, i) => !a.startsWith('--') && i !== repsAt + 1);
if (!builds.length || !(reps > 0)) {
  console.error('usage: node bench/diag/panel-filter-ab.mjs [--reps N] [--restyle] <dist/chrome> [<dist/chrome> ...]');
  process.exit(2);
}

/** A panel page of `ext` with 100,000 records loaded and settled. */
async function loaded(ext) {
  const l = await launchChromium({ extensionDir: ext });
  await (await l.worker()).evaluate(() => 1);
  const page = await l.browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto(`chrome-extension://${l.extensionId}/src/panel/index.html?theme=light`);
  await page.waitForFunction(() => !!window.__embedInspectorPanel);
  await page.evaluate(async () => {
    const h = window.__embedInspectorPanel;
    h.load(
      h.synthetic(100_000).map((r) => structuredClone(r)),
      'benchmark',
    );
    await new Promise((r) => requestAnimationFrame(() => r()));
    await new Promise((r) => setTimeout(r, 2500)); // the text index is built in idle time after a load
  });
  return { l, page };
}

const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;

if (restyle) {
  for (const ext of builds) {
    const { l, page } = await loaded(ext);
    const cdp = await page.createCDPSession();
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
      transferMode: 'ReturnAsStream',
    });
    await page.evaluate(async () => {
      const h = window.__embedInspectorPanel;
      const v = h.view ?? h.store; // (a build before issue 26 filters through its store)
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      for (let k = 0; k < 3; k++) {
        for (const [on, off] of [
          [{ verdicts: ['invalid'] }, { verdicts: [] }],
          [{ showForeign: true }, { showForeign: false }],
        ]) {
          v.setFilters(on);
          await frame();
          await frame();
          v.setFilters(off);
          await frame();
          await frame();
        }
      }
    });
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
    const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
    const threads = new Map();
    for (const e of events) {
      if (e.name === 'UpdateLayoutTree' && e.args?.elementCount !== undefined) {
        const t = threads.get(`${e.pid}:${e.tid}`) ?? { passes: 0, elements: 0, ms: 0 };
        t.passes++;
        t.elements += e.args.elementCount;
        t.ms += (e.dur ?? 0) / 1000;
        threads.set(`${e.pid}:${e.tid}`, t);
      }
    }
    const main = [...threads.values()].sort((a, b) => b.elements - a.elements)[0];
    console.log(
      `${ext}: ${main.passes} style passes, ${main.elements} elements restyled, ${(main.elements / 12).toFixed(0)} a change, ${main.ms.toFixed(1)} ms`,
    );
    await l.close();
  }
} else {
  const res = builds.map(() => ({}));
  for (let r = 0; r < reps; r++) {
    for (const [bi, ext] of builds.entries()) {
      const { l, page } = await loaded(ext);
      const out = await page.evaluate(async () => {
        const h = window.__embedInspectorPanel;
        const v = h.view ?? h.store; // (a build before issue 26 filters through its store)
        const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
        const o = {};
        for (let k = 0; k < 4; k++) {
          for (const [name, on, off] of [
            ['verdict invalid', { verdicts: ['invalid'] }, { verdicts: [] }],
            ['show foreign', { showForeign: true }, { showForeign: false }],
            ['type view', { types: ['svc:event:view'] }, { types: [] }],
          ]) {
            const a = performance.now();
            v.setFilters(on);
            await frame();
            (o[name] ??= []).push(performance.now() - a);
            v.setFilters(off);
            await frame();
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        return o;
      });
      for (const [k, xs] of Object.entries(out)) {
        (res[bi][k] ??= []).push(...xs);
      }
      await l.close();
    }
  }
  console.log(`change to next frame, ms, median (mean) of ${reps * 4}; builds alternated per launch`);
  console.log(`| filter | ${builds.join(' | ')} |`);
  console.log(`|---|${builds.map(() => '---|').join('')}`);
  for (const k of Object.keys(res[0])) {
    console.log(
      `| ${k} | ${builds.map((_, i) => `${median(res[i][k]).toFixed(1)} (${mean(res[i][k]).toFixed(1)})`).join(' | ')} |`,
    );
  }
}
