/**
 * The arithmetic of a list whose rows all have one height (the timeline's, the flow view's): which rows a scroll
 * offset shows, with an overscan on both sides, and the offset that brings a row into view. Each is O(1): no table
 * of row positions, so a new count (a load of 100,000 records, a filter change, a live batch) costs nothing here.
 * Pure; ui/virtual.ts binds it to a scroll element. It answers as @tanstack/virtual-core did for rows of one size.
 */

/** Rows `start` (inclusive) to `end` (exclusive); empty when `start === end`. */
export interface RowRange {
  readonly start: number;
  readonly end: number;
}

const EMPTY_RANGE: RowRange = { start: 0, end: 0 };

/** The offset that shows the last row at the bottom (0 when the rows fit). */
export function endOffset(count: number, viewport: number, rowH: number): number {
  return Math.max(0, count * rowH - Math.max(0, viewport));
}

/** An offset held within what the rows can scroll to (as the browser clamps `scrollTop`). */
export function clampOffset(top: number, count: number, viewport: number, rowH: number): number {
  return Math.min(Math.max(0, top), endOffset(count, viewport, rowH));
}

/**
 * The rows in view at offset `top` (clamped), and `overscan` more on each side, within 0..count. None before the
 * viewport has a height (a hidden panel): there is nothing to draw them in.
 */
export function rowRange(count: number, top: number, viewport: number, rowH: number, overscan: number): RowRange {
  if (count <= 0 || rowH <= 0 || viewport <= 0) {
    return EMPTY_RANGE;
  }
  const t = clampOffset(top, count, viewport, rowH);
  const first = Math.min(count - 1, Math.floor(t / rowH));
  const last = Math.min(count - 1, Math.max(first, Math.ceil((t + viewport) / rowH) - 1));
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + 1 + overscan) };
}

export type Align = 'auto' | 'start' | 'center' | 'end';

/**
 * The offset that shows row `index` (null: it is in view, leave the offset). 'auto' moves as little as it can: a row
 * above the view goes to the top, a row below to the bottom; 'center' puts it in the middle. Clamped to the rows.
 */
export function offsetToShow(
  index: number,
  top: number,
  viewport: number,
  count: number,
  rowH: number,
  align: Align,
): number | null {
  const rowTop = index * rowH,
    rowBottom = rowTop + rowH;
  let to: number;
  if (align === 'auto') {
    if (rowBottom > top + viewport && viewport >= rowH) {
      to = rowBottom - viewport;
    } else if (rowTop < top || viewport < rowH) {
      to = rowTop;
    } else {
      return null;
    }
  } else if (align === 'start') {
    to = rowTop;
  } else if (align === 'end') {
    to = rowBottom - viewport;
  } else {
    to = rowTop + rowH / 2 - viewport / 2;
  }
  return clampOffset(to, count, viewport, rowH);
}
