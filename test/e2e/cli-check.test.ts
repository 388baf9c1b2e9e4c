// The built command line, as QA runs it: `npx embed-inspector check …` from the repo root (after npm run build).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBED_URL, T0, msg, navigation, rec } from '../fixtures/messages.ts';
import { ROOT as root } from '../helpers/paths.ts';

const run = (cmd: string, pre: string[], args: string[]) => {
  const r = spawnSync(cmd, [...pre, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return {
    code: r.status,
    out: r.stdout,
    err: r.stderr
      .split('\n')
      .filter((l) => l && !l.startsWith('npm warn'))
      .join('\n'),
  };
};
const cli = (...args: string[]) => run(process.execPath, ['bin/embed-inspector.js'], args);
const dir = mkdtempSync(join(tmpdir(), 'ei-cli-'));
const write = (name: string, content: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};
const capture = (messages: unknown[], tenantOrigin: string | null = null) => ({
  format: 'embed-inspector-capture',
  version: 1,
  tenantOrigin,
  messages: messages.map((m: any, i) => ({ ...m, seq: i + 1 })),
});
const clean = join(root, 'test/fixtures/captures/clean-session.json');

describe('embed-inspector check', () => {
  it('runs as `npx embed-inspector` from the repo root', () => {
    const r = run('npx', ['--no-install', 'embed-inspector'], ['check', clean]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('4 valid');
  });

  it('exits 0 on a clean capture and says what it checked', () => {
    const r = cli('check', clean);
    expect(r.code).toBe(0);
    expect(r.out).toContain('tenant origin: https://acme.example.com (from the capture file)');
    expect(r.out).toContain('5 messages: 4 valid, 0 invalid, 1 foreign');
    expect(r.out).toMatch(/5 records · findings: 0 errors, 0 warnings, 0 infos · checks: [1-9]\d* passed, 0 failed/);
  });

  it('exits 1 with any error-severity issue and names rule, path and problem', () => {
    const bad = write(
      'bad.json',
      capture([
        // (the embed frame, as a capture of the extension holds it: the tenant origin is its origin)
        { ...navigation(EMBED_URL), time: T0 - 10 },
        rec(msg('svc:event:ready')),
        rec(msg('svc:action:set-timezone', { timezone: 'UTC+2' }), { targetOrigin: '*' }),
      ]),
    );
    const r = cli('check', bad);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/error\s+action\.timezone\s+payload\.timezone\s+"UTC\+2" is a bare UTC offset/);
    expect(r.out).toMatch(/error\s+origin\.action-wildcard/);
  });

  it('exits 0 when only warnings are found', () => {
    const warn = write(
      'warn.json',
      capture([
        rec(msg('svc:event:ready')),
        rec(msg('svc:event:download', { format: 'png', target: 'dashboard', rowCount: 3 })),
      ]),
    );
    const r = cli('check', warn, '--format', 'json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).summary).toMatchObject({ warnings: 1, errors: 0 });
  });

  it('--format json has the documented shape', () => {
    const r = cli('check', clean, '--format', 'json');
    const j = JSON.parse(r.out);
    expect(j.summary).toMatchObject({ messages: 5, valid: 4, invalid: 0, foreign: 1, errors: 0 });
    expect(j.messages[0]).toMatchObject({
      file: clean,
      seq: 1,
      verdict: 'valid',
      issues: [],
      type: 'svc:event:ready',
      kind: 'receive',
      direction: 'event',
      frameUrl: 'https://host.example.org/analytics',
      origin: 'https://acme.example.com',
      surface: 'dashboard',
    });
    expect(j.messages[4].verdict).toBe('foreign');
    expect(j.summary).toMatchObject({ records: 5, exitCode: 0, reasons: [], checksFailed: 0 });
    expect(j.checks).toHaveLength(j.summary.checks);
    // (svc-embed messages were seen: their ready is expected, and met)
    expect(j.expectations).toEqual([{ file: clean, type: 'svc:event:ready', implicit: true, met: true, seq: 1 }]);
  });

  it('--format junit has one test case per check, a failure for each failing one', () => {
    const bad = write('bad2.json', capture([rec(msg('svc:event:view')), rec(msg('svc:event:ready'))]));
    const r = cli('check', bad, '--format', 'junit');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^<\?xml/);
    const cases = r.out.match(/<testcase /g) ?? [];
    const failures = r.out.match(/<failure /g) ?? [];
    expect(failures).toHaveLength(1);
    expect(r.out).toContain(`<testsuite name="${bad}" tests="${cases.length}" failures="1"`);
    expect(r.out).toMatch(
      /<testcase classname="embed-inspector\.session" name="session\.event-before-ready · svc:event:view \(receive\)"[^>]*><failure /,
    );
    expect(r.out).toContain('<testcase classname="embed-inspector.messages" name="svc:event:ready (receive)"');
  });

  it('fails a capture with no embed traffic, unless --allow-empty', () => {
    const empty = write(
      'empty.json',
      capture([
        {
          kind: 'receive',
          time: 1,
          frameUrl: 'https://host.example.org/',
          origin: 'https://host.example.org',
          data: { hello: 1 },
        },
      ]),
    );
    const r = cli('check', empty);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`✗ no embed traffic seen in ${empty}`);
    const junit = cli('check', empty, '--format', 'junit');
    expect(junit.code).toBe(1);
    expect(junit.out).not.toContain('tests="0"');
    expect(cli('check', empty, '--allow-empty').code).toBe(0);
  });

  it('fails an expired session: a fatal error before ready, never ready', () => {
    const embed = 'https://acme.example.com/embed/dashboard/dash01';
    const expired = write(
      'expired.json',
      capture([
        {
          kind: 'receive',
          time: 1,
          frameUrl: embed,
          origin: 'https://acme.example.com',
          data: { url: embed },
          navigation: true,
        },
        rec(msg('svc:event:error', { message: 'session expired', fatal: true })),
      ]),
    );
    const r = cli('check', expired);
    expect(r.code).toBe(1);
    expect(r.out).toContain('✗ the embed failed to start: session expired');
    expect(r.out).toContain('✗ expected svc:event:ready, never seen');
  });

  const expectations: Array<[string, string[], number]> = [
    ['one type that is there', ['--expect', 'svc:event:dashboard-loaded'], 0],
    [
      'several, comma-separated and repeated',
      ['--expect', 'svc:event:ready,svc:event:view', '--expect', 'svc:action:set-color-scheme'],
      0,
    ],
    ['one type that is not there', ['--expect', 'svc:event:download'], 1],
    ['one there and one not', ['--expect', 'svc:event:view', '--expect', 'svc:action:refresh'], 1],
  ];
  it.each(expectations)('--expect %s', (_what, flags, code) => {
    const r = cli('check', clean, ...flags);
    expect(r.code).toBe(code);
    if (code) {
      expect(r.out).toMatch(/✗ expected svc:[a-z:-]+, never seen/);
    }
  });

  it('--fail-on warning fails on a warning that passes by default', () => {
    const warn = write(
      'warn2.json',
      capture([
        rec(msg('svc:event:ready')),
        rec(msg('svc:event:download', { format: 'png', target: 'dashboard', rowCount: 3 })),
      ]),
    );
    expect(cli('check', warn).code).toBe(0);
    expect(cli('check', warn, '--fail-on', 'error').code).toBe(0);
    const r = cli('check', warn, '--fail-on', 'warning', '--format', 'json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).summary).toMatchObject({ warnings: 1, exitCode: 1 });
  });

  it('--tenant-origin overrides the file and turns on origin rules', () => {
    const r = cli('check', clean, '--tenant-origin', 'https://other.example.com', '--format', 'json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).summary.rules).toMatchObject({ 'origin.event': 3, 'origin.action-target': 1 });
  });

  it('checks several files and fails if any fails', () => {
    const bad = write('bad3.json', capture([rec(msg('svc:event:view', { surface: 'dashboard', path: 5 }))]));
    const r = cli('check', clean, bad);
    expect(r.code).toBe(1);
    expect(r.out).toContain(clean);
    expect(r.out).toContain(bad);
  });

  const unusable: Array<[string, () => string[], RegExp]> = [
    ['a missing file', () => [join(dir, 'nope.json')], /nope\.json: no such file/],
    ['a directory', () => [dir], /is a directory/],
    ['not JSON', () => [write('x.json', '{"format": ')], /not JSON/],
    ['wrong format', () => [write('f.json', { format: 'har', version: 1, messages: [] })], /"format" is "har"/],
    [
      'wrong version',
      () => [write('v.json', { format: 'embed-inspector-capture', version: 2, tenantOrigin: null, messages: [] })],
      /unsupported capture version 2/,
    ],
    [
      'a malformed record',
      () => [
        write('m.json', { format: 'embed-inspector-capture', version: 1, tenantOrigin: null, messages: [{ seq: 1 }] }),
      ],
      /messages\[0\]\.time/,
    ],
    [
      'an unreadable file',
      () => {
        const p = write('locked.json', '{}');
        chmodSync(p, 0);
        return [p];
      },
      process.getuid?.() === 0 ? /not a capture file|permission denied/ : /permission denied/,
    ],
    ['a bad flag', () => ['--frobnicate', clean], /Unknown option '--frobnicate'/],
    ['a bad format', () => ['--format', 'xml', clean], /--format must be one of text, json, junit/],
    ['a bad tenant origin', () => ['--tenant-origin', 'acme', clean], /--tenant-origin must be an origin/],
    [
      'a bad --expect type',
      () => ['--expect', 'svc:event:ready,svc:event:redy', clean],
      /--expect: unknown message type "svc:event:redy"; one of svc:event:ready, .*svc:action:refresh$/,
    ],
    [
      'a short --expect type',
      () => ['--expect', 'navigate', clean],
      /unknown message type "navigate" \(did you mean svc:event:navigate or svc:action:navigate\?\)/,
    ],
    ['a bad --fail-on', () => ['--fail-on', 'info', clean], /--fail-on must be one of error, warning/],
    // (what Number() would read as 0, 16 and 1000)
    ['an empty --ready-timeout', () => ['--ready-timeout=', clean], /--ready-timeout must be a whole number/],
    ['a hexadecimal --ready-timeout', () => ['--ready-timeout=0x10', clean], /--ready-timeout must be a whole/],
    ['an exponent --ready-timeout', () => ['--ready-timeout', '1e3', clean], /--ready-timeout must be a whole/],
    ['no file', () => [], /needs at least one capture file/],
    // (a stranger's file: V8's message quotes its first bytes; they reach stderr inert, on the one line)
    ['a file of terminal escapes', () => [write('esc.json', '\u001b]0;PWNED\u0007\u001b[2J')], /not JSON.*\\u001b/],
    ['JSON cut after a line break', () => [write('cut.json', '{"format":\n\n')], /not JSON/],
    ['a name of terminal escapes', () => [join(dir, '\u001b[2Jgone.json')], /\\u001b\[2Jgone\.json: no such file/],
  ];
  it.each(unusable)('exits 2 on %s with a one-line reason and nothing on stdout', (_name, args, reason) => {
    const r = cli('check', ...args());
    expect(r.code).toBe(2);
    expect(r.err).toMatch(reason);
    expect(r.err.split('\n')).toHaveLength(1);
    expect([...r.err].filter((c) => c.charCodeAt(0) < 0x20)).toEqual([]); // (no control character: inert)
    expect(r.out).toBe('');
  });

  it('reads a file that starts with a byte-order mark (as some editors save JSON)', () => {
    const r = cli('check', write('bom.json', `\ufeff${readFileSync(clean, 'utf8')}`));
    expect(r.code).toBe(0);
    expect(r.out).toContain('4 valid');
  });

  it('prints nothing when one of several files is unusable', () => {
    const r = cli('check', clean, join(dir, 'missing.json'));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
  });

  it('the checked-in example is the documented format', () => {
    const j = JSON.parse(readFileSync(clean, 'utf8'));
    expect(Object.keys(j)).toEqual(['format', 'version', 'tenantOrigin', 'messages']);
  });
});
