import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIONS, EVENTS } from './catalog.ts';
import { checkCapture } from './capture.ts';
import {
  aggregateCoverage,
  COVERAGE_FORMAT,
  CoverageFormatError,
  failedSummary,
  minimumMisses,
  parseMinimum,
  readCoverageSummary,
  readMinimum,
  ruleSubjects,
  summarizeCapture,
  type CoverageSummary,
  type CoverageTestInput,
} from './coverage.ts';
import { RULE_APPLIES } from './coverage-rules.ts';
import type { CaptureFile, RestCall } from './record.ts';
import { RULE_LIST } from './rules.ts';
import {
  actionPair,
  EMBED_URL,
  eventPair,
  HOST,
  msg,
  navigation,
  numbered,
  rec,
  T0,
  TENANT,
  validPayloads,
} from '../../test/fixtures/messages.ts';

const CLEAN = JSON.parse(
  readFileSync(new URL('../../test/fixtures/captures/clean-session.json', import.meta.url), 'utf8'),
) as CaptureFile;
const capture = (records: Array<Record<string, unknown>>, over: Partial<CaptureFile> = {}): CaptureFile => ({
  format: 'embed-inspector-capture',
  version: 1,
  tenantOrigin: TENANT,
  messages: numbered(records),
  ...over,
});
const test = (id: string, ...summaries: CoverageSummary[]): CoverageTestInput => ({ id, title: id, summaries });

describe('summarizeCapture: one capture', () => {
  it('counts each catalogued type by surface and kind, its enumerated values, and the rules it put to the test', () => {
    const s = summarizeCapture(CLEAN);
    expect(s).toMatchObject({ format: 'embed-inspector-test-coverage', version: 1, records: 5, messages: 4 });
    expect(Object.keys(s.types)).toEqual([
      'svc:event:ready',
      'svc:event:view',
      'svc:event:dashboard-loaded',
      'svc:action:set-color-scheme',
    ]);
    expect(s.types['svc:event:ready']).toEqual({
      messages: 1,
      invalid: 0,
      surfaces: { dashboard: { post: 0, delivery: 1 } },
      values: { mode: { signed: 1 }, surface: { dashboard: 1 } },
      other: {},
    });
    // An action goes to the embed: the capture's one surface (its ready said dashboard).
    expect(s.types['svc:action:set-color-scheme'].surfaces).toEqual({ dashboard: { post: 1, delivery: 0 } });
    expect(s.types['svc:action:set-color-scheme'].values).toEqual({ scheme: { dark: 1 } });
    // The foreign message is none of ours.
    expect(s.unknownTypes).toEqual({ names: [], messages: 0 });
    expect(s.rules['envelope.type']).toEqual({ checked: 4, fired: 0 });
    expect(s.rules['origin.action-wildcard']).toEqual({ checked: 1, fired: 0 });
    expect(s.rules['surface.payload-mismatch']).toEqual({ checked: 2, fired: 0 });
    // (its records name no frame: whether the host's actions could be seen is not known, so that rule was not judged)
    expect(s.rules['silence.host-never-acted']).toBeUndefined();
    expect(s.rules['download.row-count']).toBeUndefined();
    const framed = { ...CLEAN, messages: CLEAN.messages.map((r) => ({ ...r, frameId: 0 })) };
    expect(summarizeCapture(framed).rules['silence.host-never-acted']).toEqual({ checked: 1, fired: 0 });
  });

  it('counts a post and its delivery as one message, each record by its kind', () => {
    const s = summarizeCapture(
      capture([
        navigation(EMBED_URL),
        ...eventPair('svc:event:ready'),
        ...actionPair('svc:action:set-locale'),
        ...eventPair('svc:event:ai-query', { query: 'q', status: 'submitted' }),
      ]),
    );
    expect(s.messages).toBe(3);
    expect(s.types['svc:event:ready'].surfaces).toEqual({ dashboard: { post: 1, delivery: 1 } });
    expect(s.types['svc:action:set-locale']).toMatchObject({
      messages: 1,
      surfaces: { dashboard: { post: 1, delivery: 1 } },
    });
    expect(s.rules['action.locale']).toEqual({ checked: 1, fired: 0 });
    expect(s.rules['url.session']).toEqual({ checked: 1, fired: 0 });
    expect(s.rules['url.allow-export']).toBeUndefined(); // the address has no allowExport
  });

  it('takes the fired rules from checkCapture: a wildcard action fires once, at its post', () => {
    const s = summarizeCapture(
      capture([...eventPair('svc:event:ready'), ...actionPair('svc:action:refresh', {}, '*')]),
    );
    expect(
      checkCapture(capture([...eventPair('svc:event:ready'), ...actionPair('svc:action:refresh', {}, '*')])).summary
        .rules,
    ).toMatchObject({ 'origin.action-wildcard': 1 });
    expect(s.rules['origin.action-wildcard']).toEqual({ checked: 1, fired: 1 });
    expect(s.types['svc:action:refresh'].invalid).toBe(1);
  });

  it('tells an action’s surface by the embed frame it went to; unknown when two embeds of two surfaces cannot tell', () => {
    const app = `${TENANT}/embed/d/42/app/workbook/7`;
    const s = summarizeCapture(
      capture([
        navigation(EMBED_URL),
        navigation(app),
        rec(msg('svc:event:ready'), { kind: 'post', frameUrl: EMBED_URL, origin: TENANT, targetOrigin: HOST }),
        rec(msg('svc:event:ready', { ...validPayloads['svc:event:ready'], surface: 'app' }, { surface: 'app' }), {
          kind: 'post',
          frameUrl: app,
          origin: TENANT,
          targetOrigin: HOST,
        }),
        rec(msg('svc:action:refresh'), { targetUrl: app }),
        rec(msg('svc:action:navigate')),
      ]),
    );
    expect(s.types['svc:event:ready'].surfaces).toEqual({
      dashboard: { post: 1, delivery: 0 },
      app: { post: 1, delivery: 0 },
    });
    expect(s.types['svc:action:refresh'].surfaces).toEqual({ app: { post: 1, delivery: 0 } });
    expect(s.types['svc:action:navigate'].surfaces).toEqual({ unknown: { post: 1, delivery: 0 } });
  });

  it('keeps a value outside the catalog redacted, cut and bounded; a key of the page stays data', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const schemes = ['__proto__', 'constructor', `token ${jwt}`, 'x'.repeat(500), 'a', 'b', 'c', 'd'];
    const s = summarizeCapture(
      capture([
        ...eventPair('svc:event:ready'),
        ...schemes.map((scheme) => rec(msg('svc:action:set-color-scheme', { scheme }))),
        rec(msg('svc:event:error', { message: 'm', fatal: 'yes' })),
        rec(msg('svc:event:error', { message: 'm', fatal: true })),
      ]),
    );
    const other = s.types['svc:action:set-color-scheme'].other.scheme;
    expect(Object.getPrototypeOf(other)).toBe(Object.prototype);
    expect(Object.keys(other)).toEqual([
      '__proto__',
      'constructor',
      'token [redacted]',
      `${'x'.repeat(79)}…`,
      'a',
      '…',
    ]);
    expect(other['…']).toBe(3);
    expect(JSON.stringify(s)).not.toContain(jwt);
    expect(s.types['svc:event:error']).toMatchObject({ values: { fatal: { true: 1 } }, other: { fatal: { yes: 1 } } });
  });

  it('stays small whatever the page sends (types and values are the catalog’s, the rest capped)', () => {
    const junk = Array.from({ length: 2_000 }, (_, i) => [
      rec({ ...msg('svc:event:ready'), type: `svc:event:junk-${i}-${'y'.repeat(200)}` }),
      rec(msg('svc:event:download', { format: `f${i}`.repeat(50), target: `t${i}` })),
    ]).flat();
    const s = summarizeCapture(capture(junk));
    expect(s.unknownTypes.messages).toBe(2_000);
    expect(s.unknownTypes.names).toHaveLength(10);
    expect(JSON.stringify(s).length).toBeLessThan(8_000);
  });

  it('with redact: false keeps the page’s strings as they were (the command line’s --no-redact)', () => {
    const s = summarizeCapture(capture([rec(msg('svc:action:set-color-scheme', { scheme: 'session=abc123' }))]), {
      redact: false,
    });
    expect(Object.keys(s.types['svc:action:set-color-scheme'].other.scheme)).toEqual(['session=abc123']);
  });
});

describe('RULE_APPLIES: where each rule is checked', () => {
  it('has an entry for every rule of RULE_LIST and none for a rule that is not there', () => {
    expect(Object.keys(RULE_APPLIES).sort()).toEqual(RULE_LIST.map((r) => r.id).sort());
  });

  // Every issue checkCapture reports is on a subject coverage-rules.ts says the rule applies to: otherwise the table
  // would call a rule "never applicable" in a suite where it could have fired. The silence rules are counted where
  // their wait was seen to end (ready, dashboard-loaded, an answer); where they fire is where it did not.
  const TARGETS = [TENANT, '*', 'https://evil.example', '/'];
  const PAYLOADS = [undefined, { x: 1 }, null, [], 'text'];
  const anyMessage = fc
    .record({
      type: fc.constantFrom(...EVENTS.map((e) => e.type), ...ACTIONS.map((a) => a.type), 'svc:event:nope', 42),
      mutate: fc.integer({ min: 0, max: 9 }),
      payload: fc.constantFrom(...PAYLOADS),
      surface: fc.constantFrom('dashboard', 'app', 'chat', 'nowhere', undefined),
      timestamp: fc.constantFrom(T0, T0 - 5_000, 1_700_000_000, undefined),
      shape: fc.constantFrom('delivery', 'pair', 'post', 'dropped', 'truncated'),
      target: fc.constantFrom(...TARGETS),
      fatal: fc.boolean(),
      from: fc.constantFrom(TENANT, TENANT, 'https://evil.example'),
      at: fc.integer({ min: 0, max: 1_000 }),
    })
    .map((m) => {
      const type = String(m.type);
      const base: Record<string, unknown> = { ...msg(type, { ...(validPayloads[type] ?? {}) }), type: m.type };
      base.timestamp = T0 + m.at;
      const p = base.payload as Record<string, unknown>;
      const k = Object.keys(p)[m.mutate % Math.max(1, Object.keys(p).length)];
      if (m.mutate < 3 && k) {
        p[k] = [12, null, 'zzz'][m.mutate];
      } else if (m.mutate === 3) {
        p.extra = 1;
      } else if (m.mutate === 4 && m.payload !== undefined) {
        base.payload = m.payload;
      } else if (m.mutate === 5) {
        base.surface = m.surface;
        base.direction = m.fatal ? 'event' : 'action';
      } else if (m.mutate === 7) {
        base.direction = m.fatal ? 'sideways' : base.direction;
        base.extra = 1;
        if (k) {
          p[k] = '+02:00';
        }
      } else if (m.mutate === 6) {
        base.timestamp = m.timestamp;
        p.fatal = m.fatal;
        p.status = m.fatal ? 'completed' : 'error';
      }
      const data =
        m.shape === 'truncated'
          ? { $ei: 'Truncated', originalSize: 9e6, preview: '', ...base, payload: undefined }
          : base;
      const isEvent = base.direction === 'event';
      const post = {
        kind: 'post',
        frameUrl: isEvent ? EMBED_URL : `${HOST}/app`,
        origin: isEvent ? TENANT : HOST,
        targetOrigin: isEvent ? (m.target === TENANT ? HOST : m.target) : m.target,
        target: isEvent ? 'parent' : 'child',
        // (the top frame is 0, the embed's 1, as the browser numbers them: a hooked frame's posts show the host's
        // actions could be seen)
        frameId: isEvent ? 1 : 0,
        ...(isEvent ? { origin: m.from } : {}),
        ...(m.shape === 'dropped' ? { dropped: true } : {}),
        data,
      };
      const delivery = rec(data, { kind: 'receive', origin: isEvent ? m.from : HOST, targetOrigin: undefined });
      return m.shape === 'pair'
        ? [
            { ...post, pair: 1 },
            { ...delivery, pair: -1 },
          ]
        : m.shape === 'delivery'
          ? [delivery]
          : [post];
    });
  const anyNavigation = fc
    .constantFrom(
      EMBED_URL,
      `${TENANT}/embed/dashboard/dash01`,
      `${TENANT}/embed/dashbord/dash01?session=s`,
      `${TENANT}/embed/dashboard/dash01?session=s&allowExport=yes&timezone=%2B02:00&f_bad=x&other=1`,
      `${TENANT}/embed/chat?timezone=Mars%2FOlympus`,
      `${HOST}/app`,
      `https://elsewhere.example/embed/dashboard/d?session=s`,
    )
    .map((url) => [
      { ...navigation(url), ...(url.startsWith(HOST) ? { frameId: 0 } : url === EMBED_URL ? { frameId: 1 } : {}) },
    ]);
  // What the rules across messages and fields need: a second ready, a navigate whose previousPath is not the last path,
  // a fatal error before ready, a ready whose payload names another surface than its envelope.
  const anySequence = fc.constantFrom(
    [rec(msg('svc:event:error', { message: 'expired', fatal: true }))],
    [rec(msg('svc:event:ready', { ...validPayloads['svc:event:ready'], surface: 'app' }))],
    [rec(msg('svc:event:ready')), rec({ ...msg('svc:event:ready'), timestamp: T0 + 5 })],
    [
      rec(msg('svc:event:view')),
      rec({ ...msg('svc:event:navigate', { path: '/c', previousPath: '/x' }), timestamp: T0 + 5 }),
    ],
  );
  const REST: RestCall[] = [
    {
      time: T0,
      method: 'DELETE',
      url: `${TENANT}/api/v1/deployments/1/reports/2/connect-workbook`,
      status: 404,
      requestHeaders: {},
      requestBody: '{"sheetId":"x"}',
      responseBody: null,
    },
    {
      time: T0,
      method: 'GET',
      url: `${TENANT}/api/v1/deployments/x/workbooks/7`,
      status: 200,
      requestHeaders: { Authorization: 'Bearer t' },
      requestBody: null,
      responseBody: '{"id":8,"type":"REPORT","extra":1}',
    },
    {
      time: T0,
      method: 'POST',
      url: `${TENANT}/api/v1/deployments/1/workspace/move`,
      status: 503,
      requestHeaders: { Authorization: 'Basic x', 'Content-Type': 'text/plain' },
      requestBody: 'nope',
      responseBody: null,
    },
    {
      time: T0,
      method: 'PUT',
      url: `${TENANT}/api/v1/deployments/1/notifications/3`,
      status: 200,
      requestHeaders: { Authorization: 'Bearer t' },
      requestBody: '{"isEnabled":"yes","colour":1}',
      responseBody: '[]',
    },
    {
      time: T0,
      method: 'GET',
      url: `${TENANT}/api/v1/deployments/1/workbooks/7`,
      status: 401,
      requestHeaders: { Authorization: 'Bearer t' },
      requestBody: null,
      responseBody: null,
    },
  ];

  it('a rule fires only where the table says it applies', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(fc.oneof(anyMessage, anyMessage, anyMessage, anyNavigation, anySequence), { maxLength: 25 }),
        fc.boolean(),
        fc.boolean(),
        (parts, tenantKnown, late) => {
          const file = capture(parts.flat(), {
            tenantOrigin: tenantKnown ? TENANT : null,
            rest: REST,
            meta: late ? { createdAt: new Date(T0 + 60_000).toISOString() } : {},
          });
          const { applicable, fired } = ruleSubjects(file);
          for (const [rule, subjects] of fired) {
            seen.add(rule);
            if (rule.startsWith('silence.')) {
              continue;
            }
            const outside = [...subjects].filter((s) => !applicable.get(rule)?.has(s));
            expect(outside, rule).toEqual([]);
          }
        },
      ),
      // (a fixed seed: the same captures every run; a new rule the table gets wrong still fails below or here)
      { numRuns: 300, seed: 48 },
    );
    // Not vacuous: the captures fire most rules of the message, address and REST checks.
    expect(RULE_LIST.map((r) => r.id).filter((id) => !seen.has(id))).toEqual([]);
  });
});

describe('readCoverageSummary', () => {
  const s = summarizeCapture(CLEAN);

  it('reads back what summarizeCapture wrote, through JSON', () => {
    expect(readCoverageSummary(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it('refuses what is not a summary, or one of another version, with one line', () => {
    expect(() => readCoverageSummary({ ...s, format: 'x' })).toThrow(/^not a coverage summary: "format" is "x"$/);
    expect(() => readCoverageSummary({ ...s, version: 2 })).toThrow(
      /^coverage summary version 2; this embed-inspector reads version 1$/,
    );
    expect(() => readCoverageSummary({ ...s, records: -1 })).toThrow(CoverageFormatError);
    expect(() => readCoverageSummary([])).toThrow(/must be an object/);
  });

  it('leaves out types and rules the catalog does not have; bounds what it keeps', () => {
    const odd = JSON.parse(JSON.stringify(s));
    odd.types['svc:event:made-up'] = { messages: 1, invalid: 0, surfaces: {}, values: {}, other: {} };
    odd.types['svc:event:ready'].values.mode.bogus = 5;
    odd.types['svc:event:ready'].surfaces.moon = { post: 1, delivery: 1 };
    odd.rules['made.up'] = { checked: 1, fired: 1 };
    odd.unknownTypes.names = Array.from({ length: 50 }, (_, i) => `n${i}${'z'.repeat(300)}`);
    const r = readCoverageSummary(odd);
    expect(r.types['svc:event:made-up']).toBeUndefined();
    expect(r.types['svc:event:ready'].values.mode).toEqual({ signed: 1 });
    expect(r.types['svc:event:ready'].surfaces).toEqual({ dashboard: { post: 0, delivery: 1 } });
    expect(r.rules['made.up']).toBeUndefined();
    expect(r.unknownTypes.names).toHaveLength(10);
    expect(Math.max(...r.unknownTypes.names.map((n) => n.length))).toBe(80);
  });
});

describe('aggregateCoverage: a suite', () => {
  it('takes its totals from the catalog and the rule list, not from what was seen', () => {
    const c = aggregateCoverage([]);
    expect(c.format).toBe(COVERAGE_FORMAT);
    expect(c.summary).toEqual({
      events: { covered: 0, total: 8 },
      actions: { covered: 0, total: 7 },
      surfaces: { covered: 0, total: 39 },
      values: { covered: 0, total: 22 },
      rules: { total: RULE_LIST.length, checked: 0, passed: 0, fired: 0, neverApplicable: RULE_LIST.length },
      tests: { total: 0, withData: 0, messages: 0 },
    });
    expect(Object.keys(c.types)).toHaveLength(15);
    expect(c.gaps[0]).toBe('never sent: svc:event:ready');
    expect(c.gaps).toContain('never sent: svc:action:set-locale');
  });

  it('adds tests up: who saw what, the values seen and never seen, each rule’s status', () => {
    const wildcard = summarizeCapture(
      capture([...eventPair('svc:event:ready'), ...actionPair('svc:action:set-locale', undefined, '*')]),
    );
    const c = aggregateCoverage([test('b', summarizeCapture(CLEAN)), test('a', wildcard), test('c')]);
    expect(c.tests.map((t) => [t.id, t.hasData, t.types.length])).toEqual([
      ['a', true, 2],
      ['b', true, 4],
      ['c', false, 0],
    ]);
    expect(c.types['svc:event:ready']).toMatchObject({
      seen: true,
      messages: 2,
      kinds: { post: 1, delivery: 2 },
      surfaces: { dashboard: { post: 1, delivery: 2 }, app: { post: 0, delivery: 0 }, chat: { post: 0, delivery: 0 } },
      values: { mode: { signed: 2, private: 0 }, surface: { dashboard: 2, app: 0, chat: 0 } },
      tests: ['a', 'b'],
    });
    expect(c.rules['origin.action-wildcard']).toMatchObject({
      status: 'fired',
      checked: 2,
      fired: 1,
      passed: 1,
      tests: ['a'],
    });
    expect(c.rules['envelope.type'].status).toBe('passed');
    expect(c.rules['rest.auth'].status).toBe('never-applicable');
    expect(c.summary.events).toEqual({ covered: 3, total: 8 });
    expect(c.summary.actions).toEqual({ covered: 2, total: 7 });
    expect(c.tests[0].fired).toEqual(['origin.action-wildcard']);
    expect(c.gaps.slice(0, 3)).toEqual([
      'never sent: svc:event:navigate',
      'never sent: svc:event:download',
      'never sent: svc:event:drilldown',
    ]);
    expect(c.gaps).toContain('never from app, chat: svc:event:ready');
    expect(c.gaps).toContain('never with mode private: svc:event:ready');
    expect(c.gaps).toContain('no delivery seen: svc:action:set-color-scheme (posted 1×)');
    expect(c.gaps.at(-1)).toMatch(/^never checked \(rest\): rest\.auth, /);
  });

  it('gives the same coverage whatever the order and grouping of its tests (shards merged, retries)', () => {
    const a = test('a', summarizeCapture(CLEAN));
    const b = test('b', summarizeCapture(capture(eventPair('svc:event:ready'))), failedSummary('no answer'));
    const c = test('c', failedSummary('closed'));
    expect(aggregateCoverage([c, a, b])).toEqual(aggregateCoverage([a, b, c]));
    expect(aggregateCoverage([a, b, c]).tests.find((t) => t.id === 'c')).toMatchObject({
      hasData: false,
      error: 'closed',
    });
  });
});

describe('minimums', () => {
  const c = aggregateCoverage([test('a', summarizeCapture(CLEAN))]);

  it('parse from the command line and read from a reporter option, refusing what is not one', () => {
    expect(parseMinimum('events=100,actions=80')).toEqual({ events: 100, actions: 80 });
    expect(parseMinimum(' values=50% ')).toEqual({ values: 50 });
    expect(() => parseMinimum('events')).toThrow(/"events" is not KEY=PERCENT/);
    expect(() => parseMinimum('files=1')).toThrow(
      /^unknown key "files"; one of events, actions, surfaces, values, rules$/,
    );
    expect(() => readMinimum({ events: 101 })).toThrow(/^events must be a percentage from 0 to 100 \(got 101\)$/);
    expect(readMinimum(undefined)).toEqual({});
  });

  it('name what is missing, one line per minimum not met', () => {
    expect(minimumMisses(c, { events: 100, actions: 80, values: 0 })).toEqual([
      'events 3/8 (37.5%) is below the minimum of 100%: never sent: svc:event:navigate, svc:event:download, ' +
        'svc:event:drilldown, svc:event:ai-query, svc:event:error',
      'actions 1/7 (14.3%) is below the minimum of 80%: never sent: svc:action:set-theme, svc:action:set-locale, ' +
        'svc:action:set-timezone, svc:action:set-filter, svc:action:navigate, svc:action:refresh',
    ]);
    expect(minimumMisses(c, { events: 37.5, actions: 14 })).toEqual([]);
    expect(minimumMisses(c, { rules: 100 })[0]).toMatch(
      /^rules \d+\/\d+ \(.*\) is below the minimum of 100%: never checked: .* and \d+ more$/,
    );
  });
});
