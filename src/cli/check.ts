/**
 * `embed-inspector check FILE… [--format text|json|junit|mermaid|svg] [--out FILE] [--tenant-origin ORIGIN]
 * [--expect TYPE[,TYPE…]] [--fail-on error|warning] [--allow-empty] [--all]`: each file is evaluated on its own
 * (verdict.ts); mermaid and svg draw one file's conversation (check-flow.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { checkCapture, CaptureFormatError } from '../protocol/capture.ts';
import { readAnyCapture } from '../protocol/har.ts';
import { oneOf, originFlag, parse, UsageError } from './args.ts';
import { checkDiagramFlags, writeDiagram } from './check-flow.ts';
import { renderJson, renderJunit, renderText, type FileResult } from './report.ts';
import { EXPECTABLE_TYPES, evaluate, parseExpect } from './verdict.ts';

export const CHECK_HELP = `Usage: embed-inspector check FILE… [options]

Checks capture files (format v1) against the svc-embed protocol, and their REST calls against the platform
API's rules (rest.*). A HAR file (ours from "embed-inspector har", or one exported by a browser's Network
panel or Playwright's recordHar) is read too, told by its content: its entries that are one of the four
platform operations are checked; another tool's HAR has no window messages.

Options:
  --format FORMAT           text, json or junit (default: text); or a diagram of one capture's
                            conversation, lanes for the host page and each embed, one arrow per
                            message: mermaid (a sequenceDiagram) or svg (a picture)
  --out FILE                mermaid, svg: write the diagram to FILE (and say so on stdout) instead
                            of printing it; svg needs it when stdout is a terminal
  --tenant-origin ORIGIN    the tenant origin (default: the file's, else inferred)
  --expect TYPE[,TYPE…]     fail unless each of these message types is seen (may repeat), e.g.
                            svc:event:dashboard-loaded; svc:event:ready is expected whenever an
                            embed frame (/embed/…) is seen
  --fail-on error|warning   the lowest finding severity that fails (default: error)
  --allow-empty             pass a capture with no embed frame and no svc-embed message
  --ready-timeout MS        how long an embed frame has to say ready, a dashboard to load and an AI
                            query to be answered; judged at the capture's end, so what started less
                            than this before it is not judged (default: 10000)
  --all                     text: list every message, not only those with findings; mermaid, svg:
                            draw foreign (non svc-embed) messages too
  -h, --help                this help

A file fails when it has no embed traffic (unless --allow-empty; a HAR of another tool with REST calls is
judged on them alone), when the embed failed to start (a fatal error before ready) or never said ready within
--ready-timeout, when an expected message type was never seen, or with a finding (of a message or of a REST
call) at or above --fail-on.
Exit status: 0 every file passed, 1 at least one failed, 2 unusable input or flags.`;

export class InputError extends Error {
  override name = 'InputError';
}

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
    json = JSON.parse(text);
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
  io: { out: (s: string) => void; isTTY?: boolean } = {
    out: (s) => process.stdout.write(s),
    isTTY: !!process.stdout.isTTY,
  },
): Promise<number> {
  const { values, positionals } = parse(argv, {
    format: { type: 'string' },
    out: { type: 'string', short: 'o' },
    'tenant-origin': { type: 'string' },
    expect: { type: 'string', multiple: true },
    'fail-on': { type: 'string' },
    'allow-empty': { type: 'boolean' },
    'ready-timeout': { type: 'string' },
    all: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(`${CHECK_HELP}\n`);
    return 0;
  }
  const format = oneOf('format', values.format, ['text', 'json', 'junit', 'mermaid', 'svg'] as const, 'text');
  const tenantOrigin = originFlag('tenant-origin', values['tenant-origin']);
  const readyTimeout = values['ready-timeout'] === undefined ? undefined : Number(values['ready-timeout']);
  if (readyTimeout !== undefined && (!Number.isInteger(readyTimeout) || readyTimeout < 0)) {
    throw new UsageError(`--ready-timeout must be a whole number of milliseconds (got "${values['ready-timeout']}")`);
  }
  const failOn = oneOf('fail-on', values['fail-on'], ['error', 'warning'] as const, 'error');
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
  if (diagram) {
    const [f] = files;
    await writeDiagram(format, f.file, f.records, f.result, { out: values.out, all: !!values.all, print: io.out });
    return f.evaluation?.exitCode !== 0 ? 1 : 0;
  }
  const rendered =
    format === 'json'
      ? renderJson(files)
      : format === 'junit'
        ? renderJunit(files)
        : renderText(files, { all: values.all });
  io.out(`${rendered}\n`);
  return files.some((f) => f.evaluation?.exitCode !== 0) ? 1 : 0;
}
