/**
 * `embed-inspector check FILE… [--format text|json|junit|mermaid|svg] [--out FILE] [--tenant-origin ORIGIN]
 * [--expect TYPE[,TYPE…]] [--fail-on error|warning] [--allow-empty] [--all]`: each file is evaluated on its own
 * (verdict.ts); mermaid and svg draw one file's conversation (check-flow.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { checkCapture, CaptureFormatError } from '../protocol/capture.ts';
import { readAnyCapture } from '../protocol/har.ts';
import { notAnInput, oneOf, originFlag, UsageError, wholeNumber } from './args.ts';
import { CHECK, commandHelp, parseCommand } from './commands.ts';
import { checkDiagramFlags, writeDiagram } from './check-flow.ts';
import { InputError } from './input-error.ts';
import { renderJson, renderJunit, renderText, type FileResult } from './report.ts';
import { EXPECTABLE_TYPES, evaluate, parseExpect } from '../protocol/verdict.ts';
import { shown, warnUnredacted } from './shown.ts';

export const CHECK_HELP = commandHelp(CHECK);

export { InputError };

/** Read and validate one capture file or HAR; a one-line InputError when it is unusable. */
export async function loadCapture(file: string) {
  let text: string;
  try {
    const st = await stat(file);
    if (st.isDirectory()) {
      throw new InputError(`${file}: is a directory, not a capture file`);
    }
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof InputError) {
      throw err;
    }
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      `${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (err as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text); // (a byte-order mark some editors write)
  } catch (err) {
    throw new InputError(`${file}: not JSON (${(err as Error).message})`);
  }
  try {
    return readAnyCapture(json);
  } catch (err) {
    if (err instanceof CaptureFormatError) {
      throw new InputError(`${file}: ${err.message}`);
    }
    throw err;
  }
}

export async function runCheck(
  argv: string[],
  io: { out: (s: string) => void; err?: (s: string) => void; isTTY?: boolean } = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    isTTY: !!process.stdout.isTTY,
  },
): Promise<number> {
  const { values, positionals } = parseCommand(CHECK, argv);
  if (values.help) {
    io.out(`${CHECK_HELP}\n`);
    return 0;
  }
  const format = oneOf('format', values.format, CHECK.flags.format.choices, 'text');
  const tenantOrigin = originFlag('tenant-origin', values['tenant-origin']);
  const readyTimeout = values['ready-timeout'] === undefined ? undefined : wholeNumber(values['ready-timeout']);
  if (readyTimeout !== undefined && (!Number.isInteger(readyTimeout) || readyTimeout < 0)) {
    throw new UsageError(`--ready-timeout must be a whole number of milliseconds (got "${values['ready-timeout']}")`);
  }
  const failOn = oneOf('fail-on', values['fail-on'], CHECK.flags['fail-on'].choices, 'error');
  const expected = parseExpect(values.expect);
  if (expected.unknown.length) {
    const named = expected.unknown.map((t) => {
      const meant = EXPECTABLE_TYPES.filter((x) => x.endsWith(`:${t}`));
      return `"${t}"${meant.length ? ` (did you mean ${meant.join(' or ')}?)` : ''}`;
    });
    throw new UsageError(`--expect: unknown message type ${named.join(', ')}; one of ${EXPECTABLE_TYPES.join(', ')}`);
  }
  if (positionals.length === 0) {
    throw new UsageError('check needs at least one capture file (see embed-inspector check --help)');
  }
  const diagram = checkDiagramFlags(format, { files: positionals.length, out: values.out, isTTY: !!io.isTTY });
  if (diagram && values.out) {
    notAnInput(values.out, positionals);
  }

  // Read everything first: nothing is printed when any input is unusable.
  const files: FileResult[] = [];
  for (const file of positionals) {
    const capture = await loadCapture(file);
    const result = checkCapture(capture, { tenantOrigin, readyTimeoutMs: readyTimeout });
    const evaluation = evaluate(capture.messages, result, {
      expect: expected.types,
      failOn,
      allowEmpty: !!values['allow-empty'],
      where: file,
    });
    files.push({ file, records: capture.messages, result, evaluation });
  }
  // Judged on the files as they came; printed redacted (unless --no-redact), and inert as text (shown.ts).
  const redact = !values['no-redact'];
  if (!redact) {
    warnUnredacted(
      'check',
      diagram && values.out ? values.out : 'its output',
      io.err ?? ((x) => process.stderr.write(x)),
    );
  }
  const show = shown(files, { redact, text: format === 'text' || format === 'junit' });
  if (diagram) {
    const [f] = show;
    await writeDiagram(format, f.file, f.records, f.result, { out: values.out, all: !!values.all, print: io.out });
    return files[0].evaluation?.exitCode !== 0 ? 1 : 0;
  }
  const rendered =
    format === 'json'
      ? renderJson(show)
      : format === 'junit'
        ? renderJunit(show)
        : renderText(show, { all: values.all });
  io.out(`${rendered}\n`);
  return files.some((f) => f.evaluation?.exitCode !== 0) ? 1 : 0;
}
