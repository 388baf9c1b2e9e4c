// `embed-inspector har`: a capture file written as HAR (redacted unless --no-redact), read back by check's loader;
// bad flags and inputs are one-line errors (exit 2 through main).
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCapture } from '../protocol/capture.ts';
import type { CaptureFile } from '../protocol/record.ts';
import { UsageError } from './args.ts';
import { InputError, loadCapture } from './check.ts';
import { HAR_HELP, runHar } from './har-command.ts';

const dir = mkdtempSync(join(tmpdir(), 'ei-har-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clean = readCapture(
  JSON.parse(readFileSync(new URL('../../test/fixtures/captures/clean-session.json', import.meta.url), 'utf8')),
);
const capture: CaptureFile = {
  ...clean,
  rest: [
    {
      time: Date.UTC(2026, 10, 23, 10, 0, 0),
      method: 'GET',
      url: 'https://acme.example.com/api/v1/deployments/7/workbooks/9',
      status: 200,
      requestHeaders: { Authorization: 'Bearer tok-admin-secret' },
      requestBody: null,
      responseBody: '{"id":9,"type":"WORKBOOK"}',
      durationMs: 4,
    },
  ],
};
const input = join(dir, 'capture.json');
writeFileSync(input, JSON.stringify(capture));

const run = async (argv: string[]) => {
  let out = '';
  const code = await runHar(argv, { out: (s) => (out += s) });
  return { code, out };
};

describe('embed-inspector har', () => {
  it('writes the capture as a HAR, redacted; check’s loader reads it back', async () => {
    const out = join(dir, 'a.har');
    const r = await run([input, '--out', out]);
    expect(r).toEqual({
      code: 0,
      out: `wrote ${out}: 1 REST call as entries, ${clean.messages.length} records in _embedMessages, secrets redacted\n`,
    });
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('tok-admin-secret');
    const har = JSON.parse(text);
    expect(har.log.creator.name).toBe('embed-inspector');
    expect(har.log.entries).toHaveLength(1);
    const back = await loadCapture(out);
    expect(back.messages).toEqual(clean.messages);
    expect(back.rest?.[0].requestHeaders).toEqual({ Authorization: 'Bearer [redacted]' });
    expect(back.meta?.redacted).toBe(true);
  });

  it('--no-redact keeps the file as it is', async () => {
    const out = join(dir, 'raw.har');
    const r = await run([input, '--out', out, '--no-redact']);
    expect(r.out).toMatch(/NOT redacted/);
    expect(await loadCapture(out)).toEqual(capture);
  });

  it('--help', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, out: `${HAR_HELP}\n` });
  });

  it('never writes over its input, named another way or linked', async () => {
    const before = readFileSync(input, 'utf8');
    const link = join(dir, 'link.json');
    symlinkSync(input, link);
    for (const out of [join(dir, '.', 'capture.json'), link]) {
      await expect(run([input, '--out', out])).rejects.toThrow(/would be overwritten/);
    }
    expect(readFileSync(input, 'utf8')).toBe(before);
  });

  it.each([
    [[], UsageError, 'har needs a capture file (see embed-inspector har --help)'],
    [[input], UsageError, 'har needs --out FILE.har (see embed-inspector har --help)'],
    [
      [input, input, '--out', 'x.har'],
      UsageError,
      'har takes one capture file, got 2 (see embed-inspector har --help)',
    ],
    [[input, '--out'], UsageError, "Option '-o, --out <value>' argument missing"],
    [[input, '--redact', '--out', 'x.har'], UsageError, "Unknown option '--redact'"],
    [[join(dir, 'none.json'), '--out', 'x.har'], InputError, `${join(dir, 'none.json')}: no such file`],
    [
      [input, '--out', input],
      UsageError,
      `--out ${input} is the input file ${input}: it would be overwritten; write elsewhere`,
    ],
    [
      [input, '--out', join(dir, 'no', 'such', 'x.har')],
      InputError,
      `${join(dir, 'no', 'such', 'x.har')}: cannot write (no such directory)`,
    ],
  ])('%j: one line', async (argv, kind, message) => {
    const err = await run(argv).catch((e) => e);
    expect(err).toBeInstanceOf(kind);
    expect(err.message).toBe(message);
  });
});
