/**
 * The test handle's facade over a real record log and timeline view: what it reads is what the log holds and the
 * timeline shows, as copies that change nothing in the panel; what it does (filters, selection) is the view's.
 */
import { describe, expect, it } from 'vitest';
import { newTabState } from '../../shared/messages.ts';
import { RecordLog } from '../log/record-log.ts';
import { TimelineView } from '../timeline/timeline-view.ts';
import { syntheticSession } from './synthetic.ts';
import { panelFacade } from './test-handle.ts';

function setup() {
  const records = syntheticSession(120);
  const log = new RecordLog({ schedule: () => {} });
  log.load(newTabState(1), records);
  const view = new TimelineView(log, { storage: null });
  return { log, view, records, h: panelFacade(log, view) };
}

describe('the test handle facade', () => {
  it('reads the log as plain copies, picked by a query on the Type column and the record', () => {
    const { log, h, records } = setup();
    const all = h.records();
    expect(all).toEqual(records);
    expect(JSON.parse(JSON.stringify(all))).toEqual(all);
    all[0].seq = -1;
    expect(log.at(0).seq).toBe(records[0].seq);
    const posts = h.records({ type: 'svc:action:set-locale', kind: 'post' });
    expect(posts.length).toBeGreaterThan(0);
    expect(posts).toEqual(
      records.filter((r) => (r.data as any)?.type === 'svc:action:set-locale' && r.kind === 'post'),
    );
    expect(h.records({ injected: false })).toHaveLength(records.filter((r) => !r.injected).length);
    expect(h.record(records[3].seq)).toEqual(records[3]);
    expect(h.record(-5)).toBeNull();
    expect(h.ready()).toEqual(log.at(log.readyIndex));
    expect(h.counts()).toEqual({ records: records.length, shown: h.rows().length, ...log.counts });
    expect(h.state()).toEqual(log.state);
  });

  it('shows the rows the filters let through, with their columns, in the order shown', () => {
    const { log, view, h } = setup();
    h.setFilters({ verdicts: ['invalid'] });
    expect(h.filters().verdicts).toEqual(['invalid']);
    const rows = h.rows();
    expect(rows.map((r) => r.seq)).toEqual(view.order.map((i) => log.at(i).seq));
    expect(rows.every((r) => r.verdict === 'invalid')).toBe(true);
    expect(rows.map((r) => r.type)).toEqual(view.order.map((i) => log.metaAt(i).type));
    expect(h.counts().shown).toBe(rows.length);
    h.filters().verdicts.push('valid');
    expect(view.filters.verdicts).toEqual(['invalid']);
    view.setSort({ column: 'type', dir: 'desc' });
    expect(h.rows().map((r) => r.seq)).toEqual(view.rows.map((i) => log.at(i).seq));
    h.resetFilters();
    expect(h.filters()).toEqual(view.filters);
    expect(h.filters().verdicts).toEqual([]);
  });

  it('selects by seq, by the row a query picks (its n-th match, the last when fewer), or nothing', () => {
    const { h } = setup();
    const invalid = h.rows({ verdict: 'invalid' });
    expect(h.select({ verdict: 'invalid' })).toBe(invalid[0].seq);
    expect(h.select({ verdict: 'invalid', at: 1 })).toBe(invalid[1].seq);
    expect(h.select({ verdict: 'invalid', at: 10_000 })).toBe(invalid.at(-1)!.seq);
    expect(h.selected()).toBe(invalid.at(-1)!.seq);
    expect(h.select({ at: 2 })).toBe(h.rows()[2].seq);
    expect(h.select(invalid[0].seq)).toBe(invalid[0].seq);
    expect(h.select({ type: 'no such type' })).toBeNull();
    expect(h.select(invalid[0].seq)).toBe(invalid[0].seq);
    expect(h.select(null)).toBeNull();
  });
});
