/**
 * `embed-inspector record URL --out FILE [--script FLOW.mjs] [--duration MS] [--mode full|receive-only] …`
 *
 * Launches Chromium with the built extension, opens URL, lets a script drive the page (log in, click, export…),
 * captures for the duration, reads the capture from the extension itself (its service worker, settled: every
 * frame hands over what it holds), writes a capture file (format v1, redacted unless --no-redact), prints a summary
 * with the check result and exits with check's codes: 0 passed, 1 failed (protocol errors, an expectation unmet,
 * no embed traffic at all), 2 unusable URL/flags/browser/script.
 */
import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { checkCapture } from '../protocol/capture.ts';
import { redactString } from '../protocol/redact.ts';
import { shown, warnUnredacted } from './shown.ts';
import { inert } from '../protocol/inert.ts';
import { DEFAULT_READY_TIMEOUT_MS, diagnose } from '../protocol/diagnose.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { DEFAULT_MAX_RECORDS } from '../shared/messages.ts';
import { extensionPath, launchChromium } from '../node/chromium.ts';
import { attachInspector } from '../node/puppeteer.ts';
import type { Embed } from '../node/embed.ts';
import { oneOf, originFlag, UsageError, wholeNumber } from './args.ts';
import { commandHelp, parseCommand, RECORD } from './commands.ts';
import { parseExpect, evaluate, type FailOn } from '../protocol/verdict.ts';
import { plural, renderText, summaryLine, tenantLine } from './report.ts';

export const RECORD_HELP = commandHelp(RECORD);

/** The built Chromium extension: $EMBED_INSPECTOR_EXTENSION, or dist/chrome of this package. */
export function extensionDir(): string {
  try {
    return extensionPath();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The least bound the extension takes (its input checks refuse fewer). */
const MIN_MAX_RECORDS = 100;

type Io = { out: (s: string) => void; err?: (s: string) => void };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a --script module's default export gets. */
export interface FlowContext {
  page: Page;
  browser: Browser;
  embed: Embed;
}
export type Flow = (ctx: FlowContext) => unknown;

/** Load a --script module: its default export, a function; a UsageError otherwise (before any browser starts). */
async function loadFlow(file: string): Promise<Flow> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new UsageError(`--script ${file}: no such file`);
  }
  let mod: { default?: unknown };
  try {
    mod = await import(pathToFileURL(path).href);
  } catch (e) {
    throw new UsageError(`--script ${file}: cannot load it: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof mod.default !== 'function') {
    throw new UsageError(
      `--script ${file}: its default export must be a function async ({ page, browser, embed }) => {}`,
    );
  }
  return mod.default as Flow;
}

/**
 * Wait while an embed frame of the page has not said ready, up to `limit` ms after it loaded: a recording shorter
 * than the limit would not judge it (an embed that is merely slow is not "never ready").
 */
async function untilReady(embed: Embed, limit: number): Promise<void> {
  for (;;) {
    const records = await embed.all();
    const { embeds } = diagnose(records, { now: Date.now(), readyTimeoutMs: limit });
    const due = embeds.filter((e) => e.ready === null && e.loaded && !e.failed).map((e) => e.time + limit);
    const until = due.length ? Math.max(...due) : 0;
    if (until <= Date.now()) {
      return;
    }
    await wait(Math.min(250, until - Date.now() + 50));
  }
}

export class ScriptError extends Error {
  override name = 'ScriptError';
}

export async function runRecord(
  argv: string[],
  io: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
): Promise<number> {
  const { values, positionals } = parseCommand(RECORD, argv);
  if (values.help) {
    io.out(`${RECORD_HELP}\n`);
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
  const duration = values.duration === undefined ? 5000 : wholeNumber(values.duration);
  if (!Number.isInteger(duration) || duration < 0) {
    throw new UsageError(`--duration must be a whole number of milliseconds (got "${values.duration}")`);
  }
  const readyTimeout =
    values['ready-timeout'] === undefined ? DEFAULT_READY_TIMEOUT_MS : wholeNumber(values['ready-timeout']);
  if (!Number.isInteger(readyTimeout) || readyTimeout < 0) {
    throw new UsageError(`--ready-timeout must be a whole number of milliseconds (got "${values['ready-timeout']}")`);
  }
  const maxRecords = values['max-records'] === undefined ? DEFAULT_MAX_RECORDS : wholeNumber(values['max-records']);
  if (!Number.isInteger(maxRecords) || maxRecords < MIN_MAX_RECORDS) {
    throw new UsageError(
      `--max-records must be a whole number of records, at least ${MIN_MAX_RECORDS} (got "${values['max-records']}")`,
    );
  }
  const mode = oneOf('mode', values.mode, RECORD.flags.mode.choices, 'full');
  const failOn: FailOn = oneOf('fail-on', values['fail-on'], RECORD.flags['fail-on'].choices, 'error');
  const expected = parseExpect(values.expect ?? []);
  if (expected.unknown.length) {
    throw new UsageError(
      `--expect: not a message type of the protocol: ${expected.unknown.join(', ')} (e.g. svc:event:ready, svc:action:refresh)`,
    );
  }
  const tenantOrigin = originFlag('tenant-origin', values['tenant-origin']);
  const flow = values.script ? await loadFlow(values.script) : undefined;
  if (values['no-redact']) {
    warnUnredacted('record', values.out ?? 'the capture', io.err ?? ((x) => process.stderr.write(x)));
  }

  const { capture, scriptError } = await recordUrl(url.href, {
    duration,
    headful: !!values.headful,
    mode,
    redact: !values['no-redact'],
    flow,
    readyTimeout,
    maxRecords,
    ignoreHttpsErrors: !!values['ignore-https-errors'],
  });
  if (tenantOrigin) {
    capture.tenantOrigin = tenantOrigin;
  }
  try {
    await writeFile(values.out, `${JSON.stringify(capture, null, 1)}\n`);
  } catch (e) {
    throw new UsageError(`cannot write ${values.out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const result = checkCapture(capture, { tenantOrigin, readyTimeoutMs: readyTimeout });
  const m = capture.messages;
  const verdict = evaluate(m, result, {
    expect: expected.types,
    failOn,
    allowEmpty: !!values['allow-empty'],
    where: url.href,
  });
  io.out(
    recordReport(capture, result, verdict, {
      out: values.out,
      url: url.href,
      receiveOnly: mode === 'receive-only',
      timeline: !!values.timeline,
    }),
  );
  if (scriptError) {
    // One line, redacted and inert (a timeout's message lists what was seen, with the embed's address).
    const first = inert(redactString(String(scriptError.message).split('\n')[0]));
    (io.err ?? io.out)(`embed-inspector: --script ${values.script} failed: ${first}\n`);
    return 2;
  }
  return verdict.exitCode;
}

/**
 * What `record` prints once the capture is written: the timeline when asked, what was recorded, the tenant origin
 * and the verdict, every string of the capture inert (shown.ts: a page's terminal escapes or carriage returns never
 * reach the terminal, nor write a fake line over a real one). The capture is redacted already unless --no-redact.
 */
export function recordReport(
  capture: CaptureFile,
  result: ReturnType<typeof checkCapture>,
  verdict: ReturnType<typeof evaluate>,
  o: { out: string; url: string; receiveOnly: boolean; timeline: boolean },
): string {
  const [f] = shown([{ file: o.out, records: capture.messages, result, evaluation: verdict }], {
    redact: false,
    text: true,
  });
  const m = f.records;
  const posts = m.filter((r) => r.kind === 'post' && !r.navigation).length;
  const navs = m.filter((r) => r.navigation).length;
  const received = m.length - navs - posts;
  const dropped = capture.meta?.dropped ? `, ${capture.meta.dropped} discarded by the buffer bound` : '';
  return [
    ...(o.timeline ? [renderText([f], { all: true })] : []),
    `recorded ${plural(m.length - navs, 'record')} (${plural(posts, 'post')}, ${received} ${received === 1 ? 'delivery' : 'deliveries'}) and ${plural(navs, 'navigation')}${dropped} from ${inert(o.url)}${o.receiveOnly ? ' (receive-only)' : ''} → ${inert(o.out)}${capture.meta?.redacted ? ' (redacted)' : ''}`,
    tenantLine(f.result.summary),
    summaryLine(f.result.summary, f.evaluation),
    '',
  ].join('\n');
}

export interface RecordOptions {
  duration: number;
  headful?: boolean;
  mode?: 'full' | 'receive-only';
  /** Redact secrets (default true). */
  redact?: boolean;
  /** Drives the page once it loaded; `duration` counts from its end. A throw is kept as `scriptError`. */
  flow?: Flow;
  /** After `duration`, go on recording while an embed frame has not said ready, up to this long after it loaded. */
  readyTimeout?: number;
  /** The tab's log bound (default: the extension's, DEFAULT_MAX_RECORDS). */
  maxRecords?: number;
  /** Accept any TLS certificate (a staging host's self-signed one). */
  ignoreHttpsErrors?: boolean;
}

/**
 * Open `url` with the extension, run `flow`, wait `duration` ms, return the capture read from the extension (the
 * capture so far when the flow threw).
 */
export async function recordUrl(
  url: string,
  opts: RecordOptions,
): Promise<{ capture: CaptureFile; scriptError?: Error }> {
  const ext = extensionDir();
  // A throwaway profile: it may capture every site (the page's frames may come from any origin).
  const launched = await launchChromium({
    extensionDir: ext,
    headless: !opts.headful,
    capture: { sites: 'all', mode: opts.mode ?? 'full' },
    ignoreHttpsErrors: opts.ignoreHttpsErrors,
  });
  try {
    const { embedOf } = await attachInspector(launched.browser);
    const page = await launched.browser.newPage();
    const embed = embedOf(page);
    if (opts.maxRecords !== undefined && opts.maxRecords !== DEFAULT_MAX_RECORDS) {
      // Set on the fresh tab before the page loads (kept across its navigations), as the panel's Settings would.
      const tabId = await embed.tabId();
      await (await launched.worker()).evaluate(
        (id: number, max: number) =>
          (
            globalThis as unknown as {
              embedInspector: { setOptions(id: number, o: { maxRecords: number }): Promise<unknown> };
            }
          ).embedInspector.setOptions(id, { maxRecords: max }),
        tabId,
        opts.maxRecords,
      );
    }
    try {
      await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    } catch (e) {
      throw new UsageError(`cannot open ${url}: ${(e as Error).message.split('\n')[0]}`);
    }
    let scriptError: Error | undefined;
    if (opts.flow) {
      try {
        await opts.flow({ page, browser: launched.browser, embed });
      } catch (e) {
        scriptError = e instanceof Error ? e : new ScriptError(String(e));
      }
    }
    if (!scriptError) {
      await wait(opts.duration);
      await untilReady(embed, opts.readyTimeout ?? DEFAULT_READY_TIMEOUT_MS);
    }
    const capture = await embed.capture({ redact: opts.redact !== false });
    capture.meta = { ...capture.meta, createdBy: 'embed-inspector record' };
    return { capture, scriptError };
  } finally {
    await launched.close();
  }
}
