import { describe, expect, it } from 'vitest';
import { SessionChecker } from './session.ts';
import { checkRecords, inferTenantOrigin } from './capture.ts';
import { msg, rec, TENANT, HOST, T0, validPayloads } from '../../test/fixtures/messages.ts';

type Step = Record<string, unknown>;
const ev = (
  type: string,
  payload?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  over: Record<string, unknown> = {},
) => rec(msg(type, payload ?? validPayloads[type], extra), over);
const act = (type: string, over: Record<string, unknown> = {}) => rec(msg(type), over);
const ready = () => ev('svc:event:ready');

function run(steps: Step[], tenantOrigin: string | null = TENANT) {
  const s = new SessionChecker({ tenantOrigin });
  return steps.map((r, i) => s.check({ seq: i + 1, ...r } as any).map((x) => x.rule));
}
const rulesIn = (steps: Step[]) => run(steps).flat();

// Each session rule: a stream that trips it (on its last record) and a near miss that does not.
const table: Array<[rule: string, trips: Step[], nearMiss: Step[]]> = [
  ['session.event-before-ready', [ev('svc:event:view'), ready()], [ready(), ev('svc:event:view')]],
  [
    'session.ready-duplicate',
    [ready(), ready()],
    [
      ready(),
      {
        navigation: true,
        kind: 'receive',
        frameUrl: `${TENANT}/embed/dashboard/x`,
        origin: TENANT,
        frameId: 3,
        data: { url: `${TENANT}/embed/dashboard/x` },
      },
      ready(),
    ],
  ],
  [
    'session.loaded-before-ready',
    [ev('svc:event:dashboard-loaded'), ready()],
    [ready(), ev('svc:event:dashboard-loaded')],
  ],
  ['session.action-before-ready', [act('svc:action:refresh'), ready()], [ready(), act('svc:action:refresh')]],
  [
    'session.ai-query-unmatched',
    [ready(), ev('svc:event:ai-query', { query: 'q', status: 'completed', chatId: 'c1' })],
    [
      ready(),
      ev('svc:event:ai-query', { query: 'q', status: 'submitted', chatId: 'c1' }),
      ev('svc:event:ai-query', { query: 'q', status: 'completed', chatId: 'c1' }),
    ],
  ],
  [
    'session.ai-query-unmatched',
    [
      ready(),
      ev('svc:event:ai-query', { query: 'q', status: 'submitted', chatId: 'c1' }),
      ev('svc:event:ai-query', { query: 'q', status: 'error', chatId: 'c2' }),
    ],
    [
      ready(),
      ev('svc:event:ai-query', { query: 'q', status: 'submitted' }),
      ev('svc:event:ai-query', { query: 'q', status: 'error' }),
    ],
  ],
  [
    'session.previous-path',
    [
      ready(),
      ev('svc:event:view', { surface: 'dashboard', path: '/a' }),
      ev('svc:event:navigate', { path: '/c', previousPath: '/b' }),
    ],
    [
      ready(),
      ev('svc:event:view', { surface: 'dashboard', path: '/a' }),
      ev('svc:event:navigate', { path: '/b', previousPath: '/a' }),
      ev('svc:event:navigate', { path: '/c', previousPath: '/b' }),
    ],
  ],
  [
    'session.timestamp-order',
    [
      ready(),
      ev('svc:event:view', undefined, { timestamp: T0 + 10 }),
      ev('svc:event:view', undefined, { timestamp: T0 + 5 }),
    ],
    [
      ready(),
      ev('svc:event:view', undefined, { timestamp: T0 + 10 }),
      ev('svc:event:view', undefined, { timestamp: T0 + 10 }),
    ],
  ],
];

describe('session rules', () => {
  it.each(table)('%s', (rule, trips, nearMiss) => {
    expect(rulesIn(trips)).toContain(rule);
    expect(rulesIn(nearMiss)).not.toContain(rule);
  });

  it('a clean session has no issue', () => {
    const steps = [
      ready(),
      ev('svc:event:view'),
      ev('svc:event:dashboard-loaded'),
      act('svc:action:set-locale'),
      ev('svc:event:navigate', { path: '/b', previousPath: '/embed/dashboard/dash01' }),
      ev('svc:event:ai-query'),
      ev('svc:event:ai-query', { ...validPayloads['svc:event:ai-query'], status: 'completed' }),
    ];
    expect(rulesIn(steps)).toEqual([]);
  });

  it('counts a post and its delivery once', () => {
    const post = ev(
      'svc:event:ready',
      undefined,
      {},
      { kind: 'post', origin: TENANT, frameUrl: `${TENANT}/embed/dashboard/d`, targetOrigin: HOST },
    );
    const delivery = ev('svc:event:ready', undefined, {}, { kind: 'receive', origin: TENANT, pairedWith: 1 });
    const unpairedDelivery = ev('svc:event:ready');
    expect(run([post, delivery])).toEqual([[], []]);
    expect(run([post, unpairedDelivery])).toEqual([[], []]);
    // The delivery may reach the checker first.
    expect(run([delivery, post])).toEqual([[], []]);
    expect(run([unpairedDelivery, post])).toEqual([[], []]);
    expect(
      run(
        [
          { ...unpairedDelivery, seq: 1 },
          { ...post, seq: 2, pairedWith: 1 },
        ].map((r) => r as any),
      ),
    ).toEqual([[], []]);
    // A real duplicate: two posts, two deliveries.
    expect(run([post, post, delivery, unpairedDelivery]).flat()).toEqual(['session.ready-duplicate']);
  });

  it('counts a post and its delivery once when each names the other, however far apart', () => {
    const post = ev(
      'svc:event:ready',
      undefined,
      {},
      { kind: 'post', origin: TENANT, frameUrl: `${TENANT}/embed/dashboard/d`, targetOrigin: HOST },
    );
    const views = Array.from({ length: 10_000 }, (_, i) =>
      ev('svc:event:view', undefined, { timestamp: T0 + 1 + i }, { seq: i + 2 }),
    );
    const delivery = ev('svc:event:ready', undefined, {}, { kind: 'receive', origin: TENANT });
    const s = new SessionChecker({ tenantOrigin: TENANT });
    expect(s.check({ ...post, seq: 1, pairedWith: 10_002 })).toEqual([]);
    expect(views.flatMap((v) => s.check(v))).toEqual([]);
    expect(s.check({ ...delivery, seq: 10_002, pairedWith: 1 })).toEqual([]);
    // A second ready is still one.
    expect(s.check({ ...post, seq: 10_003 }).map((i) => i.rule)).toContain('session.ready-duplicate');
  });

  it('keeps a first half that waits for the partner it names in its saved state and its copies', () => {
    const post = ev(
      'svc:event:ready',
      undefined,
      {},
      { kind: 'post', origin: TENANT, frameUrl: `${TENANT}/embed/dashboard/d`, targetOrigin: HOST, seq: 1 },
    );
    const delivery = ev('svc:event:ready', undefined, {}, { kind: 'receive', origin: TENANT, seq: 2 });
    const s = new SessionChecker({ tenantOrigin: TENANT });
    expect(s.check({ ...post, pairedWith: 2 })).toEqual([]);
    const copy = s.clone();
    const restored = new SessionChecker({ tenantOrigin: TENANT }, JSON.parse(JSON.stringify(s.save())));
    for (const c of [s, copy, restored]) {
      expect(c.check({ ...delivery, pairedWith: 1 })).toEqual([]);
      expect(c.check({ ...post, seq: 3 }).map((i) => i.rule)).toEqual(['session.ready-duplicate']);
    }
  });

  // False verdicts seen in use (issue 14): each stream, and the rules it must (not) produce.
  const fatal = (message: string) => ev('svc:event:error', { message, fatal: true });
  const FALSE_VERDICTS: Array<[name: string, steps: Step[], expected: string[][]]> = [
    [
      'a fatal error before ready is the embed failing to start, not an ordering fault',
      [fatal('session expired')],
      [['session.failed-before-ready']],
    ],
    [
      'a non-fatal error before ready is still out of order',
      [ev('svc:event:error', { message: 'x' })],
      [['session.event-before-ready']],
    ],
    [
      'an event from a foreign origin belongs to no embed session',
      [ready(), ev('svc:event:view', undefined, {}, { origin: 'http://rogue.example' })],
      [[], []],
    ],
  ];
  it.each(FALSE_VERDICTS)('%s', (_name, steps, expected) => {
    expect(run(steps)).toEqual(expected);
  });

  it("summarises a failed start with the embed's message", () => {
    const res = checkRecords([{ ...fatal('session expired'), seq: 1 }]);
    expect(res.summary.startFailures).toEqual(['the embed failed to start: session expired']);
    expect(res.messages[0]).toMatchObject({
      verdict: 'valid',
      issues: [{ rule: 'session.failed-before-ready', severity: 'info' }],
    });
  });

  it('keeps one session per embed origin', () => {
    const other = 'https://other.example.com';
    const steps = [
      ready(),
      ev('svc:event:ready', undefined, {}, { origin: other }),
      act('svc:action:refresh', { targetOrigin: other }),
    ];
    expect(rulesIn(steps)).toEqual([]);
    // With no tenant origin known, each origin's events are a session of their own.
    expect(run([ready(), ev('svc:event:view', undefined, {}, { origin: other })], null).flat()).toEqual([
      'session.event-before-ready',
    ]);
  });

  it('a top-level navigation ends every session', () => {
    const nav = {
      navigation: true,
      kind: 'receive',
      frameId: 0,
      frameUrl: `${HOST}/next`,
      origin: HOST,
      data: { url: `${HOST}/next` },
    };
    expect(rulesIn([ready(), nav, ready()])).toEqual([]);
    expect(rulesIn([ready(), nav, ev('svc:event:view')])).toEqual(['session.event-before-ready']);
  });

  it('a page shown again from the back/forward cache goes on with the sessions ready when the tab left it', () => {
    const back = (sessions: unknown) => ({
      navigation: true,
      kind: 'receive',
      frameId: 0,
      frameUrl: `${HOST}/`,
      origin: HOST,
      data: { url: `${HOST}/`, restored: true, sessions },
    });
    // What a checker keeps of a page left: its ready sessions, an AI query still waiting among them.
    const left = new SessionChecker({ tenantOrigin: TENANT });
    for (const r of [ready(), ev('svc:event:ai-query', { query: 'q', status: 'submitted', chatId: 'c1' })]) {
      left.check(r as any);
    }
    const kept = left.readySessions();
    expect(kept.map(([k]) => k)).toEqual([TENANT]);
    const completed = ev('svc:event:ai-query', { query: 'q', status: 'completed', chatId: 'c1' });
    expect(rulesIn([back(kept), act('svc:action:refresh'), ev('svc:event:view'), completed])).toEqual([]);
    // Another embed's session starts anew; junk is no session.
    const other = kept.map(([, v]) => ['https://other.example', v]);
    expect(rulesIn([back(other), act('svc:action:refresh')])).toEqual(['session.action-before-ready']);
    expect(rulesIn([back([7, [TENANT], [TENANT, null]]), ev('svc:event:view')])).toEqual([
      'session.event-before-ready',
    ]);
    expect(rulesIn([back('x'), ev('svc:event:view')])).toEqual(['session.event-before-ready']);
    // Its embed loading anew (its frame navigates) ends that session as any navigation does.
    const embedNav = {
      navigation: true,
      kind: 'receive',
      frameId: 3,
      frameUrl: `${TENANT}/embed/dashboard/x`,
      origin: TENANT,
      data: { url: `${TENANT}/embed/dashboard/x` },
    };
    expect(rulesIn([back(kept), embedNav, act('svc:action:refresh')])).toEqual(['session.action-before-ready']);
  });

  it('never throws on junk', () => {
    const s = new SessionChecker();
    for (const junk of [
      null,
      undefined,
      1,
      'x',
      {},
      { data: null },
      { data: { source: 'svc-embed', direction: 'event', payload: null } },
    ]) {
      expect(() => s.check(junk as any)).not.toThrow();
    }
  });
});

describe('tenant origin inference: from the embed frame, never from what a message says', () => {
  const EMBED = `${TENANT}/embed/dashboard/d?session=s`;
  const nav = (url: string) => ({
    kind: 'receive',
    navigation: true,
    frameUrl: url,
    origin: new URL(url).origin,
    data: { url },
  });
  const third = 'https://ads.example';
  const readyFrom = (origin: string) => ev('svc:event:ready', undefined, {}, { origin });
  it.each([
    [
      'an embed frame whose ready the host got',
      [nav(EMBED), ready()],
      { origin: TENANT, frameUrl: EMBED, ready: true },
    ],
    [
      'the embed frame known after its ready came',
      [ready(), nav(EMBED)],
      { origin: TENANT, frameUrl: EMBED, ready: true },
    ],
    [
      'another event of the embed frame',
      [nav(EMBED), ev('svc:event:view')],
      { origin: TENANT, frameUrl: EMBED, ready: false },
    ],
    [
      'the embed frame posting its ready (its own hook)',
      [ev('svc:event:ready', undefined, {}, { kind: 'post', origin: TENANT, frameUrl: EMBED })],
      { origin: TENANT, frameUrl: EMBED, ready: true },
    ],
    [
      'a frame of the tenant at another address first, then the embed frame',
      [nav(`${TENANT}/login`), nav(EMBED), ready()],
      { origin: TENANT, frameUrl: EMBED, ready: true },
    ],
    [
      'a third-party ready first, from a frame that is no embed',
      [nav(EMBED), nav(`${third}/widget`), readyFrom(third), ready()],
      { origin: TENANT, frameUrl: EMBED, ready: true },
    ],
    [
      'a ready of a second embed frame after another event of the first',
      [nav(EMBED), nav(`${third}/embed/dashboard/x`), ev('svc:event:view'), readyFrom(third)],
      { origin: third, frameUrl: `${third}/embed/dashboard/x`, ready: true },
    ],
  ])('%s', (_name, records, expected) => {
    expect(inferTenantOrigin(records as never)).toEqual(expected);
  });
  it.each([
    ['a ready from a frame that is not at an embed address', [nav(`${third}/widget`), readyFrom(third)]],
    ['a ready from an origin with no embed frame', [ready()]],
    ['an embed frame that never spoke', [nav(EMBED), rec({ source: 'other' })]],
    ['an action the host posted', [nav(EMBED), act('svc:action:refresh', { kind: 'post' })]],
    ['a video player’s /embed/ frame', [nav('https://video.example/embed/abc'), readyFrom('https://video.example')]],
  ])('nothing from %s', (_name, records) => {
    expect(inferTenantOrigin(records as never)).toBeNull();
  });
});

describe('checkRecords', () => {
  it('joins stateless and session issues, counts verdicts and rules', () => {
    const embed = `${TENANT}/embed/dashboard/d?session=s1`;
    const records = [
      { kind: 'receive', navigation: true, frameUrl: embed, origin: TENANT, data: { url: embed } },
      ev('svc:event:view'),
      ready(),
      act('svc:action:refresh', { targetOrigin: '*' }),
      rec({ hello: 1 }),
    ].map((r, i) => ({ ...r, seq: i + 1 }));
    const res = checkRecords(records as never);
    expect(res.summary).toMatchObject({
      messages: 4,
      valid: 1,
      invalid: 2,
      foreign: 1,
      tenantOrigin: TENANT,
      tenantOriginSource: 'embed-frame',
      tenantOriginFrame: embed,
    });
    expect(res.summary.rules).toEqual({ 'session.event-before-ready': 1, 'origin.action-wildcard': 1 });
    expect(res.messages.map((m) => m.verdict)).toEqual(['invalid', 'valid', 'invalid', 'foreign']);
    expect(res.messages.map((m) => m.seq)).toEqual([2, 3, 4, 5]);
  });
  it('uses a given tenant origin over the inferred one', () => {
    const res = checkRecords([{ ...ready(), seq: 1 }], { tenantOrigin: 'https://x.example' });
    expect(res.summary.tenantOriginSource).toBe('given');
    expect(res.messages[0].issues.map((i) => i.rule)).toEqual(['origin.event']);
  });
});
