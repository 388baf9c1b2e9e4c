/**
 * `embed-inspector codegen CAPTURE --playwright|--puppeteer [--assert-payloads] [--out FILE] [--url URL]
 * [--max-gap MS]`: a recorded session as a test (src/protocol/testgen.ts writes it). Exit 0 written, 2 unusable
 * capture or flags.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DEFAULT_MAX_GAP_MS, generateTest, TestgenError, type TestFramework } from '../protocol/testgen.ts';
import { parse, UsageError } from './args.ts';
import { InputError, loadCapture } from './check.ts';

export const CODEGEN_HELP = `Usage: embed-inspector codegen CAPTURE (--playwright | --puppeteer) [options]

Writes a test from a capture file: it opens the recorded page, waits for the embed's ready, sends the host's
actions in the captured order (pauses capped) and checks that the embed sends the same events in the same
order, with no protocol error.

Options:
  --playwright        a Playwright Test spec using embed-inspector/playwright (TypeScript)
  --puppeteer         a node script (ESM) using embed-inspector/puppeteer; exits 1 when a check fails
  --assert-payloads   also check the events' payload fields that do not change from run to run (surface,
                      path, format, mode, status…; never ids, times, durations, counts or free text)
  --url URL           the page the test opens (default: the capture's page URL)
  --max-gap MS        the longest pause between two actions (default: ${DEFAULT_MAX_GAP_MS})
  --out FILE          where to write the test (default: standard output); a directory: the file
                      embed-session-<host>.spec.ts (.mjs for --puppeteer) in it
  -h, --help          this help

A page URL parameter that was redacted on export (session=[redacted]) is read by the test from an
environment variable (EMBED_SESSION for session); the test says which.
Exit status: 0 written, 2 unusable capture or flags.`;

type Io = { out: (s: string) => void; err: (s: string) => void };

export async function runCodegen(
  argv: string[],
  io: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
): Promise<number> {
  const { values, positionals } = parse(argv, {
    playwright: { type: 'boolean' },
    puppeteer: { type: 'boolean' },
    'assert-payloads': { type: 'boolean' },
    url: { type: 'string' },
    'max-gap': { type: 'string' },
    out: { type: 'string', short: 'o' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(`${CODEGEN_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError('codegen needs exactly one capture file (see embed-inspector codegen --help)');
  }
  if (values.playwright === values.puppeteer) {
    throw new UsageError('codegen needs one of --playwright or --puppeteer');
  }
  const framework: TestFramework = values.playwright ? 'playwright' : 'puppeteer';
  let url: string | undefined;
  if (values.url !== undefined) {
    let u: URL;
    try {
      u = new URL(values.url);
    } catch {
      throw new UsageError(`--url must be an absolute URL (got "${values.url}")`);
    }
    if (!['http:', 'https:', 'file:'].includes(u.protocol)) {
      throw new UsageError(`--url: unsupported scheme "${u.protocol}" (http, https or file)`);
    }
    url = values.url;
  }
  let maxGapMs: number | undefined;
  if (values['max-gap'] !== undefined) {
    maxGapMs = Number(values['max-gap']);
    if (!/^\d+$/.test(values['max-gap']) || !Number.isSafeInteger(maxGapMs)) {
      throw new UsageError(`--max-gap must be a whole number of milliseconds (got "${values['max-gap']}")`);
    }
  }
  const file = positionals[0];
  const capture = await loadCapture(file);
  let generated: ReturnType<typeof generateTest>;
  try {
    generated = generateTest(capture, {
      framework,
      assertPayloads: values['assert-payloads'] ?? false,
      url,
      maxGapMs,
      source: basename(file),
    });
  } catch (e) {
    if (e instanceof TestgenError) {
      throw new InputError(`${file}: ${e.message} with --url`);
    }
    throw e;
  }
  const { code, plan } = generated;
  if (values.out === undefined) {
    io.out(code);
  } else {
    let target = values.out;
    const isDir = await stat(target).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (isDir || /[/\\]$/.test(target)) {
      target = join(target, generated.fileName);
    }
    try {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, code);
    } catch (e) {
      throw new InputError(`--out ${target}: ${(e as Error).message}`);
    }
    const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
    io.err(
      `wrote ${target}: ${n(plan.actions.length, 'action')}, ${n(plan.events.length, 'event')} in order` +
        `${values['assert-payloads'] ? `, ${n(plan.payloadChecks.length, 'payload check')}` : ''}\n`,
    );
  }
  for (const note of plan.notes) {
    io.err(`note: ${note}\n`);
  }
  return 0;
}
