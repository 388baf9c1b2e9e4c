import { describe, expect, it } from 'vitest';
import { createStore } from '../app/create-store.ts';
import type { KeyValueStorage } from '../app/create-store.ts';
import { createFileTransport, createMemoryTransport } from '../link/transports.ts';
import { syntheticSession, TENANT } from '../app/synthetic.ts';
import type { BackgroundToPanel, ClassifiedRecord } from '../../shared/messages.ts';
import { stamp } from '../../shared/channel.ts';
import { CAPTURE_FORMAT } from '../../protocol/record.ts';
import { countsAsMessage } from '../../protocol/pairs.ts';
import { compileFilter, defaultFilters } from '../timeline/filters.ts';
import type { RecordLog } from '../log/record-log.ts';
import { searchTextOf } from '../log/searchtext.ts';
import { MetaCache } from '../log/meta.ts';
import { followingEvents, paired, precedingAction, previousInFrame, sessionFacts } from '../log/related.ts';

/** A store whose batches run when the test says so. */
function setup(records = syntheticSession(120), storage: KeyValueStorage | null = null) {
  const ticks: Array<() => void> = [];
  const store = createStore({ schedule: (fn) => ticks.push(fn), storage, tabId: 7 });
  const t = createMemoryTransport({ tabId: 7, records: [], state: { tenantOrigin: TENANT } });
  store.attach(t);
  // What the view tells its readers, in order.
  const changes: string[] = [];
  for (const type of ['appended', 'rebuilt', 'filters', 'timeBase', 'selection'] as const) {
    store.timeline.on(type, () => changes.push(type));
  }
  const tick = () => {
    for (const fn of ticks.splice(0)) {
      fn();
    }
  };
  return { store, t, tick, changes, records };
}
const memStorage = (): KeyValueStorage & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
};

describe('PanelStore on the in-memory transport', () => {
  it('takes the snapshot, then batches live records per tick (one notification per batch)', () => {
    const { store, t, tick, changes, records } = setup();
    expect(store.log.count).toBe(0);
    t.push(records.slice(0, 10));
    t.push(records.slice(10, 30));
    expect(store.log.count).toBe(0); // queued until the next frame
    tick();
    expect(store.log.count).toBe(30);
    expect(changes.filter((c) => c === 'appended')).toHaveLength(1);
    expect(store.timeline.order.length).toBe(
      records.slice(0, 30).filter((r) => r.verdict !== 'foreign' || r.navigation).length,
    );
  });

  it('the log and the view tell their readers by typed events: one view event and one Change per change', () => {
    const { store, t, tick, records } = setup();
    const heard: string[] = [];
    for (const type of ['batch', 'reordered', 'replaced', 'cleared', 'state'] as const) {
      store.log.on(type, () => heard.push(`log:${type}`));
    }
    for (const type of ['appended', 'rebuilt', 'filters', 'timeBase', 'selection'] as const) {
      store.timeline.on(type, () => heard.push(`view:${type}`));
    }
    const summed: string[] = [];
    store.onChange((c) => summed.push(Object.keys(c).sort().join('+')));
    // (the view subscribed to the log first: it handles each log event, and sends its own, before later listeners)
    t.push(records.slice(0, 30));
    tick();
    expect(heard).toEqual(['view:appended', 'log:batch']);
    expect(summed).toEqual(['appended+state+view']);
    heard.length = summed.length = 0;
    store.timeline.setFilters({ verdicts: ['invalid'] });
    const valid = store.log.all().find((r) => r.verdict === 'valid' && !r.navigation)!;
    t.emit({ type: 'update', records: [{ ...valid, verdict: 'invalid' }] });
    tick();
    expect(heard).toEqual(['view:filters', 'view:rebuilt', 'log:batch']);
    expect(summed).toEqual(['filters+view', 'selection+state+view']);
    heard.length = summed.length = 0;
    store.clearLog();
    // (the transport answers the clear command with an empty snapshot, then the log empties at once; a snapshot's
    // state comes with its `replaced`, so the UI's state readers run once for it)
    expect(heard).toEqual(['view:rebuilt', 'log:replaced', 'view:rebuilt', 'log:replaced', 'log:cleared']);
    expect(summed).toEqual(['records+selection+state+view', 'records+selection+state+view', 'cleared']);
  });

  it('applies updates of records already sent (pairing, re-classification) by seq', () => {
    const { store, t, tick, records } = setup();
    const post = records.find((r) => r.kind === 'post' && r.verdict === 'valid' && r.pairedWith)!;
    t.push(records.slice(0, 40).map((r) => (r.seq === post.seq ? { ...r, pairedWith: undefined } : r)));
    tick();
    const i = store.log.indexOfSeq(post.seq);
    expect(paired(store.log, i)).toBe(-1);
    const validBefore = store.log.counts.valid;
    t.emit({
      type: 'update',
      records: [
        {
          ...post,
          verdict: 'invalid',
          issues: [{ rule: 'origin.event', severity: 'error', path: 'origin', message: 'x' }],
        },
      ],
    });
    tick();
    expect(paired(store.log, i)).toBe(store.log.indexOfSeq(post.pairedWith!));
    expect(store.log.counts.valid).toBe(validBefore - 1);
    store.timeline.setFilters({ verdicts: ['invalid'] });
    expect(store.timeline.order).toContain(i);
    // an update that changes membership in the current view
    t.emit({ type: 'update', records: [{ ...post, verdict: 'valid', issues: [] }] });
    tick();
    expect(store.timeline.order).not.toContain(i);
  });

  it('counts by verdict, frames, origins and types incrementally', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    // Messages: a post and its delivery count once.
    const messages = records.filter(countsAsMessage);
    expect(messages.length).toBeLessThan(records.filter((r) => !r.navigation).length);
    expect(store.log.counts.invalid).toBe(messages.filter((r) => r.verdict === 'invalid').length);
    expect(store.log.counts.foreign).toBe(messages.filter((r) => r.verdict === 'foreign').length);
    expect(store.log.frames().size).toBe(2);
    expect([...store.log.frames().values()].find((f) => f.url.startsWith(TENANT))?.surface).toBe('dashboard');
    expect(store.log.types().get('svc:event:ready')).toBe(2);
  });

  it('filters live records incrementally and refilters on a filter change', () => {
    const { store, t, tick, records } = setup();
    store.timeline.setFilters({ verdicts: ['invalid'] });
    t.push(records.slice(0, 60));
    tick();
    const invalid60 = records.slice(0, 60).filter((r) => r.verdict === 'invalid').length;
    expect(store.timeline.order.length).toBe(invalid60);
    t.push(records.slice(60));
    tick();
    expect(store.timeline.order.length).toBe(records.filter((r) => r.verdict === 'invalid').length);
    store.timeline.setFilters({ verdicts: [] });
    expect(store.timeline.order.length).toBe(records.filter((r) => r.verdict !== 'foreign' || r.navigation).length);
  });

  it('sends commands through the transport and applies state changes', () => {
    const { store, t } = setup();
    store.command({ type: 'set-options', options: { paused: true } });
    store.command({ type: 'set-tenant-origin', origin: 'https://x.example' });
    expect(t.sent.map((c) => c.type)).toEqual(['set-options', 'set-tenant-origin']);
    expect(store.log.state.paused).toBe(true);
    expect(store.log.state.tenantOrigin).toBe('https://x.example');
    expect(store.log.state.tenantOriginSource).toBe('manual');
  });

  it("the source's snapshot again (a worker restart) syncs the log: the selection stays, nothing is replaced", () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    const heard: string[] = [];
    for (const type of ['replaced', 'synced'] as const) {
      store.log.on(type, () => heard.push(type));
    }
    store.timeline.selectAt(3);
    const seq = store.timeline.selectedSeq;
    t.emit({ type: 'snapshot', state: t.state, records: t.records }); // the background's answer to a re-subscribe
    expect(heard).toEqual(['synced']);
    expect(store.timeline.selectedSeq).toBe(seq);
    // another source shown: its first snapshot replaces the records, even with the same seqs
    store.attach(createMemoryTransport({ tabId: 7, records: records.slice(0, 10), live: false }));
    expect(heard).toEqual(['synced', 'replaced']);
  });

  it('clear empties the log through a new snapshot', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    store.timeline.select(records[3].seq);
    store.command({ type: 'clear' });
    expect(store.log.count).toBe(0);
    expect(store.timeline.selectedSeq).toBe(null);
    expect(store.log.counts).toEqual({ valid: 0, invalid: 0, foreign: 0 });
  });

  it('moves the selection through the view and skips filtered records', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    store.timeline.moveSelection(1);
    expect(store.timeline.selectedSeq).toBe(store.log.all()[store.timeline.order[0]].seq);
    store.timeline.moveSelection(2);
    expect(store.timeline.selectedViewPos()).toBe(2);
    store.timeline.moveSelection(-10);
    expect(store.timeline.selectedViewPos()).toBe(0);
    store.timeline.selectAt(store.timeline.order.length + 5);
    expect(store.timeline.selectedViewPos()).toBe(store.timeline.order.length - 1);
    // a selected record that a filter hides: arrows continue from its place
    const firstInvalid = records.find((r) => r.verdict === 'invalid')!;
    store.timeline.select(firstInvalid.seq);
    store.timeline.setFilters({ verdicts: ['valid'] });
    expect(store.timeline.selectedViewPos()).toBe(-1);
    store.timeline.moveSelection(1);
    expect(store.log.bySeq(store.timeline.selectedSeq)!.seq).toBeGreaterThan(firstInvalid.seq);
  });

  it('links a post with its delivery, an action with the events that followed it', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    const nav = records.find((r) => (r.data as any)?.type === 'svc:action:navigate' && r.kind === 'post')!;
    const i = store.log.indexOfSeq(nav.seq);
    expect(store.log.all()[paired(store.log, i)].seq).toBe(nav.pairedWith);
    const after = followingEvents(store.log, i).map((j) => (store.log.all()[j].data as any).type);
    expect(after).toEqual(['svc:event:navigate', 'svc:event:view']);
    const ev = followingEvents(store.log, i)[0];
    expect(precedingAction(store.log, ev)).toBe(i);
  });

  it('computes timing and session facts', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    const f = sessionFacts(store.log);
    expect(f.timeToReady).toBe(412);
    expect(f.readyFrom).toBe('embed navigation');
    expect(f.loaded?.loadDurationMs).toBe(1634);
    expect(f.loaded?.widgetCount).toBe(9);
    expect(store.timeline.timeOrigin().base).toBe('ready');
    store.timeline.setTimeBase('first');
    expect(store.timeline.timeOrigin().time).toBe(records[0].time);
    const j = store.log.indexOfSeq(records[5].seq);
    const prev = previousInFrame(store.log, j);
    expect(store.log.all()[prev].frameUrl).toBe(records[5].frameUrl);
    expect(prev).toBeLessThan(j);
  });

  it('an embed that failed to start: no ready, and the facts name its fatal error', () => {
    const { store, t, tick, records } = setup();
    const ready = records.findIndex((r) => (r.data as any)?.type === 'svc:event:ready');
    const before = records.slice(0, ready).filter((r) => !r.navigation);
    const failure = 'the embed failed to start: session expired';
    const error = (r: ClassifiedRecord): ClassifiedRecord => ({
      ...r,
      data: { ...(r.data as object), type: 'svc:event:error', payload: { fatal: true, message: 'session expired' } },
      issues: [{ rule: 'session.failed-before-ready', severity: 'info', path: 'type', message: failure }],
      verdict: 'valid',
    });
    const seq = before.length ? before[before.length - 1].seq : 0;
    const post = error({ ...records[ready], seq: seq + 1, pairedWith: seq + 2 });
    t.push([...before, post]);
    tick();
    expect(sessionFacts(store.log)).toMatchObject({ readySeq: null, startFailure: { seq: seq + 1, message: failure } });
    // Once a ready comes, the embed did start: no failure to show.
    t.push([{ ...records[ready], seq: seq + 3 }]);
    tick();
    expect(sessionFacts(store.log).startFailure).toBeNull();
  });

  it("with preserve log, a new page's facts do not name the page before's failure to start", () => {
    const { store, t, tick, records } = setup();
    const ready = records.findIndex((r) => (r.data as any)?.type === 'svc:event:ready');
    const before = records.slice(0, ready);
    const seq = before[before.length - 1].seq;
    const failed: ClassifiedRecord = {
      ...records[ready],
      seq: seq + 1,
      data: { ...(records[ready].data as object), type: 'svc:event:error', payload: { fatal: true, message: 'x' } },
      issues: [{ rule: 'session.failed-before-ready', severity: 'info', path: 'type', message: 'could not start: x' }],
    };
    t.push([...before, failed]);
    tick();
    expect(sessionFacts(store.log).startFailure?.seq).toBe(seq + 1);
    // the next page (preserve log keeps the page before): its embed has not said ready yet
    const url = 'https://host.example.com/next';
    const nav = { ...failed, seq: seq + 2, time: failed.time + 1000, kind: 'receive' as const, frameId: 0 };
    t.push([{ ...nav, frameUrl: url, data: { url }, navigation: true, issues: [] }]);
    tick();
    expect(store.log.pageStart).toBe(store.log.indexOfSeq(seq + 2));
    expect(sessionFacts(store.log).startFailure).toBeNull();
  });

  it('keeps filter state per panel across reloads (per tab, falling back to the last used)', () => {
    const storage = memStorage();
    const a = setup(undefined, storage).store;
    a.timeline.setFilters({ types: ['svc:event:view'], showForeign: true, search: 'x' });
    a.timeline.setTimeBase('first');
    const b = createStore({ storage, tabId: 7 });
    expect(b.timeline.filters.types).toEqual(['svc:event:view']);
    expect(b.timeline.filters.showForeign).toBe(true);
    expect(b.timeline.timeBase).toBe('first');
    const other = createStore({ storage, tabId: 99 });
    expect(other.timeline.filters.search).toBe('x'); // a new tab starts from the last filters used
    storage.setItem('embed-inspector:panel:v1:tab:7', '{garbage');
    expect(createStore({ storage, tabId: 7 }).timeline.filters.search).toBe('');
  });

  it('trims to maxRecords like the background buffer', () => {
    const { store, t, tick } = setup();
    t.emit({ type: 'state', state: { ...t.state, maxRecords: 100 } });
    const many = syntheticSession(2_500);
    t.push(many);
    tick();
    expect(store.log.count).toBe(100);
    expect(store.log.all()[99].seq).toBe(many[many.length - 1].seq);
  });

  it('trims the records the background let go, not its oldest ones', () => {
    const { store, t, tick } = setup();
    t.emit({ type: 'state', state: { ...t.state, maxRecords: 100 } });
    const many = syntheticSession(400).slice(0, 300);
    const first = many.slice(0, 5).map((r) => r.seq);
    // The background keeps the first five (say, ready and errors) and let the next ones go.
    const gone = many.slice(5, 205).map((r) => r.seq);
    t.push(many);
    t.emit({ type: 'removed', seqs: gone });
    tick();
    expect(store.log.count).toBe(100);
    expect(
      store.log
        .all()
        .slice(0, 5)
        .map((r) => r.seq),
    ).toEqual(first);
    expect(store.log.all().some((r) => gone.includes(r.seq))).toBe(false);
  });

  // (how long such a batch takes is measured by bench/panel.mjs: "live batch", 500 records into the full log)
  // (a longer limit: classifying the demo's 100,000 records with the protocol's rules takes about 1.5 s of CPU)
  it('appends 1,000 live records to 100,000 in one batch, filtering only them onto the view', () => {
    const big = syntheticSession(100_000);
    const { store, t, tick, changes } = setup([]);
    t.emit({ type: 'snapshot', state: { ...t.state, maxRecords: 200_000 }, records: big });
    const held = store.log.all();
    const shown = store.timeline.order.slice();
    const batches: Array<{ from: number; count: number }> = [];
    store.log.on('batch', (e) => batches.push({ from: e.from, count: e.count }));
    changes.length = 0;
    const extra: ClassifiedRecord[] = syntheticSession(1_000).map((r, k) => ({ ...r, seq: 200_000 + k }));
    for (const r of extra) {
      t.push([r]);
    }
    expect(store.log.count).toBe(100_000); // nothing is ingested per record: it waits for the batch
    tick();
    expect(store.log.count).toBe(101_000);
    expect(batches).toEqual([{ from: 100_000, count: 1_000 }]);
    expect(store.log.all()).toBe(held); // appended to, not copied
    expect(changes).toEqual(['appended']); // the view is extended, not filtered again
    const order = store.timeline.order;
    expect(order.length).toBeGreaterThan(shown.length);
    expect(shown.every((i, k) => order[k] === i)).toBe(true);
    expect(order.slice(shown.length).every((i) => i >= 100_000)).toBe(true);
  }, 30_000);

  it('counts by origin and type on first use or in budgeted steps, not while ingesting, and keeps them current', () => {
    const records = syntheticSession(3_000);
    const expected = (key: (r: ClassifiedRecord) => string | undefined) => {
      const m = new Map<string, number>();
      for (const r of records) {
        const k = key(r);
        if (k) {
          m.set(k, (m.get(k) ?? 0) + 1);
        }
      }
      return m;
    };
    const typeOf = (r: ClassifiedRecord) => {
      const d = r.data as { type?: unknown } | null;
      return !r.navigation && d && typeof d === 'object' && typeof d.type === 'string' ? d.type : undefined;
    };
    // in budgeted steps (a clock that moves 1 ms per reading: a step ends after its first check)
    const { store, t } = setup([]);
    t.emit({ type: 'snapshot', state: t.state, records });
    let clock = 0;
    let steps = 1;
    while (!store.log.countSome(0, () => clock++)) {
      steps++;
    }
    expect(steps).toBeGreaterThan(1);
    expect(store.log.types()).toEqual(expected(typeOf));
    expect(store.log.origins()).toEqual(expected((r) => r.origin));
    // on first use, after more records arrived
    const more = syntheticSession(200).map((r, k) => ({ ...r, seq: 10_000 + k }));
    const a = setup([]);
    a.t.emit({ type: 'snapshot', state: a.t.state, records });
    a.t.push(more);
    a.tick();
    records.push(...more);
    expect(a.store.log.types()).toEqual(expected(typeOf));
    expect(a.store.log.origins()).toEqual(expected((r) => r.origin));
    // an update that changes a counted record's type moves its count
    const view = records.find((r) => typeOf(r) === 'svc:event:view')!;
    const before = a.store.log.types().get('svc:event:view')!;
    a.t.emit({ type: 'update', records: [{ ...view, data: { ...(view.data as object), type: 'svc:event:other' } }] });
    a.tick();
    expect(a.store.log.types().get('svc:event:view')).toBe(before - 1);
    expect(a.store.log.types().get('svc:event:other')).toBe(1);
  });

  it('finds records by seq, in order or not', () => {
    const { store, t } = setup([]);
    const records = syntheticSession(300);
    t.emit({ type: 'snapshot', state: t.state, records });
    for (const k of [0, 1, 150, 299]) {
      expect(store.log.indexOfSeq(records[k].seq)).toBe(k);
    }
    expect(store.log.indexOfSeq(-5)).toBe(-1);
    expect(store.log.indexOfSeq(records[299].seq + 1)).toBe(-1);
    // a seq out of order (an imported file): looked up by a map from then on, live records included
    const shuffled = [records[2], records[0], records[1]];
    t.emit({ type: 'snapshot', state: t.state, records: shuffled });
    expect(shuffled.map((r) => store.log.indexOfSeq(r.seq))).toEqual([0, 1, 2]);
    t.push([{ ...records[5], seq: 1_000 }]);
    store.log.flush();
    expect(store.log.indexOfSeq(1_000)).toBe(3);
  });

  it('indexes search text incrementally within a budget', () => {
    const { store, t } = setup([]);
    t.emit({ type: 'snapshot', state: t.state, records: syntheticSession(20_000) });
    // a clock that moves 1 ms per reading, a budget of 2 ms: each step stops after a few readings
    let clock = 0;
    let steps = 1;
    while (!store.log.indexText(2, () => clock++)) {
      steps++;
      expect(store.log.textIndexed).toBeLessThan(20_000);
    }
    expect(steps).toBeGreaterThan(1);
    expect(store.log.textIndexed).toBe(20_000);
    // a search then reads the texts built: what each record alone gives
    store.timeline.setFilters({ search: 'workbook 77' });
    const p = compileFilter({ ...defaultFilters(), search: 'workbook 77' });
    const metas = new MetaCache();
    const expected = store.log.all().flatMap((r, i) => (p(r, metas.of(r), () => searchTextOf(r)) ? [i] : []));
    expect(expected.length).toBeGreaterThan(0);
    expect(store.timeline.order).toEqual(expected);
  });
});

describe('search text in chunks', () => {
  // The texts are kept 1,024 records to a string; whatever the order of loads, live records, updates, idle
  // indexing and searches, every record's text and every search result must be what the record alone gives.
  type Step =
    | { snapshot: number }
    | { append: number }
    | { index: 'all' | 'some' }
    | { update: number[] }
    | { unicode: number[] }
    | { sigma: number }
    | { search: string }
    | { trim: number };
  // (`unicode` updates give records characters whose lower case is longer (U+0130 İ) or depends on context (Σ))
  // (`sigma`: record i's target origin ends with Σ, and record i + 1's message is null: in a chunk, "…ΟΔΟΣnull")
  const QUERIES = [
    'zqx',
    'workbook 77',
    '-kind:receive top customers',
    '-zqx',
    'payload.path:folder zqx',
    '"zqx 5"',
    'ZQX-1',
    'i̇stanbul',
    'οδος',
    'οδοσ',
    'example.com/οδος',
  ];
  const cases: Array<[string, Step[]]> = [
    ['a snapshot, no indexing', [{ snapshot: 2_500 }]],
    ['a snapshot, indexed', [{ snapshot: 2_500 }, { index: 'all' }]],
    ['a snapshot, partly indexed', [{ snapshot: 2_500 }, { index: 'some' }]],
    ['exactly full chunks', [{ snapshot: 2_048 }, { index: 'all' }, { append: 1 }]],
    [
      'live records across a chunk boundary',
      [{ snapshot: 1_000 }, { index: 'all' }, { append: 30 }, { append: 1_100 }],
    ],
    [
      'live records while a search is on',
      [{ snapshot: 1_000 }, { search: 'zqx' }, { append: 60 }, { update: [1_050, 10] }, { append: 1_000 }],
    ],
    ['updates in built chunks', [{ snapshot: 3_000 }, { index: 'all' }, { update: [0, 5, 1_023, 1_024, 2_047] }]],
    ['updates in a chunk not built yet', [{ snapshot: 3_000 }, { update: [1_500, 1_501] }]],
    ['updates in the last, partial chunk', [{ snapshot: 2_100 }, { index: 'all' }, { update: [2_050, 2_099] }]],
    [
      'updates, then indexing folds them in',
      [{ snapshot: 3_000 }, { index: 'all' }, { update: [7, 2_000] }, { index: 'some' }, { index: 'all' }],
    ],
    [
      'updated twice, searched between',
      [{ snapshot: 2_500 }, { index: 'all' }, { update: [300] }, { search: 'zqx' }, { update: [300, 301] }],
    ],
    ['trimmed', [{ snapshot: 3_000 }, { index: 'all' }, { update: [2_999] }, { trim: 1_500 }, { append: 600 }]],
    [
      'updates in a chunk being indexed',
      [{ snapshot: 3_000 }, { index: 'some' }, { update: [3, 40, 1_000] }, { index: 'some' }, { index: 'all' }],
    ],
    ['lower case longer or by context, chunk built by a search', [{ snapshot: 2_500 }, { unicode: [5, 1_500, 2_400] }]],
    [
      'lower case longer or by context, chunk built by indexing',
      [{ snapshot: 2_500 }, { unicode: [5, 1_500] }, { index: 'all' }],
    ],
    ['a final sigma at the end of a text, chunk built by a search', [{ snapshot: 2_500 }, { sigma: 10 }]],
    [
      'a final sigma at the end of a text, chunk built by indexing',
      [{ snapshot: 2_500 }, { sigma: 1_030 }, { index: 'all' }],
    ],
    [
      'lower case longer or by context, then updated again',
      [{ snapshot: 2_500 }, { index: 'all' }, { unicode: [6] }, { search: 'zqx' }, { update: [6] }, { index: 'all' }],
    ],
  ];
  it.each(cases)('%s', (_name, steps) => {
    const { store, t, tick } = setup([]);
    let next = 100_000;
    let version = 0;
    for (const step of steps) {
      if ('snapshot' in step) {
        t.emit({ type: 'snapshot', state: t.state, records: syntheticSession(step.snapshot) });
      } else if ('append' in step) {
        t.push(
          syntheticSession(step.append)
            .slice(0, step.append)
            .map((r) => ({ ...r, seq: next++, pairedWith: undefined })),
        );
        tick();
      } else if ('index' in step) {
        let clock = 0;
        if (step.index === 'all') {
          while (!store.log.indexText(0, () => (clock += 0.001))) {
            /* until done */
          }
        } else {
          store.log.indexText(0, () => clock++);
        }
      } else if ('update' in step) {
        version++;
        t.emit({
          type: 'update',
          records: step.update.map((i) => {
            const r = store.log.all()[i];
            return { ...r, data: { ...(r.data as object), note: `ZQX-${version} ${i}` } };
          }),
        });
        tick();
      } else if ('unicode' in step) {
        t.emit({
          type: 'update',
          records: step.unicode.map((i) => {
            const r = store.log.all()[i];
            return { ...r, data: { ...(r.data as object), note: `İSTANBUL ΟΔΟΣ Σ ${i}` } };
          }),
        });
        tick();
      } else if ('sigma' in step) {
        const [a, b] = [store.log.all()[step.sigma], store.log.all()[step.sigma + 1]];
        t.emit({
          type: 'update',
          records: [
            { ...a, targetOrigin: 'https://example.com/ΟΔΟΣ' },
            { ...b, data: null },
          ],
        });
        tick();
      } else if ('search' in step) {
        store.timeline.setFilters({ search: step.search });
      } else if ('trim' in step) {
        t.emit({ type: 'state', state: { ...store.log.state, maxRecords: step.trim } });
      }
    }
    for (const q of QUERIES) {
      store.timeline.setFilters({ search: q });
      const p = compileFilter({ ...defaultFilters(), search: q });
      const metas = new MetaCache();
      const expected = store.log.all().flatMap((r, i) => (p(r, metas.of(r), () => searchTextOf(r)) ? [i] : []));
      expect(store.timeline.order, q).toEqual(expected);
      if (
        steps.some((x) => 'unicode' in x) &&
        !steps.some((x) => 'update' in x) &&
        (q === 'i̇stanbul' || q === 'οδος')
      ) {
        expect(store.timeline.order.length, q).toBeGreaterThan(0);
      }
      if (steps.some((x) => 'sigma' in x) && q === 'example.com/οδος') {
        expect(store.timeline.order.length, q).toBe(1);
      }
    }
    const texts = store.log.all().map((_, i) => store.log.textAt(i));
    expect(texts).toEqual(store.log.all().map(searchTextOf));
  });

  it('keeps live appends out of the chunks until one is full, and indexing covers them', () => {
    const { store, t, tick } = setup([]);
    t.emit({ type: 'snapshot', state: t.state, records: syntheticSession(1_020) });
    expect(store.log.indexText(Infinity)).toBe(true);
    expect(store.log.textIndexed).toBe(1_020);
    t.push(
      syntheticSession(10)
        .slice(0, 10)
        .map((r, k) => ({ ...r, seq: 50_000 + k, pairedWith: undefined })),
    );
    tick();
    expect(store.log.textIndexed).toBe(1_020);
    expect(store.log.indexText(Infinity)).toBe(true);
    expect(store.log.textIndexed).toBe(1_030);
    expect(store.log.textAt(1_029)).toBe(searchTextOf(store.log.all()[1_029]));
    expect(store.log.textAt(5)).toBe(searchTextOf(store.log.all()[5]));
  });
});

/** Each record's facts, in order. */
const metasOf = (log: RecordLog) => Array.from({ length: log.count }, (_, i) => log.metaAt(i));

describe('loading and sizes', () => {
  it('a load and the same records arriving live give the same log, view, counts and frames', () => {
    const recs = syntheticSession(600);
    const loaded = createStore({ schedule: () => {} });
    const input = recs.map((r) => structuredClone(r));
    loaded.log.replace(input);
    expect(input).toHaveLength(600); // the caller's list is left alone
    const live = createStore({ schedule: () => {} });
    live.log.replace([]);
    live.log.enqueue(recs.map((r) => structuredClone(r)));
    live.log.flush();
    expect(loaded.log.all().map((r) => r.seq)).toEqual(live.log.all().map((r) => r.seq));
    expect(metasOf(loaded.log)).toEqual(metasOf(live.log));
    expect(loaded.timeline.order).toEqual(live.timeline.order);
    expect(loaded.log.counts).toEqual(live.log.counts);
    expect([...loaded.log.frames().values()]).toEqual([...live.log.frames().values()]);
    expect([loaded.log.readyIndex, loaded.log.loadedIndex]).toEqual([live.log.readyIndex, live.log.loadedIndex]);
  });

  // A late batch: the background re-sends the records from the first one placed again, renumbered.
  it.each([
    ['a short tail', 590, 5],
    ['half the log', 300, 40],
    ['the whole log', 1, 1],
    ['nothing held after the point', 601, 3],
  ])('a reorder (%s) gives the log a snapshot of the new order gives, and keeps the selection', (_n, from, late) => {
    const final = syntheticSession(600);
    // What the panel held before: the final log without `late` records that came late, numbered without them.
    const lateIdx = new Set(Array.from({ length: late }, (_, k) => Math.min(599, from - 1 + k * 3)));
    const before = final
      .filter((_, i) => !lateIdx.has(i))
      // (pairs before the first late record are as in the final log: counts count a pair once)
      .map((r, i) => ({ ...structuredClone(r), seq: i + 1, pairedWith: i < from - 1 ? r.pairedWith : undefined }));
    const live = createStore({ schedule: () => {} });
    live.log.replace(before);
    live.timeline.setFilters({ showForeign: true });
    live.log.countSome(Infinity);
    live.log.compactSome(Infinity);
    const chosen = before[before.length - 1];
    live.timeline.select(chosen.seq);
    const fromSeq = Math.min(from, before.length + 1);
    live.handle(
      stamp<BackgroundToPanel>({
        type: 'reorder',
        fromSeq,
        records: final.filter((r) => r.seq >= fromSeq).map((r) => structuredClone(r)),
      }),
    );
    const loaded = createStore({ schedule: () => {} });
    loaded.log.replace(final.map((r) => structuredClone(r)));
    loaded.timeline.setFilters({ showForeign: true });
    expect(live.log.all().map((r) => r.seq)).toEqual(loaded.log.all().map((r) => r.seq));
    expect(live.log.all().map((r) => r.time)).toEqual(loaded.log.all().map((r) => r.time));
    expect(metasOf(live.log)).toEqual(metasOf(loaded.log));
    expect(live.timeline.order).toEqual(loaded.timeline.order);
    expect(live.log.counts).toEqual(loaded.log.counts);
    expect(live.log.origins()).toEqual(loaded.log.origins());
    expect(live.log.types()).toEqual(loaded.log.types());
    expect([...live.log.frames().values()].sort((a, b) => a.url.localeCompare(b.url))).toEqual(
      [...loaded.log.frames().values()].sort((a, b) => a.url.localeCompare(b.url)),
    );
    expect([live.log.readyIndex, live.log.loadedIndex]).toEqual([loaded.log.readyIndex, loaded.log.loadedIndex]);
    expect(live.log.bySeq(live.timeline.selectedSeq)?.time).toBe(chosen.time);
    for (let i = 0; i < live.log.count; i++) {
      expect(live.log.textAt(i)).toBe(loaded.log.textAt(i));
    }
  });

  it('sizes are the encoded length, and are measured again when a record is updated or the log replaced', () => {
    const store = createStore({ schedule: () => {} });
    const recs = syntheticSession(50);
    store.log.replace(recs);
    const i = 7;
    expect(store.log.sizeAt(i)).toBe(JSON.stringify(store.log.all()[i].data).length);
    const bigger = { ...store.log.all()[i], data: { ...(store.log.all()[i].data as object), extra: 'x'.repeat(100) } };
    store.log.enqueue([bigger], true);
    store.log.flush();
    expect(store.log.sizeAt(i)).toBe(JSON.stringify(bigger.data).length);
    const truncated = { ...store.log.all()[i], originalSize: 5_000_000 };
    store.log.enqueue([truncated], true);
    store.log.flush();
    expect(store.log.sizeAt(i)).toBe(5_000_000);
    store.log.replace(syntheticSession(50).reverse());
    expect(store.log.sizeAt(i)).toBe(JSON.stringify(store.log.all()[i].data).length);
  });
});

describe('file transport', () => {
  it('classifies an imported capture file and re-classifies when the tenant origin changes', () => {
    const messages = syntheticSession(40).map(({ verdict: _v, issues: _i, ...r }) => r);
    const store = createStore({ schedule: (fn) => fn() });
    const t = createFileTransport(
      { format: CAPTURE_FORMAT, version: 1, tenantOrigin: TENANT, messages, meta: { dropped: 3 } },
      'x.json',
    );
    store.attach(t);
    expect(store.log.count).toBe(40);
    expect(store.log.state.dropped).toBe(3);
    expect(store.log.all().every((r) => ['valid', 'invalid', 'foreign'].includes(r.verdict))).toBe(true);
    store.command({ type: 'set-tenant-origin', origin: 'https://other.example' });
    expect(store.log.state.tenantOrigin).toBe('https://other.example');
    expect(store.log.count).toBe(40);
  });
});
