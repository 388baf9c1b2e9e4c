import { describe, expect, it } from 'vitest';
import { PanelStore, type KeyValueStorage } from './store.ts';
import { createFileTransport, createMemoryTransport } from './transport.ts';
import { syntheticSession, TENANT } from './synthetic.ts';
import { MESSAGES_VERSION, type ClassifiedRecord } from '../shared/messages.ts';
import { CAPTURE_FORMAT } from '../protocol/record.ts';
import { countsAsMessage } from '../protocol/pairs.ts';
import { compileFilter, defaultFilters, metaOf, searchTextOf } from './filters.ts';

/** A store whose batches run when the test says so. */
function setup(records = syntheticSession(120), storage: KeyValueStorage | null = null) {
  const ticks: Array<() => void> = [];
  const store = new PanelStore({ schedule: (fn) => ticks.push(fn), storage, tabId: 7 });
  const t = createMemoryTransport({ tabId: 7, records: [], state: { tenantOrigin: TENANT } });
  store.attach(t);
  const changes: string[] = [];
  store.onChange((c) => changes.push(Object.keys(c).join('+')));
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
    expect(store.records.length).toBe(0);
    t.push(records.slice(0, 10));
    t.push(records.slice(10, 30));
    expect(store.records.length).toBe(0); // queued until the next frame
    tick();
    expect(store.records.length).toBe(30);
    expect(changes.filter((c) => c === 'appended')).toHaveLength(1);
    expect(store.view.length).toBe(records.slice(0, 30).filter((r) => r.verdict !== 'foreign' || r.navigation).length);
  });

  it('applies updates of records already sent (pairing, re-classification) by seq', () => {
    const { store, t, tick, records } = setup();
    const post = records.find((r) => r.kind === 'post' && r.verdict === 'valid' && r.pairedWith)!;
    t.push(records.slice(0, 40).map((r) => (r.seq === post.seq ? { ...r, pairedWith: undefined } : r)));
    tick();
    const i = store.indexOfSeq(post.seq);
    expect(store.paired(i)).toBe(-1);
    const validBefore = store.counts.valid;
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
    expect(store.paired(i)).toBe(store.indexOfSeq(post.pairedWith!));
    expect(store.counts.valid).toBe(validBefore - 1);
    store.setFilters({ verdicts: ['invalid'] });
    expect(store.view).toContain(i);
    // an update that changes membership in the current view
    t.emit({ type: 'update', records: [{ ...post, verdict: 'valid', issues: [] }] });
    tick();
    expect(store.view).not.toContain(i);
  });

  it('counts by verdict, frames, origins and types incrementally', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    // Messages: a post and its delivery count once.
    const messages = records.filter(countsAsMessage);
    expect(messages.length).toBeLessThan(records.filter((r) => !r.navigation).length);
    expect(store.counts.invalid).toBe(messages.filter((r) => r.verdict === 'invalid').length);
    expect(store.counts.foreign).toBe(messages.filter((r) => r.verdict === 'foreign').length);
    expect(store.frames.size).toBe(2);
    expect([...store.frames.values()].find((f) => f.url.startsWith(TENANT))?.surface).toBe('dashboard');
    expect(store.types.get('svc:event:ready')).toBe(2);
  });

  it('filters live records incrementally and refilters on a filter change', () => {
    const { store, t, tick, records } = setup();
    store.setFilters({ verdicts: ['invalid'] });
    t.push(records.slice(0, 60));
    tick();
    const invalid60 = records.slice(0, 60).filter((r) => r.verdict === 'invalid').length;
    expect(store.view.length).toBe(invalid60);
    t.push(records.slice(60));
    tick();
    expect(store.view.length).toBe(records.filter((r) => r.verdict === 'invalid').length);
    store.setFilters({ verdicts: [] });
    expect(store.view.length).toBe(records.filter((r) => r.verdict !== 'foreign' || r.navigation).length);
  });

  it('sends commands through the transport and applies state changes', () => {
    const { store, t } = setup();
    store.command({ type: 'set-options', options: { paused: true } });
    store.command({ type: 'set-tenant-origin', origin: 'https://x.example' });
    expect(t.sent.map((c) => c.type)).toEqual(['set-options', 'set-tenant-origin']);
    expect(store.state.paused).toBe(true);
    expect(store.state.tenantOrigin).toBe('https://x.example');
    expect(store.state.tenantOriginSource).toBe('manual');
  });

  it('clear empties the log through a new snapshot', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    store.select(records[3].seq);
    store.command({ type: 'clear' });
    expect(store.records.length).toBe(0);
    expect(store.selectedSeq).toBe(null);
    expect(store.counts).toEqual({ valid: 0, invalid: 0, foreign: 0 });
  });

  it('moves the selection through the view and skips filtered records', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    store.moveSelection(1);
    expect(store.selectedSeq).toBe(store.records[store.view[0]].seq);
    store.moveSelection(2);
    expect(store.selectedViewPos()).toBe(2);
    store.moveSelection(-10);
    expect(store.selectedViewPos()).toBe(0);
    store.selectAt(store.view.length + 5);
    expect(store.selectedViewPos()).toBe(store.view.length - 1);
    // a selected record that a filter hides: arrows continue from its place
    const firstInvalid = records.find((r) => r.verdict === 'invalid')!;
    store.select(firstInvalid.seq);
    store.setFilters({ verdicts: ['valid'] });
    expect(store.selectedViewPos()).toBe(-1);
    store.moveSelection(1);
    expect(store.recordBySeq(store.selectedSeq)!.seq).toBeGreaterThan(firstInvalid.seq);
  });

  it('links a post with its delivery, an action with the events that followed it', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    const nav = records.find((r) => (r.data as any)?.type === 'svc:action:navigate' && r.kind === 'post')!;
    const i = store.indexOfSeq(nav.seq);
    expect(store.records[store.paired(i)].seq).toBe(nav.pairedWith);
    const after = store.followingEvents(i).map((j) => (store.records[j].data as any).type);
    expect(after).toEqual(['svc:event:navigate', 'svc:event:view']);
    const ev = store.followingEvents(i)[0];
    expect(store.precedingAction(ev)).toBe(i);
  });

  it('computes timing and session facts', () => {
    const { store, t, tick, records } = setup();
    t.push(records);
    tick();
    const f = store.sessionFacts();
    expect(f.timeToReady).toBe(412);
    expect(f.readyFrom).toBe('embed navigation');
    expect(f.loaded?.loadDurationMs).toBe(1634);
    expect(f.loaded?.widgetCount).toBe(9);
    expect(store.timeOrigin().base).toBe('ready');
    store.setTimeBase('first');
    expect(store.timeOrigin().time).toBe(records[0].time);
    const j = store.indexOfSeq(records[5].seq);
    const prev = store.previousInFrame(j);
    expect(store.records[prev].frameUrl).toBe(records[5].frameUrl);
    expect(prev).toBeLessThan(j);
  });

  it('keeps filter state per panel across reloads (per tab, falling back to the last used)', () => {
    const storage = memStorage();
    const a = setup(undefined, storage).store;
    a.setFilters({ types: ['svc:event:view'], showForeign: true, search: 'x' });
    a.setTimeBase('first');
    const b = new PanelStore({ storage, tabId: 7 });
    expect(b.filters.types).toEqual(['svc:event:view']);
    expect(b.filters.showForeign).toBe(true);
    expect(b.timeBase).toBe('first');
    const other = new PanelStore({ storage, tabId: 99 });
    expect(other.filters.search).toBe('x'); // a new tab starts from the last filters used
    storage.setItem('embed-inspector:panel:v1:tab:7', '{garbage');
    expect(new PanelStore({ storage, tabId: 7 }).filters.search).toBe('');
  });

  it('trims to maxRecords like the background buffer', () => {
    const { store, t, tick } = setup();
    t.emit({ type: 'state', state: { ...t.state, maxRecords: 100 } });
    const many = syntheticSession(2_500);
    t.push(many);
    tick();
    expect(store.records.length).toBe(100);
    expect(store.records[99].seq).toBe(many[many.length - 1].seq);
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
    expect(store.records.length).toBe(100);
    expect(store.records.slice(0, 5).map((r) => r.seq)).toEqual(first);
    expect(store.records.some((r) => gone.includes(r.seq))).toBe(false);
  });

  it('does no O(n) work per live record: appending 1,000 records to 100,000 is fast', () => {
    const big = syntheticSession(100_000);
    const { store, t, tick } = setup([]);
    t.emit({ type: 'snapshot', state: { ...t.state, maxRecords: 200_000 }, records: big });
    const extra: ClassifiedRecord[] = syntheticSession(1_000).map((r, k) => ({ ...r, seq: 200_000 + k }));
    const t0 = performance.now();
    for (const r of extra) {
      t.push([r]);
    }
    tick();
    const ms = performance.now() - t0;
    expect(store.records.length).toBe(101_000);
    expect(ms, `${ms.toFixed(1)} ms`).toBeLessThan(250);
  });

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
    while (!store.countSome(0, () => clock++)) {
      steps++;
    }
    expect(steps).toBeGreaterThan(1);
    expect(store.types).toEqual(expected(typeOf));
    expect(store.origins).toEqual(expected((r) => r.origin));
    // on first use, after more records arrived
    const more = syntheticSession(200).map((r, k) => ({ ...r, seq: 10_000 + k }));
    const a = setup([]);
    a.t.emit({ type: 'snapshot', state: a.t.state, records });
    a.t.push(more);
    a.tick();
    records.push(...more);
    expect(a.store.types).toEqual(expected(typeOf));
    expect(a.store.origins).toEqual(expected((r) => r.origin));
    // an update that changes a counted record's type moves its count
    const view = records.find((r) => typeOf(r) === 'svc:event:view')!;
    const before = a.store.types.get('svc:event:view')!;
    a.t.emit({ type: 'update', records: [{ ...view, data: { ...(view.data as object), type: 'svc:event:other' } }] });
    a.tick();
    expect(a.store.types.get('svc:event:view')).toBe(before - 1);
    expect(a.store.types.get('svc:event:other')).toBe(1);
  });

  it('finds records by seq, in order or not', () => {
    const { store, t } = setup([]);
    const records = syntheticSession(300);
    t.emit({ type: 'snapshot', state: t.state, records });
    for (const k of [0, 1, 150, 299]) {
      expect(store.indexOfSeq(records[k].seq)).toBe(k);
    }
    expect(store.indexOfSeq(-5)).toBe(-1);
    expect(store.indexOfSeq(records[299].seq + 1)).toBe(-1);
    // a seq out of order (an imported file): looked up by a map from then on, live records included
    const shuffled = [records[2], records[0], records[1]];
    t.emit({ type: 'snapshot', state: t.state, records: shuffled });
    expect(shuffled.map((r) => store.indexOfSeq(r.seq))).toEqual([0, 1, 2]);
    t.push([{ ...records[5], seq: 1_000 }]);
    store.flush();
    expect(store.indexOfSeq(1_000)).toBe(3);
  });

  it('indexes search text incrementally within a budget', () => {
    const { store, t } = setup([]);
    t.emit({ type: 'snapshot', state: t.state, records: syntheticSession(20_000) });
    let steps = 0;
    while (!store.indexText(2)) {
      steps++;
    }
    expect(steps).toBeGreaterThan(0);
    const t0 = performance.now();
    store.setFilters({ search: 'workbook 77' });
    expect(performance.now() - t0).toBeLessThan(200);
    expect(store.view.length).toBeGreaterThan(0);
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
          while (!store.indexText(0, () => (clock += 0.001))) {
            /* until done */
          }
        } else {
          store.indexText(0, () => clock++);
        }
      } else if ('update' in step) {
        version++;
        t.emit({
          type: 'update',
          records: step.update.map((i) => {
            const r = store.records[i];
            return { ...r, data: { ...(r.data as object), note: `ZQX-${version} ${i}` } };
          }),
        });
        tick();
      } else if ('unicode' in step) {
        t.emit({
          type: 'update',
          records: step.unicode.map((i) => {
            const r = store.records[i];
            return { ...r, data: { ...(r.data as object), note: `İSTANBUL ΟΔΟΣ Σ ${i}` } };
          }),
        });
        tick();
      } else if ('sigma' in step) {
        const [a, b] = [store.records[step.sigma], store.records[step.sigma + 1]];
        t.emit({
          type: 'update',
          records: [
            { ...a, targetOrigin: 'https://example.com/ΟΔΟΣ' },
            { ...b, data: null },
          ],
        });
        tick();
      } else if ('search' in step) {
        store.setFilters({ search: step.search });
      } else if ('trim' in step) {
        t.emit({ type: 'state', state: { ...store.state, maxRecords: step.trim } });
      }
    }
    for (const q of QUERIES) {
      store.setFilters({ search: q });
      const p = compileFilter({ ...defaultFilters(), search: q });
      const expected = store.records.flatMap((r, i) => (p(r, metaOf(r), () => searchTextOf(r)) ? [i] : []));
      expect(store.view, q).toEqual(expected);
      if (
        steps.some((x) => 'unicode' in x) &&
        !steps.some((x) => 'update' in x) &&
        (q === 'i̇stanbul' || q === 'οδος')
      ) {
        expect(store.view.length, q).toBeGreaterThan(0);
      }
      if (steps.some((x) => 'sigma' in x) && q === 'example.com/οδος') {
        expect(store.view.length, q).toBe(1);
      }
    }
    const texts = store.records.map((_, i) => store.textAt(i));
    expect(texts).toEqual(store.records.map(searchTextOf));
  });

  it('keeps live appends out of the chunks until one is full, and indexing covers them', () => {
    const { store, t, tick } = setup([]);
    t.emit({ type: 'snapshot', state: t.state, records: syntheticSession(1_020) });
    expect(store.indexText(Infinity)).toBe(true);
    expect(store.textIndexed).toBe(1_020);
    t.push(
      syntheticSession(10)
        .slice(0, 10)
        .map((r, k) => ({ ...r, seq: 50_000 + k, pairedWith: undefined })),
    );
    tick();
    expect(store.textIndexed).toBe(1_020);
    expect(store.indexText(Infinity)).toBe(true);
    expect(store.textIndexed).toBe(1_030);
    expect(store.textAt(1_029)).toBe(searchTextOf(store.records[1_029]));
    expect(store.textAt(5)).toBe(searchTextOf(store.records[5]));
  });
});

describe('loading and sizes', () => {
  it('a load and the same records arriving live give the same log, view, counts and frames', () => {
    const recs = syntheticSession(600);
    const loaded = new PanelStore({ schedule: () => {} });
    const input = recs.map((r) => structuredClone(r));
    loaded.replace(input);
    expect(input).toHaveLength(600); // the caller's list is left alone
    const live = new PanelStore({ schedule: () => {} });
    live.replace([]);
    live.enqueue(recs.map((r) => structuredClone(r)));
    live.flush();
    expect(loaded.records.map((r) => r.seq)).toEqual(live.records.map((r) => r.seq));
    expect(loaded.meta).toEqual(live.meta);
    expect(loaded.view).toEqual(live.view);
    expect(loaded.counts).toEqual(live.counts);
    expect([...loaded.frames.values()]).toEqual([...live.frames.values()]);
    expect([loaded.readyIndex, loaded.loadedIndex]).toEqual([live.readyIndex, live.loadedIndex]);
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
    const live = new PanelStore({ schedule: () => {} });
    live.replace(before);
    live.setFilters({ showForeign: true });
    live.countSome(Infinity);
    live.compactSome(Infinity);
    const chosen = before[before.length - 1];
    live.select(chosen.seq);
    const fromSeq = Math.min(from, before.length + 1);
    live.handle({
      v: MESSAGES_VERSION,
      type: 'reorder',
      fromSeq,
      records: final.filter((r) => r.seq >= fromSeq).map((r) => structuredClone(r)),
    });
    const loaded = new PanelStore({ schedule: () => {} });
    loaded.replace(final.map((r) => structuredClone(r)));
    loaded.setFilters({ showForeign: true });
    expect(live.records.map((r) => r.seq)).toEqual(loaded.records.map((r) => r.seq));
    expect(live.records.map((r) => r.time)).toEqual(loaded.records.map((r) => r.time));
    expect(live.meta).toEqual(loaded.meta);
    expect(live.view).toEqual(loaded.view);
    expect(live.counts).toEqual(loaded.counts);
    expect(live.origins).toEqual(loaded.origins);
    expect(live.types).toEqual(loaded.types);
    expect([...live.frames.values()].sort((a, b) => a.url.localeCompare(b.url))).toEqual(
      [...loaded.frames.values()].sort((a, b) => a.url.localeCompare(b.url)),
    );
    expect([live.readyIndex, live.loadedIndex]).toEqual([loaded.readyIndex, loaded.loadedIndex]);
    expect(live.recordBySeq(live.selectedSeq)?.time).toBe(chosen.time);
    for (let i = 0; i < live.records.length; i++) {
      expect(live.textAt(i)).toBe(loaded.textAt(i));
    }
  });

  it('sizes are the encoded length, and are measured again when a record is updated or the log replaced', () => {
    const store = new PanelStore({ schedule: () => {} });
    const recs = syntheticSession(50);
    store.replace(recs);
    const i = 7;
    expect(store.sizeAt(i)).toBe(JSON.stringify(store.records[i].data).length);
    const bigger = { ...store.records[i], data: { ...(store.records[i].data as object), extra: 'x'.repeat(100) } };
    store.enqueue([bigger], true);
    store.flush();
    expect(store.sizeAt(i)).toBe(JSON.stringify(bigger.data).length);
    const truncated = { ...store.records[i], originalSize: 5_000_000 };
    store.enqueue([truncated], true);
    store.flush();
    expect(store.sizeAt(i)).toBe(5_000_000);
    store.replace(syntheticSession(50).reverse());
    expect(store.sizeAt(i)).toBe(JSON.stringify(store.records[i].data).length);
  });
});

describe('file transport', () => {
  it('classifies an imported capture file and re-classifies when the tenant origin changes', () => {
    const messages = syntheticSession(40).map(({ verdict: _v, issues: _i, ...r }) => r);
    const store = new PanelStore({ schedule: (fn) => fn() });
    const t = createFileTransport(
      { format: CAPTURE_FORMAT, version: 1, tenantOrigin: TENANT, messages, meta: { dropped: 3 } },
      'x.json',
    );
    store.attach(t);
    expect(store.records.length).toBe(40);
    expect(store.state.dropped).toBe(3);
    expect(store.records.every((r) => ['valid', 'invalid', 'foreign'].includes(r.verdict))).toBe(true);
    store.command({ type: 'set-tenant-origin', origin: 'https://other.example' });
    expect(store.state.tenantOrigin).toBe('https://other.example');
    expect(store.records.length).toBe(40);
  });
});
