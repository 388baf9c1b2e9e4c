// The verdict of a run, as a CI job sees it: does an empty page, an embed that never got ready, an expired
// session, a missing expected event or a warning fail the run, and is each message and finding counted once.
import { describe, expect, it } from 'vitest';
import { checkRecords } from './capture.ts';
import type { CaptureRecord } from './record.ts';
import {
  EMBED_URL,
  HOST,
  T0,
  TENANT,
  actionPair,
  eventPair,
  foreign,
  msg,
  navigation,
  numbered as numberedAny,
  rec,
} from '../../test/fixtures/messages.ts';

import { evaluate, parseExpect, type EvaluateOptions } from './verdict.ts';

const EMBED = EMBED_URL;
const numbered = (records: Array<Record<string, unknown>>, base = 1, t0 = T0): CaptureRecord[] =>
  numberedAny(records, base, t0) as CaptureRecord[];
const run = (records: Array<Record<string, unknown>>, opts: EvaluateOptions = {}) => {
  const rs = numbered(records);
  return evaluate(rs, checkRecords(rs), opts);
};
const _APP = `${HOST}/app`;
const expired = [navigation(EMBED), ...eventPair('svc:event:error', { message: 'session expired', fatal: true })];
const session = [
  navigation(EMBED),
  ...eventPair('svc:event:ready'),
  ...eventPair('svc:event:view'),
  ...actionPair('svc:action:set-color-scheme'),
  foreign,
];

describe('evaluate: when a run fails', () => {
  // [what, records, options, exit code, the reasons (each matched in order)]
  const table: Array<[string, Array<Record<string, unknown>>, EvaluateOptions, 0 | 1, RegExp[]]> = [
    [
      'a page with no embed at all',
      [foreign],
      { where: 'https://host.example.org/' },
      1,
      [/^no embed traffic seen on https:\/\/host\.example\.org\/$/],
    ],
    ['no record at all, from a file', [], { where: 'capture.json' }, 1, [/^no embed traffic seen in capture\.json$/]],
    ['no record at all, nowhere said', [], {}, 1, [/^no embed traffic seen$/]],
    [
      'no record at all, from a Windows path',
      [],
      { where: 'C:\\ci\\run.json' },
      1,
      [/^no embed traffic seen in C:\\ci\\run\.json$/],
    ],
    ['an empty page with --allow-empty', [foreign], { allowEmpty: true }, 0, []],
    ['an embed frame that never got ready', [navigation(EMBED)], {}, 1, [/^expected svc:event:ready, never seen$/]],
    [
      'an embed frame that never got ready, even with --allow-empty',
      [navigation(EMBED)],
      { allowEmpty: true },
      1,
      [/never seen/],
    ],
    [
      'an expired session (fatal error before ready)',
      expired,
      {},
      1,
      [/session expired/, /^expected svc:event:ready, never seen$/],
    ],
    ['a clean session', session, {}, 0, []],
    ['a clean session, --expect met', session, { expect: ['svc:event:view', 'svc:action:set-color-scheme'] }, 0, []],
    [
      'a clean session, --expect unmet',
      session,
      { expect: ['svc:event:dashboard-loaded'] },
      1,
      [/^expected svc:event:dashboard-loaded, never seen$/],
    ],
    [
      'svc-embed traffic without an embed frame: ready implied all the same',
      [rec(msg('svc:event:view'))],
      {},
      1,
      [/^expected svc:event:ready, never seen$/, /session\.event-before-ready/],
    ],
    [
      // (the embed's site not captured, or a capture of the host alone: its actions went to an embed that never spoke)
      'a host acting on an embed that never said ready, no embed frame seen',
      [navigation(`${HOST}/app`), ...actionPair('svc:action:set-color-scheme').slice(0, 1)],
      {},
      1,
      [/^expected svc:event:ready, never seen$/],
    ],
    [
      'a warning, failing on errors',
      [...session, rec(msg('svc:event:download', { format: 'png', target: 'dashboard', rowCount: 3 }))],
      {},
      0,
      [],
    ],
    [
      'a warning, --fail-on warning',
      [...session, rec(msg('svc:event:download', { format: 'png', target: 'dashboard', rowCount: 3 }))],
      { failOn: 'warning' },
      1,
      [/^1 warning \(--fail-on warning\) in 1 check: download\.row-count · svc:event:download \(receive\)$/],
    ],
    [
      'an action posted to *',
      [...session, ...actionPair('svc:action:refresh', {}, '*')],
      {},
      1,
      [/^1 error \(--fail-on error\) in 1 check: origin\.action-wildcard · svc:action:refresh \(post\)$/],
    ],
  ];
  it.each(table)('%s', (_what, records, opts, exitCode, reasons) => {
    const e = run(records, opts);
    expect(e.exitCode, e.reasons.join('\n')).toBe(exitCode);
    expect(e.passed).toBe(exitCode === 0);
    expect(e.reasons).toHaveLength(reasons.length);
    for (const [k, r] of reasons.entries()) {
      expect(e.reasons[k]).toMatch(r);
    }
    // Every reason is a failing check, and a run with no failing check has no reason.
    expect(e.figures.checksFailed > 0).toBe(exitCode === 1);
  });

  it('an empty capture fails its "embed traffic seen" check, and passes it with allowEmpty', () => {
    const check = (opts: EvaluateOptions) => run([foreign], opts).checks.find((c) => c.name === 'embed traffic seen');
    expect(check({})).toMatchObject({ passed: false, classname: 'embed-inspector.expectations' });
    expect(check({ allowEmpty: true })).toMatchObject({ passed: true });
  });

  it('sees embed frames by URL (navigation, frame, post target) and by the events they post', () => {
    const other = 'https://other.example.net/widget';
    const cases: Array<[Array<Record<string, unknown>>, string[]]> = [
      [[navigation(EMBED)], [EMBED]],
      [[rec(msg('svc:event:ready'), { frameUrl: EMBED })], [EMBED]],
      [[rec(msg('svc:action:refresh'), { targetUrl: EMBED })], [EMBED]],
      [[rec(msg('svc:event:ready'), { kind: 'post', frameUrl: other, origin: TENANT, targetOrigin: HOST })], [other]],
      [[navigation(EMBED), navigation(EMBED), rec(msg('svc:event:ready'), { frameUrl: EMBED })], [EMBED]],
      [[rec(msg('svc:event:ready'))], []],
    ];
    for (const [records, frames] of cases) {
      const e = run(records);
      expect(e.embedFrames).toEqual(frames);
      expect(e.empty).toBe(false);
    }
  });

  it('an expectation met gives the seq of its first record; the implicit ready is listed once', () => {
    const e = run(session, { expect: ['svc:event:view', 'svc:event:ready', 'svc:event:view'] });
    expect(e.expectations).toEqual([
      { type: 'svc:event:view', implicit: false, met: true, seq: 4 },
      { type: 'svc:event:ready', implicit: false, met: true, seq: 2 },
    ]);
    expect(run(session).expectations).toEqual([{ type: 'svc:event:ready', implicit: true, met: true, seq: 2 }]);
  });

  it('a start failure is its own failing check, with the record and the message', () => {
    const e = run(expired);
    expect(e.startFailures).toEqual([{ seq: 2, message: 'the embed failed to start: session expired' }]);
    const c = e.checks.find((x) => x.name.startsWith('embed started'));
    expect(c).toMatchObject({ passed: false, name: 'embed started: session expired' });
    expect(c?.records.map((r) => r.seq)).toEqual([2]);
  });
});

describe('evaluate: one counting', () => {
  const bad = actionPair('svc:action:set-timezone', { timezone: 'UTC+2' }, '*');
  const records = [navigation(EMBED), rec(msg('svc:event:ready')), ...bad, foreign];

  it('a post and its delivery are one message; its issues are counted once, at the post', () => {
    const e = run(records);
    const result = checkRecords(numbered(records));
    // The delivery shows its post's wildcard issue (sender) and finds the bare offset itself.
    expect(result.messages.find((m) => m.seq === 4)?.issues.map((i) => [i.rule, !!i.sender])).toEqual([
      ['action.timezone', false],
      ['origin.action-wildcard', true],
    ]);
    expect(e.figures).toMatchObject({ messages: 3, records: 4, valid: 1, invalid: 1, foreign: 1, errors: 2 });
    expect(e.findings.map((f) => [f.seq, f.rule, f.alsoAt])).toEqual([
      [3, 'action.timezone', [4]],
      [3, 'origin.action-wildcard', []],
    ]);
    expect(e.rules).toEqual({ 'action.timezone': 1, 'origin.action-wildcard': 1 });
    expect(e.messages.find((m) => m.seq === 3)).toMatchObject({ verdict: 'invalid', deliveries: [4] });
  });

  it('names a finding check by rule, type and kind, in its rule group', () => {
    const names = run(records)
      .checks.filter((c) => c.rule)
      .map((c) => [c.classname, c.name, c.passed]);
    expect(names).toEqual([
      ['embed-inspector.action', 'action.timezone · svc:action:set-timezone (post)', false],
      ['embed-inspector.origin', 'origin.action-wildcard · svc:action:set-timezone (post)', false],
    ]);
  });

  it('has a passing check per message type and kind seen, so a clean run is never zero checks', () => {
    const e = run(session);
    expect(e.checks.filter((c) => c.classname === 'embed-inspector.messages').map((c) => c.name)).toEqual([
      'svc:action:set-color-scheme (post)',
      'svc:action:set-color-scheme (receive)',
      'svc:event:ready (post)',
      'svc:event:ready (receive)',
      'svc:event:view (post)',
      'svc:event:view (receive)',
    ]);
    expect(e.figures.checksFailed).toBe(0);
    expect(e.figures.checks).toBe(e.checks.length);
  });

  it('sorts checks by classname, then name', () => {
    const cs = run([...records, ...expired.slice(1).map((r) => ({ ...r, seq: (r.seq as number) + 10 }))]).checks;
    const keys = cs.map((c) => `${c.classname}\u0000${c.name}`);
    expect(keys).toEqual([...keys].sort());
  });
});

describe('parseExpect', () => {
  it('splits commas, drops blanks and repeats, and names the unknown types', () => {
    expect(parseExpect(['svc:event:ready, svc:event:view', 'svc:event:ready', '', 'ready,svc:event:nope'])).toEqual({
      types: ['svc:event:ready', 'svc:event:view'],
      unknown: ['ready', 'svc:event:nope'],
    });
    expect(parseExpect()).toEqual({ types: [], unknown: [] });
  });
});
