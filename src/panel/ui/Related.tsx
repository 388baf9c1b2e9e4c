/** Linked records of the selected one: its post/delivery pair, the action it followed, the events that followed it. */
import { For, Show } from 'solid-js';
import type { DetailContext } from './detail-context.ts';
import { shortType } from '../log/protocol.ts';
import { formatDuration, frameLabel } from './format.ts';
import { followingEvents, paired, precedingAction } from '../log/related.ts';
import { usePanel } from './use-panel.ts';

export function Related(p: { ctx: DetailContext }) {
  const { store, select } = usePanel();
  const log = store.log,
    view = store.timeline;
  const i = p.ctx.index;
  const r = p.ctx.record;
  // Re-read on every batch: a delivery or the events answering an action may arrive after it is selected.
  const pairIdx = select('state', () => paired(log, i));
  const beforeIdx = select('state', () => precedingAction(log, i));
  const afterIdx = select('state', () => followingEvents(log, i));
  const Link = (lp: { index: number }) => {
    const x = log.at(lp.index);
    const m = log.metaAt(lp.index);
    const hidden = select('view', () => view.viewPos(lp.index) < 0);
    return (
      <li>
        <button type="button" class="link rec-link" onClick={() => view.select(x.seq)}>
          #{x.seq} {x.kind} {m.type ? shortType(m.type) : 'message'}
        </button>
        <span class="muted">
          {' '}
          in {frameLabel(x.frameUrl)} · {x.time >= r.time ? '+' : '−'}
          {formatDuration(Math.abs(x.time - r.time))}
        </span>
        <Show when={x.verdict === 'invalid'}>
          {' '}
          <span class="badge b-invalid">invalid</span>
        </Show>
        <Show when={hidden()}>
          {' '}
          <span class="muted small">(hidden by the filters)</span>
        </Show>
      </li>
    );
  };
  return (
    <div class="related">
      <h3>{r.kind === 'post' ? 'Delivery' : 'Post'}</h3>
      <Show
        when={pairIdx() >= 0}
        fallback={
          <p class="muted">
            {r.kind === 'post'
              ? r.dropped
                ? 'None: the browser dropped this post (its target origin did not match the target frame).'
                : 'No delivery observed (the receiving frame may not be captured, e.g. a cross-origin frame without the extension).'
              : 'No matching post observed (posted from a frame that was not captured, or before recording started).'}
          </p>
        }
      >
        <ul class="links">
          <Link index={pairIdx()} />
        </ul>
      </Show>
      <Show when={log.metaAt(i).direction === 'event'}>
        <h3>After action</h3>
        <Show when={beforeIdx() >= 0} fallback={<p class="muted">No action in the 10 s before this event.</p>}>
          <ul class="links">
            <Link index={beforeIdx()} />
          </ul>
        </Show>
      </Show>
      <Show when={log.metaAt(i).direction === 'action'}>
        <h3>Events that followed</h3>
        <Show
          when={afterIdx().length > 0}
          fallback={<p class="muted">No event within 10 s before the next action: the embed did not answer.</p>}
        >
          <ul class="links">
            <For each={afterIdx()}>{(j) => <Link index={j} />}</For>
          </ul>
        </Show>
      </Show>
    </div>
  );
}
