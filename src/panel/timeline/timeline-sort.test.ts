import { describe, expect, it } from 'vitest';
import { createStore, type KeyValueStorage } from '../app/create-store.ts';
import { createMemoryTransport } from '../link/transports.ts';
import { syntheticSession, TENANT } from '../app/synthetic.ts';
import { COLUMN_DEFS, defaultColumns, fitColumns, nextSort, parseColumns, parseSort } from './columns.ts';

function setup(storage: KeyValueStorage | null = null, records = syntheticSession(120)) {
  const ticks: Array<() => void> = [];
  const store = createStore({ schedule: (fn) => ticks.push(fn), storage, tabId: 3 });
  const t = createMemoryTransport({ tabId: 3, records: [], state: { tenantOrigin: TENANT } });
  store.attach(t);
  const tick = () => {
    for (const fn of ticks.splice(0)) {
      fn();
    }
  };
  t.push(records);
  tick();
  return { store, t, tick, records };
}
const memStorage = (): KeyValueStorage => {
  const data = new Map<string, string>();
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
};
const shown = (store: ReturnType<typeof setup>['store']) =>
  Array.from({ length: store.timeline.length }, (_, p) => store.log.at(store.timeline.indexAt(p)));

describe('timeline sorting', () => {
  it('shows the causal order (the log order) by default', () => {
    const { store } = setup();
    expect(store.timeline.sort).toBeNull();
    const seqs = shown(store).map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(store.timeline.rows).toEqual(store.timeline.order);
  });

  it('sorts by a column, both ways, stably (equal keys keep their causal order), and back to causal', () => {
    const { store } = setup();
    const causal = shown(store).map((r) => r.seq);
    store.timeline.setSort({ column: 'type', dir: 'asc' });
    const asc = shown(store);
    for (let k = 1; k < asc.length; k++) {
      const a = store.log.metaAt(store.timeline.indexAt(k - 1)).type;
      const b = store.log.metaAt(store.timeline.indexAt(k)).type;
      expect(a <= b).toBe(true);
      if (a === b) {
        expect(asc[k - 1].seq).toBeLessThan(asc[k].seq);
      }
    }
    expect(new Set(asc.map((r) => r.seq))).toEqual(new Set(causal));
    store.timeline.setSort({ column: 'type', dir: 'desc' });
    const first = store.log.metaAt(store.timeline.indexAt(0)).type;
    const last = store.log.metaAt(store.timeline.indexAt(store.timeline.length - 1)).type;
    expect(first >= last).toBe(true);
    expect(first).not.toBe(last);
    store.timeline.setSort(null);
    expect(shown(store).map((r) => r.seq)).toEqual(causal);
  });

  it('the keys move the selection through the rows as shown, sorted: arrows, first and last', () => {
    const { store } = setup();
    const v = store.timeline;
    v.setSort({ column: 'type', dir: 'asc' });
    const seqAt = (p: number) => store.log.at(v.indexAt(p)).seq;
    v.select(seqAt(5));
    v.moveSelection(1);
    expect(v.selectedSeq).toBe(seqAt(6));
    v.moveSelection(-2);
    expect(v.selectedSeq).toBe(seqAt(4));
    v.selectAt(0);
    expect(v.selectedSeq).toBe(seqAt(0));
    v.selectAt(v.length - 1);
    expect(v.selectedSeq).toBe(seqAt(v.length - 1));
  });

  it('sorts by size numerically and keeps the selection on its record', () => {
    const { store } = setup();
    store.timeline.selectAt(3);
    const sel = store.timeline.selectedSeq;
    store.timeline.setSort({ column: 'size', dir: 'desc' });
    const sizes = store.timeline.rows.map((i) => store.log.sizeAt(i));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(store.timeline.selectedSeq).toBe(sel);
    const pos = store.timeline.selectedViewPos();
    expect(store.log.at(store.timeline.indexAt(pos)).seq).toBe(sel);
  });

  it('places live records by the sort, not at the end', () => {
    const records = syntheticSession(120);
    const { store, t, tick } = setup(null, records.slice(0, 60));
    store.timeline.setSort({ column: 'time', dir: 'desc' });
    t.push(records.slice(60));
    tick();
    const times = shown(store).map((r) => r.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(store.timeline.length).toBe(store.timeline.order.length);
  });

  it.each(['size', 'type', 'verdict'] as const)(
    'live records sorted by %s land where a full sort puts them',
    (column) => {
      const records = syntheticSession(200);
      const { store, t, tick } = setup(null, records.slice(0, 100));
      store.timeline.setSort({ column, dir: 'desc' });
      for (let k = 100; k < records.length; k += 7) {
        t.push(records.slice(k, k + 7));
        tick();
      }
      const live = [...store.timeline.rows];
      store.timeline.setSort(null);
      store.timeline.setSort({ column, dir: 'desc' });
      expect(live).toEqual(store.timeline.rows);
    },
  );

  it('a header click goes ascending, descending, then back to the causal order', () => {
    let s = nextSort(null, 'size');
    expect(s).toEqual({ column: 'size', dir: 'asc' });
    s = nextSort(s, 'size');
    expect(s).toEqual({ column: 'size', dir: 'desc' });
    expect(nextSort(s, 'size')).toBeNull();
    expect(nextSort(s, 'type')).toEqual({ column: 'type', dir: 'asc' });
  });
});

describe('column preferences', () => {
  it('the chooser hides and shows optional columns; the required ones stay', () => {
    const { store } = setup();
    expect(store.timeline.columns).toEqual(defaultColumns());
    store.timeline.setColumn('clock', true);
    store.timeline.setColumn('size', false);
    store.timeline.setColumn('type', false); // required: stays
    expect(store.timeline.columns).toContain('clock');
    expect(store.timeline.columns).not.toContain('size');
    expect(store.timeline.columns).toContain('type');
    // in screen order
    const order = COLUMN_DEFS.map((c) => c.id);
    const idx = store.timeline.columns.map((c) => order.indexOf(c));
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
  });

  it('the columns and the sort are remembered as the filters are', () => {
    const storage = memStorage();
    const a = setup(storage).store;
    a.timeline.setColumn('delta', true);
    a.timeline.setColumn('frame', false);
    a.timeline.setSort({ column: 'verdict', dir: 'asc' });
    a.timeline.setFilters({ search: 'ready' });
    const b = setup(storage).store;
    expect(b.timeline.columns).toEqual(a.timeline.columns);
    expect(b.timeline.sort).toEqual({ column: 'verdict', dir: 'asc' });
    expect(b.timeline.filters.search).toBe('ready');
  });

  it('malformed saved columns and sorts fall back to the defaults', () => {
    expect(parseColumns('x')).toEqual(defaultColumns());
    expect(parseColumns(['nope', 'clock'])).toEqual(
      COLUMN_DEFS.filter((c) => !c.optional || c.id === 'clock').map((c) => c.id),
    );
    expect(parseSort({ column: 'nope', dir: 'asc' })).toBeNull();
    expect(parseSort({ column: 'size', dir: 'sideways' })).toBeNull();
    expect(parseSort({ column: 'size', dir: 'desc' })).toEqual({ column: 'size', dir: 'desc' });
  });

  // Narrow timelines drop optional columns, never the direction-and-kind column; below the always-shown columns'
  // width (a side-docked pane) those take their narrow tracks, and the grid still fits.
  it.each([230, 250, 300, 360, 400, 500, 800, 1400])(
    'at %i px the direction and kind stay, and the columns fit',
    (width) => {
      const all = COLUMN_DEFS.map((c) => c.id);
      const { shown: cols, template } = fitColumns(all, width);
      for (const id of ['time', 'dir', 'type', 'verdict'] as const) {
        expect(cols).toContain(id);
      }
      const defs = COLUMN_DEFS.filter((c) => cols.includes(c.id));
      const min = defs.reduce((n, c) => n + c.min, 0);
      const optional = cols.some((id) => COLUMN_DEFS.find((c) => c.id === id)!.optional);
      expect(min <= width || !optional).toBe(true);
      const narrow = min > width;
      expect(template).toBe(defs.map((c) => (narrow ? (c.narrow ?? c).track : c.track)).join(' '));
      expect(defs.reduce((n, c) => n + (narrow ? (c.narrow ?? c).min : c.min), 0)).toBeLessThanOrEqual(width);
    },
  );
});

describe('the selection follows the filter', () => {
  it('a filter that hides the selected record clears the selection', () => {
    const { store } = setup();
    const i = store.timeline.order.find((k) => store.log.metaAt(k).type.endsWith('ready'))!;
    store.timeline.select(store.log.at(i).seq);
    store.timeline.setFilters({ directions: ['action'] });
    expect(store.timeline.selectedSeq).toBeNull();
    expect(store.timeline.selectedIndex()).toBe(-1);
  });
  it('a filter that keeps the selected record keeps it selected', () => {
    const { store } = setup();
    const i = store.timeline.order.find((k) => store.log.metaAt(k).direction === 'event')!;
    const seq = store.log.at(i).seq;
    store.timeline.select(seq);
    store.timeline.setFilters({ directions: ['event'] });
    expect(store.timeline.selectedSeq).toBe(seq);
  });
});
