import { describe, expect, it } from 'vitest';
import { Compactor, MAX_COMPARED, sameValue } from './compact.ts';
import { RecordLog } from './record-log.ts';
import { TimelineView } from '../timeline/timeline-view.ts';
import { syntheticSession } from '../app/synthetic.ts';
import type { ClassifiedRecord } from '../../shared/messages.ts';

describe('sameValue', () => {
  const cyc: Record<string, unknown> = {};
  cyc.self = cyc;
  const cyc2: Record<string, unknown> = {};
  cyc2.self = cyc2;
  it.each([
    ['equal primitives', 1, 1, true],
    ['NaN', NaN, NaN, true],
    ['0 and -0', 0, -0, false],
    ['string and number', '1', 1, false],
    ['null and object', null, {}, false],
    ['equal objects', { a: 1, b: { c: [1, 'x'] } }, { a: 1, b: { c: [1, 'x'] } }, true],
    ['a value differs', { a: 1, b: { c: [1, 'x'] } }, { a: 1, b: { c: [1, 'y'] } }, false],
    ['a key more', { a: 1 }, { a: 1, b: undefined }, false],
    ['a key less', { a: 1, b: 2 }, { a: 1 }, false],
    ['other keys, same count', { a: 1 }, { b: 1 }, false],
    ['array and object', [1], { 0: 1 }, false],
    ['array lengths', [1, 2], [1, 2, 3], false],
    [
      'encoded values',
      { $ei: 'Date', v: '2026-01-01T00:00:00.000Z' },
      { $ei: 'Date', v: '2026-01-01T00:00:00.000Z' },
      true,
    ],
    ['a Date and an object', new Date(0), {}, false],
    [
      'too deep to compare (kept apart)',
      JSON.parse('['.repeat(40) + ']'.repeat(40)),
      JSON.parse('['.repeat(40) + ']'.repeat(40)),
      false,
    ],
    ['a cycle and a tree', cyc, { self: { self: 1 } }, false],
    ['two cycles (the comparison is bounded: kept apart)', cyc, cyc2, false],
  ])('%s', (_name, a, b, expected) => {
    expect(sameValue(a, b)).toBe(expected);
  });

  it('gives up past a number of values (kept apart: the comparison must fit in an idle slice)', () => {
    const big = () => ({ rows: Array.from({ length: 3_000 }, (_, i) => ({ i })) });
    expect(sameValue(big(), big())).toBe(true);
    expect(sameValue(big(), big(), MAX_COMPARED)).toBe(false);
    expect(sameValue({ a: [1, 2] }, { a: [1, 2] }, MAX_COMPARED)).toBe(true);
  });
});

describe('Compactor', () => {
  it('folds the strings of copied records into one string per value, and a pair into one message object', () => {
    const [post, recv] = syntheticSession(60)
      .filter((r) => r.pairedWith !== undefined)
      .slice(0, 2)
      .map((r) => structuredClone(r));
    const [post2] = syntheticSession(60)
      .filter((r) => r.pairedWith !== undefined)
      .slice(0, 1)
      .map((r) => structuredClone(r));
    expect(post.data).not.toBe(recv.data);
    const before = JSON.stringify([post, recv, post2]);
    const c = new Compactor();
    c.record(post);
    c.record(recv, post);
    c.record(post2);
    expect(recv.data).toBe(post.data); // one object for the pair
    expect(post2.frameUrl).toBe(post.frameUrl);
    expect((post2.data as { type: string }).type).toBe((post.data as { type: string }).type);
    expect(JSON.stringify([post, recv, post2])).toBe(before); // nothing a reader sees changed
  });

  it('keeps a message apart when it differs from its pair, is truncated differently, or is frozen', () => {
    const c = new Compactor();
    const a = { seq: 1, kind: 'post', data: { type: 'x', payload: { n: 1 } } } as unknown as ClassifiedRecord;
    const b = { seq: 2, kind: 'receive', data: { type: 'x', payload: { n: 2 } } } as unknown as ClassifiedRecord;
    c.record(a);
    c.record(b, a);
    expect(b.data).not.toBe(a.data);
    const t = {
      seq: 3,
      kind: 'receive',
      originalSize: 9,
      data: { type: 'x', payload: { n: 1 } },
    } as unknown as ClassifiedRecord;
    c.record(t, a);
    expect(t.data).not.toBe(a.data);
    const frozen = { seq: 4, kind: 'post', data: Object.freeze({ type: 'x' }) } as unknown as ClassifiedRecord;
    expect(() => c.record(frozen)).not.toThrow();
    const big = (seq: number) =>
      ({
        seq,
        kind: 'post',
        data: { type: 'x', payload: { rows: Array.from({ length: 3_000 }, (_, i) => i) } },
      }) as unknown as ClassifiedRecord;
    const [p1, p2] = [big(5), big(6)];
    c.record(p1);
    c.record(p2, p1);
    expect(p2.data).not.toBe(p1.data);
    expect(p2.data).toEqual(p1.data);
  });
});

describe('RecordLog.compactSome', () => {
  it("shares the pairs' messages of copied records in budgeted steps, showing exactly the same records", () => {
    const copies = syntheticSession(3_000).map((r) => structuredClone(r));
    const expected = JSON.stringify(copies);
    const log = new RecordLog({ schedule: () => {} });
    const view = new TimelineView(log);
    log.replace(copies);
    const distinct = () => new Set(log.all().map((r) => r.data)).size;
    const before = distinct();
    let t = 0;
    let steps = 0;
    while (!log.compactSome(1, () => (t += 1))) {
      steps++;
    }
    expect(steps).toBeGreaterThan(0); // it stopped at its budget at least once
    const pairs = log.all().filter((r) => r.pairedWith !== undefined && r.kind === 'receive').length;
    expect(distinct()).toBe(before - pairs);
    expect(JSON.stringify(log.all())).toBe(expected);
    // and the views do not change: a filter over the message fields finds the same records
    view.setFilters({ search: 'payload.path:folder' });
    const order = view.order.slice();
    const fresh = new RecordLog({ schedule: () => {} });
    const freshView = new TimelineView(fresh);
    fresh.replace(syntheticSession(3_000));
    freshView.setFilters({ search: 'payload.path:folder' });
    expect(order).toEqual(freshView.order);
  });
});
