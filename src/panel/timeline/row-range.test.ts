/**
 * The arithmetic of the timeline's rows: which rows an offset shows, the end, a row brought into view as a grid
 * does it, and the ring of slots (every row in range in exactly one slot, and a scroll by k rows moving k slots).
 */
import { describe, expect, it } from 'vitest';
import { clampOffset, endOffset, offsetToShow, rowRange, slotCount, slotRow } from './row-range.ts';

const H = 22;

describe('rowRange', () => {
  it('shows the rows in view and the overscan, within the view', () => {
    // 400 px: rows 0..18 (18 and a bit), and 2 more below; none above row 0
    expect(rowRange(100_000, 0, 400, H, 2)).toEqual({ start: 0, end: 21 });
    // offset 220: row 10 at the top, row 28 partly at the bottom (220 + 400 = 620 = 28.18 rows)
    expect(rowRange(100_000, 220, 400, H, 2)).toEqual({ start: 8, end: 31 });
    // a row partly scrolled off the top is still drawn
    expect(rowRange(100_000, 230, 400, H, 0)).toEqual({ start: 10, end: 29 });
  });

  it('draws the last rows at the end, and clamps an offset past it as the browser does', () => {
    const n = 100_000;
    const end = endOffset(n, 400, H);
    expect(end).toBe(n * H - 400);
    expect(rowRange(n, end, 400, H, 2)).toEqual({ start: n - 19 - 2, end: n });
    expect(rowRange(n, end + 5_000, 400, H, 2)).toEqual(rowRange(n, end, 400, H, 2));
    expect(rowRange(n, -50, 400, H, 2)).toEqual({ start: 0, end: 21 });
  });

  it('shows every row when they fit, and none of an empty view', () => {
    expect(rowRange(5, 0, 400, H, 2)).toEqual({ start: 0, end: 5 });
    expect(rowRange(5, 300, 400, H, 2)).toEqual({ start: 0, end: 5 });
    expect(rowRange(0, 0, 400, H, 2)).toEqual({ start: 0, end: 0 });
  });

  it('draws a row and the overscan before the grid has a height', () => {
    expect(rowRange(1_000, 0, 0, H, 2)).toEqual({ start: 0, end: 3 });
    expect(rowRange(1_000, endOffset(1_000, 0, H), 0, H, 2)).toEqual({ start: 997, end: 1_000 });
  });

  it('follows a shrinking count: the offset is clamped to the new end', () => {
    // scrolled far down, then a filter leaves 30 rows
    expect(clampOffset(50_000, 30, 400, H)).toBe(30 * H - 400);
    expect(rowRange(30, 50_000, 400, H, 2)).toEqual({ start: 9, end: 30 });
  });
});

describe('endOffset', () => {
  it('is 0 while the rows fit, else puts the last row at the bottom', () => {
    expect(endOffset(10, 400, H)).toBe(0);
    expect(endOffset(19, 400, H)).toBe(18);
    expect(endOffset(100_000, 400, H)).toBe(2_199_600);
  });
});

describe('offsetToShow', () => {
  it('keeps the offset when the row is in view', () => {
    expect(offsetToShow(10, 200, 400, H)).toBe(200);
    // row 26 ends at 594, the viewport at 600
    expect(offsetToShow(26, 200, 400, H)).toBe(200);
  });

  it('puts a row above the view at the top, a row below at the bottom', () => {
    expect(offsetToShow(3, 200, 400, H)).toBe(66);
    // row 9 starts at 198, 2 px above
    expect(offsetToShow(9, 200, 400, H)).toBe(198);
    // row 27 ends at 616: 16 px below
    expect(offsetToShow(27, 200, 400, H)).toBe(216);
    expect(offsetToShow(99_999, 0, 400, H)).toBe(100_000 * H - 400);
  });

  it('shows the top of a row in a viewport lower than a row', () => {
    expect(offsetToShow(5, 0, 10, H)).toBe(110);
  });
});

describe('the ring of slots', () => {
  /** The rows each slot shows for a range. */
  const rows = (slots: number, range: { start: number; end: number }) =>
    Array.from({ length: slots }, (_, s) => slotRow(s, slots, range));

  it('has a slot for every row a range can hold, at any offset', () => {
    for (const viewport of [0, 21, 22, 23, 400, 401, 1_000]) {
      const m = slotCount(viewport, H, 2);
      for (let top = 0; top < 3 * H; top += 1) {
        const r = rowRange(10_000, top, viewport, H, 2);
        const shown = rows(m, r).filter((p) => p >= 0);
        expect(shown.sort((a, b) => a - b)).toEqual(Array.from({ length: r.end - r.start }, (_, k) => r.start + k));
      }
    }
  });

  it('keeps a row in its slot while it stays in range: a scroll by k rows rewrites k slots', () => {
    const m = slotCount(400, H, 2);
    for (const k of [1, 3, 7]) {
      const a = rowRange(10_000, 100 * H, 400, H, 2),
        b = rowRange(10_000, (100 + k) * H, 400, H, 2);
      const before = rows(m, a),
        after = rows(m, b);
      for (let row = b.start; row < a.end; row++) {
        expect(after.indexOf(row)).toBe(before.indexOf(row));
      }
      // the rows that left (k) make room for those that came (k)
      expect(before.filter((p, s) => p >= 0 && p !== after[s]).length).toBe(k);
    }
  });

  it('leaves slots empty past the view and over an empty one', () => {
    const m = slotCount(400, H, 2);
    expect(rows(m, rowRange(3, 0, 400, H, 2))).toEqual([0, 1, 2, ...Array(m - 3).fill(-1)]);
    expect(rows(m, rowRange(0, 0, 400, H, 2)).every((p) => p === -1)).toBe(true);
  });
});
