/**
 * `embed-inspector codegen CAPTURE --playwright|--puppeteer [--assert-payloads] [--out FILE] [--url URL]
 * [--max-gap MS]`: a recorded session as a test (src/protocol/testgen.ts writes it). Exit 0 written, 2 unusable
 * capture or flags.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { generateTest, TestgenError, type TestFramework } from '../protocol/testgen.ts';
import { notAnInput, UsageError } from './args.ts';
import { CODEGEN, commandHelp, parseCommand } from './commands.ts';
import { InputError, loadCapture } from './check.ts';
import { redactCapture } from '../protocol/redact.ts';
import { inert } from '../protocol/inert.ts';
import { warnUnredacted } from './shown.ts';

export const CODEGEN_HELP = commandHelp(CODEGEN);

type Io = { out: (s: string) => void; err: (s: string) => void };

export async function runCodegen(
  argv: string[],
  io: Io = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
): Promise<number> {
  const { values, positionals } = parseCommand(CODEGEN, argv);
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
  // A test is meant to be committed: its secrets are read from the environment (a redacted URL parameter) or left
  // as a TODO (a redacted payload value), unless --no-redact.
  const redact = !values['no-redact'];
  if (!redact) {
    warnUnredacted('codegen', values.out ?? 'the test it prints', io.err);
  }
  const loaded = await loadCapture(file);
  const capture = redact ? redactCapture(loaded) : loaded;
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
    notAnInput(target, positionals);
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
    io.err(`note: ${inert(note)}\n`);
  }
  return 0;
}
