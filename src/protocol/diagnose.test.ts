import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEmbedAddress } from './address.ts';
import { diagnose, diagnosisSieve, integrationState, DEFAULT_READY_TIMEOUT_MS } from './diagnose.ts';
import { checkRecords } from './capture.ts';
import { RULES } from './rules.ts';
import type { CaptureRecord } from './record.ts';
import type { Issue } from './classify.ts';
import { HOST, msg, T0, TENANT } from '../../test/fixtures/messages.ts';

const DASH = `${TENANT}/embed/dashboard/dA7kQ2mXp9Lw`;
const rulesOf = (url: string, tenantOrigin: string | null = TENANT) =>
  checkEmbedAddress(url, { tenantOrigin }).map((i) => i.rule);

// Each row: a rule, an address that trips it, its near miss that does not.
const ADDRESS: Array<[string, string, string]> = [
  ['url.path', `${TENANT}/embed/dashbaord/dA7kQ2mXp9Lw?session=s`, `${DASH}?session=s`],
  ['url.path', `${TENANT}/embed/d/12/app/workbok/7?session=s`, `${TENANT}/embed/d/12/app/workbook/7`],
  ['url.path', `${TENANT}/embed/dashboard/?session=s`, `${DASH}?session=s`],
  ['url.route-unknown', `${TENANT}/embed/chat`, `${TENANT}/embed/d/12/app`],
  ['url.session', `${DASH}`, `${DASH}?session=abc`],
  ['url.session', `${DASH}?session=`, `${DASH}?session=abc`],
  ['url.allow-export', `${DASH}?session=s&allowExport=yes`, `${DASH}?session=s&allowExport=true`],
  ['url.timezone', `${DASH}?session=s&timezone=Mars%2FOlympus`, `${DASH}?session=s&timezone=Europe%2FBerlin`],
  ['url.timezone-offset', `${DASH}?session=s&timezone=%2B02:00`, `${DASH}?session=s&timezone=Etc%2FGMT-2`],
  [
    'url.filter',
    `${DASH}?session=s&f_orders.region=EMEA`,
    `${DASH}?session=s&f_orders.region=${encodeURIComponent('["EMEA"]')}`,
  ],
  ['url.filter', `${DASH}?session=s&f_orders=${encodeURIComponent('["EMEA"]')}`, `${DASH}?session=s&f_orders.region=1`],
  ['url.param-unknown', `${DASH}?session=s&theme=dark`, `${DASH}?session=s&allowExport=true&timezone=UTC`],
  ['url.origin', `https://other.example.com/embed/dashboard/dA7kQ2mXp9Lw?session=s`, `${DASH}?session=s`],
  ['url.path', `${TENANT}/embed/d/12/app/workbok/7`, `${TENANT}/embed/d/12/app/folder/3`],
  ['url.route-unknown', `${TENANT}/embed/d/12/app/folder/3`, `${TENANT}/embed/d/12/app/workbook/3`],
];

describe("the embed's address (url.* rules): each trips on one address and not on its near miss", () => {
  it.each(ADDRESS)('%s: %s', (rule, trips, nearMiss) => {
    expect(rulesOf(trips)).toContain(rule);
    expect(rulesOf(nearMiss)).not.toContain(rule);
  });

  it('a healthy dashboard address has no issue at all; a frame outside /embed/ is not looked at', () => {
    expect(rulesOf(`${DASH}?session=demo-signed`)).toEqual([]);
    expect(rulesOf(`${TENANT}/embed/d/12/app/workbook/7`)).toEqual([]);
    expect(rulesOf(`${HOST}/reports?x=1`)).toEqual([]);
  });

  it('never shows the session value, and checks the origin only when the tenant origin is known', () => {
    const text = JSON.stringify(checkEmbedAddress(`${TENANT}/embed/dashbaord/x?session=SECRET-123&z=1`));
    expect(text).not.toContain('SECRET-123');
    expect(rulesOf('https://other.example.com/embed/dashboard/x?session=s', null)).not.toContain('url.origin');
  });
});

// ---------------------------------------------------------------- silence
let seq = 0;
const nav = (url: string, time: number, frameId = 3): CaptureRecord =>
  ({
    seq: ++seq,
    time,
    kind: 'receive',
    frameUrl: url,
    origin: new URL(url).origin,
    data: { url },
    navigation: true,
    frameId,
  }) as CaptureRecord;
const event = (type: string, time: number, payload?: Record<string, unknown>, frameId = 3): CaptureRecord =>
  ({
    seq: ++seq,
    time,
    kind: 'post',
    frameUrl: `${DASH}?session=s`,
    origin: TENANT,
    targetOrigin: HOST,
    frameId,
    data: msg(type, payload),
  }) as CaptureRecord;
const action = (type: string, time: number): CaptureRecord =>
  ({
    seq: ++seq,
    time,
    kind: 'post',
    frameUrl: `${HOST}/app`,
    origin: HOST,
    targetOrigin: TENANT,
    frameId: 0,
    data: msg(type),
  }) as CaptureRecord;
const top = (time: number) => nav(`${HOST}/app`, time, 0);
const L = DEFAULT_READY_TIMEOUT_MS;
const rulesAt = (records: CaptureRecord[], now: number) => {
  const d = diagnose(records, { now, tenantOrigin: TENANT });
  return [...d.issues.values()].flat().map((i) => i.rule);
};

// Each row: a rule, a stream that trips it (judged at `now`), the same stream's near miss.
const SILENCE: Array<[string, () => [CaptureRecord[], number], () => [CaptureRecord[], number]]> = [
  [
    'silence.never-ready',
    () => [[top(T0), nav(`${DASH}?session=s`, T0 + 10)], T0 + 10 + L],
    () => [[top(T0), nav(`${DASH}?session=s`, T0 + 10), event('svc:event:ready', T0 + 300)], T0 + 10 + L],
  ],
  [
    'silence.no-dashboard-loaded',
    () => [[top(T0), nav(`${DASH}?session=s`, T0), event('svc:event:ready', T0 + 100)], T0 + 100 + L],
    () => [
      [
        top(T0),
        nav(`${DASH}?session=s`, T0),
        event('svc:event:ready', T0 + 100),
        event('svc:event:dashboard-loaded', T0 + 900),
      ],
      T0 + 100 + L,
    ],
  ],
  [
    'silence.ai-query-unanswered',
    () => [
      [
        top(T0),
        nav(`${DASH}?session=s`, T0),
        event('svc:event:ready', T0 + 100),
        event('svc:event:dashboard-loaded', T0 + 200),
        event('svc:event:ai-query', T0 + 300, { query: 'q', status: 'submitted', chatId: 'c1' }),
      ],
      T0 + 300 + L,
    ],
    () => [
      [
        top(T0),
        nav(`${DASH}?session=s`, T0),
        event('svc:event:ready', T0 + 100),
        event('svc:event:dashboard-loaded', T0 + 200),
        event('svc:event:ai-query', T0 + 300, { query: 'q', status: 'submitted', chatId: 'c1' }),
        event('svc:event:ai-query', T0 + 700, { query: 'q', status: 'completed', chatId: 'c1' }),
      ],
      T0 + 300 + L,
    ],
  ],
];

describe('what did not happen (silence.* rules)', () => {
  it.each(SILENCE)('%s trips, and not on its near miss', (rule, trips, nearMiss) => {
    seq = 0;
    const [a, at] = trips();
    expect(rulesAt(a, at)).toContain(rule);
    seq = 0;
    const [b, bt] = nearMiss();
    expect(rulesAt(b, bt)).not.toContain(rule);
  });

  it.each(SILENCE)('%s is not said before its limit has passed', (rule, trips) => {
    seq = 0;
    const [a, at] = trips();
    expect(rulesAt(a, at - 1)).not.toContain(rule);
  });

  it('never-ready sits on the navigation record, names what the frame said and the likely causes', () => {
    seq = 0;
    const n = nav(`${DASH}?session=SECRET-9`, T0);
    const failed = event('svc:event:error', T0 + 50, { message: 'Session expired', fatal: true });
    const d = diagnose([top(T0), n, failed], { now: T0 + L, tenantOrigin: TENANT });
    const [i] = d.issues.get(n.seq) ?? [];
    expect(i.rule).toBe('silence.never-ready');
    expect(i.message).toMatch(/loaded 10 s ago and never said ready/);
    expect(i.message).toContain('a fatal error: "Session expired"');
    expect(i.message).toMatch(/Likely causes: 1\) the embed could not start/);
    expect(i.message).not.toContain('SECRET-9');
    // A frame that said nothing at all: its page ran no embed, or capture is off there.
    seq = 0;
    const silent = nav(`${TENANT}/embed/dashbaord/x?session=s`, T0);
    const d2 = diagnose([top(T0), silent], { now: T0 + L, tenantOrigin: TENANT });
    const rules = (d2.issues.get(silent.seq) ?? []).map((x) => x.rule);
    expect(rules).toEqual(['url.path', 'silence.never-ready']);
    expect(d2.issues.get(silent.seq)?.[1].message).toMatch(
      /its address: url\.path.*wrong path \(404\).*capture is off/,
    );
  });

  it('a host that received events but never acted is a note on no record; one that acted is not', () => {
    seq = 0;
    const base = () => {
      const e = event('svc:event:ready', T0 + 1);
      const delivery = {
        ...e,
        seq: ++seq,
        kind: 'receive',
        frameUrl: `${HOST}/app`,
        frameId: 0,
        pairedWith: e.seq,
      } as CaptureRecord;
      return [top(T0), nav(`${DASH}?session=s`, T0), e, delivery];
    };
    const quiet = diagnose(base(), { now: T0 + 100, tenantOrigin: TENANT });
    expect(quiet.notes.map((n) => n.rule)).toEqual(['silence.host-never-acted']);
    expect([...quiet.issues.values()].flat()).toEqual([]);
    const acted = diagnose([...base(), action('svc:action:refresh', T0 + 50)], { now: T0 + 100, tenantOrigin: TENANT });
    expect(acted.notes).toEqual([]);
  });

  it('every url.* and silence.* rule of the rule table is covered by a row here', () => {
    const covered = new Set([...ADDRESS.map((r) => r[0]), ...SILENCE.map((r) => r[0]), 'silence.host-never-acted']);
    const ours = Object.values(RULES)
      .filter((r) => r.group === 'url' || r.group === 'silence')
      .map((r) => r.id);
    expect(ours.filter((id) => !covered.has(id))).toEqual([]);
  });
});

describe('the integration in words', () => {
  const state = (records: CaptureRecord[], end = T0 + 2 * L) =>
    checkRecords(records, { tenantOrigin: TENANT, endedAt: end }).integration;

  it.each<[string, () => CaptureRecord[], string, RegExp]>([
    ['no embed', () => [top(T0)], 'no-embed', /no embed on this page/],
    [
      'an embed that failed to start',
      () => [
        top(T0),
        nav(`${DASH}?session=s`, T0),
        event('svc:event:error', T0 + 5, { message: 'Session expired', fatal: true }),
      ],
      'failed-to-start',
      /the embed failed to start: Session expired/,
    ],
    [
      'an embed that never said ready',
      () => [top(T0), nav(`${DASH}?session=s`, T0)],
      'never-ready',
      /never became ready/,
    ],
    [
      'an embed address with problems',
      () => [
        top(T0),
        nav(`${DASH}?session=s&allowExport=yes&f_a.b=x`, T0),
        event('svc:event:ready', T0 + 5),
        event('svc:event:dashboard-loaded', T0 + 6),
      ],
      'address',
      /the embed URL has 2 problems/,
    ],
    [
      'a host acting on "*"',
      () => [
        top(T0),
        nav(`${DASH}?session=s`, T0),
        event('svc:event:ready', T0 + 5),
        event('svc:event:dashboard-loaded', T0 + 6),
        { ...action('svc:action:refresh', T0 + 7), targetOrigin: '*' },
      ],
      'actions-wrong-origin',
      /the host sends actions to "\*"/,
    ],
    [
      'a healthy session',
      () => [
        top(T0),
        nav(`${DASH}?session=s`, T0),
        event('svc:event:ready', T0 + 5),
        event('svc:event:dashboard-loaded', T0 + 6),
      ],
      'healthy',
      /^healthy$/,
    ],
  ])('%s', (_what, records, want, text) => {
    seq = 0;
    const s = state(records());
    expect(s.state).toBe(want);
    expect(s.text).toMatch(text);
  });

  it('an embed still inside its limit is "waiting", not "never ready"', () => {
    seq = 0;
    const s = state([top(T0), nav(`${DASH}?session=s`, T0)], T0 + 500);
    expect(s.state).toBe('waiting');
    expect(integrationState([], { embeds: [] }).state).toBe('no-embed');
  });
});

describe('no false verdicts (each a case a review found)', () => {
  const ready = (time: number, frameId: number, extra: Partial<CaptureRecord> = {}) =>
    ({ ...event('svc:event:ready', time, undefined, frameId), ...extra }) as CaptureRecord;

  it("a video player's /embed/ frame beside a healthy dashboard is not an embed of ours", () => {
    seq = 0;
    const records = [
      top(T0),
      nav(`${DASH}?session=s`, T0),
      event('svc:event:ready', T0 + 5),
      event('svc:event:dashboard-loaded', T0 + 6),
      nav('https://www.youtube.com/embed/abc?autoplay=1', T0 + 7, 5),
    ];
    expect(rulesAt(records, T0 + 10 * L)).toEqual([]);
    expect(checkRecords(records, { tenantOrigin: TENANT, endedAt: T0 + 10 * L }).integration.state).toBe('healthy');
    // A page with only the video: no embed at all, and no tenant origin made up from it.
    seq = 0;
    const only = checkRecords([top(T0), nav('https://www.youtube.com/embed/abc', T0 + 1, 5)], { endedAt: T0 + 10 * L });
    expect(only.integration.state).toBe('no-embed');
    expect(only.summary.tenantOrigin).toBeNull();
  });

  it('two embeds of one tenant whose readies are seen only as deliveries each get theirs', () => {
    seq = 0;
    const a = nav(`${DASH}?session=s`, T0, 3);
    const b = nav(`${TENANT}/embed/dashboard/second?session=s`, T0 + 1, 4);
    const delivered = (time: number) =>
      ({ ...ready(time, 0), kind: 'receive', frameUrl: `${HOST}/app`, frameId: 0 }) as CaptureRecord;
    expect(rulesAt([top(T0), a, b, delivered(T0 + 100), delivered(T0 + 120)], T0 + 10 * L)).not.toContain(
      'silence.never-ready',
    );
  });

  it('a document replaced before its limit (the frame navigated again, or the page) is not judged', () => {
    seq = 0;
    const first = nav(`${DASH}?session=s`, T0, 3);
    const again = nav(`${DASH}?session=s`, T0 + 200, 3);
    const d = diagnose([top(T0), first, again, ready(T0 + 400, 3)], { now: T0 + 10 * L, tenantOrigin: TENANT });
    expect(d.issues.get(first.seq) ?? []).toEqual([]);
    // Preserve log: the first page's embed lived 3 s, then the page navigated; the file ends a minute later.
    seq = 0;
    const page1 = nav(`${DASH}?session=s`, T0, 3);
    const d2 = diagnose([top(T0), page1, top(T0 + 3000)], { now: T0 + 60_000, tenantOrigin: TENANT });
    expect(d2.issues.get(page1.seq) ?? []).toEqual([]);
  });

  it('an AI answer that names its chat clears a question asked before the chat had an id', () => {
    seq = 0;
    const records = [
      top(T0),
      nav(`${DASH}?session=s`, T0),
      event('svc:event:ready', T0 + 1),
      event('svc:event:dashboard-loaded', T0 + 2),
      event('svc:event:ai-query', T0 + 3, { query: 'q', status: 'submitted' }),
      event('svc:event:ai-query', T0 + 400, { query: 'q', status: 'completed', chatId: 'c1' }),
    ];
    expect(rulesAt(records, T0 + 10 * L)).toEqual([]);
  });
});

describe('one truth in words (issue 44)', () => {
  // The address of the report: a misspelled path, allowExport and timezone wrong, a filter that is not JSON, no session.
  const WRONG = `${TENANT}/embed/dashboards/dA7kQ2mXp9Lw?allowExport=yes&timezone=%2B02%3A00&f_orders.region=notjson`;

  it('every finding of an address is reported on its own: a wrong path does not hide the missing session', () => {
    expect(rulesOf(WRONG)).toEqual([
      'url.path',
      'url.session',
      'url.allow-export',
      'url.timezone-offset',
      'url.filter',
    ]);
    // an in-embed route needs no session, misspelled or not
    expect(rulesOf(`${TENANT}/embed/d/12/app/workbok/7`)).toEqual(['url.path']);
  });

  it('the headline counts what the list shows, and names the notes among them', () => {
    seq = 0;
    const frame = nav(WRONG, T0);
    const records = [top(T0), frame, event('svc:event:ready', T0 + 5), event('svc:event:dashboard-loaded', T0 + 6)];
    const res = checkRecords(records, { tenantOrigin: TENANT, endedAt: T0 + 2 * L });
    // the list: the frame's findings, as its row counts them and its Issues tab lists them
    const listed = diagnose(records, { now: T0 + 2 * L, tenantOrigin: TENANT }).issues.get(frame.seq) ?? [];
    expect(listed).toHaveLength(5);
    expect(res.integration.state).toBe('address');
    expect(res.integration.text).toBe('the embed URL has 5 findings: 4 problems, 1 note');
    // without the note, the problems are the list
    seq = 0;
    const plain = [top(T0), nav(`${DASH}?allowExport=yes`, T0), event('svc:event:ready', T0 + 5)];
    const p = checkRecords([...plain, event('svc:event:dashboard-loaded', T0 + 6)], {
      tenantOrigin: TENANT,
      endedAt: T0 + 2 * L,
    });
    expect(p.integration.text).toBe('the embed URL has 2 problems');
  });

  it("receive-only: the host's actions seen as deliveries count; with no way to see them, nothing is said", () => {
    seq = 0;
    // receive-only on both sites: no posts; the embed's events delivered to the host, the host's actions to the embed
    const delivered = (r: CaptureRecord, frameUrl: string, frameId: number, origin: string): CaptureRecord =>
      ({ ...r, seq: ++seq, kind: 'receive', frameUrl, frameId, origin, targetOrigin: undefined }) as CaptureRecord;
    const ready = delivered(event('svc:event:ready', T0 + 5), `${HOST}/app`, 0, TENANT);
    const act = delivered(action('svc:action:refresh', T0 + 9), `${DASH}?session=s`, 3, HOST);
    const noted = (records: CaptureRecord[]) =>
      diagnose(records, { now: T0 + 100, tenantOrigin: TENANT }).notes.map((n) => n.rule);
    expect(noted([top(T0), nav(`${DASH}?session=s`, T0), ready, act])).toEqual([]);
    // only the host's site captured, receive-only: no action could be seen, so none is said to be missing
    expect(noted([top(T0), nav(`${DASH}?session=s`, T0), ready])).toEqual([]);
  });
});

describe('the stream as given', () => {
  it('judges records by their place in the stream, whether or not their seqs increase', () => {
    seq = 0;
    const delivered = (time: number) =>
      ({ ...event('svc:event:ready', time, undefined, 0), kind: 'receive', frameUrl: `${HOST}/app` }) as CaptureRecord;
    const stream = [
      top(T0),
      nav(`${DASH}?session=s`, T0, 3),
      nav(`${TENANT}/embed/dashboard/second?session=s&allowExport=yes`, T0 + 1, 4),
      delivered(T0 + 100),
      event('svc:event:error', T0 + 150, { message: 'Session expired', fatal: true }, 4),
      nav(`${DASH}?session=s`, T0 + 200, 3),
      event('svc:event:ai-query', T0 + 300, { query: 'q', status: 'submitted' }, 3),
    ];
    const judge = (records: CaptureRecord[]) => diagnose(records, { now: T0 + 10 * L, tenantOrigin: TENANT });
    const ordered = judge(stream);
    // The same stream numbered backwards (a capture made before the log was ordered): the same verdicts, by place.
    const back = (s: number) => 1000 - s;
    const reversed = judge(stream.map((r) => ({ ...r, seq: back(r.seq) })));
    expect(reversed.embeds.map((e) => ({ ...e, seq: back(e.seq), ready: e.ready && back(e.ready) }))).toEqual(
      ordered.embeds,
    );
    expect(new Map([...reversed.issues].map(([s, list]) => [back(s), list]))).toEqual(ordered.issues);
    expect(ordered.embeds.map((e) => e.ready !== null)).toEqual([true, false, false]);
    expect([...ordered.issues.values()].flat().map((i) => i.rule)).toEqual(
      expect.arrayContaining(['silence.never-ready', 'url.allow-export', 'silence.ai-query-unanswered']),
    );
  });
});

describe('diagnosisSieve', () => {
  /** Streams of what a page shows: navigations of the page and of embed frames (ours, another tenant's, a video
   * player's), events and actions posted and delivered (paired or not, from frames 0, 3, 4 or none, injected), readies,
   * fatal errors, foreign messages; some with issues of their own. */
  const ORIGINS = [TENANT, HOST, 'https://other.example.net', 'null'];
  const URLS = [
    `${DASH}?session=s`,
    `${TENANT}/embed/dashboard/second?session=s`,
    `${TENANT}/embed/d/12/app/workbook/7`,
    'https://www.youtube.com/embed/abc',
    'https://other.example.net/embed/dashboard/x',
  ];
  const TYPES = [
    'svc:event:ready',
    'svc:event:view',
    'svc:event:dashboard-loaded',
    'svc:event:error',
    'svc:action:refresh',
  ];
  const ISSUES: Issue[][] = [
    [],
    [{ rule: 'origin.action-wildcard', severity: 'error', path: 'targetOrigin', message: 'to *' }],
    [{ rule: 'session.failed-before-ready', severity: 'error', path: 'type', message: 'failed' }],
    [{ rule: 'surface.not-allowed', severity: 'warning', path: 'surface', message: 'w' }],
  ];
  const record = fc.record({
    what: fc.constantFrom('top', 'frame', 'message', 'message', 'message', 'message', 'foreign'),
    url: fc.constantFrom(...URLS),
    type: fc.constantFrom(...TYPES),
    kind: fc.constantFrom('post', 'receive'),
    frameId: fc.constantFrom(0, 3, 4, undefined),
    origin: fc.constantFrom(...ORIGINS),
    paired: fc.boolean(),
    injected: fc.boolean(),
    fatal: fc.boolean(),
    issues: fc.nat(ISSUES.length - 1),
    dt: fc.integer({ min: -5, max: 4000 }),
  });
  type Spec = typeof record extends fc.Arbitrary<infer T> ? T : never;
  const streamOf = (specs: Spec[]) => {
    let time = T0;
    return specs.map((x, k): CaptureRecord & { issues: Issue[] } => {
      time += x.dt;
      const base = { seq: k + 1, time, issues: ISSUES[x.issues] };
      if (x.what === 'top' || x.what === 'frame') {
        const url = x.what === 'top' ? `${HOST}/app` : x.url;
        return {
          ...base,
          kind: 'receive',
          frameUrl: url,
          origin: new URL(url).origin,
          data: { url },
          navigation: true,
          frameId: x.what === 'top' ? 0 : (x.frameId ?? 3) || 3,
        } as CaptureRecord & { issues: Issue[] };
      }
      const data =
        x.what === 'foreign' ? { hello: 1 } : msg(x.type, x.fatal ? { message: 'no', fatal: true } : undefined);
      return {
        ...base,
        kind: x.kind,
        frameUrl: x.frameId === 0 ? `${HOST}/app` : x.url,
        origin: x.origin,
        data,
        ...(x.frameId !== undefined ? { frameId: x.frameId } : {}),
        ...(x.paired ? { pairedWith: k + (x.kind === 'post' ? 2 : 0) } : {}),
        ...(x.injected ? { injected: true } : {}),
      } as CaptureRecord & { issues: Issue[] };
    });
  };
  const embedsOf = (d: ReturnType<typeof diagnose>) => d.embeds.map(({ failed: _failed, ...e }) => e); // (the fatal error's text is said in issues only)

  it('lets through what diagnose needs: the same embeds, notes and integration state as the whole stream', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), fc.constantFrom(TENANT, null), (specs, tenantOrigin) => {
        const stream = streamOf(specs);
        const sieve = diagnosisSieve();
        const kept = stream.filter((r) => sieve.keep(r));
        const opts = { now: T0 + 100_000, tenantOrigin };
        const all = diagnose(stream, opts);
        const some = diagnose(kept, opts);
        expect(embedsOf(some)).toEqual(embedsOf(all));
        expect(some.notes).toEqual(all.notes);
        const withIssues = stream.filter((r) => r.issues.length);
        expect(integrationState(withIssues, some, { svcEmbedSeen: sieve.svcEmbedSeen })).toEqual(
          integrationState(stream, all),
        );
      }),
      { numRuns: 1500, seed: 42 },
    );
  });

  it('lets few records through of a long session', () => {
    seq = 0;
    const stream = [top(T0), nav(`${DASH}?session=s`, T0), event('svc:event:ready', T0 + 5)];
    for (let k = 0; k < 1000; k++) {
      stream.push(event('svc:event:view', T0 + 10 + k), action('svc:action:refresh', T0 + 10 + k));
    }
    const sieve = diagnosisSieve();
    expect(stream.filter((r) => sieve.keep(r)).length).toBeLessThan(10);
    expect(sieve.svcEmbedSeen).toBe(true);
  });
});
