/** The detail pane's Timing tab: when the record was seen, relative to ready, its frame's previous record and its pair. */
import { Show } from 'solid-js';
import type { DetailContext } from './detail-context.ts';
import { paired, previousInFrame } from '../log/related.ts';
import { formatClock, formatDuration, formatRelative } from './format.ts';
import { usePanel } from './use-panel.ts';

export function TimingTab(p: { ctx: DetailContext }) {
  const { store } = usePanel();
  const log = store.log;
  const r = () => p.ctx.record;
  const ready = () => (log.readyIndex >= 0 ? log.at(log.readyIndex) : undefined);
  const prev = () => {
    const j = previousInFrame(log, p.ctx.index);
    return j >= 0 ? log.at(j) : undefined;
  };
  const pair = () => {
    const j = paired(log, p.ctx.index);
    return j >= 0 ? log.at(j) : undefined;
  };
  const ts = () => {
    const d = r().data as { timestamp?: unknown } | null;
    return typeof d?.timestamp === 'number' ? d.timestamp : undefined;
  };
  return (
    <dl class="facts-list timing">
      <dt>Observed at</dt>
      <dd>
        {formatClock(r().time)} <span class="muted">({new Date(r().time).toISOString()})</span>
      </dd>
      <dt>Since ready</dt>
      <dd>{ready() ? formatRelative(r().time - ready()!.time) : <span class="muted">no ready seen</span>}</dd>
      <dt>Since first record</dt>
      <dd>{formatRelative(r().time - log.at(0).time)}</dd>
      <dt>Since previous in frame</dt>
      <dd>
        {prev() ? (
          <>
            {formatDuration(r().time - prev()!.time)}{' '}
            <button type="button" class="link" onClick={() => store.timeline.select(prev()!.seq)}>
              #{prev()!.seq}
            </button>
          </>
        ) : (
          <span class="muted">first record of this frame</span>
        )}
      </dd>
      <Show when={pair()}>
        <dt>{r().kind === 'post' ? 'Delivered after' : 'Posted before'}</dt>
        <dd>{formatDuration(Math.abs(pair()!.time - r().time))}</dd>
      </Show>
      <Show when={ts() !== undefined}>
        <dt>Envelope timestamp</dt>
        <dd>
          {formatClock(ts()!)} <span class="muted">({formatDuration(r().time - ts()!)} before it was observed)</span>
        </dd>
      </Show>
    </dl>
  );
}
