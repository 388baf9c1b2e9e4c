import { describe, expect, it } from 'vitest';
import { checkDiagramFlags } from './check-flow.ts';

const cases: Array<[string, string, { files: number; out?: string; isTTY: boolean }, boolean | RegExp]> = [
  ['text report', 'text', { files: 2, isTTY: true }, false],
  ['--out with a report', 'json', { files: 1, out: 'x.json', isTTY: false }, /--out goes with --format mermaid or svg/],
  ['mermaid to a terminal', 'mermaid', { files: 1, isTTY: true }, true],
  ['mermaid of two files', 'mermaid', { files: 2, isTTY: false }, /--format mermaid draws one capture file, got 2/],
  ['svg to a file', 'svg', { files: 1, out: 'flow.svg', isTTY: true }, true],
  ['svg piped', 'svg', { files: 1, isTTY: false }, true],
  ['svg to a terminal', 'svg', { files: 1, isTTY: true }, /give --out FILE\.svg \(or redirect stdout to a file\)/],
  ['an empty --out', 'svg', { files: 1, out: '', isTTY: false }, /--out needs a file name/],
];

describe('check --format mermaid|svg flags', () => {
  it.each(cases)('%s', (_name, format, opts, expected) => {
    const run = () => checkDiagramFlags(format, { files: opts.files, out: opts.out, isTTY: opts.isTTY });
    if (expected instanceof RegExp) {
      expect(run).toThrow(expected);
    } else {
      expect(run()).toBe(expected);
    }
  });
});
