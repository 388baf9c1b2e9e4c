/**
 * The flow view's bar: how many messages and lanes are drawn, the collapse button once other frames have lanes of
 * their own, the selected range, and the exports. It sits in the view switch's tab strip beside the tabs (`mount`),
 * so that the flow view's lanes get the height the timeline's grid head leaves its rows: in a DevTools pane a few
 * hundred pixels tall (Firefox's toolbox opens at 250 px) every row counts. Without `mount` it is drawn inline.
 */
import { Show, type Accessor, type JSX } from 'solid-js';
import { Portal } from 'solid-js/web';
import type { FlowModel } from '../../log/protocol.ts';
import { FlowExports } from './FlowExports.tsx';
import type { FlowRange } from './flow-range.ts';

export function FlowBar(p: {
  mount?: HTMLElement;
  messages: Accessor<number>;
  lanes: Accessor<number>;
  expanded: Accessor<boolean>;
  onCollapse: () => void;
  range: FlowRange;
  model: Accessor<FlowModel>;
  /** What the times count from (the timeline's time base). */
  timeBase: Accessor<'ready' | 'first'>;
}) {
  const bar = (): JSX.Element => (
    <div class="flow-bar">
      <span class="flow-count">
        {p.messages().toLocaleString('en-US')} messages · {p.lanes()} lanes
      </span>
      <span
        class="flow-base muted"
        title="The times are the timeline's: its Time column's header switches between the first ready and the first record"
      >
        time since {p.timeBase() === 'ready' ? 'ready' : 'the first record'}
      </span>
      <Show when={p.expanded()}>
        <button type="button" class="flow-collapse" onClick={p.onCollapse} title="One lane for the other frames">
          Collapse other frames
        </button>
      </Show>
      <Show when={p.range.rows()}>
        <span class="flow-range" role="status">
          {p.range.records().toLocaleString('en-US')} rows in the range · Esc clears it
        </span>
      </Show>
      <span class="spacer" />
      <FlowExports model={p.model} range={p.range.rows} />
    </div>
  );
  return (
    <Show when={p.mount} fallback={bar()}>
      {(m) => <Portal mount={m()}>{bar()}</Portal>}
    </Show>
  );
}
