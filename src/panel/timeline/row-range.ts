/**
 * The arithmetic of the timeline's rows, which all have one height: which rows a scroll offset shows (with an
 * overscan on both sides), the offset that shows the end, the offset that brings a row into view, and the ring of
 * row slots (a slot keeps its row while that row stays in range, so a scroll by k rows rewrites k slots). Each is
 * O(1): no table of row positions, so a new count (a load, a filter change, a live batch) costs nothing here.
 * Pure; ui/timeline-rows.ts binds it to the grid's scroll offset and height.
 */

/** Rows `start` (inclusive) to `end` (exclusive) of a view; empty when `start === end`. */
export interface RowRange {
  readonly start: number;
  readonly end: number;
}

export const EMPTY_RANGE: RowRange = { start: 0, end: 0 };

/** The offset that shows the last row at the bottom (0 when the rows fit). */
export function endOffset(count: number, viewport: number, rowH: number): number {
  return Math.max(0, count * rowH - Math.max(0, viewport));
}

/** An offset held within what the rows can scroll to (as the browser clamps `scrollTop`). */
export function clampOffset(top: number, count: number, viewport: number, rowH: number): number {
  return Math.min(Math.max(0, top), endOffset(count, viewport, rowH));
}

/** The rows in view at offset `top` (clamped), and `overscan` more on each side, within 0..count. */
export function rowRange(count: number, top: number, viewport: number, rowH: number, overscan: number): RowRange {
  if (count <= 0 || rowH <= 0) {
    return EMPTY_RANGE;
  }
  const t = clampOffset(top, count, viewport, rowH);
  const first = Math.min(count - 1, Math.floor(t / rowH));
  const end = Math.ceil((t + Math.max(0, viewport)) / rowH);
  return {
    start: Math.max(0, first - overscan),
    end: Math.min(count, Math.max(end, first + 1) + overscan),
  };
}

/**
 * The offset that shows row `index` whole, moving as little as it can: `top` itself when the row is in view, else
 * the row at the top (it is above) or at the bottom (it is below). A viewport lower than a row shows its top.
 */
export function offsetToShow(index: number, top: number, viewport: number, rowH: number): number {
  const rowTop = index * rowH,
    rowBottom = rowTop + rowH;
  if (rowTop < top || viewport < rowH) {
    return rowTop;
  }
  if (rowBottom > top + viewport) {
    return rowBottom - viewport;
  }
  return top;
}

/** Slots a ring needs for a viewport: the rows that fit, one partly shown, and the overscan on both sides. */
export function slotCount(viewport: number, rowH: number, overscan: number): number {
  return Math.ceil(Math.max(0, viewport) / rowH) + 1 + 2 * overscan;
}

/**
 * The row slot `s` of a ring of `slots` shows: the row of the range that is `s` modulo `slots`, or -1 (none). A
 * range never holds more rows than the ring has slots (see slotCount), so no two rows share a slot.
 */
export function slotRow(s: number, slots: number, range: RowRange): number {
  if (slots <= 0 || range.end <= range.start) {
    return -1;
  }
  const row = range.start + ((((s - range.start) % slots) + slots) % slots);
  return row < range.end ? row : -1;
}
