/**
 * The flow view's lane heads above its rows: the ruler's head, then one head per lane (its title and origin; the
 * collapsed lane's title is a button that gives each of its frames a lane), as wide as the lanes. A title or
 * origin too long for its head ends in an ellipsis; the head's tooltip holds them whole. The flow view scrolls it
 * sideways with its rows through `ref`.
 */
import { For, Show, type Accessor } from 'solid-js';
import type { FlowLane } from '../../log/protocol.ts';
import { FLOW_RULER_W, laneX } from './flow-geometry.ts';

/** The space between two heads. */
const GUTTER = 12;

const originText = (l: FlowLane) => l.origin ?? (l.role === 'others' ? 'collapsed' : 'origin unknown');
/** What a head says, whole: its title, its origin, its frame's address when known. */
const fullName = (l: FlowLane) => [l.title, originText(l), l.url].filter(Boolean).join('\n');

export function FlowLaneHeads(p: {
  lanes: Accessor<readonly FlowLane[]>;
  laneW: Accessor<number>;
  width: Accessor<number>;
  onExpand: () => void;
  ref: (el: HTMLDivElement) => void;
}) {
  return (
    // (the heads are read: they name the lanes, and the collapsed lane's is a button; the ruler's "time" is not)
    <div class="flow-head">
      <div class="flow-lanes" ref={p.ref} style={{ width: `${p.width()}px` }}>
        <div class="flow-ruler-head" style={{ width: `${FLOW_RULER_W}px` }} aria-hidden="true">
          time
        </div>
        <For each={p.lanes()}>
          {(l) => (
            <div
              class={`flow-lane-head lane-${l.role}`}
              style={{
                width: `${p.laneW() - GUTTER}px`,
                left: `${laneX(l.index, p.laneW()) - (p.laneW() - GUTTER) / 2}px`,
              }}
              title={fullName(l)}
            >
              <Show when={l.role === 'others'} fallback={<span class="flow-lane-title">{l.title}</span>}>
                <button type="button" class="flow-expand" onClick={p.onExpand} title="A lane for each frame">
                  {l.title} ▸
                </button>
              </Show>
              <span class="flow-lane-origin">{originText(l)}</span>
            </div>
          )}
        </For>
      </div>
    </div>
  );
}
