// `npm start` (after `npm run build`, which the npm script runs first): the product working in a minute.
// - With a display ($DISPLAY, or macOS/Windows): starts the sandbox and opens Chromium with the extension
//   loaded and DevTools open on the Embed panel, beside the sandbox host page (a scripted session plays).
//   Close the browser (or Ctrl-C) to stop.
// - Without a display: records the scripted sandbox session headless with `embed-inspector record` and
//   prints the classified timeline, then exits with record's exit code.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../sandbox/server.mjs';

const root = new URL('..', import.meta.url).pathname;
const ext = join(root, 'dist/chrome');
const cli = join(root, 'dist/node/cli.js');
if (!existsSync(join(ext, 'manifest.json')) || !existsSync(cli)) {
  console.error('embed-inspector: not built; run npm run build (npm start does it for you)');
  process.exit(2);
}
const hasDisplay =
  !!process.env.DISPLAY ||
  !!process.env.WAYLAND_DISPLAY ||
  process.platform === 'darwin' ||
  process.platform === 'win32';
const headless = process.argv.includes('--headless') || !hasDisplay;

const sb = await startSandbox({
  hostPort: Number(process.env.HOST_PORT ?? 0),
  tenantPort: Number(process.env.TENANT_PORT ?? 0),
});
const url = `${sb.hostOrigin}/?script=full`;
console.log(`sandbox: host ${sb.hostOrigin}  tenant ${sb.tenantOrigin}`);

if (headless) {
  console.log(`no display: recording a scripted sandbox session headless (${url})\n`);
  const out = join(mkdtempSync(join(tmpdir(), 'embed-inspector-')), 'session.json');
  const { main } = await import(cli);
  const code = await main(['record', url, '--out', out, '--duration', '4000', '--timeline']);
  console.log(`\nThe capture file is ${out}; check it again with: npx embed-inspector check ${out} --all`);
  console.log('With a display, npm start opens Chromium with DevTools and the Embed panel instead.');
  await sb.close();
  process.exit(code);
}

const { default: puppeteer } = await import('puppeteer-core');
// The launcher the command line uses (src/node/chromium.ts, built to dist/node/chromium.js).
const {
  chromiumPath: findChromium,
  CHROMIUM_FLAGS,
  selectEmbedPanel,
} = await import(join(root, 'dist/node/chromium.js'));
const chromiumPath = () => {
  try {
    return findChromium();
  } catch (err) {
    console.error(`embed-inspector: ${err.message}`);
    process.exit(2);
  }
};
const userDataDir = mkdtempSync(join(tmpdir(), 'ei-start-'));
const browser = await puppeteer.launch({
  executablePath: chromiumPath(),
  headless: false,
  userDataDir,
  defaultViewport: null,
  ignoreDefaultArgs: ['--disable-extensions', '--enable-automation'],
  args: [
    ...CHROMIUM_FLAGS,
    `--disable-extensions-except=${ext}`,
    `--load-extension=${ext}`,
    '--auto-open-devtools-for-tabs',
    '--window-size=1400,900',
  ],
});
// A fresh profile captures nothing: capture the sandbox's two sites (the panel's ⚙ Settings lists them).
const sw = await browser.waitForTarget(
  (t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'),
  { timeout: 15_000 },
);
await (await sw.worker()).evaluate((c) => globalThis.embedInspector.setCapture(c), {
  sites: [sb.hostOrigin, sb.tenantOrigin],
  mode: 'full',
});
const [page] = await browser.pages();
await page.goto(url).catch((e) => console.error(`could not open ${url}: ${e.message}`));
// DevTools opened with the tab, on Elements: show the Embed panel (it registers after the built-in panels).
const devtools = await browser
  .waitForTarget((t) => t.url().startsWith('devtools://'), { timeout: 15_000 })
  .then((t) => t.asPage())
  .catch(() => null);
let shown = false;
for (let i = 0; devtools && i < 60 && !shown; i++) {
  shown = await selectEmbedPanel(devtools).catch(() => false);
  if (!shown) {
    await new Promise((r) => setTimeout(r, 250));
  }
}
console.log(
  shown
    ? `Chromium is open on ${url} with DevTools on the Embed panel.`
    : `Chromium is open on ${url} with DevTools: open the "Embed" panel (in the » menu if hidden).`,
);
console.log('Try the action buttons and the fault modes of the host page. Close the browser or press Ctrl-C to stop.');
const stop = async () => {
  await browser.close().catch(() => {});
  await sb.close();
  rmSync(userDataDir, { recursive: true, force: true });
  process.exit(0);
};
browser.on('disconnected', stop);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
