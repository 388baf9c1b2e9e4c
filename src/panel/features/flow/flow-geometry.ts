/**
 * What one row of the flow view draws, as plain numbers and strings: a row slot of FlowView binds these to a fixed
 * set of SVG elements (a line, a path for the head, cross, mark or diamond, a label, the ruler's time), so a
 * scroll rewrites attributes and never makes or drops elements. Pure and parameterized by the lane width, which the
 * view fits to its width (fitLaneWidth); the same picture as the SVG export (src/protocol/flow-svg.ts), whose sizes
 * are fixed so that a file never depends on the panel's size.
 */
import { formatGap, formatOffset, type FlowArrow, type FlowModel } from '../../log/protocol.ts';
import { formatRelative } from '../../ui/format.ts';

export const FLOW_ROW_H = 26;
export const FLOW_RULER_W = 84;
/** The narrowest lane: its head holds `embed · dashboard` and a short origin; below it the view scrolls sideways. */
export const FLOW_LANE_MIN = 180;
/**
 * The widest lane: its head holds an origin of about 58 characters, and two lanes on a wide panel stay close
 * enough for an arrow and its label to be read at one glance (360 px apart, not 650).
 */
export const FLOW_LANE_MAX = 360;

/** The x of a lane's lifeline, lanes `laneW` px wide. */
export const laneX = (lane: number, laneW: number) => FLOW_RULER_W + lane * laneW + laneW / 2;
/** The drawing's width for `lanes` lanes `laneW` px wide. */
export const flowWidth = (lanes: number, laneW: number) => FLOW_RULER_W + Math.max(1, lanes) * laneW;
/**
 * The lane width that shares `width` px (the view's scroll area, the ruler included) between `lanes` lanes:
 * whole pixels, at least FLOW_LANE_MIN (the view then scrolls sideways), at most FLOW_LANE_MAX.
 */
export function fitLaneWidth(width: number, lanes: number): number {
  const share = Math.floor((width - FLOW_RULER_W) / Math.max(1, lanes));
  return Math.min(FLOW_LANE_MAX, Math.max(FLOW_LANE_MIN, Number.isFinite(share) ? share : 0));
}

export interface RowShape {
  kind: 'arrow' | 'navigation' | 'gap' | 'none';
  /** The record the row stands for; null for a gap. */
  seq: number | null;
  /** `valid`, `warning`, `invalid`, `foreign`; a navigation: `nav` (or the tone of its worst issue); a gap: `gap`. */
  tone: string;
  milestone: boolean;
  /** The line, when the row has one (y is the row's middle). */
  x1: number;
  x2: number;
  /** Dashed: foreign traffic. */
  dashed: boolean;
  /** The arrowhead, the cross of a dropped post, the mark of a post that threw, a navigation's diamond. */
  mark: string;
  label: string;
  labelX: number;
  anchor: 'start' | 'middle' | 'end';
  /** The ruler's text: the time relative to the first row (a gap: empty). */
  time: string;
  /** The tooltip and the row's accessible name. */
  title: string;
}

/** The vertical middle of a row, where its line runs. */
export const MID = 17;

const EMPTY: RowShape = {
  kind: 'none',
  seq: null,
  tone: 'gap',
  milestone: false,
  x1: 0,
  x2: 0,
  dashed: false,
  mark: '',
  label: '',
  labelX: 0,
  anchor: 'middle',
  time: '',
  title: '',
};

const n1 = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

/**
 * The shape of row `row` of the model (an empty shape past its end), lanes `laneW` px wide; its time from `origin`
 * (the timeline's time origin, epoch ms), else from the model's first row (the exports).
 */
export function rowShape(model: FlowModel, row: number, laneW: number, origin?: number): RowShape {
  const item = model.item(row);
  if (!item) {
    return EMPTY;
  }
  if (item.kind === 'gap') {
    const text = `⋯ ${formatGap(item.ms)} later ⋯`;
    return {
      ...EMPTY,
      kind: 'gap',
      label: text,
      labelX: flowWidth(model.lanes.length, laneW) / 2,
      title: `a pause of ${formatGap(item.ms)}, compressed`,
    };
  }
  // (the timeline's time origin when given, written as the timeline writes it: one message, one time in both views)
  const time = origin === undefined ? formatOffset(item.time - model.start) : formatRelative(item.time - origin);
  const lane = (i: number | null) => (i === null ? 'an unknown frame' : (model.lanes[i]?.title ?? 'a frame'));
  if (item.kind === 'navigation') {
    const x = laneX(item.lane, laneW);
    const worst = item.issues.some((i) => i.severity === 'error')
      ? 'invalid'
      : item.issues.some((i) => i.severity === 'warning')
        ? 'warning'
        : 'nav';
    return {
      ...EMPTY,
      kind: 'navigation',
      seq: item.seq,
      tone: worst,
      x1: x,
      x2: x,
      mark: `M${n1(x)} ${MID - 6} l6 6 l-6 6 l-6 -6 z`,
      label: `loaded ${pathOf(item.url)}`,
      labelX: x + 10,
      anchor: 'start',
      time,
      title: [
        `${lane(item.lane)} loaded ${item.url}`,
        ...item.issues.map((i) => `${i.severity} ${i.rule}: ${i.message}`),
      ].join('\n'),
    };
  }
  return arrowShape(item, (i) => laneX(i, laneW), time, lane(item.from), lane(item.to));
}

function arrowShape(
  a: FlowArrow,
  cx: (lane: number) => number,
  time: string,
  fromTitle: string,
  toTitle: string,
): RowShape {
  const x1 = cx(a.from);
  const base: RowShape = {
    ...EMPTY,
    kind: 'arrow',
    seq: a.seq,
    tone: a.tone,
    milestone: a.milestone,
    dashed: a.tone === 'foreign',
    time,
    title: [
      `${fromTitle} → ${toTitle}: ${a.type ?? a.label} · ${a.state}${a.targetOrigin ? ` · target origin ${a.targetOrigin}` : ''}`,
      ...(a.error ? [`postMessage threw ${a.error}`] : []),
      ...a.issues.map((i) => `${i.severity} ${i.rule}: ${i.message}`),
    ].join('\n'),
  };
  if (a.state === 'threw') {
    const dir = a.to !== null && a.to < a.from ? -1 : 1;
    const m = x1 + 34 * dir;
    return {
      ...base,
      x1,
      x2: x1 + 26 * dir,
      // a circle with a bar and a dot: "!"
      mark: `M${n1(m - 7)} ${MID} a7 7 0 1 0 14 0 a7 7 0 1 0 -14 0 z M${n1(m - 1)} ${MID - 4} h2 v5 h-2 z M${n1(m - 1)} ${MID + 2} h2 v2 h-2 z`,
      label: `${a.label} (threw)`,
      labelX: x1 + 46 * dir,
      anchor: dir > 0 ? 'start' : 'end',
    };
  }
  if (a.to === null) {
    return { ...base, x1, x2: x1 + 58, mark: head(x1 + 60, 1), label: `${a.label} → ?`, labelX: x1 + 30 };
  }
  if (a.to === a.from) {
    return {
      ...base,
      x1,
      x2: x1 + 28,
      mark: `M${n1(x1)} ${MID + 6} l8 -4 l0 8 z`,
      label: a.label,
      labelX: x1 + 34,
      anchor: 'start',
    };
  }
  const x2 = cx(a.to);
  const dir = x2 > x1 ? 1 : -1;
  if (a.state === 'dropped') {
    const end = x2 - 16 * dir;
    return {
      ...base,
      x1,
      x2: end,
      mark: `M${n1(end - 5)} ${MID - 5} l10 10 M${n1(end - 5)} ${MID + 5} l10 -10`,
      label: `${a.label} (dropped)`,
      labelX: (x1 + end) / 2,
    };
  }
  return { ...base, x1, x2: x2 - 2 * dir, mark: head(x2, dir), label: a.label, labelX: (x1 + x2) / 2 };
}

const head = (x: number, dir: number) => `M${n1(x)} ${MID} l${-8 * dir} -4 l0 8 z`;

/** A URL's path and query, for a navigation's label. */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    const s = u.pathname + u.search;
    return s.length > 40 ? `${s.slice(0, 39)}…` : s;
  } catch {
    return url.length > 40 ? `${url.slice(0, 39)}…` : url;
  }
}
