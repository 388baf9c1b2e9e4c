import { describe, expect, it } from 'vitest';
import { findSorted } from './sorted.ts';

describe('findSorted', () => {
  const cases: Array<[string, number[], number, number]> = [
    ['empty', [], 3, -1],
    ['one, found', [3], 3, 0],
    ['one, absent', [3], 4, -1],
    ['first', [1, 4, 9, 12], 1, 0],
    ['last', [1, 4, 9, 12], 12, 3],
    ['middle', [1, 4, 9, 12, 20], 9, 2],
    ['in a gap', [1, 4, 9, 12], 5, -1],
    ['below all', [1, 4, 9, 12], 0, -1],
    ['above all', [1, 4, 9, 12], 13, -1],
    ['NaN is never found', [1, 4, 9], Number.NaN, -1],
  ];
  it.each(cases)('%s', (_name, values, key, want) => {
    expect(findSorted(values.length, (i) => values[i], key)).toBe(want);
  });
  it('finds every value of a long run with holes', () => {
    const values = Array.from({ length: 1000 }, (_, i) => i * 3 + (i > 500 ? 7 : 0));
    for (const [i, v] of values.entries()) {
      expect(findSorted(values.length, (j) => values[j], v)).toBe(i);
      expect(findSorted(values.length, (j) => values[j], v + 1)).toBe(-1);
    }
  });
});
