import { describe, expect, it } from 'vitest';
import { createStore } from '../../app/create-store.ts';
import {
  buildMessage,
  defaultDraft,
  draftFromMessage,
  fromRaw,
  toRaw,
  validate,
  withSurface,
  withType,
} from './draft.ts';
import { sendTarget } from '../../link/live-link.ts';
import { captureOf, exportFileName, readImported } from './capture-file.ts';
import { replayData, replayItems } from './replay-items.ts';
import { createFileTransport, createMemoryTransport, type PanelTransport } from '../../link/transports.ts';
import { ACTION_TYPES, EVENT_TYPES } from '../../../protocol/catalog.ts';
import { checkCapture } from '../../../protocol/capture.ts';
import { encode } from '../../../protocol/encoding.ts';
import type { BackgroundToPanel, ClassifiedRecord } from '../../../shared/messages.ts';
import { formValuesFromPayload, jsonError, parseFilterParameter } from './composer.ts';

const TENANT = 'http://localhost:4101';
const HOST = 'http://127.0.0.1:4100';
const ctx = { tenantOrigin: TENANT, hostOrigin: HOST };

const rec = (seq: number, over: Partial<ClassifiedRecord>): ClassifiedRecord => ({
  seq,
  time: 1_700_000_000_000 + seq * 100,
  kind: 'post',
  frameUrl: `${HOST}/`,
  origin: HOST,
  targetOrigin: TENANT,
  data: {
    source: 'svc-embed',
    direction: 'action',
    type: 'svc:action:refresh',
    payload: {},
    timestamp: 1_700_000_000_000,
  },
  verdict: 'valid',
  issues: [],
  ...over,
});

describe('composer draft', () => {
  it.each([...ACTION_TYPES, ...EVENT_TYPES])('%s: a fresh form with its required fields filled is valid', (type) => {
    let d = withType(defaultDraft(type.startsWith('svc:event:') ? 'event' : 'action'), type);
    const fill: Record<string, string> = {
      locale: 'de-DE',
      timezone: 'Europe/Berlin',
      filterUrlParameter: 'f_orders.region=["EMEA"]',
      path: '/embed/x',
      message: 'boom',
      query: 'q',
      member: 'orders.count',
      embedTenant: 'acme',
      deploymentId: '1',
    };
    d = {
      ...d,
      values: {
        ...d.values,
        ...Object.fromEntries(Object.entries(fill).filter(([k]) => k in d.values || d.values[k] === undefined)),
      },
    };
    const b = buildMessage(d, 1_700_000_000_000);
    expect(b.errors).toEqual([]);
    const v = validate(b.data, d.side, ctx);
    expect(
      v.issues.filter((i) => i.severity === 'error'),
      JSON.stringify(v.issues),
    ).toEqual([]);
  });

  it('live validation reports the rule ids (bare offset, bad filter JSON, wrong surface)', () => {
    const tz = buildMessage({
      ...withType(defaultDraft('action'), 'svc:action:set-timezone'),
      values: { timezone: '+02:00' },
    });
    expect(validate(tz.data, 'action', ctx).issues.map((i) => i.rule)).toContain('action.timezone');
    const f = buildMessage({
      ...withType(defaultDraft('action'), 'svc:action:set-filter'),
      values: { filterUrlParameter: 'f_orders.region=[EMEA' },
    });
    expect(validate(f.data, 'action', ctx).issues.map((i) => i.rule)).toContain('action.filter');
    const dl = { ...withType(defaultDraft('event'), 'svc:event:download'), surface: 'chat' as const };
    expect(validate(buildMessage(dl).data, 'event', ctx).verdict).toBe('invalid');
    // an event validated as coming from the tenant origin; the unknown tenant skips origin rules
    expect(
      validate(buildMessage(withType(defaultDraft('event'), 'svc:event:error')).data, 'event', {
        tenantOrigin: null,
        hostOrigin: HOST,
      }).issues.map((i) => i.rule),
    ).toContain('payload.required');
  });

  it('surface follows the envelope; type switches keep shared values', () => {
    let d = withType(defaultDraft('event'), 'svc:event:view');
    expect(d.values.surface).toBe('dashboard');
    d = withSurface(d, 'chat');
    expect(d.values.surface).toBe('chat');
    d = withType({ ...d, values: { ...d.values, path: '/p' } }, 'svc:event:navigate');
    expect(d.values).toEqual({ path: '/p' });
    expect(d.surface).toBe('chat');
    expect(withType(d, 'svc:event:drilldown').surface).toBe('dashboard'); // dashboard only
  });

  it('form errors block building; set-theme takes further fields as JSON', () => {
    const bad = buildMessage({
      ...withType(defaultDraft('event'), 'svc:event:dashboard-loaded'),
      values: { widgetCount: 'four' },
    });
    expect(bad.data).toBeUndefined();
    expect(bad.errors[0]).toMatch(/widgetCount/);
    const theme = withType(defaultDraft('action'), 'svc:action:set-theme');
    const ok = buildMessage(
      { ...theme, values: { primaryColor: '#7c3aed', borderRadius: '14' }, extra: '{"fontSize": 13}' },
      5,
    );
    expect(ok.data).toEqual({
      source: 'svc-embed',
      direction: 'action',
      type: 'svc:action:set-theme',
      payload: { fontSize: 13, primaryColor: '#7c3aed', borderRadius: 14 },
      timestamp: 5,
    });
    expect(buildMessage({ ...theme, extra: '[1]' }).errors[0]).toMatch(/other theme fields: must be a JSON object/);
  });

  it('raw mode: parse errors block; the form and JSON convert both ways when the form can hold it', () => {
    const d = { ...withType(defaultDraft('action'), 'svc:action:set-locale'), values: { locale: 'fr-FR' } };
    const raw = toRaw(d, 7);
    expect(JSON.parse(raw)).toMatchObject({
      type: 'svc:action:set-locale',
      payload: { locale: 'fr-FR' },
      timestamp: 7,
    });
    const back = fromRaw({ ...d, mode: 'raw', raw });
    expect('draft' in back && back.draft.values).toEqual({ locale: 'fr-FR' });
    expect(
      fromRaw({
        ...d,
        mode: 'raw',
        raw: '{"source":"svc-embed","direction":"action","type":"svc:action:x","payload":{}}',
      }),
    ).toHaveProperty('reason');
    expect(buildMessage({ ...d, mode: 'raw', raw: '{oops' }).errors[0]).toMatch(/does not parse/);
    expect(buildMessage({ ...d, mode: 'raw', raw: '"just a string"' }).data).toBe('just a string');
  });

  it('a captured message opens in the form, or as JSON when the form cannot hold it', () => {
    const ok = draftFromMessage({
      source: 'svc-embed',
      direction: 'action',
      type: 'svc:action:set-filter',
      payload: { filterUrlParameter: 'f_o.r=1' },
      timestamp: 1,
    });
    expect(ok).toMatchObject({ mode: 'form', side: 'action', values: { filterUrlParameter: 'f_o.r=1' } });
    const ev = draftFromMessage({
      source: 'svc-embed',
      direction: 'event',
      type: 'svc:event:error',
      surface: 'app',
      payload: { message: 'x', fatal: true },
      timestamp: 1,
    });
    expect(ev).toMatchObject({ mode: 'form', side: 'event', surface: 'app', values: { message: 'x', fatal: 'true' } });
    expect(
      draftFromMessage({
        source: 'svc-embed',
        direction: 'action',
        type: 'svc:action:navigate',
        payload: { path: '/', extra: 1 },
        timestamp: 1,
      }).mode,
    ).toBe('raw');
    expect(
      draftFromMessage(
        encode({
          source: 'svc-embed',
          direction: 'event',
          type: 'svc:event:drilldown',
          surface: 'dashboard',
          payload: { member: 'm', value: new Date(0) },
          timestamp: 1,
        }).value,
      ),
    ).toMatchObject({ mode: 'form', values: { member: 'm', value: '"1970-01-01T00:00:00.000Z"' } });
    expect(draftFromMessage({ hello: 1 }).mode).toBe('raw');
    const theme = draftFromMessage({
      source: 'svc-embed',
      direction: 'action',
      type: 'svc:action:set-theme',
      payload: { primaryColor: '#fff', borderRadius: '14', x: [1] },
      timestamp: 1,
    });
    expect(theme).toMatchObject({ mode: 'form', values: { primaryColor: '#fff', borderRadius: '"14"' } });
    expect(JSON.parse(theme.extra)).toEqual({ x: [1] });
    expect(buildMessage(theme, 1).data).toMatchObject({
      payload: { primaryColor: '#fff', borderRadius: '14', x: [1] },
    });
  });

  it('filter parameter helpers', () => {
    expect(parseFilterParameter('f_orders.region=["EMEA","APAC"]')).toEqual({
      view: 'orders',
      dimension: 'region',
      json: '["EMEA","APAC"]',
    });
    expect(parseFilterParameter('f_orders.region=%5B%22EMEA%22%5D')).toEqual({
      view: 'orders',
      dimension: 'region',
      json: '["EMEA"]',
    });
    expect(parseFilterParameter('orders.region=1')).toBeNull();
    expect(jsonError('[1,')).toBeTruthy();
    expect(jsonError('null')).toBeNull();
    expect(formValuesFromPayload('svc:action:set-color-scheme', { scheme: 'sepia' }).representable).toBe(false);
  });
});

describe('live link', () => {
  // The store reads the live tab's messages (live batches applied at once here); the link reads what it keeps.
  const connectLive = (under: PanelTransport, opts?: { timeoutMs?: number }) => {
    const store = createStore({ schedule: (fn) => fn() });
    return { store, link: store.connectLive(under, opts) };
  };
  it('shows the live tab when attached, tracks state and frames, correlates send results', async () => {
    const mem = createMemoryTransport({
      tabId: 7,
      state: { tenantOrigin: TENANT, pageUrl: `${HOST}/?x=1` },
      records: [rec(1, { kind: 'receive', frameUrl: `${TENANT}/embed/dashboard/a?session=s`, origin: HOST })],
    });
    const { store, link } = connectLive(mem);
    expect(link.state()?.tenantOrigin).toBe(TENANT);
    expect(link.frames().map((f) => f.origin)).toEqual([TENANT]);
    const off = store.attach(link.view);
    expect(mem.sent.at(-1)?.type).toBe('subscribe'); // a fresh snapshot for the log shown
    expect(store.log.all().map((r) => r.seq)).toEqual([1]);
    const t = sendTarget(link);
    expect(t).toMatchObject({ tenantOrigin: TENANT, hostOrigin: HOST, blocked: null });
    expect(t.embedFrames[0].url).toContain('/embed/dashboard/a');
    const r = await link.send({ from: 'host', data: { a: 1 }, targetOrigin: TENANT });
    expect(r.ok).toBe(true);
    expect(mem.sent.at(-1)).toMatchObject({ type: 'send', from: 'host', targetOrigin: TENANT });
    off();
    mem.push([rec(2, {})]);
    expect(store.log.all().map((r) => r.seq)).toEqual([1]); // detached: the log shown is left alone
    expect(link.frames().map((f) => f.origin)).toEqual([HOST, TENANT]); // still tracked, most recent first
  });
  it('reads the live tab while an imported file is shown: the send target is the live embed frame', () => {
    const embedA = `${TENANT}/embed/dashboard/a?session=s`;
    const embedB = `${TENANT}/embed/dashboard/b?session=s`;
    const mem = createMemoryTransport({
      tabId: 7,
      state: { tenantOrigin: TENANT, pageUrl: `${HOST}/?x=1` },
      records: [rec(1, { kind: 'receive', frameUrl: embedA, origin: HOST })],
    });
    const { store, link } = connectLive(mem);
    let detach = store.attach(link.view);
    detach();
    const fileFrame = `${TENANT}/embed/dashboard/from-the-file`;
    detach = store.attach(
      createMemoryTransport({ live: false, records: [rec(9, { kind: 'receive', frameUrl: fileFrame, origin: HOST })] }),
    );
    mem.push([rec(2, { kind: 'receive', frameUrl: embedB, origin: HOST })]);
    expect(store.log.all().map((r) => r.seq)).toEqual([9]); // the file is shown
    expect(sendTarget(link)).toMatchObject({ tenantOrigin: TENANT, hostOrigin: HOST, blocked: null });
    expect(sendTarget(link).embedFrames.map((f) => f.url)).toEqual([embedB, embedA]); // the live tab's, latest first
    detach();
    store.attach(link.view);
    expect(store.log.all().map((r) => r.seq)).toEqual([1, 2]); // back to the live tab: a fresh snapshot
  });
  it('says why nothing can be sent: no tab, no tenant origin', () => {
    expect(sendTarget(null).blocked).toMatch(/Not attached/);
    const { link } = connectLive(createMemoryTransport({ state: { tenantOrigin: null } }));
    expect(sendTarget(link).blocked).toMatch(/tenant origin is unknown.*never sends to "\*"/);
  });
  it('a send with no answer times out with a reason', async () => {
    const silent = { ...createMemoryTransport(), send() {} };
    const { link } = connectLive(silent, { timeoutMs: 10 });
    expect(await link.send({ from: 'embed', data: 1, targetOrigin: HOST })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no answer/),
    });
  });
});

describe('export and import', () => {
  const secretUrl = `${TENANT}/embed/dashboard/a?session=demo-signed-secret&allowExport=true`;
  const records = [
    rec(1, { kind: 'receive', frameUrl: secretUrl, origin: HOST, pairedWith: 2 }),
    rec(2, { targetUrl: secretUrl, pairedWith: 1, injected: true }),
    rec(3, {
      kind: 'receive',
      frameUrl: `${HOST}/`,
      origin: TENANT,
      data: {
        source: 'svc-embed',
        direction: 'event',
        type: 'svc:event:error',
        surface: 'dashboard',
        payload: { message: 'Bearer abcdefgh123' },
        timestamp: 1_700_000_000_000,
      },
    }),
  ];
  it('writes a v1 capture without panel fields, redacted by default; the check agrees', () => {
    const f = captureOf(records, { tenantOrigin: TENANT, pageUrl: `${HOST}/`, dropped: 2, now: new Date(0) });
    const text = JSON.stringify(f);
    expect(text).not.toContain('demo-signed-secret');
    expect(text).not.toContain('abcdefgh123');
    expect(text).not.toContain('"verdict"');
    expect(f.meta).toMatchObject({ redacted: true, dropped: 2, createdAt: '1970-01-01T00:00:00.000Z' });
    expect(captureOf(records, { tenantOrigin: TENANT, redact: false }).messages[0].frameUrl).toBe(secretUrl);
    const r = readImported(text, 'x.json');
    expect('file' in r && r.file.messages).toHaveLength(3);
    expect(checkCapture('file' in r ? r.file : f).summary.messages).toBe(2); // (a post and its delivery: one message)
  });
  it('unusable files: one line naming the file', () => {
    expect(readImported('{', 'a.json')).toEqual({ error: expect.stringMatching(/^a\.json: not JSON/) });
    expect(readImported('{"format":"har"}', 'b.json')).toEqual({
      error: expect.stringMatching(/^b\.json: not a capture file/),
    });
    expect(readImported('{"format":"embed-inspector-capture","version":2,"messages":[]}', 'c.json')).toEqual({
      error: expect.stringMatching(/unsupported capture version 2/),
    });
    expect(readImported('{"format":"embed-inspector-capture","version":1,"messages":[{"seq":1}]}', 'd.json')).toEqual({
      error: expect.stringMatching(/messages\[0\]\.time/),
    });
  });
  it('file name has the host and no query', () => {
    expect(exportFileName(`${HOST}/?session=x`, new Date(2026, 0, 2, 3, 4, 5))).toBe(
      'embed-capture-127.0.0.1-4100-20260102-030405.json',
    );
  });
  it('an imported file gets the same verdicts as embed-inspector check (session rules too)', () => {
    const ready = (seq: number): ClassifiedRecord =>
      rec(seq, {
        kind: 'receive',
        origin: TENANT,
        data: {
          source: 'svc-embed',
          direction: 'event',
          type: 'svc:event:ready',
          surface: 'dashboard',
          timestamp: 1_700_000_000_000,
          payload: { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' },
        },
      });
    const file = captureOf([ready(1), ready(2)], { tenantOrigin: TENANT });
    const got: BackgroundToPanel[] = [];
    createFileTransport(file, 'f.json').connect((m) => got.push(m));
    const snap = got[0] as Extract<BackgroundToPanel, { type: 'snapshot' }>;
    const cli = checkCapture(file).messages;
    expect(snap.records.map((r) => r.verdict)).toEqual(cli.map((m) => m.verdict));
    expect(snap.records[1].issues.map((i) => i.rule)).toEqual(cli[1].issues.map((i) => i.rule));
  });
});

describe('replay items', () => {
  it('one item per message: the post of a pair, a lone delivery; events only when asked', () => {
    const ev = {
      source: 'svc-embed',
      direction: 'event',
      type: 'svc:event:view',
      surface: 'dashboard',
      payload: { surface: 'dashboard', path: '/' },
      timestamp: 1,
    };
    const rs = [
      rec(1, { pairedWith: 2 }),
      rec(2, { kind: 'receive', pairedWith: 1 }),
      rec(3, { kind: 'receive' }), // delivery whose post was not captured (receive-only)
      rec(4, { data: ev }),
      rec(5, { data: { hello: 1 }, verdict: 'foreign' }),
      rec(6, { navigation: true, data: { url: 'x' } }),
    ];
    expect(replayItems(rs).map((i) => i.seq)).toEqual([1, 3]);
    expect(replayItems(rs.slice(1)).map((i) => i.seq)).toEqual([2, 3]); // the post is not in the set: its delivery stands for it
    expect(replayItems(rs, { includeEvents: true }).map((i) => `${i.seq}${i.side[0]}`)).toEqual(['1a', '3a', '4e']);
  });
  it('fresh timestamps only on request', () => {
    const [it0] = replayItems([rec(1, {})]);
    expect(replayData(it0, false)).toBe(it0.data);
    expect(replayData(it0, true, 42)).toMatchObject({ timestamp: 42, type: 'svc:action:refresh' });
  });
});
