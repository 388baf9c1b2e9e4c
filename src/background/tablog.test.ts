import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { TabLog, newState } from './tablog.ts';
import type { RawRecord } from '../shared/messages.ts';
import { checkCapture } from '../protocol/capture.ts';
import { Eviction } from './eviction.ts';

const HOST = 'https://host.example';
const TENANT = 'https://acme.example.com';
const EMBED_URL = `${TENANT}/embed/dashboard/abc`;
const ready = {
  source: 'svc-embed',
  direction: 'event',
  type: 'svc:event:ready',
  surface: 'dashboard',
  payload: { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' },
  timestamp: 1_700_000_000_000,
};
const refresh = (n = 0) => ({
  source: 'svc-embed',
  direction: 'action',
  type: 'svc:action:refresh',
  payload: {},
  timestamp: 1_700_000_000_100 + n,
});

function log(max?: number) {
  const l = new TabLog(newState(7, max ? { maxRecords: max } : {}));
  l.setFrame({ frameId: 0, parentFrameId: -1, url: `${HOST}/` });
  l.setFrame({ frameId: 3, parentFrameId: 0, url: EMBED_URL });
  return l;
}
const hostPost = (data: unknown, targetOrigin = TENANT, time = 1000): RawRecord & { frameId: number } => ({
  time,
  kind: 'post',
  frameUrl: `${HOST}/`,
  origin: HOST,
  targetOrigin,
  target: 'child',
  data,
  frameId: 0,
});
const embedReceive = (data: unknown, time = 1001): RawRecord & { frameId: number } => ({
  time,
  kind: 'receive',
  frameUrl: EMBED_URL,
  origin: HOST,
  from: 'parent',
  data,
  frameId: 3,
});
const embedPost = (data: unknown, time = 500): RawRecord & { frameId: number } => ({
  time,
  kind: 'post',
  frameUrl: EMBED_URL,
  origin: TENANT,
  targetOrigin: HOST,
  target: 'parent',
  data,
  frameId: 3,
});
const hostReceive = (data: unknown, time = 501): RawRecord & { frameId: number } => ({
  time,
  kind: 'receive',
  frameUrl: `${HOST}/`,
  origin: TENANT,
  from: 'child',
  data,
  frameId: 0,
});

describe('TabLog', () => {
  it('pairs a post with its delivery whichever arrives first, and numbers the post first', () => {
    const l = log();
    const a = l.add([embedReceive(refresh())]);
    const b = l.add([hostPost(refresh())]);
    const [delivery] = a.added;
    const [post] = b.added;
    expect([post.seq, delivery.seq]).toEqual([1, 2]);
    expect([post.pairedWith, delivery.pairedWith]).toEqual([2, 1]);
    expect(b.reorderedFrom).toBe(1);
  });

  it('does not pair messages that differ, or that went between unrelated frames', () => {
    const l = log();
    l.add([hostPost(refresh(1))]);
    const r = l.add([embedReceive(refresh(2)), { ...hostReceive(refresh(1)) }]);
    expect(r.added.every((x) => x.pairedWith === undefined)).toBe(true);
  });

  it('marks a post whose target origin does not match the target frame as dropped by the browser', () => {
    const l = log();
    l.setTenantOrigin(TENANT);
    const r = l.add([hostPost(refresh(), 'https://wrong.example')]);
    expect(r.added[0].dropped).toBe(true);
    expect(r.added[0].verdict).toBe('invalid');
    const ok = l.add([hostPost(refresh(3), '*'), hostPost(refresh(4))]);
    expect(ok.added.map((x) => x.dropped)).toEqual([undefined, undefined]);
  });

  it('infers the tenant origin from the embed frame and re-classifies what came before', () => {
    const l = new TabLog(newState(1));
    l.setFrame({ frameId: 0, parentFrameId: -1, url: `${HOST}/` });
    l.setFrame({ frameId: 3, parentFrameId: 0, url: EMBED_URL });
    l.add([
      {
        ...hostReceive({ ...ready, type: 'svc:event:view', payload: { surface: 'dashboard', path: '/' } }),
        origin: 'https://evil.example',
      },
    ]);
    expect(l.state.tenantOrigin).toBeNull();
    const r = l.add([hostReceive(ready, 600)]);
    expect(r.reclassified).toBe(true);
    expect(l.state).toMatchObject({
      tenantOrigin: TENANT,
      tenantOriginSource: 'embed-frame',
      tenantOriginFrame: EMBED_URL,
    });
    const first = l.records.get(1)!;
    expect(first.issues.map((i) => i.rule)).toContain('origin.event');
  });

  it('a ready from a frame that is not at an embed address never sets the tenant origin', () => {
    const l = new TabLog(newState(1));
    const THIRD = 'https://ads.example';
    l.setFrame({ frameId: 0, parentFrameId: -1, url: `${HOST}/` });
    l.setFrame({ frameId: 3, parentFrameId: 0, url: EMBED_URL });
    l.setFrame({ frameId: 4, parentFrameId: 0, url: `${THIRD}/widget` });
    l.add([{ ...hostReceive(ready, 500), origin: THIRD }]);
    expect(l.state.tenantOrigin).toBeNull();
    l.add([hostReceive(ready, 600)]);
    expect(l.state).toMatchObject({ tenantOrigin: TENANT, tenantOriginFrame: EMBED_URL });
    expect(l.records.get(1)!.issues.map((i) => i.rule)).toContain('origin.event');
  });

  it('keeps a hand-set tenant origin across a new log', () => {
    const l = log();
    l.setTenantOrigin('https://Other.example:443');
    l.reset('https://host.example/next');
    expect(l.state).toMatchObject({
      tenantOrigin: 'https://other.example',
      tenantOriginSource: 'manual',
      pageUrl: 'https://host.example/next',
    });
  });

  it('bounds the buffer: a flood of valid repeats goes first; ready and what was wrong stay, counted by kind', () => {
    const l = log(100);
    l.setTenantOrigin(TENANT);
    l.add([embedPost(ready, 10), hostReceive(ready, 11)]);
    l.add([hostPost(refresh(1), '*', 20)]); // an action to '*': an error
    l.add([hostPost(refresh(2), 'https://wrong.example', 21)]); // dropped by the browser
    l.add([{ ...hostPost(refresh(3), 'not a url', 22), error: 'SyntaxError: not a url' }]); // threw
    const view = (i: number) => ({
      ...ready,
      type: 'svc:event:view',
      payload: { surface: 'dashboard', path: `/p/${i}` },
      timestamp: ready.timestamp + 100 + i,
    });
    for (let i = 0; i < 1000; i++) {
      l.add([embedPost(view(i), 100 + i), hostReceive(view(i), 100 + i)]);
    }
    const held = [...l.records.values()];
    expect(held).toHaveLength(100);
    const types = held.map((r) => (r.data as { type: string }).type);
    expect(types.filter((t) => t === 'svc:event:ready')).toHaveLength(2);
    expect(held.filter((r) => r.verdict === 'invalid').map((r) => r.seq)).toEqual([3, 4, 5]);
    expect(held.at(-1)!.data).toEqual(view(999)); // the newest repeats stay too
    expect(l.state.dropped).toBe(2005 - 100);
    expect(l.state.droppedBy).toEqual({ foreign: 0, repeats: 2005 - 100, other: 0, issues: 0 });
  });

  it('keeps records with issues only up to their reserve: past it, the oldest go', () => {
    const l = log(100);
    l.setTenantOrigin(TENANT);
    for (let i = 0; i < 300; i++) {
      l.add([hostPost(refresh(i), '*', i)]);
    }
    const held = [...l.records.values()];
    expect(held).toHaveLength(100);
    // The first quarter of the bound (the start of the problem) stays; then the newest.
    expect(held.slice(0, 25).map((r) => r.seq)).toEqual(Array.from({ length: 25 }, (_, k) => k + 1));
    expect(held.at(-1)!.seq).toBe(300);
    expect(l.state.droppedBy).toMatchObject({ other: 200, issues: 0 });
  });

  it('reports the records it let go, so that the panel drops the same ones', () => {
    const l = log(100);
    const removed: number[] = [];
    for (let i = 0; i < 150; i++) {
      const r = l.add([hostReceive({ ...ready, type: 'svc:event:view', timestamp: ready.timestamp + i }, i)]);
      removed.push(...r.removed);
    }
    expect(removed).toHaveLength(l.state.dropped);
    expect(removed.some((seq) => l.records.has(seq))).toBe(false);
    expect(l.records.size + removed.length).toBe(150);
  });

  it('caps foreign traffic to its share so that it cannot push protocol messages out', () => {
    const l = log(1000);
    for (let i = 0; i < 20; i++) {
      l.add([hostReceive({ ...ready, timestamp: ready.timestamp + i }, i)]);
    }
    for (let i = 0; i < 3000; i++) {
      l.add([hostReceive({ react: 'devtools', i }, 100 + i)]);
    }
    const held = [...l.records.values()];
    expect(held.filter((r) => r.verdict !== 'foreign')).toHaveLength(20);
    expect(l.state.foreignCount).toBe(100);
    expect(l.state.droppedBy?.foreign).toBe(2900);
    expect(l.state.dropped).toBe(2900);
  });

  it('Clear empties the log but not the embed sessions, also across a restore', () => {
    const loaded = { ...ready, type: 'svc:event:dashboard-loaded', payload: { loadDurationMs: 5 } };
    const l = log();
    l.add([embedPost(ready, 10), hostReceive(ready, 11)]);
    l.clear();
    expect(l.records.size).toBe(0);
    expect(l.state.tenantOrigin).toBe(TENANT);
    expect(l.state.readyBeforeClear).toBe(true); // the panel says "ready: before Clear", not "not seen"
    const after = l.add([
      hostPost(refresh(), TENANT, 20),
      embedPost({ ...loaded, timestamp: ready.timestamp + 30 }, 30),
    ]);
    expect(after.added.flatMap((r) => r.issues.map((i) => i.rule))).toEqual([]);
    // The service worker stops: the log comes back from its snapshot, then the next messages.
    const copy = new TabLog(
      { ...l.state },
      [...l.records.values()].map((r) => structuredClone(r)),
      l.nextSeq,
      { sessionBase: l.sessionBase },
    );
    for (const f of l.frames.values()) {
      copy.setFrame(f);
    }
    const later = copy.add([hostPost(refresh(1), TENANT, 40)]);
    expect(later.added[0].issues).toEqual([]);
    // A new page (top-level navigation) starts new sessions.
    copy.reset(`${HOST}/next`);
    expect(copy.state.readyBeforeClear).toBeUndefined();
    expect(copy.add([hostPost(refresh(2), TENANT, 50)]).added[0].issues.map((i) => i.rule)).toEqual([
      'session.action-before-ready',
    ]);
  });

  it('a page shown again from the back/forward cache goes on with the sessions ready when the tab left it', () => {
    const l = log();
    l.add([embedPost(ready, 10), hostReceive(ready, 11)]);
    const kept = l.readySessions();
    expect(kept.map(([k]) => k)).toEqual([TENANT]);
    const back = (restored: boolean) => {
      l.newTopFrame(`${HOST}/`);
      l.reset(`${HOST}/`);
      const data = restored ? { url: `${HOST}/`, restored, sessions: kept } : { url: `${HOST}/` };
      l.add([{ time: 100, kind: 'receive', frameUrl: `${HOST}/`, origin: HOST, data, navigation: true, frameId: 0 }]);
      // Its embed's relay says hello again (the tenant origin is inferred anew, after the navigation record).
      l.setFrame({ frameId: 3, parentFrameId: 0, url: EMBED_URL });
      return l.add([hostPost(refresh(1), TENANT, 120)]).added[0].issues.map((i) => i.rule);
    };
    expect(back(true)).toEqual([]);
    expect(back(false)).toEqual(['session.action-before-ready']); // (a new load of the page)
  });

  it("with preserve log, infers the next page's tenant origin anew, for that page's records only", () => {
    const OTHER = 'https://globex.example.com';
    const l = log();
    l.setPreserveLog(true);
    l.add([embedPost(ready, 10), hostReceive(ready, 11)]);
    expect(l.state).toMatchObject({ tenantOrigin: TENANT, tenantOriginSource: 'embed-frame' });
    const nav = {
      time: 100,
      kind: 'receive' as const,
      frameUrl: 'https://other-host.example/',
      origin: 'https://other-host.example',
      data: { url: 'https://other-host.example/' },
      navigation: true,
      frameId: 0,
    };
    l.newTopFrame('https://other-host.example/');
    l.setFrame({ frameId: 5, parentFrameId: 0, url: `${OTHER}/embed/dashboard/x` });
    l.add([nav]);
    const next = (data: unknown, time: number) => ({
      ...hostReceive(data, time),
      frameUrl: 'https://other-host.example/',
      origin: OTHER,
    });
    const r = l.add([
      next(ready, 110),
      next({ ...ready, type: 'svc:event:view', payload: { surface: 'dashboard', path: '/' } }, 120),
    ]);
    expect(l.state).toMatchObject({ tenantOrigin: OTHER, tenantOriginSource: 'embed-frame' });
    expect([...l.records.values()].map((x) => x.verdict)).toEqual(['valid', 'valid', 'foreign', 'valid', 'valid']);
    expect(r.reclassified || r.added.every((x) => x.issues.length === 0)).toBe(true);
    // A hand-set origin applies to the whole log; reset, it is the current page's inferred one again.
    l.setTenantOrigin(TENANT);
    expect(l.state.tenantOriginSource).toBe('manual');
    expect([...l.records.values()].filter((x) => x.verdict === 'invalid')).toHaveLength(2);
    l.setTenantOrigin(null);
    expect(l.state).toMatchObject({ tenantOrigin: OTHER, tenantOriginSource: 'embed-frame' });
    expect([...l.records.values()].slice(3).map((x) => x.verdict)).toEqual(['valid', 'valid']);
  });

  it.each([
    ['post first', true],
    ['delivery first', false],
  ])("a delivery shows the issues of its post, marked as the sender's (%s)", (_, postFirst) => {
    const l = log();
    l.setTenantOrigin(TENANT);
    l.add([embedPost(ready, 10), hostReceive(ready, 11)]);
    const post = hostPost(refresh(), '*', 20);
    const delivery = embedReceive(refresh(), 21);
    const res = postFirst ? [l.add([post]), l.add([delivery])] : [l.add([delivery]), l.add([post])];
    const [p, d] = [...l.records.values()]
      .slice(2)
      .sort((a, b) => (a.kind === 'post' ? -1 : b.kind === 'post' ? 1 : 0));
    expect(d.pairedWith).toBe(p.seq);
    expect(p.issues.map((i) => [i.rule, i.sender])).toEqual([['origin.action-wildcard', undefined]]);
    expect(d.verdict).toBe('invalid');
    expect(d.issues.map((i) => [i.rule, i.sender])).toEqual([['origin.action-wildcard', true]]);
    if (!postFirst) {
      expect(res[1].updated.map((r) => r.seq)).toEqual([d.seq]); // the panel gets the delivery again
    }
    // A second ready: its session warning is the post's, shown on the delivery too.
    l.add([
      embedPost({ ...ready, timestamp: ready.timestamp + 50 }, 30),
      hostReceive({ ...ready, timestamp: ready.timestamp + 50 }, 31),
    ]);
    const [p2, d2] = [...l.records.values()].slice(-2);
    expect(p2.issues.map((i) => i.rule)).toEqual(['session.ready-duplicate']);
    expect(d2.issues.map((i) => [i.rule, i.sender])).toEqual([['session.ready-duplicate', true]]);
  });

  it('exports a capture file without the verdicts', () => {
    const l = log();
    l.add([embedPost(ready), hostReceive(ready)]);
    const file = l.exportCapture('test');
    expect(file).toMatchObject({ format: 'embed-inspector-capture', version: 1, tenantOrigin: TENANT });
    expect(file.messages).toHaveLength(2);
    expect(file.messages[0]).not.toHaveProperty('verdict');
    expect(file.messages[1].pairedWith).toBe(1);
  });

  it('rebuilds the same classification when restored from its records', () => {
    const l = log();
    l.add([embedPost(ready), hostReceive(ready), embedPost(ready, 700)]);
    const copy = new TabLog(
      { ...l.state },
      [...l.records.values()].map((r) => structuredClone(r)),
      l.nextSeq,
    );
    expect([...copy.records.values()].map((r) => r.verdict)).toEqual([...l.records.values()].map((r) => r.verdict));
    expect(copy.nextSeq).toBe(4);
  });
});

// ------------------------------------------------------------------------------------------------ order
const EMBED2_URL = `${TENANT}/embed/dashboard/def`;
const ev = (type: string, timestamp: number, payload: Record<string, unknown> = {}) => ({
  source: 'svc-embed',
  direction: 'event',
  type,
  surface: 'dashboard',
  payload,
  timestamp,
});
const embed2Post = (data: unknown, time: number): RawRecord & { frameId: number } => ({
  ...embedPost(data, time),
  frameUrl: EMBED2_URL,
  frameId: 4,
});
type Labeled = [label: string, raw: RawRecord & { frameId: number }];
/** Batches as frames hand them over (each one frame's records, in its order), in arrival order. */
type Scenario = {
  name: string;
  batches: Labeled[][];
  order: string;
  /** Session rules left in the log, by label (none when absent). */
  session?: Record<string, string[]>;
  /** The log is the same whatever order the batches arrive in. */
  anyArrival?: boolean;
};

const T0 = ready.timestamp;
const scenarios: Scenario[] = [
  {
    name: 'batches in time order are appended',
    batches: [
      [['embed posts ready', embedPost(ready, 100)]],
      [
        ['host gets ready', hostReceive(ready, 101)],
        ['host posts refresh', hostPost(refresh(), TENANT, 102)],
      ],
      [['embed gets refresh', embedReceive(refresh(), 103)]],
    ],
    order: 'embed posts ready, host gets ready, host posts refresh, embed gets refresh',
    anyArrival: true,
  },
  {
    name: "the embed's batch arrives after the host's later post: no action before ready",
    batches: [
      [['host posts refresh', hostPost(refresh(), TENANT, 102)]],
      [
        ['embed posts ready', embedPost(ready, 100)],
        ['embed gets refresh', embedReceive(refresh(), 103)],
      ],
    ],
    order: 'embed posts ready, host posts refresh, embed gets refresh',
    anyArrival: true,
  },
  {
    name: 'a delivery whose clock reads earlier than its post still follows it',
    batches: [[['host gets ready', hostReceive(ready, 99.95)]], [['embed posts ready', embedPost(ready, 100)]]],
    order: 'embed posts ready, host gets ready',
    anyArrival: true,
  },
  {
    name: 'a late batch of a second embed frame: events by time, no timestamp-order',
    batches: [
      [['ready', embedPost(ready, 100)]],
      [['view of frame 4', embed2Post(ev('svc:event:view', T0 + 20, { path: '/b' }), 120)]],
      [['view of frame 3', embedPost(ev('svc:event:view', T0 + 10, { path: '/a' }), 110)]],
    ],
    order: 'ready, view of frame 3, view of frame 4',
    anyArrival: true,
  },
  {
    name: 'a true warning stays: events really out of timestamp order',
    batches: [
      [['ready', embedPost(ready, 100)]],
      [['late stamp', embed2Post(ev('svc:event:view', T0 + 5, { path: '/b' }), 120)]],
      [['early stamp', embedPost(ev('svc:event:view', T0 + 10, { path: '/a' }), 110)]],
    ],
    order: 'ready, early stamp, late stamp',
    session: { 'late stamp': ['session.timestamp-order'] },
    anyArrival: true,
  },
  {
    name: 'equal times: the batch that came first goes first',
    batches: [
      [['frame 4', embed2Post(ev('svc:event:view', T0 + 1, { path: '/b' }), 110)]],
      [['frame 3', embedPost(ev('svc:event:view', T0 + 2, { path: '/a' }), 110)]],
    ],
    order: 'frame 4, frame 3',
    session: { 'frame 4': ['session.event-before-ready'], 'frame 3': ['session.event-before-ready'] },
  },
  {
    name: "a frame's own order is kept whatever its clock says",
    batches: [
      [
        ['first', embedPost(ev('svc:event:view', T0 + 1, { path: '/a' }), 110)],
        ['second', embedPost(ready, 109)],
      ],
    ],
    order: 'first, second',
    session: { first: ['session.event-before-ready'], second: ['session.timestamp-order'] },
  },
];

function labelsOf(l: TabLog, names: Map<object, string>): string {
  return [...l.records.values()].map((r) => names.get(r) ?? `?${r.seq}`).join(', ');
}
function consistent(l: TabLog) {
  const held = [...l.records.values()];
  // seq follows the log's order; pairs name each other; the verdicts are those of `check` on the exported file.
  expect(held.map((r) => r.seq)).toEqual([...held.map((r) => r.seq)].sort((a, b) => a - b));
  for (const r of held) {
    if (r.pairedWith !== undefined && l.records.has(r.pairedWith)) {
      expect(l.records.get(r.pairedWith)!.pairedWith).toBe(r.seq);
    }
  }
  const file = l.exportCapture();
  // Judged at the same moment: what did not happen depends on when it is asked.
  l.diagnose(Date.parse(file.meta!.createdAt!));
  const check = checkCapture(file);
  const bySeq = new Map(check.messages.map((m) => [m.seq, m]));
  for (const r of held) {
    if (!r.navigation) {
      expect({ seq: r.seq, verdict: r.verdict, rules: r.issues.map((i) => i.rule) }).toEqual({
        seq: r.seq,
        verdict: bySeq.get(r.seq)?.verdict,
        rules: bySeq.get(r.seq)?.issues.map((i) => i.rule),
      });
    }
  }
}
function orderLog() {
  const l = log();
  l.setFrame({ frameId: 4, parentFrameId: 0, url: EMBED2_URL });
  return l;
}
function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) {
    return [xs];
  }
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe('TabLog order', () => {
  describe.each(scenarios)('$name', (sc) => {
    // Every arrival order in which each frame's batches keep their own order (a relay sends them in order).
    const frameOrderKept = (bs: Labeled[][]) =>
      bs.every((b, i) =>
        bs
          .slice(i + 1)
          .every(
            (later) => sc.batches.indexOf(later) > sc.batches.indexOf(b) || later[0][1].frameId !== b[0][1].frameId,
          ),
      );
    const arrivals = sc.anyArrival ? permutations(sc.batches).filter(frameOrderKept) : [sc.batches];
    it.each(arrivals.map((a, i) => [i, a] as const))('arrival order %i', (_i, batches) => {
      const l = orderLog();
      const names = new Map<object, string>();
      for (const batch of batches) {
        const raws = batch.map(([label, raw]) => {
          const copy = { ...raw };
          names.set(copy, label);
          return copy;
        });
        l.add(raws);
        consistent(l);
      }
      expect(labelsOf(l, names)).toBe(sc.order);
      const session: Record<string, string[]> = {};
      for (const r of l.records.values()) {
        const rules = r.issues.map((i) => i.rule).filter((x) => x.startsWith('session.'));
        if (rules.length) {
          session[names.get(r)!] = rules;
        }
      }
      expect(session).toEqual(sc.session ?? {});
    });
  });

  it('reports what to publish: an append, or the records from the first one placed again', () => {
    const l = orderLog();
    const a = l.add([embedPost(ready, 100), embedPost(ev('svc:event:view', T0 + 30, { path: '/a' }), 130)]);
    expect(a.reorderedFrom).toBeUndefined();
    const b = l.add([hostReceive(ready, 101)]); // goes between the two
    expect(b.reorderedFrom).toBe(2);
    expect([...l.records.values()].map((r) => [r.seq, r.kind, r.time])).toEqual([
      [1, 'post', 100],
      [2, 'receive', 101],
      [3, 'post', 130],
    ]);
    expect(l.records.get(1)!.pairedWith).toBe(2);
    const c = l.add([hostPost(refresh(), TENANT, 140)]);
    expect(c.reorderedFrom).toBeUndefined();
    expect(c.added.map((r) => r.seq)).toEqual([4]);
  });

  it('a post arriving after its delivery renames the pair on both sides', () => {
    const l = orderLog();
    l.add([embedPost(ready, 100), hostReceive(ready, 101)]);
    l.add([embedReceive(refresh(), 103), embedPost(ev('svc:event:view', T0 + 1, { path: '/' }), 104)]);
    const res = l.add([hostPost(refresh(), TENANT, 102)]);
    expect(res.reorderedFrom).toBe(3);
    const held = [...l.records.values()];
    expect(held.map((r) => `${r.seq}:${r.kind}:${r.time}:${r.pairedWith}`)).toEqual([
      '1:post:100:2',
      '2:receive:101:1',
      '3:post:102:4',
      '4:receive:103:3',
      '5:post:104:undefined',
    ]);
    consistent(l);
  });

  // A late record at each depth, with checkpoints of the session checker every 4 records (2 kept): from a
  // checkpoint, and from the start when it is older than every checkpoint.
  it.each([1, 3, 5, 9, 17, 30])('re-checks the session from a late record %i records back', (depth) => {
    const l = new TabLog(newState(7), [], 1, { checkpointEvery: 4, checkpoints: 2 });
    l.setFrame({ frameId: 0, parentFrameId: -1, url: `${HOST}/` });
    l.setFrame({ frameId: 3, parentFrameId: 0, url: EMBED_URL });
    l.setFrame({ frameId: 4, parentFrameId: 0, url: EMBED2_URL });
    const n = 32;
    l.add([embedPost(ready, 100)]);
    const paths = ['/a', '/b'];
    for (let i = 1; i <= n; i++) {
      const path = paths[i % 2];
      l.add([
        embedPost(ev('svc:event:navigate', T0 + i * 10, { path, previousPath: paths[(i + 1) % 2] }), 100 + i * 10),
      ]);
    }
    const sessionRules = () =>
      [...l.records.values()].flatMap((r) =>
        r.issues.filter((i) => i.rule.startsWith('session.')).map((i) => `${r.seq}:${i.rule}`),
      );
    expect(sessionRules()).toEqual([]);
    // Another frame of the same embed shows a view in between: the next navigate's previousPath no longer matches.
    const at = 100 + (n + 1 - depth) * 10 - 5;
    const res = l.add([embed2Post(ev('svc:event:view', T0 + at - 100, { path: '/elsewhere' }), at)]);
    expect(res.reorderedFrom).toBe(n + 2 - depth);
    consistent(l);
    expect(sessionRules()).toEqual([`${n + 3 - depth}:session.previous-path`]);
  });
});

describe('an injected post marks its delivery', () => {
  // [name, batches: which halves come in which add() call]
  const CASES: Array<[string, Array<Array<'post' | 'delivery'>>]> = [
    ['post first, in two batches', [['post'], ['delivery']]],
    ['delivery first, in two batches', [['delivery'], ['post']]],
    ['both in one batch (one processing round)', [['post', 'delivery']]],
    ['both in one batch, delivery first', [['delivery', 'post']]],
  ];
  for (const [name, batches] of CASES) {
    it(name, () => {
      const l = log();
      l.add([embedPost(ready, 10), hostReceive(ready, 11)]);
      const halves = {
        post: () => ({ ...hostPost(refresh(), TENANT, 20), injected: true }),
        delivery: () => embedReceive(refresh(), 21),
      };
      for (const b of batches) {
        l.add(b.map((h) => halves[h]()));
      }
      const recs = [...l.records.values()].filter((r) => (r.data as { type?: string }).type === 'svc:action:refresh');
      expect(recs.map((r) => [r.kind, r.injected === true])).toEqual([
        ['post', true],
        ['receive', true],
      ]);
    });
  }
});

describe('the diagnosis of a restored log', () => {
  it('a never-ready stored in a snapshot goes once the late ready comes (issues are looked at, not remembered)', () => {
    const T = Date.now() - 60_000;
    const url = 'https://acme.example.com/embed/dashboard/abc?session=s';
    const stored = {
      seq: 1,
      time: T,
      kind: 'receive' as const,
      frameUrl: url,
      origin: 'https://acme.example.com',
      data: { url },
      navigation: true,
      frameId: 3,
      verdict: 'foreign' as const,
      issues: [{ rule: 'silence.never-ready', severity: 'error' as const, path: 'type', message: 'never said ready' }],
    };
    const l = new TabLog(newState(7, { tenantOrigin: 'https://acme.example.com' }), [stored], 2);
    l.add([
      {
        time: T + 50_000,
        kind: 'post',
        frameUrl: url,
        origin: 'https://acme.example.com',
        targetOrigin: 'https://host.example',
        frameId: 3,
        data: {
          source: 'svc-embed',
          direction: 'event',
          type: 'svc:event:ready',
          surface: 'dashboard',
          timestamp: T + 50_000,
          payload: { embedTenant: 'acme', deploymentId: 1, mode: 'signed', surface: 'dashboard' },
        },
      } as RawRecord & { frameId: number },
    ]);
    expect(l.records.get(1)!.issues).toEqual([]);
  });
});

describe('the judgement of a large page', () => {
  const aiQuery = (n: number, status: string, time: number) => ({
    source: 'svc-embed',
    direction: 'event',
    type: 'svc:event:ai-query',
    surface: 'dashboard',
    payload: { query: `question ${n}`, chatId: `chat-${n}`, status },
    timestamp: time,
  });
  /** 200 batches, 1 ms apart by the log's clock: an ai-query asked in each, every third never answered (the last one too). */
  function stream(l: TabLog, T: number) {
    l.setTenantOrigin(TENANT);
    l.add([embedPost(ready, T), hostReceive(ready, T + 1)]);
    for (let n = 0; n < 200; n++) {
      const t = T + 10 + n * 10;
      const batch = [embedPost(aiQuery(n, 'submitted', t), t), hostReceive(aiQuery(n, 'submitted', t), t + 1)];
      if (n % 3 !== 1) {
        batch.push(
          embedPost(aiQuery(n, 'completed', t + 5), t + 5),
          hostReceive(aiQuery(n, 'completed', t + 5), t + 6),
        );
      }
      l.add(batch);
    }
  }
  const unanswered = (l: TabLog) =>
    [...l.records.values()]
      .filter((r) => r.issues.some((i) => i.rule === 'silence.ai-query-unanswered'))
      .map((r) => r.seq);

  it('is judged within its share of the time, and what it owes is due at nextDiagnosis and then the same', () => {
    // One wall-clock moment for both logs: their issues say how long ago ("58 s ago"), and on a loaded machine the
    // slow log's last judgement could come a second after the quick one's (the log's own clock is `clock`).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const T = Date.now() - 60_000;
    // The log's clock moves 1 ms at each reading: a judgement takes 1 ms (two readings), a batch 1 ms.
    let t = 0;
    const slow = new TabLog(newState(7), [], 1, { clock: () => t++ });
    const judged = vi.spyOn(slow, 'diagnose');
    stream(slow, T);
    // At once, each of the 201 batches would be judged; within 5% of the time, about one in twenty.
    expect(judged.mock.calls.length).toBeGreaterThan(3);
    expect(judged.mock.calls.length).toBeLessThan(30);
    // The judgement the last batches owe is due within the share (20 ms of a 1 ms judgement), before any limit.
    const due = slow.nextDiagnosis!;
    expect(due - Date.now()).toBeLessThanOrEqual(25);
    // A log whose judgement is quick is judged at once: what the slow one holds after its owed judgement.
    const quick = new TabLog(newState(7), [], 1, { clock: () => 0 });
    stream(quick, T);
    expect(unanswered(quick).length).toBe(2 * 67); // (67 questions: each post and its delivery)
    expect(unanswered(slow)).not.toEqual(unanswered(quick));
    slow.diagnose();
    expect(unanswered(slow)).toEqual(unanswered(quick));
    expect([...slow.records.values()].map((r) => r.issues)).toEqual([...quick.records.values()].map((r) => r.issues));
  });
});

describe('late deliveries in a long log', () => {
  it('file again only the records placed again, and the bound and its counts hold', () => {
    const view = (n: number) => ({ ...refresh(n), direction: 'event', type: 'svc:event:view', payload: { path: '/' } });
    const l = log(3_000);
    l.setTenantOrigin(TENANT);
    l.add([embedPost(ready, 10), hostReceive(ready, 11)]);
    const filed = vi.spyOn(Eviction.prototype, 'add');
    let streamed = 2;
    for (let b = 0; b < 2_000; b++) {
      const t = 100 + b * 10;
      // Every third batch, the host's delivery comes before the embed's post: the post is placed before it (a cut).
      const post = embedPost(view(b), t),
        delivery = hostReceive(view(b), t + 1);
      if (b % 3 === 0) {
        l.add([delivery]);
        l.add([post]);
      } else {
        l.add([post, delivery]);
      }
      streamed += 2;
    }
    // Each record filed about once, not the whole log again at each of the 667 late deliveries (2,000,000 filings).
    expect(filed.mock.calls.length).toBeLessThan(3 * streamed);
    filed.mockRestore();
    expect(l.records.size).toBe(3_000);
    const dropped = Object.values(l.state.droppedBy ?? {}).reduce((a, b) => a + b, 0);
    expect(l.records.size + dropped).toBe(streamed);
    // Posts before their deliveries, each pair together, in seq order.
    const held = [...l.records.values()];
    expect(held.map((r) => r.seq)).toEqual([...held.map((r) => r.seq)].sort((a, b) => a - b));
    for (const r of held.filter((x) => x.kind === 'receive' && x.pairedWith !== undefined)) {
      expect(r.pairedWith!).toBeLessThan(r.seq);
    }
  });
});
