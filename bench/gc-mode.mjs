// Which kind of major GC the panel's page gets (BENCHMARKS.md, panel, fourth and fifth rounds): launches Chromium
// with the built extension N times; each time it opens the panel, allocates 2.5 million small objects in it, and
// counts the major GCs in a trace by kind. `GCFinalizeMCReduceMemory` is the memory-reducing kind, which compacts
// the heap; `GCFinalizeMC` the ordinary one. Where the panel is opened:
//   early     the panel page in a tab, as soon as the service worker's target appears (the worker's process is
//             still starting)
//   settled   the panel page in a tab, once the service worker answers (what bench/panel.mjs does)
//   devtools  the real DevTools panel of a tab (src/node/devtools-panel.ts, as in the e2e smoke test)
//   blank     about:blank in a tab, as soon as the worker's target appears
// Run: `node bench/gc-mode.mjs [launches] [early|settled|devtools|blank]` (after npm run build).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const ROOT = new URL('..', import.meta.url).pathname;
const EXT = process.env.EI_EXTENSION_DIR ?? join(ROOT, 'dist/chrome');
const { chromiumPath, CHROMIUM_FLAGS } = await import('../dist/node/chromium.js');
const { openRealDevtoolsPanel } = await import('../dist/node/devtools-panel.js');

const MODES = ['early', 'settled', 'devtools', 'blank'];
const launches = Number(process.argv[2] ?? 4);
const mode = process.argv[3] ?? 'early';
if (!Number.isInteger(launches) || launches < 1 || !MODES.includes(mode)) {
  console.error(`usage: node bench/gc-mode.mjs [launches ≥ 1] [${MODES.join('|')}]`);
  process.exit(2);
}
if (!existsSync(join(EXT, 'manifest.json'))) {
  console.error(`${EXT} has no build: run npm run build first`);
  process.exit(2);
}

for (let n = 0; n < launches; n++) {
  const dir = mkdtempSync(join(tmpdir(), 'ei-gc-mode-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    userDataDir: dir,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [
      ...CHROMIUM_FLAGS,
      `--disable-extensions-except=${EXT}`,
      `--load-extension=${EXT}`,
      ...(mode === 'devtools' ? ['--auto-open-devtools-for-tabs'] : []),
    ],
  });
  try {
    const sw = await browser.waitForTarget(
      (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'),
      { timeout: 15_000 },
    );
    if (mode === 'settled') {
      await (await sw.worker()).evaluate(() => 1);
    }
    let page, frame;
    if (mode === 'devtools') {
      ({ page, frame } = await openRealDevtoolsPanel(async () => {
        const p = await browser.newPage();
        await p.goto('data:text/html,<title>inspected</title>inspected page');
        return p;
      }));
      if (!frame) {
        throw new Error('the Embed panel did not open in DevTools');
      }
    } else {
      page = await browser.newPage();
      await page.goto(
        mode === 'blank' ? 'about:blank' : `chrome-extension://${new URL(sw.url()).host}/src/panel/index.html`,
      );
      frame = page.mainFrame();
    }
    const path = join(dir, 'trace.json');
    await page.tracing.start({ path, categories: ['v8'] });
    await frame.evaluate(async () => {
      const keep = [];
      for (let i = 0; i < 2_500_000; i++) {
        keep.push({ a: i, b: `x${i}`, c: [i] });
      }
      await new Promise((r) => setTimeout(r, 500));
      return keep.length;
    });
    await page.tracing.stop();
    const counts = {};
    for (const e of JSON.parse(readFileSync(path, 'utf8')).traceEvents) {
      if (e.name === 'V8.GCFinalizeMC' || e.name === 'V8.GCFinalizeMCReduceMemory') {
        counts[e.name] = (counts[e.name] ?? 0) + 1;
      }
    }
    console.log(
      `launch ${n + 1}, ${mode}: ${
        Object.entries(counts)
          .map(([k, v]) => `${k.slice(3)} ×${v}`)
          .join(', ') || 'no major GC'
      }`,
    );
  } finally {
    await browser.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}
