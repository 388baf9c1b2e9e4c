/**
 * The arithmetic of a list of rows of one height: which rows an offset shows, the end, and a row brought into view
 * as a grid does it.
 */
import { describe, expect, it } from 'vitest';
import { clampOffset, endOffset, offsetToShow, rowRange } from './row-range.ts';

const H = 22;

describe('rowRange', () => {
  it('shows the rows in view and the overscan, within the list', () => {
    // 400 px: rows 0..18 (18 partly), and 2 more below; none above row 0
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

  it('shows every row when they fit, and none of an empty list or before the viewport has a height', () => {
    expect(rowRange(5, 0, 400, H, 2)).toEqual({ start: 0, end: 5 });
    expect(rowRange(5, 300, 400, H, 2)).toEqual({ start: 0, end: 5 });
    expect(rowRange(0, 0, 400, H, 2)).toEqual({ start: 0, end: 0 });
    expect(rowRange(1_000, 0, 0, H, 2)).toEqual({ start: 0, end: 0 });
  });

  it('follows a shrinking count: the offset is clamped to the new end', () => {
    // scrolled far down, then a filter leaves 30 rows
    expect(clampOffset(50_000, 30, 400, H)).toBe(30 * H - 400);
    expect(rowRange(30, 50_000, 400, H, 2)).toEqual({ start: 9, end: 30 });
  });

  it('covers exactly the rows a viewport touches at any offset', () => {
    for (const viewport of [21, 22, 23, 400, 401]) {
      for (let top = 0; top < 5 * H; top++) {
        const r = rowRange(1_000, top, viewport, H, 0);
        for (let row = Math.max(0, r.start - 2); row < r.end + 2; row++) {
          const touches = row * H < top + viewport && (row + 1) * H > top;
          expect(row >= r.start && row < r.end, `row ${row}, top ${top}, viewport ${viewport}`).toBe(touches);
        }
      }
    }
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
  const n = 100_000;
  it("'auto' leaves the offset when the row is in view", () => {
    expect(offsetToShow(10, 200, 400, n, H, 'auto')).toBeNull();
    // row 26 ends at 594, the viewport at 600
    expect(offsetToShow(26, 200, 400, n, H, 'auto')).toBeNull();
  });

  it("'auto' puts a row above the view at the top, a row below at the bottom", () => {
    expect(offsetToShow(3, 200, 400, n, H, 'auto')).toBe(66);
    // row 9 starts at 198, 2 px above
    expect(offsetToShow(9, 200, 400, n, H, 'auto')).toBe(198);
    // row 27 ends at 616: 16 px below
    expect(offsetToShow(27, 200, 400, n, H, 'auto')).toBe(216);
    expect(offsetToShow(n - 1, 0, 400, n, H, 'auto')).toBe(n * H - 400);
  });

  it("'auto' shows the top of a row in a viewport lower than a row", () => {
    expect(offsetToShow(5, 0, 10, n, H, 'auto')).toBe(110);
  });

  it("'start', 'end' and 'center' place the row, within what the list can scroll to", () => {
    expect(offsetToShow(100, 0, 400, n, H, 'start')).toBe(2_200);
    expect(offsetToShow(100, 0, 400, n, H, 'end')).toBe(2_222 - 400);
    expect(offsetToShow(100, 0, 400, n, H, 'center')).toBe(2_200 + 11 - 200);
    expect(offsetToShow(1, 0, 400, n, H, 'center')).toBe(0);
    expect(offsetToShow(n - 1, 0, 400, n, H, 'start')).toBe(n * H - 400);
  });
});
