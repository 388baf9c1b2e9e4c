// BENCHMARKS.md's table of today's figures is the bench's own output: the block between its markers is exactly what
// `npm run bench -- --summary` writes from bench/results.json, so a figure edited by hand (or a run not recorded)
// fails here instead of drifting.
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the bench
import { suites } from '../../bench/suites.mjs';
// @ts-expect-error: a plain .mjs module of the bench
import { DOC, END, readResults, START, writeSummary } from '../../bench/summary.mjs';

describe('BENCHMARKS.md', () => {
  it('opens with the table the bench writes from bench/results.json, unchanged by hand', () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'ei-bench-doc-')), 'BENCHMARKS.md');
    copyFileSync(DOC, copy);
    const before = readFileSync(copy, 'utf8');
    writeSummary(
      readResults(),
      suites.map((s: { key: string }) => s.key),
      copy,
    );
    expect(readFileSync(copy, 'utf8')).toBe(before);
    expect(before.indexOf(START)).toBeLessThan(before.indexOf('## '));
    expect(before.indexOf(END)).toBeGreaterThan(before.indexOf(START));
    // Short enough to read: the figures with their goals (#47 added the CPU, floor and first-burst rows, then a bare
    // capture's figures beside them, which judge those goals) and how to reproduce them; the history is in git.
    expect(before.length).toBeLessThanOrEqual(28_000);
  });
});
