/**
 * A timeline row (one slot of the virtualized grid: it shows whichever record its position holds; the hidden row
 * that warms the grid's fonts is in row-parts.tsx). Every column's cell is there; the grid hides those not
 * shown (Timeline.tsx, grid.css). The direction cell also shows the kind (a post ↗, its delivery ↙), so the two
 * rows of one message differ at every width.
 */
import { createMemo, createRenderEffect, Show } from 'solid-js';
import type { FrameInfo, RecordLog } from '../log/record-log.ts';
import type { ClassifiedRecord } from '../../shared/messages.ts';
import { formatBytes, formatClock, formatDuration, formatRelative, frameLabel, hostOf, originLabel } from './format.ts';
import { shortType } from '../log/protocol.ts';
import { preview } from './jsontree-model.ts';
import { usePanel } from './use-panel.ts';
import { KindIcon } from './row-parts.tsx';

export { WarmRow } from './row-parts.tsx';

export interface RowProps {
  version: () => number;
  pos: () => number;
  start: () => number;
  onOpen: () => void;
  grid: () => HTMLDivElement;
  /** Open the row menu of record `seq` at a point. */
  onMenu: (seq: number, x: number, y: number) => void;
}

/** What a row shows of record `i` (its text, titles and classes). */
function rowCells(log: RecordLog, i: number, r: ClassifiedRecord, t0: number, frame: FrameInfo | undefined) {
  const m = log.metaAt(i);
  const receiverOrigin = r.kind === 'receive' ? originLabel(r.frameUrl) : (r.targetOrigin ?? '');
  const errors = r.issues.filter((x) => x.severity === 'error').length;
  const kindWord = r.navigation ? 'navigation' : r.kind === 'post' ? 'post (sent)' : 'receive (delivered)';
  return {
    seq: r.seq,
    time: formatRelative(r.time - t0),
    clock: formatClock(r.time),
    delta: i > 0 ? `+${formatDuration(r.time - log.at(i - 1).time)}` : '',
    target: r.kind === 'post' ? (r.targetOrigin ?? '') : '',
    dir: r.navigation ? '⟳' : m.direction === 'event' ? '↑' : m.direction === 'action' ? '↓' : '·',
    dirClass: r.navigation ? 'nav' : m.direction || 'none',
    dirTitle: `${
      r.navigation
        ? 'frame navigation'
        : m.direction === 'event'
          ? 'event: embed → host'
          : m.direction === 'action'
            ? 'action: host → embed'
            : 'not an svc-embed message'
    } · ${kindWord}`,
    kind: r.navigation ? 'nav' : r.kind,
    type: r.navigation
      ? `${r.frameId === 0 ? 'page: ' : 'navigated to '}${frameLabel(String((r.data as { url?: unknown })?.url ?? r.frameUrl))}`
      : m.type
        ? shortType(m.type)
        : preview(r.data, 80),
    typeTitle: m.type || undefined,
    typeClass: r.navigation || !m.type ? 'muted' : '',
    surface: m.surface,
    frame: frameLabel(r.frameUrl) + (frame?.surface ? ` · ${frame.surface}` : ''),
    frameUrl: r.frameUrl,
    origins: `${hostOf(r.origin)} → ${r.targetOrigin === '*' ? '*' : hostOf(receiverOrigin)}`,
    originsTitle: `${r.origin} → ${r.kind === 'post' ? `target origin ${r.targetOrigin ?? '?'}` : `received in ${receiverOrigin}`}`,
    wildcard: r.targetOrigin === '*',
    verdict: r.navigation ? '' : r.verdict,
    issues: r.issues.length,
    issueClass: errors ? 'error' : r.issues.some((x) => x.severity === 'warning') ? 'warning' : 'info',
    size: formatBytes(log.sizeAt(i)),
    truncated: typeof r.originalSize === 'number',
    dropped: !!r.dropped,
    threw: r.error,
    injected: !!r.injected,
    /** A top-level navigation: where a page's session starts (a divider, as the Network panel marks navigations). */
    pageStart: !!r.navigation && r.frameId === 0,
  };
}

type RowCells = ReturnType<typeof rowCells>;
/** What a row slot that never had a record shows (nothing: it is hidden). */
const EMPTY: RowCells = {
  seq: -1,
  time: '',
  clock: '',
  delta: '',
  target: '',
  dir: '',
  dirClass: 'none',
  dirTitle: '',
  kind: '',
  type: '',
  typeTitle: undefined,
  typeClass: '',
  surface: '',
  frame: '',
  frameUrl: '',
  origins: '',
  originsTitle: '',
  wildcard: false,
  verdict: '',
  issues: 0,
  issueClass: 'info',
  size: '',
  truncated: false,
  dropped: false,
  threw: undefined,
  injected: false,
  pageStart: false,
};

export function Row(p: RowProps) {
  const { store, sig } = usePanel();
  const view = store.timeline,
    log = store.log;
  // The same record, time origin and frame surface as last time (live records appended below, a filter change
  // that leaves this row's record in place): the same cells, so nothing in the row is touched.
  let last: { r: ClassifiedRecord; t0: number; surface: string | undefined } | null = null;
  const cells = createMemo<RowCells | null>((prev) => {
    p.version();
    const pos = p.pos();
    const i = pos >= 0 && pos < view.length ? view.indexAt(pos) : undefined;
    if (i === undefined) {
      last = null;
      return null;
    }
    const r = log.at(i);
    const t0 = view.timeOrigin().time;
    const frame = log.frames().get(r.frameUrl);
    if (prev && last && last.r === r && last.t0 === t0 && last.surface === frame?.surface) {
      return prev;
    }
    last = { r, t0, surface: frame?.surface };
    return rowCells(log, i, r, t0, frame);
  }, null);
  const selected = () => {
    sig.selection();
    const c = cells();
    return !!c && c.seq === view.selectedSeq;
  };
  const onClick = () => {
    const c = cells();
    if (!c) {
      return;
    }
    view.select(c.seq);
    p.onOpen();
    p.grid().focus({ preventScroll: true });
  };
  // Each text cell holds one Text node, made once per row slot; one render effect writes the row's texts into them
  // (`data`), rather than a new Text node per update (`textContent`): a fast scroll rewrites most visible rows each
  // frame, and new nodes are garbage for the DOM's collector. (Plain local names: Solid inserts them as they are;
  // a property read such as `text.time` would get a computation of its own.)
  const tTime = new Text(),
    tDelta = new Text(),
    tClock = new Text(),
    tTarget = new Text(),
    tDir = new Text(),
    tType = new Text(),
    tSurface = new Text(),
    tFrame = new Text(),
    tOrigins = new Text(),
    tSize = new Text();
  const put = (node: Text, v: string) => {
    if (node.data !== v) {
      node.data = v;
    }
  };
  // A slot with no record keeps its element, hidden, with no role or id, and what it showed last (`c`): the slot
  // gets a record again as the view scrolls (see the ring in timeline-rows.ts), and a new element would cost more.
  const shown = () => cells() !== null;
  const c = createMemo<RowCells>((prev) => cells() ?? prev, EMPTY);
  createRenderEffect(() => {
    const x = c();
    put(tTime, x.time);
    put(tDelta, x.delta);
    put(tClock, x.clock);
    put(tTarget, x.target);
    put(tDir, x.dir);
    put(tType, x.type);
    put(tSurface, x.surface);
    put(tFrame, x.frame);
    put(tOrigins, x.origins);
    put(tSize, x.truncated ? `${x.size}✂` : x.size);
  });
  return (
    <div
      role={shown() ? 'row' : undefined}
      id={shown() ? `ei-row-${c().seq}` : undefined}
      hidden={!shown()}
      class={`row ${p.pos() % 2 ? 'odd' : ''} v-${c().verdict || 'nav'}${c().dropped ? ' dropped' : ''}${c().pageStart ? ' page-start' : ''}`}
      aria-rowindex={shown() ? p.pos() + 2 : undefined}
      aria-selected={shown() ? selected() : undefined}
      style={{ transform: `translateY(${p.start()}px)` }}
      onClick={onClick}
      onContextMenu={(e) => {
        const x = cells();
        if (x) {
          e.preventDefault();
          p.onMenu(x.seq, e.clientX, e.clientY);
        }
      }}
    >
      <div role="gridcell" class="c-time" title={c().clock}>
        {tTime}
      </div>
      <div role="gridcell" class="c-delta" title="time since the previous record">
        {tDelta}
      </div>
      <div role="gridcell" class="c-clock">
        {tClock}
      </div>
      <div
        role="gridcell"
        class={`c-dir d-${c().dirClass}`}
        title={c().dirTitle}
        aria-label={c().dirTitle}
        data-kind={c().kind}
      >
        {tDir}
        <KindIcon kind={c().kind} />
      </div>
      <div role="gridcell" class="c-kind">
        {c().kind}
        {c().injected ? (
          <span class="tag" title="sent by Embed Inspector">
            inj
          </span>
        ) : null}
      </div>
      <div role="gridcell" class={`c-type ${c().typeClass}`} title={c().typeTitle}>
        {tType}
      </div>
      <div role="gridcell" class="c-surface">
        {tSurface}
      </div>
      <div role="gridcell" class="c-frame" title={c().frameUrl}>
        {tFrame}
      </div>
      <div role="gridcell" class={`c-origin${c().wildcard ? ' wildcard' : ''}`} title={c().originsTitle}>
        {tOrigins}
      </div>
      <div role="gridcell" class={`c-target${c().target === '*' ? ' wildcard' : ''}`}>
        {tTarget}
      </div>
      <div role="gridcell" class="c-verdict">
        <Show when={c().verdict}>
          <span class={`badge b-${c().verdict}`}>{c().verdict}</span>
        </Show>
        <Show when={c().issues > 0}>
          <span class={`count s-${c().issueClass}`} title={`${c().issues} issue(s)`}>
            {c().issues}
          </span>
        </Show>
        <Show when={c().dropped}>
          <span class="badge b-dropped" title="the browser dropped this post (target origin mismatch)">
            dropped
          </span>
        </Show>
        <Show when={c().threw}>
          <span class="badge b-dropped" title={`postMessage threw: ${c().threw}`}>
            threw
          </span>
        </Show>
      </div>
      <div role="gridcell" class="c-size" title={c().truncated ? 'over the capture size cap: truncated' : undefined}>
        {tSize}
      </div>
    </div>
  );
}
