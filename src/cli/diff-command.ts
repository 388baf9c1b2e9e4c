/**
 * `embed-inspector diff A B [--format text|json] [--tenant-origin ORIGIN]`: what changed between two sessions (for
 * "it passed yesterday"), compared by `diffCaptures` (protocol/diff.ts). Exit 0 when B has no error finding that A
 * did not have, 1 when it has (a new rule, or more of one) or when B fails as a run (no embed, never ready…), 2 for
 * unusable input or flags.
 */
import { diffCaptures, type CaptureDiff } from '../protocol/diff.ts';
import { headline, renderDiffText, type DiffStyle } from '../protocol/diff-text.ts';

export { headline, renderDiffText };
import { oneOf, originFlag, UsageError } from './args.ts';
import { commandHelp, DIFF, parseCommand } from './commands.ts';
import { loadCapture } from './check.ts';
import { shown, warnUnredacted } from './shown.ts';

export const DIFF_HELP = commandHelp(DIFF);

const useColor = () => !!process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (t: string) => (useColor() ? `\x1b[${code}m${t}\x1b[0m` : t);
const COLOURS: DiffStyle = {
  red: paint('31'),
  yellow: paint('33'),
  green: paint('32'),
  dim: paint('2'),
  bold: paint('1'),
};

/** The same content as JSON: the files, the headline and `diffCaptures`' result. */
export function renderDiffJson(d: CaptureDiff, files: { a: string; b: string }): string {
  const { a, b, exitCode, ...rest } = d;
  return JSON.stringify(
    { exitCode, headline: headline(d), a: { file: files.a, ...a }, b: { file: files.b, ...b }, ...rest },
    null,
    2,
  );
}

export async function runDiff(
  argv: string[],
  io: { out: (s: string) => void; err?: (s: string) => void } = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  },
): Promise<number> {
  const { values, positionals } = parseCommand(DIFF, argv);
  if (values.help) {
    io.out(`${DIFF_HELP}\n`);
    return 0;
  }
  const format = oneOf('format', values.format, DIFF.flags.format.choices, 'text');
  const tenantOrigin = originFlag('tenant-origin', values['tenant-origin']);
  if (positionals.length !== 2) {
    throw new UsageError(
      `diff needs two capture files, A and B (got ${positionals.length}; see embed-inspector diff --help)`,
    );
  }
  const [fileA, fileB] = positionals;
  // Read both first: nothing is printed when either is unusable.
  const a = await loadCapture(fileA);
  const b = await loadCapture(fileB);
  const diff = diffCaptures(a, b, { tenantOrigin });
  // Printed redacted (unless --no-redact), and inert as text (shown.ts).
  const redact = !values['no-redact'];
  if (!redact) {
    warnUnredacted('diff', 'its output', io.err ?? ((x) => process.stderr.write(x)));
  }
  const d = shown(diff, { redact, text: format === 'text' });
  const files = shown({ a: fileA, b: fileB }, { redact: false, text: format === 'text' });
  io.out(`${format === 'json' ? renderDiffJson(d, files) : renderDiffText(d, files, COLOURS)}\n`);
  return diff.exitCode;
}
