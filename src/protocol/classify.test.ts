import { describe, expect, it } from 'vitest';
import { classify } from './classify.ts';
import { encode } from './encoding.ts';
import { ACTION_TYPES, EVENT_TYPES } from './catalog.ts';
import { RULES } from './rules.ts';
import { msg, rec, TENANT, HOST, validPayloads } from '../../test/fixtures/messages.ts';

const ctx = { tenantOrigin: TENANT };
const rulesOf = (r: unknown) => classify(r as any, ctx).issues.map((i) => i.rule);
const withPayload = (type: string, patch: Record<string, unknown>) => msg(type, { ...validPayloads[type], ...patch });
const without = (type: string, key: string) => {
  const p = { ...validPayloads[type] };
  delete p[key];
  return msg(type, p);
};

describe('every catalogued message in its valid form', () => {
  it.each([...EVENT_TYPES, ...ACTION_TYPES])('%s is valid with no issue', (type) => {
    const r = classify(rec(msg(type)), ctx);
    expect(r).toEqual({ verdict: 'valid', issues: [] });
  });
});

describe('foreign traffic', () => {
  it.each([
    ['no marker', { type: 'svc:event:ready' }],
    ['another source', { source: 'react-devtools-bridge', payload: {} }],
    ['a string', 'hello'],
    ['null', null],
    ['a number', 42],
    ['an array', ['svc-embed']],
    ['marker in wrong case', { source: 'SVC-EMBED', direction: 'event' }],
  ])('%s is foreign, not invalid', (_name, data) => {
    expect(classify(rec(data), ctx)).toEqual({ verdict: 'foreign', issues: [] });
  });
});

// Each rule: a message that trips it, and a near miss that does not.
type Row = [rule: string, trips: unknown, nearMiss: unknown];
const table: Row[] = [
  ['envelope.direction', msg('svc:event:view', undefined, { direction: 'evnt' }), msg('svc:event:view')],
  ['envelope.type', msg('svc:event:viewed'), msg('svc:event:view')],
  ['envelope.type', { ...msg('svc:event:view'), type: 7 }, msg('svc:event:view')],
  [
    'envelope.type-direction',
    msg('svc:action:refresh', {}, { direction: 'event', surface: 'dashboard' }),
    msg('svc:action:refresh'),
  ],
  [
    'envelope.truncated',
    encode(msg('svc:event:view', { ...validPayloads['svc:event:view'], title: 'x'.repeat(5000) }), { maxBytes: 2048 })
      .value as any,
    msg('svc:event:view'),
  ],
  ['envelope.payload', msg('svc:event:view', 'x' as any), msg('svc:event:view')],
  [
    'envelope.payload',
    (() => {
      const m = msg('svc:action:refresh');
      delete m.payload;
      return m;
    })(),
    msg('svc:action:refresh'),
  ],
  [
    'envelope.timestamp',
    msg('svc:event:view', undefined, { timestamp: '1700000000000' }),
    msg('svc:event:view', undefined, { timestamp: 1_700_000_000_000 }),
  ],
  ['envelope.timestamp', msg('svc:event:view', undefined, { timestamp: Infinity }), msg('svc:event:view')],
  [
    'envelope.timestamp-epoch',
    msg('svc:event:view', undefined, { timestamp: 1_700_000_000 }),
    msg('svc:event:view', undefined, { timestamp: 1_700_000_000_000 }),
  ],
  [
    'envelope.timestamp-epoch',
    msg('svc:event:view', undefined, { timestamp: 1234.5 }),
    msg('svc:event:view', undefined, { timestamp: 1_700_000_000_000.5 }),
  ],
  [
    'envelope.surface-missing',
    (() => {
      const m = msg('svc:event:navigate');
      delete m.surface;
      return m;
    })(),
    msg('svc:event:navigate'),
  ],
  [
    'envelope.surface',
    msg('svc:event:navigate', undefined, { surface: 'board' }),
    msg('svc:event:navigate', undefined, { surface: 'chat' }),
  ],
  ['envelope.surface-on-action', msg('svc:action:refresh', {}, { surface: 'dashboard' }), msg('svc:action:refresh')],
  ['envelope.unknown-field', msg('svc:event:view', undefined, { version: 2 }), msg('svc:event:view')],
  ['payload.required', without('svc:event:ready', 'mode'), without('svc:event:ready', 'publicId')],
  [
    'payload.required',
    without('svc:event:ready', 'embedTenant'),
    withPayload('svc:event:ready', { embedTenant: null }),
  ],
  ['payload.required', without('svc:action:set-locale', 'locale'), msg('svc:action:set-locale')],
  [
    'payload.type',
    withPayload('svc:event:ready', { deploymentId: '42' }),
    withPayload('svc:event:ready', { deploymentId: null }),
  ],
  [
    'payload.type',
    withPayload('svc:event:dashboard-loaded', { widgetCount: '4' }),
    withPayload('svc:event:dashboard-loaded', { widgetCount: 0 }),
  ],
  ['payload.type', withPayload('svc:event:error', { fatal: 'true' }), withPayload('svc:event:error', { fatal: true })],
  ['payload.type', withPayload('svc:event:view', { path: 5 }), withPayload('svc:event:view', { path: '' })],
  [
    'payload.type',
    withPayload('svc:event:dashboard-loaded', { loadDurationMs: { $ei: 'Number', v: 'NaN' } }),
    withPayload('svc:event:dashboard-loaded', { loadDurationMs: 1.5 }),
  ],
  [
    'payload.type',
    withPayload('svc:event:ai-query', { query: { $ei: 'Date', v: '2026-01-01T00:00:00.000Z' } }),
    msg('svc:event:ai-query'),
  ],
  [
    'payload.enum',
    withPayload('svc:event:ready', { mode: 'public' }),
    withPayload('svc:event:ready', { mode: 'private' }),
  ],
  [
    'payload.enum',
    withPayload('svc:event:download', { format: 'json' }),
    withPayload('svc:event:download', { format: 'xlsx' }),
  ],
  [
    'payload.enum',
    withPayload('svc:event:ai-query', { status: 'done' }),
    withPayload('svc:event:ai-query', { status: 'completed' }),
  ],
  [
    'payload.enum',
    withPayload('svc:action:set-color-scheme', { scheme: 'system' }),
    withPayload('svc:action:set-color-scheme', { scheme: 'auto' }),
  ],
  ['payload.null', withPayload('svc:event:view', { title: null }), without('svc:event:view', 'title')],
  [
    'payload.unknown-field',
    withPayload('svc:event:view', { extra: 1 }),
    withPayload('svc:action:set-theme', { extra: 1 }),
  ],
  [
    'surface.payload-mismatch',
    withPayload('svc:event:ready', { surface: 'app' }),
    msg('svc:event:ready', { ...validPayloads['svc:event:ready'], surface: 'app' }, { surface: 'app' }),
  ],
  ['surface.payload-mismatch', withPayload('svc:event:view', { surface: 'chat' }), msg('svc:event:view')],
  [
    'surface.not-allowed',
    msg('svc:event:drilldown', undefined, { surface: 'chat' }),
    msg('svc:event:ai-query', undefined, { surface: 'chat' }),
  ],
  [
    'surface.not-allowed',
    msg('svc:event:dashboard-loaded', undefined, { surface: 'app' }),
    msg('svc:event:dashboard-loaded'),
  ],
  ['surface.not-allowed', msg('svc:event:download', undefined, { surface: 'app' }), msg('svc:event:download')],
  [
    'download.widget-id',
    withPayload('svc:event:download', { target: 'dashboard' }),
    (() => {
      const p = { ...validPayloads['svc:event:download'], target: 'dashboard' } as any;
      delete p.widgetId;
      return msg('svc:event:download', p);
    })(),
  ],
  [
    'download.row-count',
    withPayload('svc:event:download', { format: 'png' }),
    withPayload('svc:event:download', { format: 'xlsx' }),
  ],
  [
    'action.timezone',
    withPayload('svc:action:set-timezone', { timezone: '+02:00' }),
    withPayload('svc:action:set-timezone', { timezone: 'Etc/GMT-2' }),
  ],
  [
    'action.timezone',
    withPayload('svc:action:set-timezone', { timezone: 'UTC+2' }),
    withPayload('svc:action:set-timezone', { timezone: 'UTC' }),
  ],
  [
    'action.timezone',
    withPayload('svc:action:set-timezone', { timezone: 'GMT-5' }),
    withPayload('svc:action:set-timezone', { timezone: 'America/New_York' }),
  ],
  [
    'action.timezone',
    withPayload('svc:action:set-timezone', { timezone: 'Europe Berlin' }),
    withPayload('svc:action:set-timezone', { timezone: 'Europe/Berlin' }),
  ],
  [
    'action.timezone-unknown',
    withPayload('svc:action:set-timezone', { timezone: 'Mars/Olympus_Mons' }),
    withPayload('svc:action:set-timezone', { timezone: 'Asia/Kolkata' }),
  ],
  [
    'action.filter',
    withPayload('svc:action:set-filter', { filterUrlParameter: 'orders.status="shipped"' }),
    withPayload('svc:action:set-filter', { filterUrlParameter: 'f_orders.status=["shipped","open"]' }),
  ],
  [
    'action.filter',
    withPayload('svc:action:set-filter', { filterUrlParameter: 'f_orders.status=shipped' }),
    withPayload('svc:action:set-filter', { filterUrlParameter: 'f_orders.status="shipped"' }),
  ],
  [
    'action.filter',
    withPayload('svc:action:set-filter', { filterUrlParameter: 'f_orders=1' }),
    withPayload('svc:action:set-filter', { filterUrlParameter: 'f_orders.amount=1' }),
  ],
  [
    'action.locale',
    withPayload('svc:action:set-locale', { locale: 'en_US' }),
    withPayload('svc:action:set-locale', { locale: 'en-US' }),
  ],
  [
    'action.locale',
    withPayload('svc:action:set-locale', { locale: 'not a locale' }),
    withPayload('svc:action:set-locale', { locale: 'fr' }),
  ],
  ['action.refresh-payload', msg('svc:action:refresh', { force: true }), msg('svc:action:refresh', {})],
];

describe('rules: each trips on one message and not on its near miss', () => {
  it.each(table)('%s', (rule, trips, nearMiss) => {
    expect(rulesOf(rec(trips))).toContain(rule);
    expect(rulesOf(rec(nearMiss))).not.toContain(rule);
  });

  it('covers every stateless rule in the rule table', () => {
    const stateless = Object.values(RULES)
      .filter((r) => !['session', 'origin', 'rest', 'url', 'silence'].includes(r.group))
      .map((r) => r.id);
    const covered = new Set(table.map((r) => r[0]));
    expect(stateless.filter((id) => !covered.has(id))).toEqual([]);
  });

  it('severity decides the verdict: warnings and infos keep a message valid', () => {
    const warn = classify(rec(withPayload('svc:event:download', { format: 'png' })), ctx);
    expect(warn.verdict).toBe('valid');
    expect(warn.issues.map((i) => i.severity)).toEqual(['warning']);
    const err = classify(rec(withPayload('svc:event:ready', { mode: 'public' })), ctx);
    expect(err.verdict).toBe('invalid');
    expect(err.issues[0]).toMatchObject({ rule: 'payload.enum', severity: 'error', path: 'payload.mode' });
  });
});

describe('origin rules', () => {
  const evt = msg('svc:event:view');
  const act = msg('svc:action:refresh');
  const rows: Array<[rule: string, trips: object, nearMiss: object]> = [
    ['origin.event', rec(evt, { origin: 'https://evil.example.net' }), rec(evt, { origin: `${TENANT}:443` })],
    [
      'origin.event',
      rec(evt, {
        kind: 'post',
        origin: 'http://third.localhost:9',
        frameUrl: 'http://third.localhost:9/x',
        targetOrigin: HOST,
      }),
      rec(evt, { kind: 'post', origin: TENANT, targetOrigin: HOST }),
    ],
    ['origin.action-wildcard', rec(act, { targetOrigin: '*' }), rec(act, { targetOrigin: TENANT })],
    [
      'origin.action-target',
      rec(act, { targetOrigin: 'https://acme.example.co' }),
      rec(act, { targetOrigin: 'https://ACME.example.com/some/path' }),
    ],
    ['origin.action-target', rec(act, { targetOrigin: '/' }), rec(act, { targetOrigin: '/', origin: TENANT })],
    [
      'origin.dropped',
      rec(evt, { kind: 'post', origin: TENANT, targetOrigin: 'https://wrong.example', dropped: true }),
      rec(evt, { kind: 'post', origin: TENANT, targetOrigin: HOST }),
    ],
  ];
  it.each(rows)('%s', (rule, trips, nearMiss) => {
    expect(rulesOf(trips)).toContain(rule);
    expect(rulesOf(nearMiss)).not.toContain(rule);
  });
  it('are skipped while the tenant origin is unknown', () => {
    expect(classify(rec(act, { targetOrigin: '*' })).issues).toEqual([]);
  });
  it('a dropped action is reported once, as the wrong target', () => {
    const r = rulesOf(rec(act, { targetOrigin: 'https://wrong.example', dropped: true }));
    expect(r.filter((x) => x.startsWith('origin.'))).toEqual(['origin.action-target']);
  });
  it('a post that threw was never sent: it says so, and is not called dropped', () => {
    const threw = classify(
      rec(act, { targetOrigin: 'not a url', error: "SyntaxError: Invalid target origin 'not a url'" }),
      ctx,
    ).issues;
    expect(threw.map((i) => i.rule)).toEqual(['origin.action-target']);
    expect(threw[0].message).toMatch(/never sent/);
    expect(threw[0].message).not.toMatch(/drops/);
    const evtThrew = classify(
      rec(evt, { kind: 'post', origin: TENANT, targetOrigin: 'x', dropped: true, error: 'DataCloneError: x' }),
      ctx,
    ).issues;
    expect(evtThrew.map((i) => i.rule)).not.toContain('origin.dropped');
  });
});

describe('issue fields', () => {
  it('carry rule, severity, path and a message naming the problem', () => {
    const [i] = classify(rec(withPayload('svc:event:ready', { deploymentId: '42' })), ctx).issues;
    expect(i).toEqual({
      rule: 'payload.type',
      severity: 'error',
      path: 'payload.deploymentId',
      message: expect.stringContaining('"42"'),
    });
  });
  it.each([
    ['plain', 'nowhere'],
    ['a quote', 'say "hi"'],
    ['a backslash', 'a\\b'],
    ['a control character', 'tab\there'],
    ['a lone surrogate', 'x\ud800'],
    ['a surrogate pair', 'face 😀'],
    ['a quote at the 60-character cut', `${'z'.repeat(59)}"tail`],
  ])('quote a string value as JSON does: %s', (_name, surface) => {
    const shown = JSON.stringify(surface.length > 60 ? `${surface.slice(0, 60)}…` : surface);
    const [i] = classify(rec(msg('svc:event:view', undefined, { surface })), ctx).issues;
    expect(i.message).toBe(`surface is ${shown}; expected "dashboard", "app" or "chat"`);
  });
  it('name each wrong value, when the same field is wrong in message after message', () => {
    const values = [12345, 12345, 7, true, 12345, -0, 0, Number.NaN, Number.NaN, false, 1e21];
    const messages = values.map(
      (embedTenant) => classify(rec(withPayload('svc:event:ready', { embedTenant })), ctx).issues[0]?.message,
    );
    expect(messages).toEqual(values.map((v) => `"embedTenant" is ${String(v)}; expected string or null`));
  });
  it('every rule id used by the classifier is documented', () => {
    for (const [rule] of table) {
      expect(RULES[rule], rule).toBeDefined();
    }
  });
});

describe('a message over the size cap', () => {
  const cut = (data: unknown) => encode(data, { maxBytes: 2048 });
  const big = (type: string, extra: Record<string, unknown> = {}) =>
    msg(type, { ...validPayloads[type], title: 'x'.repeat(10_000) }, extra);
  // Each row: the message, and the rules its truncated record must get (judged on what was kept).
  const ROWS: Array<[string, Record<string, unknown>, string[]]> = [
    ['a valid view: only "not checked: truncated"', big('svc:event:view'), ['envelope.truncated']],
    [
      'a view without surface: the envelope error survives truncation',
      (() => {
        const m = big('svc:event:view');
        delete (m as any).surface;
        return m;
      })(),
      ['envelope.surface-missing', 'envelope.truncated'],
    ],
    [
      'an action with a surface',
      big('svc:action:navigate', { surface: 'dashboard' }),
      ['envelope.surface-on-action', 'envelope.truncated'],
    ],
    [
      'a null surface is kept as null',
      big('svc:event:view', { surface: null }),
      ['envelope.surface', 'envelope.truncated'],
    ],
  ];
  it.each(ROWS)('%s', (_name, data, rules) => {
    const enc = cut(data);
    expect(enc.truncated).toBe(true);
    const c = classify(rec(enc.value, { originalSize: enc.size }), ctx);
    expect(c.issues.map((i) => i.rule).sort()).toEqual([...rules].sort());
    expect(c.issues.find((i) => i.rule === 'envelope.truncated')!.message).toMatch(/^not checked: truncated/);
  });
});
