/**
 * The flow view's lane heads above its rows: the ruler's head, then one head per lane (its title and origin; the
 * collapsed lane's title is a button that gives each of its frames a lane). The flow view scrolls it sideways with
 * its rows through `ref`.
 */
import { For, Show, type Accessor } from 'solid-js';
import type { FlowLane } from '../../log/protocol.ts';
import { FLOW_LANE_W, FLOW_RULER_W, laneX } from './flow-geometry.ts';

export function FlowLaneHeads(p: {
  lanes: Accessor<readonly FlowLane[]>;
  width: Accessor<number>;
  onExpand: () => void;
  ref: (el: HTMLDivElement) => void;
}) {
  return (
    <div class="flow-head" aria-hidden="true">
      <div class="flow-lanes" ref={p.ref} style={{ width: `${p.width()}px` }}>
        <div class="flow-ruler-head" style={{ width: `${FLOW_RULER_W}px` }}>
          time
        </div>
        <For each={p.lanes()}>
          {(l) => (
            <div
              class={`flow-lane-head lane-${l.role}`}
              style={{ width: `${FLOW_LANE_W - 12}px`, left: `${laneX(l.index) - (FLOW_LANE_W - 12) / 2}px` }}
              title={l.url ?? l.origin ?? l.title}
            >
              <Show when={l.role === 'others'} fallback={<span class="flow-lane-title">{l.title}</span>}>
                <button type="button" class="flow-expand" onClick={p.onExpand} title="A lane for each frame">
                  {l.title} ▸
                </button>
              </Show>
              <span class="flow-lane-origin">{l.origin ?? (l.role === 'others' ? 'collapsed' : 'origin unknown')}</span>
            </div>
          )}
        </For>
      </div>
    </div>
  );
}
