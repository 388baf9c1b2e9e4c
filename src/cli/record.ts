/**
 * `embed-inspector record URL --out FILE [--duration MS] [--tenant-origin ORIGIN] [--headful] [--timeline]`
 *
 * Launches Chromium with the built extension, opens URL, captures for the duration, reads the capture from
 * the extension itself (its service worker), writes a capture file (format v1), prints a summary with the
 * check result and exits with check's codes: 0 no error, 1 protocol errors, 2 unusable URL/flags/browser.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCapture } from '../protocol/capture.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { launchChromium, type Launched } from '../node/chromium.ts';
import { originFlag, parse, UsageError } from './args.ts';
import { plural, renderText, summaryLine, tenantLine } from './report.ts';

export const RECORD_HELP = `Usage: embed-inspector record URL --out FILE [options]

Opens URL in Chromium with the Embed Inspector extension, records the svc-embed traffic of every frame,
writes it as a capture file (format v1) and checks it.

Options:
  --out FILE               where to write the capture (required)
  --duration MS            how long to record after the page loaded (default: 5000)
  --tenant-origin ORIGIN   the tenant origin (default: inferred)
  --headful                show the browser window (needs a display)
  --timeline               print every captured message with its verdict
  -h, --help               this help

Environment: CHROMIUM_PATH (the browser binary), EMBED_INSPECTOR_EXTENSION (the built extension folder).
Exit status: 0 no error-severity issue, 1 at least one, 2 unusable URL, flags or browser.`;

/** The built Chromium extension: $EMBED_INSPECTOR_EXTENSION, or dist/chrome of this package. */
export function extensionDir(): string {
  const env = process.env.EMBED_INSPECTOR_EXTENSION;
  if (env) {
    return resolve(env);
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    for (const c of [join(dir, 'dist/chrome'), join(dir, 'chrome')]) {
      if (existsSync(join(c, 'manifest.json'))) {
        return c;
      }
    }
    dir = dirname(dir);
  }
  throw new UsageError('the extension is not built (run npm run build) or set EMBED_INSPECTOR_EXTENSION');
}

type Io = { out: (s: string) => void };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runRecord(argv: string[], io: Io = { out: (s) => process.stdout.write(s) }): Promise<number> {
  const { values, positionals } = parse(argv, {
    out: { type: 'string', short: 'o' },
    duration: { type: 'string' },
    'tenant-origin': { type: 'string' },
    headful: { type: 'boolean' },
    timeline: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(RECORD_HELP + '\n');
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError('record needs exactly one URL (see embed-inspector record --help)');
  }
  let url: URL;
  try {
    url = new URL(positionals[0]);
  } catch {
    throw new UsageError(`not a URL: "${positionals[0]}"`);
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) {
    throw new UsageError(`unsupported URL scheme "${url.protocol}" (http, https or file)`);
  }
  if (!values.out) {
    throw new UsageError('record needs --out FILE');
  }
  const duration = values.duration === undefined ? 5000 : Number(values.duration);
  if (!Number.isInteger(duration) || duration < 0) {
    throw new UsageError(`--duration must be a whole number of milliseconds (got "${values.duration}")`);
  }
  const tenantOrigin = originFlag('tenant-origin', values['tenant-origin']);

  const capture = await recordUrl(url.href, { duration, headful: !!values.headful });
  if (tenantOrigin) {
    capture.tenantOrigin = tenantOrigin;
  }
  try {
    await writeFile(values.out, JSON.stringify(capture, null, 1) + '\n');
  } catch (e) {
    throw new UsageError(`cannot write ${values.out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const result = checkCapture(capture, { tenantOrigin });
  const m = capture.messages;
  const posts = m.filter((r) => r.kind === 'post' && !r.navigation).length;
  const navs = m.filter((r) => r.navigation).length;
  const dropped = capture.meta?.dropped ? `, ${capture.meta.dropped} discarded by the buffer bound` : '';
  if (values.timeline) {
    io.out(renderText([{ file: values.out, records: m, result }], { all: true }) + '\n');
  }
  io.out(
    `recorded ${plural(m.length - navs, 'message')} (${posts} posts, ${m.length - navs - posts} deliveries) and ${plural(navs, 'navigation')}${dropped} from ${url.href} in ${(duration / 1000).toFixed(1)} s → ${values.out}\n`,
  );
  io.out(`${tenantLine(result.summary)}\n${summaryLine(result.summary)}\n`);
  return result.summary.errors > 0 ? 1 : 0;
}

export interface RecordOptions {
  duration: number;
  headful?: boolean;
  /** Called once the page loaded, with the page and the launched browser (drive the page here). */
  drive?: (ctx: { page: import('puppeteer-core').Page; launched: Launched }) => Promise<void>;
}

/** Open `url` with the extension, wait `duration` ms (and `drive`), return the capture read from the extension. */
export async function recordUrl(url: string, opts: RecordOptions): Promise<CaptureFile> {
  const ext = extensionDir();
  // A throwaway profile: it may capture every site (the page's frames may come from any origin).
  const launched = await launchChromium({
    extensionDir: ext,
    headless: !opts.headful,
    capture: { sites: 'all', mode: 'full' },
  });
  try {
    const page = await launched.browser.newPage();
    try {
      await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    } catch (e) {
      throw new UsageError(`cannot open ${url}: ${(e as Error).message.split('\n')[0]}`);
    }
    await opts.drive?.({ page, launched });
    await wait(opts.duration);
    return await readCapture(launched, page.url(), 'embed-inspector record');
  } finally {
    await launched.close();
  }
}

/** The capture of the tab showing `pageUrl`, once the extension has stored everything the page sent. */
export async function readCapture(launched: Launched, pageUrl: string, createdBy: string): Promise<CaptureFile> {
  const worker = await launched.worker();
  const tabId = await worker.evaluate(async (u: string) => {
    const tabs = await chrome.tabs.query({});
    return (tabs.find((t) => t.url === u) ?? tabs.find((t) => t.active))?.id ?? null;
  }, pageUrl);
  if (tabId === null) {
    throw new Error('the recorded tab is gone');
  }
  // The relays send every ~30 ms; wait until the count is stable.
  let last = -1;
  for (let i = 0; i < 50; i++) {
    await wait(150);
    const n = await (await launched.worker()).evaluate(
      (id: number) => (globalThis as any).embedInspector.count(id),
      tabId,
    );
    if (n === last) {
      break;
    }
    last = n;
  }
  return (await launched.worker()).evaluate(
    (id: number, by: string) => (globalThis as any).embedInspector.exportCapture(id, by),
    tabId,
    createdBy,
  );
}
