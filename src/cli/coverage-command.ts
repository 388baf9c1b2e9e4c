/**
 * `embed-inspector coverage FILE… [--format text|json|html] [--out FILE] [--min KEY=PERCENT,…] [--no-redact]`: the
 * protocol coverage of capture files and HARs, each file one test, with the model of the Playwright reporter
 * (protocol/coverage.ts: each file summarized, the summaries added up), shown as its text, its coverage.json or its
 * page (node/coverage-text.ts, node/coverage-html.ts). Output redacted unless --no-redact (as shown.ts does), text
 * inert.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import {
  aggregateCoverage,
  CoverageFormatError,
  parseMinimum,
  redactCoverage,
  summarizeCapture,
  withMinimum,
  type CoverageTestInput,
  type Minimum,
} from '../protocol/coverage.ts';
import { inert, inertValue } from '../protocol/inert.ts';
import { coverageHtml } from '../node/coverage-html.ts';
import { coverageText } from '../node/coverage-text.ts';
import { oneOf, UsageError } from './args.ts';
import { InputError, loadCapture } from './check.ts';
import { COVERAGE, commandHelp, parseCommand } from './commands.ts';
import { warnUnredacted } from './shown.ts';

type Io = { out: (s: string) => void; err?: (s: string) => void; isTTY?: boolean };

function minimumFlag(value: string | undefined): Minimum {
  if (value === undefined) {
    return {};
  }
  try {
    return parseMinimum(value);
  } catch (e) {
    if (e instanceof CoverageFormatError) {
      throw new UsageError(`--min: ${e.message}`);
    }
    throw e;
  }
}

/** A file's path as a link from where the report is read (the --out file's folder, else the working folder). */
const linkTo = (file: string, from: string) => relative(from, resolve(file)).split(sep).join('/');

export async function runCoverage(
  argv: string[],
  io: Io = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    isTTY: !!process.stdout.isTTY,
  },
): Promise<number> {
  const { values, positionals } = parseCommand(COVERAGE, argv);
  const err = io.err ?? ((s: string) => process.stderr.write(s));
  if (values.help) {
    io.out(`${commandHelp(COVERAGE)}\n`);
    return 0;
  }
  const format = oneOf('format', values.format, COVERAGE.flags.format.choices, 'text');
  const min = minimumFlag(values.min);
  if (positionals.length === 0) {
    throw new UsageError('coverage needs at least one capture file (see embed-inspector coverage --help)');
  }
  if (format === 'html' && values.out === undefined && io.isTTY) {
    throw new UsageError('--format html writes a page: give --out FILE (or redirect stdout)');
  }
  const redact = !values['no-redact'];
  // Read everything first: nothing is printed when any input is unusable.
  const from = values.out === undefined ? process.cwd() : dirname(resolve(values.out));
  const inputs: CoverageTestInput[] = [];
  for (const file of positionals) {
    const capture = await loadCapture(file);
    inputs.push({
      id: file,
      title: file,
      capture: linkTo(file, from),
      summaries: [summarizeCapture(capture, { redact })],
    });
  }
  if (!redact) {
    warnUnredacted('coverage', values.out ?? 'its output', err);
  }
  const coverage = withMinimum(aggregateCoverage(inputs), min);
  // The page's strings were redacted where they were kept (summarizeCapture); the file names are redacted here.
  const show = redact ? redactCoverage(coverage) : coverage;
  const text =
    format === 'json'
      ? `${JSON.stringify(show, null, 2)}\n`
      : format === 'html'
        ? coverageHtml(show)
        : `${coverageText(inertValue(show), { details: true })}\n`;
  if (values.out === undefined) {
    io.out(text);
  } else {
    await write(values.out, text);
    io.out(
      `wrote ${inert(values.out)}: the coverage of ${inputs.length} file${inputs.length === 1 ? '' : 's'} (${format})\n`,
    );
  }
  const misses = coverage.minimum?.misses ?? [];
  for (const m of misses) {
    err(`embed-inspector coverage: ${inert(m)}\n`);
  }
  return misses.length ? 1 : 0;
}

async function write(out: string, text: string): Promise<void> {
  try {
    await writeFile(out, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(
      `${out}: cannot write (${code === 'ENOENT' ? 'no such directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (e as Error).message})`,
    );
  }
}
