/**
 * One row slot of the flow view: a fixed set of SVG elements whose attributes follow the row the slot shows
 * (flow-geometry.ts), hidden when the slot shows none. A row that stands for a record is an option of the
 * view's listbox (its id `ei-flow-<seq>`); a gap row is presentation only.
 */
import { createMemo, type Accessor } from 'solid-js';
import type { FlowModel } from '../../log/protocol.ts';
import { FLOW_ROW_H, MID, rowShape, type RowShape } from './flow-geometry.ts';

export interface FlowRowProps {
  model: Accessor<FlowModel>;
  /** The lanes' width (FlowView fits it to its width). */
  laneW: Accessor<number>;
  row: Accessor<number>;
  /** The time origin of the times shown (the timeline's: `TimelineView.timeOrigin`), epoch ms. */
  origin: Accessor<number>;
  selectedRow: Accessor<number>;
  /** The selected range's first and last rows, when there is one. */
  range: Accessor<readonly [number, number] | null>;
  onClick: (row: number, shift: boolean) => void;
}

/** A record row's name: what the row shows (its time and label, in that order), then who sent it to whom. */
const spoken = (s: RowShape) => `${s.time} ${s.label}, ${s.title.split('\n')[0]}`;

export function FlowRow(p: FlowRowProps) {
  const shape = createMemo(() => rowShape(p.model(), p.row(), p.laneW(), p.origin()));
  const record = () => shape().seq !== null;
  const inRange = () => {
    const r = p.range();
    return !!r && p.row() >= r[0] && p.row() <= r[1];
  };
  const selected = () => p.row() >= 0 && (p.row() === p.selectedRow() || (inRange() && record()));
  return (
    <div
      class={`flow-row k-${shape().kind} tone-${shape().tone}${shape().milestone ? ' milestone' : ''}${inRange() ? ' in-range' : ''}`}
      role={record() ? 'option' : 'presentation'}
      id={record() ? `ei-flow-${shape().seq}` : undefined}
      aria-selected={record() ? selected() : undefined}
      aria-label={record() ? spoken(shape()) : undefined}
      data-seq={shape().seq ?? undefined}
      title={shape().title}
      style={{
        transform: `translateY(${Math.max(0, p.row()) * FLOW_ROW_H}px)`,
        display: p.row() < 0 ? 'none' : undefined,
      }}
      onClick={(e) => p.onClick(p.row(), e.shiftKey)}
    >
      <svg class="flow-svg" height={FLOW_ROW_H} aria-hidden="true">
        <text class="flow-time" x="8" y={MID + 4}>
          {shape().time}
        </text>
        {/* the time and the label are apart on screen: a space keeps them apart in the row's text too */}{' '}
        <line
          class={`flow-line${shape().dashed ? ' dashed' : ''}`}
          x1={shape().x1}
          x2={shape().x2}
          y1={MID}
          y2={MID}
          visibility={shape().x1 === shape().x2 ? 'hidden' : 'visible'}
        />
        <path class="flow-mark" d={shape().mark || 'M0 0'} fill-rule="evenodd" />
        <text class="flow-label" x={shape().labelX} y={MID - 5} text-anchor={shape().anchor}>
          {shape().label}
        </text>
      </svg>
    </div>
  );
}
