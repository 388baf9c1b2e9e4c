// `embed-inspector coverage FILE…` as QA reads it: the reporter's summary first (the same text, from the same model),
// the JSON is the coverage.json contract (its schema validates it), the page is escaped, --min fails with the types
// named, and unusable input or flags are a one-line error (exit 2 in main.ts).
import Ajv2020 from 'ajv/dist/2020.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aggregateCoverage, summarizeCapture } from '../protocol/coverage.ts';
import type { CaptureFile, CaptureRecord } from '../protocol/record.ts';
import { coverageText } from '../node/coverage-text.ts';
import { actionPair, EMBED_URL, eventPair, msg, navigation, numbered, rec } from '../../test/fixtures/messages.ts';
import { UsageError } from './args.ts';
import { InputError } from './check.ts';
import { runCoverage } from './coverage-command.ts';

const schema = JSON.parse(readFileSync(new URL('../../schema/coverage.schema.json', import.meta.url), 'utf8'));
const validate = new (Ajv2020 as any)({ strict: true, allErrors: true }).compile(schema);

const dir = mkdtempSync(join(tmpdir(), 'ei-coverage-unit-'));
const capture = (records: Array<Record<string, unknown>>): CaptureFile => ({
  format: 'embed-inspector-capture',
  version: 1,
  tenantOrigin: null,
  messages: numbered(records) as CaptureRecord[],
});
const write = (name: string, file: CaptureFile) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(file));
  return path;
};
const run = async (...argv: string[]) => {
  let out = '';
  let err = '';
  const code = await runCoverage(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
};

const HOSTILE = '<script>alert(1)</script>\u001b]0;pwned\u0007\nEmbed protocol coverage: 100%';
const A = capture([
  navigation(EMBED_URL),
  ...eventPair('svc:event:ready'),
  ...eventPair('svc:event:view'),
  ...actionPair('svc:action:set-color-scheme', undefined, '*'),
]);
const B = capture([
  ...eventPair('svc:event:ready'),
  ...eventPair('svc:event:download', { format: HOSTILE, target: 'widget' }),
  rec({ ...msg('svc:event:ready'), type: `svc:event:${HOSTILE}` }),
  rec(msg('svc:action:set-locale', { locale: 'token=abcdef123456' })),
]);
const fileA = write('a.json', A);
const fileB = write('b.json', B);

describe('embed-inspector coverage', () => {
  it('prints the reporter’s summary of the files, then each type and each file', async () => {
    const { code, out, err } = await run(fileA, fileB);
    expect(code).toBe(0);
    expect(err).toBe('');
    const summary = coverageText(
      aggregateCoverage([
        { id: fileA, title: fileA, summaries: [summarizeCapture(A)] },
        { id: fileB, title: fileB, summaries: [summarizeCapture(B)] },
      ]),
    );
    expect(out.startsWith(`${summary}\n\nTypes:\n`)).toBe(true);
    expect(out).toContain('Embed protocol coverage: 2 tests, 7 messages');
    expect(out).toContain('  events 3/8 (37.5%) · actions 2/7 (28.6%)');
    expect(out).toMatch(/^ {2}never sent: svc:event:navigate$/m);
    expect(out).toMatch(/^ {2}svc:action:set-color-scheme +1 message, 1 invalid; post\/delivery: dashboard 1\/1, /m);
    expect(out).toContain(`  ${fileA}: 3 messages, 3 types; fired origin.action-wildcard`);
  });

  it('keeps what the page sent inert and redacted in text', async () => {
    const { out } = await run(fileB);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(out.split('\n').filter((l) => l.startsWith('Embed protocol coverage:'))).toHaveLength(1);
    expect(out).toContain('\\u001b]0;pwned\\u0007\\nEmbed protocol coverage: 100%');
    expect(out).not.toContain('abcdef123456');
  });

  it('--format json is the coverage.json contract', async () => {
    const { code, out } = await run(fileA, fileB, '--format', 'json', '--min', 'events=10');
    expect(code).toBe(0);
    const json = JSON.parse(out);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.summary.events).toEqual({ covered: 3, total: 8 });
    expect(json.types['svc:event:download'].otherValues.format).toEqual({ [HOSTILE]: 1 });
    expect(json.tests.map((t: { capture: string }) => t.capture)).toEqual([
      expect.stringMatching(/a\.json$/),
      expect.stringMatching(/b\.json$/),
    ]);
    expect(json.minimum).toEqual({ required: { events: 10 }, misses: [] });
    expect(out).not.toContain('abcdef123456');
  });

  it('the schema refuses what is not the contract', () => {
    const c = JSON.parse(JSON.stringify(aggregateCoverage([])));
    expect(validate(c)).toBe(true);
    for (const broken of [
      { ...c, version: 2 },
      { ...c, summary: { ...c.summary, events: { covered: -1, total: 8 } } },
      { ...c, types: { ...c.types, 'svc:event:ready': { ...c.types['svc:event:ready'], seen: 'yes' } } },
      { ...c, extra: true },
    ]) {
      expect(validate(broken)).toBe(false);
    }
  });

  it('--format html --out writes one page, every string of the capture escaped, links relative to the page', async () => {
    const out = join(dir, 'report.html');
    const r = await run(fileA, fileB, '--format', 'html', '--out', out);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`wrote ${out}: the coverage of 2 files (html)\n`);
    const page = readFileSync(out, 'utf8');
    expect(page).not.toContain('<script');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('<a href="a.json">capture</a>');
    expect(page).not.toMatch(/<(link|img|iframe|object|embed)\b|src=|url\(/i);
    expect(page).toContain(`default-src 'none'`);
    for (const type of Object.keys(aggregateCoverage([]).types)) {
      expect(page).toContain(`<tr data-type="${type}"`);
    }
    // The gaps come first.
    expect(page.indexOf('id="gaps"')).toBeLessThan(page.indexOf('id="matrix"'));
  });

  it('--min: exit 1 with one line per miss on stderr, naming what is missing', async () => {
    const { code, err } = await run(fileA, '--min', 'events=100,actions=80');
    expect(code).toBe(1);
    expect(err.trim().split('\n')).toEqual([
      'embed-inspector coverage: events 2/8 (25%) is below the minimum of 100%: never sent: svc:event:navigate, ' +
        'svc:event:dashboard-loaded, svc:event:download, svc:event:drilldown, svc:event:ai-query, svc:event:error',
      'embed-inspector coverage: actions 1/7 (14.3%) is below the minimum of 80%: never sent: svc:action:set-theme, ' +
        'svc:action:set-locale, svc:action:set-timezone, svc:action:set-filter, svc:action:navigate, svc:action:refresh',
    ]);
  });

  it('--no-redact keeps the page’s strings and says so on stderr', async () => {
    const { out, err } = await run(fileB, '--no-redact', '--format', 'json');
    expect(JSON.parse(out).types['svc:action:set-locale']).toBeDefined();
    expect(err).toMatch(/^embed-inspector coverage: --no-redact: its output holds session ids/);
  });

  it('refuses unusable input and flags with one line, printing nothing', async () => {
    await expect(run(join(dir, 'missing.json'))).rejects.toThrow(
      new InputError(`${join(dir, 'missing.json')}: no such file`),
    );
    await expect(run(write('bad.json', { nope: 1 } as never))).rejects.toThrow(InputError);
    await expect(run()).rejects.toThrow(UsageError);
    await expect(run(fileA, '--min', 'events')).rejects.toThrow(
      new UsageError('--min: "events" is not KEY=PERCENT (e.g. events=100,actions=80)'),
    );
    // (`--min "$COVERAGE_MIN"` with the variable unset: refused, not a run with no gate)
    for (const empty of ['', ' , ']) {
      await expect(run(fileA, '--min', empty)).rejects.toThrow(
        new UsageError('--min: no threshold given (e.g. events=100,actions=80)'),
      );
    }
    await expect(run(fileA, '--format', 'xml')).rejects.toThrow(UsageError);
    await expect(runCoverage([fileA, '--format', 'html'], { out: () => {}, isTTY: true })).rejects.toThrow(
      /--format html writes a page: give --out FILE/,
    );
  });
});
