import { describe, expect, it } from 'vitest';
import { checkRecords } from './capture.ts';
import {
  buildFlow,
  flowOfCapture,
  flowOfIndex,
  indexFlow,
  sliceFlow,
  type FlowInput,
  type FlowModel,
  type FlowOptions,
} from './flow.ts';
import {
  actionPair,
  EMBED_URL,
  eventPair,
  foreign,
  HOST,
  msg,
  navigation,
  numbered,
  rec,
  T0,
  TENANT,
} from '../../test/fixtures/messages.ts';

const PAGE = `${HOST}/app`;

/** The flow of records as the command line draws them (checked, causal order), foreign traffic in unless told. */
const flow = (records: any[], opts: Omit<FlowOptions, 'tenantOrigin'> = {}, tenantOrigin: string | null = TENANT) =>
  flowOfCapture(records, checkRecords(records, { tenantOrigin }), { includeForeign: true, ...opts });

/** The rows in words: `embed · dashboard → host page: ready (delivered, valid)`. */
function rows(m: FlowModel): string[] {
  const lane = (i: number | null) => (i === null ? '?' : m.lanes[i].title);
  return m.items.map((x) =>
    x.kind === 'gap'
      ? `gap ${x.ms} ms`
      : x.kind === 'navigation'
        ? `${lane(x.lane)} loaded`
        : `${lane(x.from)} → ${lane(x.to)}: ${x.label} (${x.state}, ${x.tone})${x.milestone ? ' ★' : ''}`,
  );
}

const E = 'embed · dashboard';
const H = 'host page';
const cases: Array<[string, () => any[], Omit<FlowOptions, 'tenantOrigin'>, string[]]> = [
  [
    'full mode: a post and its delivery are one arrow, sender to receiver',
    () =>
      numbered([
        navigation(PAGE),
        navigation(EMBED_URL),
        ...eventPair('svc:event:ready'),
        ...actionPair('svc:action:set-theme', { theme: 'dark' }),
        ...eventPair('svc:event:dashboard-loaded'),
      ]),
    {},
    [
      `${H} loaded`,
      `${E} loaded`,
      `${E} → ${H}: ready (delivered, valid) ★`,
      `${H} → ${E}: set-theme (delivered, valid)`,
      `${E} → ${H}: dashboard-loaded (delivered, valid) ★`,
    ],
  ],
  [
    'receive-only: the sender is an embed lane of the origin it came from; a post alone is sent',
    () =>
      numbered([
        rec(msg('svc:event:ready')),
        rec(msg('svc:event:view')),
        rec(msg('svc:action:set-color-scheme', { scheme: 'dark' })),
      ]),
    {},
    [
      `${E} → ${H}: ready (delivered, valid) ★`.replace('delivered', 'received'),
      `${E} → ${H}: view (received, valid)`,
      `${H} → ${E}: set-color-scheme (sent, valid)`,
    ],
  ],
  [
    'a dropped post ends at its target lane; one that threw stays on its lane',
    () =>
      numbered([
        navigation(PAGE),
        navigation(EMBED_URL),
        ...eventPair('svc:event:ready'),
        rec(msg('svc:action:set-theme', { theme: 'dark' }), {
          targetOrigin: 'https://acme.example.net',
          dropped: true,
        }),
        rec(msg('svc:action:set-theme', { theme: 'dark' }), { targetOrigin: 'nonsense', error: 'SyntaxError: bad' }),
      ]),
    {},
    [
      `${H} loaded`,
      `${E} loaded`,
      `${E} → ${H}: ready (delivered, valid) ★`,
      `${H} → ${E}: set-theme (dropped, invalid)`,
      `${H} → ${E}: set-theme (threw, invalid)`,
    ],
  ],
  [
    'foreign traffic is left out when asked; an error event is a milestone; warnings are their own colour',
    () =>
      numbered([
        rec(msg('svc:event:ready')),
        foreign,
        rec(msg('svc:event:download', { format: 'png', target: 'dashboard', rowCount: 3 })),
        rec(msg('svc:event:error', { message: 'boom', fatal: false })),
      ]),
    { includeForeign: false },
    [
      `${E} → ${H}: ready (received, valid) ★`,
      `${E} → ${H}: download (received, warning)`,
      `${E} → ${H}: error (received, valid) ★`,
    ],
  ],
  [
    'a pause of a second or more is one row with its length; shorter ones are not',
    () => {
      const r = numbered([rec(msg('svc:event:ready')), rec(msg('svc:event:view')), rec(msg('svc:event:view'))]);
      r[1].time = r[0].time + 999;
      r[2].time = r[1].time + 65_000;
      return r;
    },
    {},
    [
      `${E} → ${H}: ready (received, valid) ★`,
      `${E} → ${H}: view (received, valid)`,
      'gap 65000 ms',
      `${E} → ${H}: view (received, valid)`,
    ],
  ],
];

describe('buildFlow', () => {
  it.each(cases)('%s', (_name, records, opts, expected) => {
    expect(rows(flow(records(), opts))).toEqual(expected);
  });

  it('puts a post and its delivery on one row, whichever the selection names', () => {
    const records = numbered([navigation(PAGE), navigation(EMBED_URL), ...eventPair('svc:event:ready')]);
    const m = flow(records);
    expect(m.rowOf.get(3)).toBe(2);
    expect(m.rowOf.get(4)).toBe(2);
    expect(m.items[2]).toMatchObject({ kind: 'arrow', post: 3, delivery: 4, seq: 3 });
    expect(m.messages).toBe(1);
  });

  it('shows a pair when either half passes the filter, and only the records it keeps', () => {
    const records = numbered([
      ...eventPair('svc:event:ready'),
      ...actionPair('svc:action:set-theme', { theme: 'dark' }),
    ]);
    const keepDeliveryOfReady = (r: FlowInput) => r.seq === 2;
    const m = buildFlow(records, { tenantOrigin: TENANT, keep: keepDeliveryOfReady });
    expect(m.items.map((x) => x.kind === 'arrow' && x.label)).toEqual(['ready']);
  });

  it('lanes: the host first, each embed by surface and origin, the other frames in one lane unless expanded', () => {
    const other = (n: number) => ({ frameUrl: `https://ads${n}.example/x`, origin: `https://ads${n}.example` });
    const records = numbered([
      rec({ hello: 1 }, { kind: 'post', ...other(1), targetOrigin: '*', target: 'parent' }),
      ...eventPair('svc:event:ready'),
      rec({ hello: 2 }, { kind: 'post', ...other(2), targetOrigin: '*', target: 'parent' }),
      rec(msg('svc:event:ready', undefined, { surface: 'chat' }), {
        kind: 'post',
        frameUrl: `${TENANT}/embed/chat`,
        origin: TENANT,
        targetOrigin: HOST,
        target: 'parent',
      }),
    ]);
    const collapsed = flow(records).lanes.map((l) => [l.title, l.origin, l.frames].filter((x) => x !== null).join(' '));
    expect(collapsed).toEqual([`${H} ${HOST} 1`, `${E} ${TENANT} 1`, `embed · chat ${TENANT} 1`, 'other frames (2) 2']);
    const expanded = flow(records, { expandOthers: true }).lanes.map((l) => `${l.title} ${l.origin}`);
    expect(expanded).toEqual([
      `${H} ${HOST}`,
      `${E} ${TENANT}`,
      `embed · chat ${TENANT}`,
      'frame https://ads1.example',
      'frame https://ads2.example',
    ]);
  });

  it('frame ids tell frames apart: the top frame is the host whatever its address', () => {
    const records = numbered([
      { ...navigation(`${TENANT}/embed/dashboard/x`), frameId: 0 },
      { ...navigation(EMBED_URL), frameId: 5 },
      rec(msg('svc:event:ready'), { frameId: 0, frameUrl: `${TENANT}/embed/dashboard/x` }),
    ]);
    const m = flow(records);
    expect(m.lanes.map((l) => l.role)).toEqual(['host', 'embed']);
    expect(rows(m)[2]).toBe(`${E} → ${H}: ready (received, valid) ★`);
  });

  it('never throws on odd records and gives each record at most one row', () => {
    const odd = [
      { seq: 1, time: Number.NaN, kind: 'post', frameUrl: '', origin: 'null', data: null },
      { seq: 2, time: T0, kind: 'receive', frameUrl: 'not a url', origin: '', data: [1, 2], pairedWith: 2 },
      { seq: 3, time: T0, kind: 'receive', frameUrl: PAGE, origin: TENANT, data: { type: 42 }, pairedWith: 99 },
      { seq: 4, time: T0, kind: 'receive', frameUrl: PAGE, origin: TENANT, data: {}, navigation: true },
    ] as FlowInput[];
    const m = buildFlow(odd);
    expect(m.items.filter((x) => x.kind === 'arrow').map((x) => x.kind === 'arrow' && x.label)).toEqual([
      'message',
      'message',
      'message',
    ]);
    expect(new Set(m.rowOf.values()).size).toBe(m.rowOf.size);
  });

  it('builds 100,000 records: one row per message, rows in record order', () => {
    const records: FlowInput[] = [];
    for (let i = 0; i < 50_000; i++) {
      const data = msg('svc:event:view', { surface: 'dashboard', path: '/embed/dashboard/dash01', title: `#${i}` });
      const t = T0 + i * (i % 1000 === 0 ? 2000 : 5);
      records.push(
        {
          seq: 2 * i + 1,
          time: t,
          kind: 'post',
          frameUrl: EMBED_URL,
          origin: TENANT,
          targetOrigin: HOST,
          data,
          pairedWith: 2 * i + 2,
        },
        { seq: 2 * i + 2, time: t + 1, kind: 'receive', frameUrl: PAGE, origin: TENANT, data, pairedWith: 2 * i + 1 },
      );
    }
    const m = buildFlow(records, { tenantOrigin: TENANT });
    expect(m.messages).toBe(50_000);
    expect(m.lanes.map((l) => l.role)).toEqual(['host', 'embed']);
    const seqs = m.items.flatMap((x) => (x.kind === 'arrow' ? [x.seq] : []));
    expect(seqs.every((s, k) => k === 0 || s > seqs[k - 1])).toBe(true);
    expect(m.items.filter((x) => x.kind === 'gap')).toHaveLength(49);
  });
});

describe('the index: made once for the records, read by the flow of each filter', () => {
  /** A session with a navigation, pairs, a post alone, a delivery alone, foreign traffic and a pause. */
  const session = () => {
    const r = numbered([
      navigation(PAGE),
      navigation(EMBED_URL),
      ...eventPair('svc:event:ready'),
      ...actionPair('svc:action:set-theme', { theme: 'dark' }),
      rec(msg('svc:action:set-filter', { filters: [] }), { kind: 'post', frameUrl: PAGE, origin: HOST }),
      rec(msg('svc:event:view')),
      foreign,
      ...eventPair('svc:event:dashboard-loaded'),
    ]);
    for (const x of r.slice(-2)) {
      x.time += 4000;
    }
    const bySeq = new Map(checkRecords(r, { tenantOrigin: TENANT }).messages.map((m) => [m.seq, m]));
    return r.map((x) => ({
      ...x,
      verdict: bySeq.get(x.seq)?.verdict ?? 'valid',
      issues: bySeq.get(x.seq)?.issues ?? [],
    }));
  };
  const filters: Array<[string, (r: FlowInput) => boolean]> = [
    ['everything', () => true],
    ['deliveries only', (r) => r.kind === 'receive' && !r.navigation],
    ['posts only', (r) => r.kind === 'post' && !r.navigation],
    ['navigations only', (r) => !!r.navigation],
    ['no foreign traffic', (r) => r.verdict !== 'foreign'],
    ['the records after the pause', (r) => r.time > T0 + 3000],
  ];
  it.each(filters)('%s: the same rows and lanes as the flow built of those records alone', (_name, keep) => {
    const records = session();
    const index = indexFlow(records, { tenantOrigin: TENANT });
    const shown = Uint8Array.from(records, (r) => (keep(r) ? 1 : 0));
    const fromIndex = flowOfIndex(index, shown);
    // the records shown and the other halves of their pairs, built alone
    const bySeq = new Map(records.map((r) => [r.seq, r]));
    const alone = records.filter(
      (r) => keep(r) || records.some((o) => keep(o) && o.pairedWith === r.seq && bySeq.has(r.seq)),
    );
    const built = buildFlow(alone, { tenantOrigin: TENANT, keep });
    expect(rows(fromIndex)).toEqual(rows(built));
    expect(fromIndex.lanes).toEqual(built.lanes);
    expect(fromIndex.messages).toBe(built.messages);
  });

  it('a filter that shows nothing: no row, and the lane of the host page the records name', () => {
    const records = session();
    const m = flowOfIndex(indexFlow(records, { tenantOrigin: TENANT }), new Uint8Array(records.length));
    expect(m.count).toBe(0);
    expect(m.lanes.map((l) => l.title)).toEqual([H]);
  });

  it("makes a row's item when asked, the same item each time; seqAt names its record, null for a gap", () => {
    const records = session();
    const m = flowOfIndex(indexFlow(records, { tenantOrigin: TENANT }), new Uint8Array(records.length).fill(1));
    const gap = m.items.findIndex((x) => x.kind === 'gap');
    expect(gap).toBeGreaterThan(0);
    expect(m.count).toBe(m.items.length);
    for (let row = 0; row < m.count; row++) {
      const x = m.item(row)!;
      expect(m.item(row)).toBe(x);
      expect(m.seqAt(row)).toBe(x.kind === 'gap' ? null : x.seq);
    }
    expect(m.item(m.count)).toBeUndefined();
    expect(m.seqAt(-1)).toBeNull();
  });

  it('gives many deliveries from one sender whose posts are missing the lane the first one got', () => {
    const deliveries = numbered(
      Array.from({ length: 6 }, (_, k) =>
        rec(msg('svc:event:view', undefined, { surface: k < 3 ? 'chat' : undefined })),
      ),
    );
    const m = buildFlow(deliveries, { tenantOrigin: TENANT });
    const arrows = m.items.flatMap((x) =>
      x.kind === 'arrow' ? [`${m.lanes[x.from].title} → ${m.lanes[x.to!].title}`] : [],
    );
    expect(arrows).toEqual(Array.from({ length: 6 }, () => `embed · chat → ${H}`));
  });
});

describe('sliceFlow: a range of rows as a flow of its own (the exports of a selected range)', () => {
  // rows: 0 host loaded, 1 embed loaded, 2 ready, 3 set-theme, 4 gap, 5 view, 6 other frame's message, 7 gap, 8 loaded
  const model = () => {
    const r = numbered([
      navigation(PAGE),
      navigation(EMBED_URL),
      ...eventPair('svc:event:ready'),
      ...actionPair('svc:action:set-theme', { theme: 'dark' }),
      rec(msg('svc:event:view')),
      rec(
        { hello: 1 },
        { kind: 'post', frameUrl: 'https://ads.example/x', origin: 'https://ads.example', target: 'parent' },
      ),
      navigation(EMBED_URL),
    ]);
    r[6].time += 5000;
    r[7].time += 5000;
    r[8].time += 12_000;
    return flow(r);
  };
  it('the model the cases below cut', () => {
    expect(rows(model()).map((x) => x.replace(/ \(.*$/, ''))).toEqual([
      `${H} loaded`,
      `${E} loaded`,
      `${E} → ${H}: ready`,
      `${H} → ${E}: set-theme`,
      'gap 5020 ms',
      `${E} → ${H}: view`,
      'frame → host page: message',
      'gap 7010 ms',
      `${E} loaded`,
    ]);
  });
  // [name, from, to, the model's rows it holds, its lanes]
  const cases: Array<[string, number, number, number[], string[]]> = [
    ['the whole flow', 0, 8, [0, 1, 2, 3, 4, 5, 6, 7, 8], [H, E, 'frame']],
    ['two arrows between the host and the embed: only their lanes', 2, 3, [2, 3], [H, E]],
    ['given from its far end back to the anchor', 3, 2, [2, 3], [H, E]],
    ['a gap inside kept, gaps at either end left out', 3, 7, [3, 4, 5, 6], [H, E, 'frame']],
    ['from a gap to a navigation', 7, 8, [8], [E]],
    ['a gap alone: nothing', 4, 4, [], []],
    ['clamped to the rows there are', -5, 1, [0, 1], [H, E]],
  ];
  it.each(cases)('%s', (_name, from, to, held, lanes) => {
    const m = model();
    const sliced = sliceFlow(m, from, to);
    expect(rows(sliced)).toEqual(held.map((row) => rows(m)[row]));
    expect(sliced.lanes.map((l) => l.title)).toEqual(lanes);
    expect(sliced.lanes.map((l) => l.index)).toEqual(lanes.map((_, k) => k));
    expect(sliced.messages).toBe(sliced.items.filter((x) => x.kind === 'arrow').length);
    expect(sliced.start).toBe(held.length ? m.item(held[0])!.time : 0);
  });

  it('finds each record of the range at its row; the rows outside it are not there', () => {
    const m = model();
    const sliced = sliceFlow(m, 2, 3);
    expect(sliced.rowOf.get(3)).toBe(0);
    expect(sliced.rowOf.get(4)).toBe(0);
    expect(sliced.rowOf.get(5)).toBe(1);
    expect(sliced.rowOf.has(1)).toBe(false);
    expect([0, 1, 2].map((row) => sliced.seqAt(row))).toEqual([3, 5, null]);
  });
});
