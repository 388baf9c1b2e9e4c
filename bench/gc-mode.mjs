// Which kind of major GC a page gets (BENCHMARKS.md, panel, fourth round): launches Chromium with the built
// extension N times; each time it opens the panel page (or about:blank) right after start, allocates 2.5 million
// small objects, and counts the major GCs of its renderer in a trace by kind. `GCFinalizeMCReduceMemory` is the
// memory-reducing kind, which compacts the heap; `GCFinalizeMC` the ordinary one.
// Run: `node bench/gc-mode.mjs [launches] [panel|blank]` (after npm run build).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const ROOT = new URL('..', import.meta.url).pathname;
const EXT = process.env.EI_EXTENSION_DIR ?? join(ROOT, 'dist/chrome');
const { chromiumPath, CHROMIUM_FLAGS } = await import('../dist/node/chromium.js');

const launches = Number(process.argv[2] ?? 4);
const which = process.argv[3] ?? 'panel';
if (!Number.isInteger(launches) || launches < 1 || !['panel', 'blank'].includes(which)) {
  console.error('usage: node bench/gc-mode.mjs [launches ≥ 1] [panel|blank]');
  process.exit(2);
}
if (!existsSync(join(EXT, 'manifest.json'))) { console.error(`${EXT} has no build: run npm run build first`); process.exit(2); }

for (let n = 0; n < launches; n++) {
  const dir = mkdtempSync(join(tmpdir(), 'ei-gc-mode-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(), headless: true, userDataDir: dir, ignoreDefaultArgs: ['--disable-extensions'],
    args: [...CHROMIUM_FLAGS, `--disable-extensions-except=${EXT}`, `--load-extension=${EXT}`],
  });
  try {
    const sw = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'), { timeout: 15_000 });
    const page = await browser.newPage();
    await page.goto(which === 'panel' ? `chrome-extension://${new URL(sw.url()).host}/src/panel/index.html` : 'about:blank');
    const path = join(dir, 'trace.json');
    await page.tracing.start({ path, categories: ['v8'] });
    await page.evaluate(async () => {
      const keep = [];
      for (let i = 0; i < 2_500_000; i++) keep.push({ a: i, b: `x${i}`, c: [i] });
      await new Promise((r) => setTimeout(r, 500));
      return keep.length;
    });
    await page.tracing.stop();
    const counts = {};
    for (const e of JSON.parse(readFileSync(path, 'utf8')).traceEvents) {
      if (e.name === 'V8.GCFinalizeMC' || e.name === 'V8.GCFinalizeMCReduceMemory') counts[e.name] = (counts[e.name] ?? 0) + 1;
    }
    console.log(`launch ${n + 1}, ${which}: ${Object.entries(counts).map(([k, v]) => `${k.slice(3)} ×${v}`).join(', ') || 'no major GC'}`);
  } finally {
    await browser.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}
