/**
 * `check --format mermaid|svg`: the capture's conversation as a Mermaid sequenceDiagram or an SVG picture
 * (protocol/flow*.ts), for a ticket or a CI job's artefacts. One capture file; foreign traffic only with --all.
 */
import { writeFile } from 'node:fs/promises';
import type { CheckResult } from '../protocol/capture.ts';
import { flowOfCapture } from '../protocol/flow.ts';
import { flowToMermaid } from '../protocol/flow-mermaid.ts';
import { flowToSvg } from '../protocol/flow-svg.ts';
import type { CaptureRecord } from '../protocol/record.ts';
import { UsageError } from './args.ts';
import { InputError } from './input-error.ts';

export type DiagramFormat = 'mermaid' | 'svg';

/**
 * The flags of a diagram, checked before any file is read: one capture file; SVG markup is not printed to a
 * terminal (give --out FILE, or redirect stdout); --out only with a diagram format.
 */
export function checkDiagramFlags(
  format: string,
  opts: { files: number; out: string | undefined; isTTY: boolean },
): format is DiagramFormat {
  const diagram = format === 'mermaid' || format === 'svg';
  if (!diagram) {
    if (opts.out !== undefined) {
      throw new UsageError('--out goes with --format mermaid or svg (the reports print to stdout)');
    }
    return false;
  }
  if (opts.files > 1) {
    throw new UsageError(`--format ${format} draws one capture file, got ${opts.files}`);
  }
  if (opts.out === '') {
    throw new UsageError('--out needs a file name');
  }
  if (format === 'svg' && opts.out === undefined && opts.isTTY) {
    throw new UsageError('--format svg writes SVG markup: give --out FILE.svg (or redirect stdout to a file)');
  }
  return true;
}

/** Draw one checked capture; write it to `out` (a one-line summary on stdout) or print it. */
export async function writeDiagram(
  format: DiagramFormat,
  file: string,
  records: readonly CaptureRecord[],
  result: CheckResult,
  opts: { out: string | undefined; all: boolean; print: (s: string) => void },
): Promise<void> {
  const model = flowOfCapture(records, result, { includeForeign: opts.all });
  const text =
    format === 'mermaid' ? flowToMermaid(model, { notes: result.diagnosis.notes }) : flowToSvg(model, { title: file });
  if (opts.out === undefined) {
    opts.print(text);
    return;
  }
  try {
    await writeFile(opts.out, text);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      `${opts.out}: cannot write (${code === 'ENOENT' ? 'no such directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (err as Error).message})`,
    );
  }
  const lanes = model.lanes.length;
  opts.print(
    `wrote ${opts.out}: ${model.messages} message${model.messages === 1 ? '' : 's'} in ${lanes} lane${lanes === 1 ? '' : 's'} (${format})\n`,
  );
}
