// Two captures compared ("it passed yesterday"): what changed in the message types, the findings by rule, the order
// of the events, the payload shapes, the timing and the integration's state, and when B is a regression.
import { describe, expect, it } from 'vitest';
import { checkRecords } from './capture.ts';
import { diffCaptures, diffOrder, diffProfiles, eventRuns, sessionProfile, type CaptureDiff } from './diff.ts';
import type { CaptureRecord } from './record.ts';
import { evaluate } from './verdict.ts';
import { headline } from './diff-text.ts';
import {
  EMBED_URL,
  HOST,
  T0,
  actionPair,
  eventPair,
  foreign,
  msg,
  navigation,
  numbered as numberedAny,
  rec,
} from '../../test/fixtures/messages.ts';

type Rows = Array<Record<string, unknown>>;
const numbered = (records: Rows, base = 1, t0 = T0): CaptureRecord[] =>
  numberedAny(records, base, t0) as CaptureRecord[];
const file = (records: Rows) => ({ tenantOrigin: null, messages: numbered(records) });
const diff = (a: Rows, b: Rows): CaptureDiff => diffCaptures(file(a), file(b));
const profile = (records: Rows) => {
  const rs = numbered(records);
  return sessionProfile(rs, checkRecords(rs));
};

/** A healthy dashboard session: the embed loads, says ready, shows its view and loads its data. */
const healthy: Rows = [
  navigation(EMBED_URL),
  ...eventPair('svc:event:ready'),
  ...eventPair('svc:event:view'),
  ...eventPair('svc:event:dashboard-loaded'),
  ...actionPair('svc:action:set-color-scheme'),
];
const star = actionPair('svc:action:set-color-scheme', undefined, '*');
const badTimezone = actionPair('svc:action:set-timezone', { timezone: 'Mars/Olympus_Mons' });
const readyWrongType = eventPair('svc:event:ready', { ...msg('svc:event:ready').payload!, deploymentId: '42' });

describe('diff: the same session twice', () => {
  it('has no change anywhere and exits 0', () => {
    const d = diff(healthy, healthy);
    expect(d.exitCode).toBe(0);
    expect(d.newIssues).toEqual([]);
    expect(d.rules.every((r) => r.status === 'same')).toBe(true);
    expect(d.types.every((t) => t.status === 'same')).toBe(true);
    expect(d.order.same).toBe(true);
    expect(d.shapes).toEqual({ changed: [], unchanged: 4 });
    expect(d.integration.same).toBe(true);
    expect(d.timing.ready).toEqual({ a: 10, b: 10, difference: 0 });
    expect(d.a).toEqual(d.b);
    expect(d.a).toMatchObject({ messages: 4, events: 3, errors: 0 });
  });
});

describe('diff: message types, a post and its delivery one message', () => {
  // [what, A, B, the types that differ as type:status:a→b]
  const table: Array<[string, Rows, Rows, string[]]> = [
    ['nothing changed', healthy, healthy, []],
    ['an action added', healthy, [...healthy, ...actionPair('svc:action:refresh')], ['svc:action:refresh:added:0→1']],
    [
      'an event removed',
      healthy,
      healthy.filter((r) => (r.data as { type?: string }).type !== 'svc:event:dashboard-loaded'),
      ['svc:event:dashboard-loaded:removed:1→0'],
    ],
    ['an event seen more often', healthy, [...healthy, ...eventPair('svc:event:view')], ['svc:event:view:changed:1→2']],
    ['foreign traffic is no message type', healthy, [...healthy, foreign], []],
    [
      'a delivery without its post (receive-only) is one message',
      healthy,
      [...healthy, rec(msg('svc:event:view'))],
      ['svc:event:view:changed:1→2'],
    ],
  ];
  it.each(table)('%s', (_what, a, b, expected) => {
    const d = diff(a, b);
    expect(d.types.filter((t) => t.status !== 'same').map((t) => `${t.type}:${t.status}:${t.a}→${t.b}`)).toEqual(
      expected,
    );
  });
});

describe('diff: issues by rule', () => {
  // [what, A, B, rules that differ as rule:status, new issues as rule:severity:a→b, exit code]
  const table: Array<[string, Rows, Rows, string[], string[], 0 | 1]> = [
    [
      'a new error rule in B',
      healthy,
      [...healthy, ...star],
      ['origin.action-wildcard:new'],
      ['origin.action-wildcard:error:0→1'],
      1,
    ],
    ['an error gone from B', [...healthy, ...star], healthy, ['origin.action-wildcard:gone'], [], 0],
    [
      'more of an error rule in B',
      [...healthy, ...star],
      [...healthy, ...star, ...star],
      ['origin.action-wildcard:more'],
      ['origin.action-wildcard:error:1→2'],
      1,
    ],
    [
      'fewer of an error rule in B',
      [...healthy, ...star, ...star],
      [...healthy, ...star],
      ['origin.action-wildcard:fewer'],
      [],
      0,
    ],
    [
      'a new warning alone is no regression',
      healthy,
      [...healthy, ...badTimezone],
      ['action.timezone-unknown:new'],
      ['action.timezone-unknown:warning:0→1'],
      0,
    ],
    [
      'an error a post and its delivery both find is one finding',
      [navigation(EMBED_URL), ...eventPair('svc:event:ready')],
      [navigation(EMBED_URL), ...readyWrongType],
      ['payload.type:new'],
      ['payload.type:error:0→1'],
      1,
    ],
  ];
  it.each(table)('%s', (_what, a, b, changed, added, exitCode) => {
    const d = diff(a, b);
    expect(d.rules.filter((r) => r.status !== 'same').map((r) => `${r.rule}:${r.status}`)).toEqual(changed);
    expect(d.newIssues.map((i) => `${i.rule}:${i.severity}:${i.a}→${i.b}`)).toEqual(added);
    expect(d.exitCode).toBe(exitCode);
  });

  it('counts each rule as check does (a delivery’s copy of its post’s issue is not a finding of its own)', () => {
    for (const rows of [
      [...healthy, ...star, ...star],
      [navigation(EMBED_URL), ...readyWrongType, ...badTimezone],
    ]) {
      const rs = numbered(rows);
      const result = checkRecords(rs);
      const counts = Object.fromEntries(
        Object.entries(sessionProfile(rs, result).rules).map(([rule, c]) => [rule, c.error + c.warning + c.info]),
      );
      expect(counts).toEqual(evaluate(rs, result).rules);
    }
  });

  it('gives an example of each changed rule: B’s first finding, A’s for a rule gone', () => {
    const d = diff([...healthy, ...badTimezone], [...healthy, ...star]);
    const byRule = Object.fromEntries(d.rules.map((r) => [r.rule, r]));
    expect(byRule['origin.action-wildcard'].example).toMatchObject({
      seq: 10,
      type: 'svc:action:set-color-scheme',
      severity: 'error',
    });
    expect(byRule['action.timezone-unknown'].example).toMatchObject({ seq: 10, type: 'svc:action:set-timezone' });
    expect(d.rules.map((r) => r.status)).toEqual(['new', 'gone']);
    expect(d.a).toMatchObject({ errors: 0, warnings: 1 });
    expect(d.b).toMatchObject({ errors: 1, warnings: 0 });
  });

  it('lists new errors before new warnings', () => {
    const d = diff(healthy, [...healthy, ...badTimezone, ...star]);
    expect(d.newIssues.map((i) => i.severity)).toEqual(['error', 'warning']);
  });
});

describe('diff: the order of the events', () => {
  const R = 'svc:event:ready';
  const V = 'svc:event:view';
  const L = 'svc:event:dashboard-loaded';
  const E = 'svc:event:error';
  const show = (a: string[], b: string[]) =>
    diffOrder(a, b).hunks.map(
      (h) =>
        `${h.op === 'same' ? '=' : h.op === 'added' ? '+' : '-'}${h.events
          .map((e) => `${e.type.replace('svc:event:', '')}${e.count > 1 ? `×${e.count}` : ''}`)
          .join(',')}`,
    );
  // [what, A, B, the hunks]
  const table: Array<[string, string[], string[], string[]]> = [
    ['the same', [R, V, L], [R, V, L], ['=ready,view,dashboard-loaded']],
    ['an event inserted', [R, V, L], [R, E, V, L], ['=ready', '+error', '=view,dashboard-loaded']],
    ['an event gone at the end', [R, V, L], [R, V], ['=ready,view', '-dashboard-loaded']],
    ['two swapped', [R, V, L], [R, L, V], ['=ready', '-view', '=dashboard-loaded', '+view']],
    ['a run longer in B', [R, V, V, L], [R, V, V, V, L], ['=ready', '-view×2', '+view×3', '=dashboard-loaded']],
    ['all new', [], [R], ['+ready']],
    ['nothing in either', [], [], []],
  ];
  it.each(table)('%s', (_what, a, b, hunks) => {
    expect(show(a, b)).toEqual(hunks);
    expect(diffOrder(a, b).same).toBe(hunks.every((h) => h.startsWith('=')));
  });

  it('collapses repeats into runs', () => {
    expect(eventRuns([R, V, V, V, R])).toEqual([
      { type: R, count: 1 },
      { type: V, count: 3 },
      { type: R, count: 1 },
    ]);
  });

  it('takes the events of a session, each post and its delivery once, actions left out', () => {
    expect(profile(healthy).events).toEqual([R, V, L]);
    const d = diff(healthy, [navigation(EMBED_URL), ...eventPair(R), ...eventPair(E), ...healthy.slice(3)]);
    expect(d.order.same).toBe(false);
    expect(d.order.hunks.map((h) => h.op)).toEqual(['same', 'added', 'same']);
    expect(d.order).toMatchObject({ a: 3, b: 4 });
  });

  it('aligns long orders, and past 4 million cells shows the middle removed, then added', () => {
    // Alternating types: every event is a run of its own.
    const alternating = (n: number) => Array.from({ length: n }, (_, k) => (k % 2 ? V : R));
    const a = alternating(1500);
    const b = [...a.slice(0, 700), E, ...a.slice(700)];
    expect(diffOrder(a, b).hunks.map((h) => [h.op, h.events.length])).toEqual([
      ['same', 700],
      ['added', 1],
      ['same', 800],
    ]);
    // 3,002 by 3,001 runs is past the 4 million cells: were the common ends not set aside first, the whole middle
    // would show removed, then added. Aligned as one removed run, they were: only the middle is aligned.
    const long = [E, ...alternating(3000), L];
    const other = [E, ...alternating(2999), L];
    const d = diffOrder(long, other);
    expect(d.hunks.map((h) => [h.op, h.events.length])).toEqual([
      ['same', 3000],
      ['removed', 1],
      ['same', 1],
    ]);
    const shuffled = [E, ...alternating(3001).slice(1), L];
    expect(diffOrder(long, shuffled).hunks.map((h) => h.op)).toEqual(['same', 'removed', 'added', 'same']);
  });
});

describe('diff: payload shapes', () => {
  it('names the key paths seen only in A or only in B, per type seen in both', () => {
    const view = (payload: Record<string, unknown>) => eventPair('svc:event:view', payload);
    const d = diff(
      [
        navigation(EMBED_URL),
        ...eventPair('svc:event:ready'),
        ...view({ surface: 'dashboard', path: '/p', title: 'T' }),
      ],
      [
        navigation(EMBED_URL),
        ...eventPair('svc:event:ready'),
        ...view({ surface: 'dashboard', path: '/p' }),
        ...view({ surface: 'dashboard', path: '/q', extra: { widgets: [{ id: 'w1' }], at: { $ei: 'Date', v: 'x' } } }),
        ...actionPair('svc:action:refresh'),
      ],
    );
    expect(d.shapes).toEqual({
      changed: [
        {
          type: 'svc:event:view',
          onlyA: ['title'],
          onlyB: ['extra', 'extra.at', 'extra.widgets', 'extra.widgets[].id'],
        },
      ],
      unchanged: 1,
    });
  });

  it('looks into an escaped object and not into a tagged value', () => {
    const p = profile([
      navigation(EMBED_URL),
      ...eventPair('svc:event:drilldown', {
        member: 'm',
        value: { $ei: 'Map', v: [['k', 1]] },
        widgetId: 'w1',
        raw: { $ei: 'Object', v: { $ei: 'x', inner: { deep: true } } },
      }),
    ]);
    expect(p.shapes['svc:event:drilldown']).toEqual([
      'member',
      'raw',
      'raw.$ei',
      'raw.inner',
      'raw.inner.deep',
      'value',
      'widgetId',
    ]);
  });
});

describe('diff: timing of ready and dashboard-loaded', () => {
  it('counts from the embed frame’s navigation, with dashboard-loaded’s loadDurationMs', () => {
    // numbered: 10 ms apart. A: ready 10 ms after the frame's navigation; B: a foreign message and a view first.
    const loaded = (ms: number) =>
      eventPair('svc:event:dashboard-loaded', { publicId: 'dash01', widgetCount: 4, loadDurationMs: ms });
    const a = [navigation(EMBED_URL), ...eventPair('svc:event:ready'), ...loaded(800)];
    const b = [
      foreign,
      navigation(EMBED_URL),
      foreign,
      foreign,
      ...eventPair('svc:event:ready'),
      ...eventPair('svc:event:view'),
      ...loaded(950),
    ];
    const d = diff(a, b);
    expect(d.timing).toEqual({
      from: { a: 'embed-navigation', b: 'embed-navigation' },
      ready: { a: 10, b: 30, difference: 20 },
      dashboardLoaded: { a: 30, b: 70, difference: 40 },
      loadDurationMs: { a: 800, b: 950, difference: 150 },
    });
  });

  it('counts from the first record when no embed frame was seen loading, and says what never came', () => {
    const a = [rec(msg('svc:event:ready')), rec(msg('svc:event:view'))];
    const b = [foreign, rec(msg('svc:event:view')), rec(msg('svc:event:ready'))];
    const d = diff(a, b);
    expect(d.timing.from).toEqual({ a: 'first-record', b: 'first-record' });
    expect(d.timing.ready).toEqual({ a: 0, b: 20, difference: 20 });
    expect(d.timing.dashboardLoaded).toEqual({ a: null, b: null, difference: null });
    expect(profile([]).timing).toEqual({ from: null, ready: null, dashboardLoaded: null, loadDurationMs: null });
  });
});

describe('diff: the integration’s state', () => {
  it('tells the two states apart', () => {
    const d = diff(healthy, [...healthy, ...star]);
    expect(d.integration.same).toBe(false);
    expect(d.integration.a.text).toBe('healthy');
    expect(d.integration.b.state).toBe('actions-wrong-origin');
  });

  it('says an embed that never became ready in B', () => {
    const b = numbered([navigation(EMBED_URL), rec(msg('svc:event:view'), { origin: HOST })]);
    const never = diffProfiles(profile(healthy), sessionProfile(b, checkRecords(b, { endedAt: T0 + 60_000 })));
    expect(never.integration.b.state).toBe('never-ready');
    expect(never.newIssues.map((i) => i.rule)).toContain('silence.never-ready');
    expect(never.exitCode).toBe(1);
    expect(never.timing.ready).toEqual({ a: 10, b: null, difference: null });
  });
});

describe('diff: a B that fails as a run fails the diff, whatever A had', () => {
  const fatal = eventPair('svc:event:error', { fatal: true, code: 'SESSION_EXPIRED', message: 'session expired' });
  it.each([
    ['no embed traffic at all', [] as Rows, /no embed traffic seen/],
    ['only a page of its own, no embed', [foreign, navigation(`${HOST}/app`)], /no embed traffic seen/],
    ['an embed that could not start (a fatal error before ready)', [navigation(EMBED_URL), ...fatal], /before ready/],
  ])('%s: exit 1, and the headline says why', (_what, b, why) => {
    for (const a of [healthy, b]) {
      const d = diff(a, b);
      expect(d.exitCode).toBe(1);
      expect(d.b.failures.join(' ')).toMatch(why);
      expect(headline(d)).toMatch(/^✗ B fails as a run: /);
    }
  });

  it('an embed that never said ready in both: still a failure (A failed too)', () => {
    const b = numbered([navigation(EMBED_URL), rec(msg('svc:event:view'), { origin: HOST })]);
    const p = sessionProfile(b, checkRecords(b, { endedAt: T0 + 60_000 }));
    const d = diffProfiles(p, p);
    expect(d.newIssues).toEqual([]);
    expect(d.exitCode).toBe(1);
    expect(d.b.failures.join(' ')).toMatch(/never said ready/);
  });

  it('a healthy B passes, and says nothing of failures', () => {
    const d = diff(healthy, healthy);
    expect(d.exitCode).toBe(0);
    expect(d.b.failures).toEqual([]);
    expect(headline(d)).toBe('✓ no new issues in B');
  });
});
