import { describe, expect, it } from 'vitest';
import { SeqWindow } from './seq-window.ts';

const seen = (w: SeqWindow<string>, from: number, to: number): number[] => {
  const out: number[] = [];
  for (let s = from; s <= to; s++) {
    if (w.has(s)) {
      out.push(s);
    }
  }
  return out;
};

describe('SeqWindow', () => {
  it('knows the seqs added, in order or not, once each', () => {
    const w = new SeqWindow<string>(100);
    for (const s of [3, 5, 9, 4, 1, 9, 5, 12]) {
      w.add(s);
    }
    expect(seen(w, 0, 20)).toEqual([1, 3, 4, 5, 9, 12]);
    expect(w.size).toBe(6);
  });

  it('grows past its first block and keeps every seq', () => {
    const w = new SeqWindow<string>(10_000);
    for (let s = 0; s < 5_000; s += 2) {
      w.add(s);
    }
    expect(w.size).toBe(2_500);
    expect(w.has(4_998)).toBe(true);
    expect(w.has(4_997)).toBe(false);
    expect(w.has(0)).toBe(true);
  });

  it('forgets the oldest half when full, and keeps the newest', () => {
    const w = new SeqWindow<string>(8);
    for (let s = 1; s <= 9; s++) {
      w.add(s);
    }
    expect(seen(w, 0, 10)).toEqual([5, 6, 7, 8, 9]);
  });

  it('gives copies that go on independently', () => {
    const w = new SeqWindow<string>(100);
    w.add(1);
    w.add(2);
    const c = w.copy();
    w.add(3);
    c.add(7);
    expect(seen(w, 0, 10)).toEqual([1, 2, 3]);
    expect(seen(c, 0, 10)).toEqual([1, 2, 7]);
    const empty = new SeqWindow<string>(100).copy();
    empty.add(4);
    expect(seen(empty, 0, 10)).toEqual([4]);
  });

  it('ignores a seq that is not a number it could order', () => {
    const w = new SeqWindow<string>(100);
    w.add(2);
    w.add(Number.NaN);
    w.add(1);
    expect(w.size).toBe(2);
    expect(w.has(Number.NaN)).toBe(false);
    expect(seen(w, 0, 3)).toEqual([1, 2]);
  });

  it('keeps notes with their seqs: taken once, copied, and handed back when forgotten', () => {
    const w = new SeqWindow<string>(8);
    for (let s = 1; s <= 8; s++) {
      w.add(s);
    }
    w.note(2, 'two');
    w.note(6, 'six');
    w.note(42, 'absent');
    const c = w.copy();
    expect(w.takeNote(6)).toBe('six');
    expect(w.takeNote(6)).toBeUndefined();
    expect(w.allNotes()).toEqual(['two']);
    expect(c.allNotes()).toEqual(['two', 'six']);
    expect(w.add(9)).toEqual(['two']);
    expect(w.allNotes()).toEqual([]);
    expect(c.add(9)).toEqual(['two']);
    expect(c.takeNote(6)).toBe('six');
  });
});
