import { describe, expect, it } from 'vitest';
import { flowOfItems, type FlowArrow, type FlowItem, type FlowModel } from '../../log/protocol.ts';
import {
  fitLaneWidth,
  FLOW_LANE_MAX,
  FLOW_LANE_MIN,
  FLOW_RULER_W,
  flowWidth,
  laneX,
  rowShape,
} from './flow-geometry.ts';

const W = FLOW_LANE_MIN;

const lanes: FlowModel['lanes'] = [
  { index: 0, role: 'host', title: 'host page', origin: 'https://h.example', surface: null, url: null, frames: 1 },
  {
    index: 1,
    role: 'embed',
    title: 'embed · dashboard',
    origin: 'https://t.example',
    surface: 'dashboard',
    url: null,
    frames: 1,
  },
];
const arrow = (over: Partial<FlowArrow>): FlowArrow => ({
  kind: 'arrow',
  seq: 7,
  post: 7,
  delivery: 8,
  from: 0,
  to: 1,
  type: 'svc:action:set-theme',
  label: 'set-theme',
  state: 'delivered',
  verdict: 'valid',
  tone: 'valid',
  milestone: false,
  error: null,
  targetOrigin: 'https://t.example',
  issues: [],
  time: 1000,
  ...over,
});
const model = (...items: FlowItem[]): FlowModel => flowOfItems(lanes, items, 1000);

describe('rowShape: what a row draws', () => {
  const host = laneX(0, W),
    embed = laneX(1, W);
  it.each([
    [
      'delivered: a line from the sender to the receiver, the label between',
      arrow({}),
      { x1: host, label: 'set-theme' },
      (x2: number) => x2 > embed - 4 && x2 < embed,
    ],
    [
      'to the left: from the embed to the host',
      arrow({ from: 1, to: 0 }),
      { x1: embed },
      (x2: number) => x2 > host && x2 < host + 4,
    ],
    [
      'dropped: the line ends before the target lane, with a cross',
      arrow({ state: 'dropped', tone: 'invalid' }),
      { label: 'set-theme (dropped)', tone: 'invalid' },
      (x2: number) => x2 < embed - 10 && x2 > host,
    ],
    [
      'threw: a stub on its own lane',
      arrow({ state: 'threw', error: 'DataCloneError: x', tone: 'invalid' }),
      { label: 'set-theme (threw)' },
      (x2: number) => x2 < host + 40,
    ],
  ])('%s', (_name, a, expected, x2ok) => {
    const s = rowShape(model(a), 0, W);
    expect(s).toMatchObject({ kind: 'arrow', seq: 7, ...expected });
    expect(x2ok(s.x2)).toBe(true);
    expect(s.mark).not.toBe('');
    expect(s.time).toBe('+0.000 s');
  });
  it('a threw post says so in its tooltip; a milestone is marked', () => {
    expect(rowShape(model(arrow({ state: 'threw', error: 'DataCloneError: x' })), 0, W).title).toContain(
      'postMessage threw DataCloneError: x',
    );
    expect(rowShape(model(arrow({ milestone: true })), 0, W).milestone).toBe(true);
  });
  it('a gap says how long the pause was and stands for no record', () => {
    const s = rowShape(model(arrow({}), { kind: 'gap', ms: 65_000, time: 1000 }), 1, W);
    expect(s).toMatchObject({ kind: 'gap', seq: null, label: '⋯ 1 min 05 s later ⋯' });
  });
  it('a navigation is a diamond on its lane; past the end, nothing', () => {
    const s = rowShape(
      model({
        kind: 'navigation',
        seq: 3,
        lane: 1,
        url: 'https://t.example/embed/dashboard/d1',
        issues: [],
        time: 1500,
      }),
      0,
      W,
    );
    expect(s).toMatchObject({
      kind: 'navigation',
      seq: 3,
      x1: embed,
      label: 'loaded /embed/dashboard/d1',
      time: '+0.500 s',
    });
    expect(rowShape(model(), 4, W).kind).toBe('none');
  });
});

describe('lane widths: the lanes share the view, within bounds', () => {
  it('share the width beside the ruler in whole pixels', () => {
    expect(fitLaneWidth(FLOW_RULER_W + 4 * 250 + 3, 4)).toBe(250);
    expect(flowWidth(4, fitLaneWidth(1300, 4))).toBeLessThanOrEqual(1300);
  });
  it('keep the minimum on a narrow view (which then scrolls sideways), and on one not measured yet', () => {
    expect(fitLaneWidth(800, 5)).toBe(FLOW_LANE_MIN);
    expect(fitLaneWidth(0, 2)).toBe(FLOW_LANE_MIN);
    expect(fitLaneWidth(Number.NaN, 2)).toBe(FLOW_LANE_MIN);
  });
  it('stop at the maximum: two lanes on a wide panel stay close', () => {
    expect(fitLaneWidth(1400, 2)).toBe(FLOW_LANE_MAX);
    expect(fitLaneWidth(1400, 0)).toBe(FLOW_LANE_MAX);
  });
  it('move the arrows with the lanes: an arrow runs from lifeline to lifeline at any width', () => {
    const wide = fitLaneWidth(1000, 2);
    const s = rowShape(model(arrow({ from: 1, to: 0 })), 0, wide);
    expect(s.x1).toBe(laneX(1, wide));
    expect(s.x2 - laneX(0, wide)).toBeGreaterThan(0);
    expect(s.x2 - laneX(0, wide)).toBeLessThan(4);
    expect(s.labelX).toBe((laneX(1, wide) + laneX(0, wide)) / 2);
    const gap = rowShape(model(arrow({}), { kind: 'gap', ms: 65_000, time: 1000 }), 1, wide);
    expect(gap.labelX).toBe(flowWidth(2, wide) / 2);
  });
});
