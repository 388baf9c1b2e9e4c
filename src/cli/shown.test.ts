// What the command line prints or writes of a stranger's capture is inert and redacted: a type string with terminal
// escapes cannot retitle or clear a terminal, nor write a fake "✓ 0 errors" line into a CI log; a session id, a
// bearer token or a JWT of an unredacted input (a `record --no-redact` file, a browser's HAR with sensitive data) is
// never printed, unless --no-redact, which says so on stderr.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMBED_URL, HOST, TENANT, actionPair, eventPair, navigation, numbered } from '../../test/fixtures/messages.ts';
import { InputError, loadCapture, runCheck } from './check.ts';
import { runCodegen } from './codegen.ts';
import { runDiff } from './diff-command.ts';

const dir = mkdtempSync(join(tmpdir(), 'ei-shown-'));
const ESC = '\x1b';
const HOSTILE_TYPE = `svc:event:x${ESC}]0;pwned${'\x07'}${ESC}[2J\r  ✓ 0 errors\n✓ passed\u202eevil`;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl';
const SECRETS = ['sess-secret-42', 'tok-9876543', 'key-5550123', JWT];

function write(name: string): string {
  const embed = `${EMBED_URL.replace('s-1', 'sess-secret-42')}&access_token=tok-9876543`;
  const messages = numbered([
    navigation(embed),
    ...eventPair('svc:event:ready'),
    ...actionPair('svc:action:set-filter', { filterUrlParameter: `f_x.token=${JWT}` }),
    {
      kind: 'receive',
      frameUrl: `${HOST}/app?session=sess-secret-42`,
      origin: TENANT,
      data: { source: 'svc-embed', direction: 'event', type: HOSTILE_TYPE, payload: {}, surface: 'dashboard' },
    },
  ]).map((r) => ({ ...r, frameUrl: r.frameUrl === EMBED_URL ? embed : r.frameUrl }));
  const path = join(dir, name);
  const meta = { pageUrl: `${HOST}/app?session=sess-secret-42&api_key=key-5550123` };
  writeFileSync(
    path,
    JSON.stringify({ format: 'embed-inspector-capture', version: 1, tenantOrigin: null, messages, meta }),
  );
  return path;
}
const FILE = write('hostile.json');

async function run(fn: typeof runCheck, ...argv: string[]) {
  let out = '';
  let err = '';
  const code = await fn(argv, { out: (s: string) => (out += s), err: (s: string) => (err += s) } as never);
  return { code, out, err };
}

/** No control character of the capture's reaches the output: only our own newlines (and colours, off here). */
function expectInert(text: string): void {
  expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  expect(text.split('\n').filter((l) => /^\s*✓ (0 errors|passed)/.test(l))).toEqual([]);
}
function expectRedacted(text: string): void {
  for (const s of SECRETS) {
    expect(text).not.toContain(s);
  }
}

describe('check, diff and codegen print a hostile capture inert and redacted', () => {
  it.each(['text', 'junit'])('check --format %s', async (format) => {
    const r = await run(runCheck, FILE, '--format', format, '--all');
    expectInert(r.out);
    expectRedacted(r.out);
    expect(r.out).toContain('\\u001b]0;pwned');
    expect(r.err).toBe('');
  });

  it('check --format json: redacted (JSON escapes control characters itself)', async () => {
    const r = await run(runCheck, FILE, '--format', 'json');
    expectRedacted(r.out);
    expect(() => JSON.parse(r.out)).not.toThrow();
  });

  it('diff, text and JSON', async () => {
    const text = await run(runDiff as never, FILE, FILE);
    expectInert(text.out);
    expectRedacted(text.out);
    expectRedacted((await run(runDiff as never, FILE, FILE, '--format', 'json')).out);
  });

  it('codegen: the test reads the redacted URL parameters from the environment, holds no secret', async () => {
    const r = await run(runCodegen as never, FILE, '--playwright');
    expectRedacted(r.out);
    expect(r.out).toContain('EMBED_SESSION');
    expect(r.out).toContain('EMBED_API_KEY');
  });

  it('--no-redact prints the secrets, and says so on stderr', async () => {
    const r = await run(runCheck, FILE, '--all', '--no-redact');
    expect(r.out).toContain('sess-secret-42');
    expect(r.err).toMatch(/--no-redact: .* secrets in clear/);
    expectInert(r.out);
  });

  it('a capture file keeps a __proto__ key as data through check', async () => {
    const path = join(dir, 'proto.json');
    const text = readFileSync(FILE, 'utf8').replace(
      '"messages":[',
      '"meta":{"__proto__":{"redacted":false}},"messages":[',
    );
    writeFileSync(path, text);
    const r = await run(runCheck, path, '--format', 'json');
    expect(r.code).not.toBe(2);
  });

  it('a file nested 100,000 levels deep is refused in one line, not with a stack overflow', async () => {
    const path = join(dir, 'deep.json');
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    writeFileSync(
      path,
      `{"format":"embed-inspector-capture","version":1,"tenantOrigin":null,"messages":[],"meta":{"x":${deep}}}`,
    );
    await expect(loadCapture(path)).rejects.toThrow(InputError);
    await expect(loadCapture(path)).rejects.toThrow(/nested too deeply: more than 1000 levels/);
  });
});
