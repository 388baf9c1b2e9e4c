/**
 * The timeline's view on its own, over a real record log: which records a filter shows, one event for each change
 * of the log, a live batch filtered by itself, the selection (kept, moved, dropped when hidden) and the filters
 * kept in storage.
 */
import { describe, expect, it } from 'vitest';
import { newTabState, type ClassifiedRecord } from '../../shared/messages.ts';
import { syntheticSession } from '../app/synthetic.ts';
import { RecordLog } from '../log/record-log.ts';
import { type KeyValueStorage, type TimelineEvents, TimelineView } from './timeline-view.ts';

function setup(records: ClassifiedRecord[] = syntheticSession(120), storage: KeyValueStorage | null = null) {
  const ticks: Array<() => void> = [];
  const log = new RecordLog({ schedule: (fn) => ticks.push(fn) });
  log.load(newTabState(1), records);
  const view = new TimelineView(log, { storage });
  const events: Array<[keyof TimelineEvents, unknown]> = [];
  for (const type of ['appended', 'rebuilt', 'filters', 'timeBase', 'columns', 'selection'] as const) {
    view.on(type, (e) => events.push([type, e]));
  }
  const tick = () => {
    for (const fn of ticks.splice(0)) {
      fn();
    }
  };
  return { log, view, events, tick, records };
}
/** The indices of the records `pass` keeps, ascending: what the view must show. */
const indicesWhere = (records: readonly ClassifiedRecord[], pass: (r: ClassifiedRecord) => boolean) =>
  records.flatMap((r, i) => (pass(r) ? [i] : []));
const memoryStorage = (): KeyValueStorage & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
};

describe('TimelineView', () => {
  it('shows the records that pass, in log order: foreign hidden by default (page loads shown), a verdict, foreign', () => {
    const { view, events, records } = setup();
    const svc = indicesWhere(records, (r) => r.verdict !== 'foreign' || !!r.navigation);
    expect(records[0].navigation).toBe(true); // the session starts with its page load
    expect(svc.length).toBeGreaterThan(0);
    expect(view.order).toEqual(svc);
    view.setFilters({ verdicts: ['invalid'] });
    const invalid = indicesWhere(records, (r) => r.verdict === 'invalid');
    expect(invalid.length).toBeGreaterThan(0);
    expect(view.order).toEqual(invalid);
    expect(view.length).toBe(invalid.length);
    expect(view.indexAt(0)).toBe(invalid[0]);
    view.setFilters({ verdicts: [], showForeign: true });
    expect(view.order).toEqual(records.map((_, i) => i));
    expect(events.map(([type]) => type)).toEqual(['filters', 'filters']);
  });

  it('adds a live batch by filtering the batch alone: one appended event with the rows it added', () => {
    const all = syntheticSession(160);
    const { log, view, events, tick } = setup(all.slice(0, 100));
    view.setFilters({ verdicts: ['valid'] });
    events.length = 0;
    log.enqueue(all.slice(100));
    tick();
    const added = all.slice(100).filter((r) => r.verdict === 'valid').length;
    expect(events).toEqual([['appended', { count: added, updated: false }]]);
    expect(view.order).toEqual(indicesWhere(all, (r) => r.verdict === 'valid'));
  });

  it('rebuilds once when the log holds other records (a snapshot), and once when it is cleared', () => {
    const { log, view, events } = setup();
    const other = syntheticSession(30, Date.UTC(2026, 5, 1));
    log.load(newTabState(1), other);
    expect(events).toEqual([['rebuilt', { replaced: true }]]);
    expect(view.order).toEqual(indicesWhere(other, (r) => r.verdict !== 'foreign' || !!r.navigation));
    log.clear();
    expect(view.length).toBe(0);
    expect(events.filter(([type]) => type === 'rebuilt')).toHaveLength(2);
  });

  it('keeps the selection by record, moves it by rows, and lets go of it when a filter hides it', () => {
    const { view, records } = setup();
    const valid = indicesWhere(records, (r) => r.verdict === 'valid');
    const seq = records[valid[3]].seq;
    view.select(seq);
    expect(view.selectedSeq).toBe(seq);
    view.moveSelection(1);
    expect(view.selectedIndex()).toBe(view.order[view.order.indexOf(valid[3]) + 1]);
    view.moveSelection(-1_000);
    expect(view.selectedIndex()).toBe(view.order[0]); // clamped to the first row
    view.select(seq);
    view.setFilters({ verdicts: ['invalid'] });
    expect(view.selectedSeq).toBeNull(); // hidden: no longer selected
    view.select(-42); // a record the log does not hold: nothing changes
    expect(view.selectedSeq).toBeNull();
  });

  it('Reset clears every filter but leaves the foreign traffic shown when the user chose to show it', () => {
    const { view } = setup();
    view.setFilters({ showForeign: true, types: ['svc:event:ready'], search: 'x' });
    view.resetFilters();
    expect(view.filters).toMatchObject({ showForeign: true, types: [], search: '' });
    view.resetFilters(true);
    expect(view.filters.showForeign).toBe(false);
  });

  it('keeps its filters in storage, and a new view over the same storage starts with them', () => {
    const storage = memoryStorage();
    const records = syntheticSession(80);
    const first = setup(records, storage).view;
    first.setFilters({ verdicts: ['invalid'], search: 'type:ready' });
    expect(storage.data.size).toBeGreaterThan(0);
    const again = setup(records, storage).view;
    expect(again.filters.verdicts).toEqual(['invalid']);
    expect(again.filters.search).toBe('type:ready');
    expect(again.order).toEqual(first.order);
  });
});
