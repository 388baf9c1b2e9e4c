/**
 * A row's parts that hold no state: what a row shows of a record (its cells' texts, titles and classes), and the
 * hidden row that warms the grid's fonts.
 */
import type { FrameInfo, RecordLog } from '../log/record-log.ts';
import type { ClassifiedRecord } from '../../shared/messages.ts';
import {
  formatBytes,
  formatClock,
  formatDuration,
  formatRelative,
  frameLabel,
  hostOf,
  originLabel,
  pageLabel,
} from './format.ts';
import { shortType } from '../log/protocol.ts';
import { preview } from './jsontree-model.ts';

/** The URL a navigation record names. */
const navUrl = (r: ClassifiedRecord): string => String((r.data as { url?: unknown })?.url ?? r.frameUrl);

/** What a row shows of record `i` (its text, titles and classes). */
export function rowCells(log: RecordLog, i: number, r: ClassifiedRecord, t0: number, frame: FrameInfo | undefined) {
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
    kindIcon: r.navigation ? '' : r.kind === 'post' ? '↗' : '↙',
    type: r.navigation
      ? r.frameId === 0
        ? pageLabel(navUrl(r))
        : `navigated to ${frameLabel(navUrl(r))}`
      : m.type
        ? shortType(m.type)
        : preview(r.data, 80),
    typeTitle: r.navigation ? `${r.frameId === 0 ? 'page: ' : 'navigated to '}${navUrl(r)}` : m.type || undefined,
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

export type RowCells = ReturnType<typeof rowCells>;
/** What a row slot that never had a record shows (nothing: it is hidden). */
export const EMPTY: RowCells = {
  seq: -1,
  time: '',
  clock: '',
  delta: '',
  target: '',
  dir: '',
  dirClass: 'none',
  dirTitle: '',
  kind: '',
  kindIcon: '',
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

/**
 * A hidden row with every cell, font, glyph, badge style and the kind icon a real row uses, laid out when the panel
 * opens: the font lookups (fallback glyphs such as arrows included), the icon's image and the first shaping then
 * happen before the first records arrive rather than in their first render. Not in the accessibility tree; no role.
 */
export function WarmRow() {
  return (
    <div class="row odd warm" aria-hidden="true">
      <div class="c-time">+0.123 s −0:01.5</div>
      <div class="c-delta">+840 ms</div>
      <div class="c-clock">09:41:07.123</div>
      <div class="c-dir d-event">
        ↑↓⟳·<span class="k-icon">↗↙</span>
      </div>
      <div class="c-kind">post receive nav</div>
      <div class="c-type">view dashboard-loaded</div>
      <div class="c-surface">dashboard</div>
      <div class="c-frame">localhost:5173/embed/app</div>
      <div class="c-origin">127.0.0.1:5173 → localhost *</div>
      <div class="c-target">https://localhost:5173</div>
      <div class="c-verdict">
        <span class="badge b-valid">valid</span>
        <span class="badge b-invalid">invalid</span>
        <span class="count s-error">2</span>
        <span class="badge b-dropped">threw</span>
      </div>
      <div class="c-size">1.2 kB 999 B✂</div>
    </div>
  );
}
