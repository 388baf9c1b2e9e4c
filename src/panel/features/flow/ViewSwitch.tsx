/**
 * The switch between the timeline and the flow view, and the view it shows: Layout places it where the timeline
 * goes, with the timeline's props. It owns which view is shown; both views read the timeline's filters and share
 * its selection; the shown view may put its bar in the tab strip (`.view-tools`). Keys: V switches (outside text fields). On a switch the selected record is brought into view in
 * the view that opens, and that view takes the keyboard focus.
 */
import { createSignal, onCleanup, onMount, Show } from 'solid-js';
import { Timeline, type TimelineProps } from '../../ui/Timeline.tsx';
import { usePanel } from '../../ui/use-panel.ts';
import { FlowView } from './FlowView.tsx';

export type PanelViewName = 'timeline' | 'flow';

const typing = (t: EventTarget | null) =>
  t instanceof HTMLInputElement ||
  t instanceof HTMLTextAreaElement ||
  t instanceof HTMLSelectElement ||
  (t instanceof HTMLElement && t.isContentEditable);

export function ViewSwitch(props: TimelineProps) {
  const { store } = usePanel();
  const [shown, setShown] = createSignal<PanelViewName>('timeline');
  const [tools, setTools] = createSignal<HTMLElement>();
  let focusEl: HTMLDivElement | undefined;

  const show = (name: PanelViewName) => {
    if (name === shown()) {
      return;
    }
    setShown(name);
    focusEl?.focus({ preventScroll: true });
    // The timeline scrolls to the selected row when the selection is told again, once its rows are laid out.
    if (name === 'timeline' && store.timeline.selectedSeq !== null) {
      requestAnimationFrame(() => requestAnimationFrame(() => store.timeline.select(store.timeline.selectedSeq)));
    }
  };
  const onKey = (e: KeyboardEvent) => {
    if ((e.key === 'v' || e.key === 'V') && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
      e.preventDefault();
      show(shown() === 'timeline' ? 'flow' : 'timeline');
    }
  };
  onMount(() => window.addEventListener('keydown', onKey));
  onCleanup(() => window.removeEventListener('keydown', onKey));

  const ref = (el: HTMLDivElement) => {
    focusEl = el;
    props.ref?.(el);
  };
  return (
    <div class="view-switch">
      <div class="view-tabs">
        <div class="view-tablist" role="tablist" aria-label="View">
          {(['timeline', 'flow'] as const).map((name) => (
            <button
              type="button"
              role="tab"
              class={`view-tab vt-${name}`}
              aria-selected={shown() === name}
              title={
                name === 'flow'
                  ? 'The flow view: lanes per frame, an arrow per message (V switches views)'
                  : 'The timeline: a row per record (V switches views)'
              }
              onClick={() => show(name)}
            >
              {name === 'flow' ? 'Flow' : 'Timeline'}
            </button>
          ))}
          <span class="view-key" aria-hidden="true">
            V
          </span>
        </div>
        {/* beside the tab list, not in it: a tab list holds tabs only */}
        <div class="view-tools" ref={setTools} />
      </div>
      <Show when={shown() === 'flow'} fallback={<Timeline onOpen={props.onOpen} onClose={props.onClose} ref={ref} />}>
        <FlowView onOpen={props.onOpen} onClose={props.onClose} ref={ref} tools={tools()} />
      </Show>
    </div>
  );
}
