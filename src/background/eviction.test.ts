import { describe, expect, it } from 'vitest';
import { Eviction } from './eviction.ts';
import type { ClassifiedRecord } from '../shared/messages.ts';

type Spec = 'foreign' | 'ready' | 'error' | 'warning' | 'valid' | 'nav';
const rec = (
  seq: number,
  spec: Spec,
  type = 'svc:event:view',
  frameUrl = 'https://e.example/embed/x',
): ClassifiedRecord => ({
  seq,
  time: seq,
  kind: 'post',
  frameUrl,
  origin: 'https://e.example',
  data: { type: spec === 'ready' ? 'svc:event:ready' : type },
  verdict: spec === 'foreign' || spec === 'nav' ? 'foreign' : spec === 'error' ? 'invalid' : 'valid',
  issues: spec === 'error' || spec === 'warning' ? [{ rule: 'x', severity: spec, path: '', message: '' }] : [],
  ...(spec === 'nav' ? { navigation: true } : {}),
});

describe('Eviction', () => {
  // Each case: the records held (in log order), the bound, what goes (seq and the kind it is counted under).
  it.each<[string, ClassifiedRecord[], number, Array<[number, string]>]>([
    ['foreign first', [rec(1, 'valid'), rec(2, 'foreign'), rec(3, 'valid', 'svc:event:navigate')], 2, [[2, 'foreign']]],
    [
      'then valid repeats of one type and frame (the first of each stays)',
      [rec(1, 'valid'), rec(2, 'valid', 'svc:event:navigate'), rec(3, 'valid'), rec(4, 'valid')],
      2,
      [
        [3, 'repeats'],
        [4, 'repeats'],
      ],
    ],
    [
      'the same type from another frame is no repeat',
      [rec(1, 'valid'), rec(2, 'valid', 'svc:event:view', 'https://e.example/embed/y'), rec(3, 'valid')],
      2,
      [[3, 'repeats']],
    ],
    [
      'then the oldest others; ready, errors and warnings last',
      [rec(1, 'ready'), rec(2, 'nav'), rec(3, 'error'), rec(4, 'valid'), rec(5, 'warning')],
      2,
      [
        [2, 'other'],
        [4, 'other'],
        [1, 'issues'],
      ],
    ],
  ])('%s', (_, records, max, expected) => {
    const e = new Eviction();
    e.rebuild(records, 1000); // (a large bound: every telling record within its reserve)
    expect(e.evict(records.length, max)).toEqual(expected);
  });

  it('keeps telling records only up to their reserve (a quarter of the bound), the first ones', () => {
    const e = new Eviction();
    const records = Array.from({ length: 10 }, (_, k) => rec(k + 1, 'error'));
    e.rebuild(records, 8);
    expect(e.evict(10, 8)).toEqual([
      [3, 'other'],
      [4, 'other'],
    ]);
  });

  it('lets the newest repeats stay (a tenth of the bound): the tail keeps showing the live stream', () => {
    const e = new Eviction();
    const firsts = Array.from({ length: 16 }, (_, k) => rec(k + 1, 'valid', `svc:event:t${k}`));
    const repeats = Array.from({ length: 24 }, (_, k) => rec(k + 17, 'valid', 'svc:event:t15'));
    e.rebuild([...firsts, ...repeats], 10);
    expect(e.evict(40, 10)).toEqual([
      ...Array.from({ length: 23 }, (_, k): [number, string] => [k + 17, 'repeats']),
      ...Array.from({ length: 7 }, (_, k): [number, string] => [k + 1, 'other']),
    ]);
  });

  it('holds foreign records to their share of the bound, even under it', () => {
    const e = new Eviction();
    e.rebuild([rec(1, 'foreign'), rec(2, 'foreign'), rec(3, 'valid')], 10);
    expect(e.evict(3, 10)).toEqual([[1, 'foreign']]);
    expect(e.foreignCount).toBe(1);
  });
});
