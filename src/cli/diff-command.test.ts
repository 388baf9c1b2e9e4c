// `embed-inspector diff A B` as QA reads it: the headline says whether B regresses, each section what changed,
// JSON has the same content, and unusable input or flags are a one-line error (exit 2 in main.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../protocol/record.ts';
import {
  EMBED_URL,
  T0,
  actionPair,
  eventPair,
  navigation,
  numbered as numberedAny,
} from '../../test/fixtures/messages.ts';
import { InputError } from './check.ts';
import { UsageError } from './args.ts';
import { runDiff } from './diff-command.ts';

beforeAll(() => {
  process.env.NO_COLOR = '1';
});

const dir = mkdtempSync(join(tmpdir(), 'ei-diff-unit-'));
const write = (name: string, records: Array<Record<string, unknown>>, t0 = T0) => {
  const messages = numberedAny(records, 1, t0) as CaptureRecord[];
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ format: 'embed-inspector-capture', version: 1, tenantOrigin: null, messages }));
  return path;
};
const run = async (...argv: string[]) => {
  let out = '';
  const code = await runDiff(argv, { out: (s) => (out += s) });
  return { code, out };
};

const loaded = (ms: number) =>
  eventPair('svc:event:dashboard-loaded', { publicId: 'dash01', widgetCount: 4, loadDurationMs: ms });
const healthy = [
  navigation(EMBED_URL),
  ...eventPair('svc:event:ready'),
  ...eventPair('svc:event:view'),
  ...loaded(800),
  ...actionPair('svc:action:set-color-scheme'),
];
const A = write('a.json', healthy);
const A2 = write('a2.json', [...healthy.slice(0, 5), ...eventPair('svc:event:view'), ...healthy.slice(5)]);
const B = write('b.json', [
  navigation(EMBED_URL),
  ...eventPair('svc:event:ready'),
  ...eventPair('svc:event:error'),
  ...eventPair('svc:event:view', { surface: 'dashboard', path: '/embed/dashboard/dash01' }),
  ...loaded(950),
  ...actionPair('svc:action:set-color-scheme', undefined, '*'),
  ...actionPair('svc:action:set-timezone', { timezone: 'Mars/Olympus_Mons' }),
]);

describe('embed-inspector diff: text', () => {
  it('exits 1 and leads with the new error when B regresses, then says what changed', async () => {
    const { code, out } = await run(A, B);
    expect(code).toBe(1);
    const lines = out.split('\n');
    expect(lines[0]).toBe(`diff ${A} → ${B}`);
    expect(lines[3]).toBe('✗ B has 1 new error: origin.action-wildcard (0 → 1)');
    expect(out).toContain('  - A: healthy\n  + B: the host sends actions to "*", not the tenant origin (see #');
    expect(out).toMatch(/^ {2}\+ origin\.action-wildcard +none → 1 error$/m);
    expect(out).toMatch(/^ {2}\+ action\.timezone-unknown +none → 1 warning$/m);
    expect(out).toMatch(/^ {6}B #\d+ svc:action:set-color-scheme: /m);
    expect(out).toMatch(/^ {2}\+ svc:action:set-timezone +0 → 1$/m);
    expect(out).toMatch(/^ {2}\+ svc:event:error +0 → 1$/m);
    expect(out).toContain(
      'Order of events: differs (3 events in A, 4 in B)\n    ready\n  + error\n    view, dashboard-loaded',
    );
    expect(out).toContain('  svc:event:view\n    - only in A: title');
    expect(out).toContain("Timing (ms from the embed frame's navigation)");
    expect(out).toMatch(/^ {2}ready +10 ms → 10 ms {2}\(±0 ms\)$/m);
    expect(out).toMatch(/^ {2}dashboard-loaded +50 ms → 70 ms {2}\(\+20 ms\)$/m);
    expect(out).toMatch(/^ {2}loadDurationMs +800 ms → 950 ms {2}\(\+150 ms\)$/m);
    expect(out).not.toContain('\x1b[');
  });

  it('exits 0 with a new warning alone, and says B has no new error', async () => {
    const W = write('w.json', [
      ...healthy,
      ...actionPair('svc:action:set-timezone', { timezone: 'Mars/Olympus_Mons' }),
    ]);
    const { code, out } = await run(A, W);
    expect(code).toBe(0);
    expect(out).toContain('✓ no new errors in B; new warnings: action.timezone-unknown (0 → 1)');
  });

  it('exits 0 when nothing but counts and timing changed, and says there is no new issue', async () => {
    const { code, out } = await run(A, A2);
    expect(code).toBe(0);
    expect(out).toContain('✓ no new issues in B');
    expect(out).toContain('Integration: the same: healthy');
    expect(out).toContain('Issues by rule: none in either');
    expect(out).toMatch(/^ {2}~ svc:event:view +1 → 2$/m);
    expect(out).toContain('Payload fields: the same for the 4 types in both');
  });

  it('exits 0 for an improvement: B lost A’s error', async () => {
    const { code, out } = await run(B, A);
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}- origin\.action-wildcard +1 error → none$/m);
  });
});

describe('embed-inspector diff: JSON', () => {
  it('has the same content: the headline, both sides, rules, types, order, fields, timing, integration', async () => {
    const { code, out } = await run(A, B, '--format', 'json');
    expect(code).toBe(1);
    const d = JSON.parse(out);
    expect(d.exitCode).toBe(1);
    expect(d.headline).toBe('✗ B has 1 new error: origin.action-wildcard (0 → 1)');
    expect(d.a).toMatchObject({ file: A, messages: 4, events: 3, errors: 0 });
    expect(d.b).toMatchObject({ file: B, messages: 6, events: 4, errors: 1, warnings: 1 });
    expect(d.newIssues).toEqual([
      { rule: 'origin.action-wildcard', severity: 'error', a: 0, b: 1 },
      { rule: 'action.timezone-unknown', severity: 'warning', a: 0, b: 1 },
    ]);
    expect(d.rules.map((r: { rule: string; status: string }) => `${r.rule}:${r.status}`)).toEqual([
      'action.timezone-unknown:new',
      'origin.action-wildcard:new',
    ]);
    expect(d.types).toContainEqual({ type: 'svc:event:error', status: 'added', a: 0, b: 1 });
    expect(d.order.same).toBe(false);
    expect(d.order.hunks[1]).toEqual({ op: 'added', events: [{ type: 'svc:event:error', count: 1 }] });
    expect(d.shapes.changed).toEqual([{ type: 'svc:event:view', onlyA: ['title'], onlyB: [] }]);
    expect(d.timing.loadDurationMs).toEqual({ a: 800, b: 950, difference: 150 });
    expect(d.integration.same).toBe(false);
    expect(d.integration.b.state).toBe('actions-wrong-origin');
  });
});

describe('embed-inspector diff: unusable input and flags', () => {
  // [what, argv, the error class, its message]
  const table: Array<[string, string[], typeof UsageError | typeof InputError, RegExp]> = [
    ['one file', [A], UsageError, /^diff needs two capture files, A and B \(got 1;/],
    ['three files', [A, A, A], UsageError, /got 3/],
    ['a missing file', [A, join(dir, 'nope.json')], InputError, /nope\.json: no such file$/],
    ['a bad format', [A, B, '--format', 'junit'], UsageError, /^--format must be one of text, json/],
    ['a bad tenant origin', [A, B, '--tenant-origin', 'acme'], UsageError, /^--tenant-origin must be an origin/],
    ['an unknown flag', [A, B, '--fail-on', 'warning'], UsageError, /fail-on/],
  ];
  it.each(table)('%s', async (_what, argv, type, message) => {
    const out: string[] = [];
    const err = await runDiff(argv, { out: (s) => out.push(s) }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(type);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
    expect(out).toEqual([]);
  });

  it('reads a file that is not a capture as unusable', async () => {
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"format":"something-else"}');
    await expect(runDiff([A, junk], { out: () => {} })).rejects.toThrow(InputError);
  });
});
