/**
 * A capture as a conversation: one lane per frame, one arrow per message (a post and its delivery are one arrow),
 * time running down. The model behind the panel's flow view and the SVG and Mermaid exports (flow-svg.ts,
 * flow-mermaid.ts). Pure, no DOM; one pass over the records and a map by seq, so 100,000 records build in one go.
 *
 * - Lanes: the host page (the top frame), each embed frame (labelled by its surface and origin), the other frames
 *   collapsed into one "other frames" lane unless `expandOthers`. A sender seen only by `event.origin` (a delivery
 *   whose post was not captured, receive-only mode) gets the lane of a frame of that origin, else a lane of its
 *   own: an embed lane when it is the tenant origin.
 * - Rows: every item is one row, in the order of the input (give it in causal order, `causalOrder`): row index k
 *   is at y = k × row height. Items are arrows, navigations of a frame, and compressed gaps (a pause of at least
 *   `gapMs` between two rows becomes one row that says how long it was).
 */
import { verdictOf, type Issue, type Verdict } from './classify.ts';
import { embedKind, isEmbedAddress } from './address.ts';
import { normalizeOrigin, originOf, resolveTargetOrigin } from './origin.ts';
import { causalOrder } from './order.ts';
import type { CaptureRecord } from './record.ts';

/** What the model reads of a record: a capture record, with its verdict and issues when known (the panel's log). */
export type FlowInput = Pick<CaptureRecord, 'seq' | 'time' | 'kind' | 'frameUrl' | 'origin' | 'data'> &
  Partial<
    Pick<
      CaptureRecord,
      'targetOrigin' | 'frameId' | 'target' | 'targetUrl' | 'pairedWith' | 'dropped' | 'injected' | 'navigation'
    >
  > & {
    verdict?: Verdict;
    issues?: readonly Issue[];
    /** post only: postMessage threw (`Name: message`); nothing was sent. */
    error?: string;
  };

export type LaneRole = 'host' | 'embed' | 'other' | 'others';

export interface FlowLane {
  /** Its column, 0 at the left: the host first, then the embeds, then other frames, each in order of appearance. */
  index: number;
  role: LaneRole;
  /** `host page`, `embed · dashboard`, `frame`, `other frames (3)`. */
  title: string;
  /** The frame's origin; null for the collapsed lane and for a frame whose origin is opaque. */
  origin: string | null;
  /** Embed lanes: `dashboard`, `app`, `chat`, when its address or its messages tell. */
  surface: string | null;
  /** The frame's URL (its first), when a record of the frame itself is in the capture. */
  url: string | null;
  /** How many frames the lane stands for (more than 1 only for the collapsed lane). */
  frames: number;
}

/**
 * What became of a message: `delivered` (its post and its delivery are both captured), `sent` (a post whose
 * delivery was not captured), `received` (a delivery whose post was not), `dropped` (the browser dropped the post:
 * its target origin did not match), `threw` (postMessage threw: nothing was sent).
 */
export type ArrowState = 'delivered' | 'sent' | 'received' | 'dropped' | 'threw';

/** The colour of an arrow: its verdict, `warning` when it is valid with a warning. */
export type FlowTone = 'valid' | 'warning' | 'invalid' | 'foreign';

export interface FlowArrow {
  kind: 'arrow';
  /** The record the arrow stands for: the post when there is one, else the delivery. */
  seq: number;
  /** The post's seq and the delivery's, when captured. */
  post: number | null;
  delivery: number | null;
  /** Lane indexes; `to` is null when the receiver is not known (a post to a window no record shows). */
  from: number;
  to: number | null;
  /** The message type (`svc:event:ready`), null for a message without a string type. */
  type: string | null;
  /** The short label: `ready`, `set-theme`; a foreign message's `type` or `message`. */
  label: string;
  state: ArrowState;
  verdict: Verdict;
  tone: FlowTone;
  /** `ready`, `dashboard-loaded` and `error` events: the milestones of a session. */
  milestone: boolean;
  /** The post's error when it threw. */
  error: string | null;
  /** The target origin of the post, when captured. */
  targetOrigin: string | null;
  /** Its issues: the post's and those of the delivery it does not repeat (a delivery's sender issues are left out). */
  issues: readonly Issue[];
  time: number;
}

/** A frame's navigation (a document loaded in it), on its lane, with the issues of its address when any. */
export interface FlowNavigation {
  kind: 'navigation';
  seq: number;
  lane: number;
  url: string;
  issues: readonly Issue[];
  time: number;
}

/** A compressed pause: `ms` passed between the rows before and after it. */
export interface FlowGap {
  kind: 'gap';
  ms: number;
  time: number;
}

export type FlowItem = FlowArrow | FlowNavigation | FlowGap;

export interface FlowModel {
  lanes: FlowLane[];
  /** One per row, in row order. */
  items: FlowItem[];
  /** The row of a record (a post and its delivery share the row of their arrow); absent when it has none. Made
   * when first read. */
  readonly rowOf: Map<number, number>;
  /** The time of the first row (epoch ms): the ruler's zero. */
  start: number;
  /** Arrows (messages) among the items. */
  messages: number;
}

export interface FlowOptions {
  /** The tenant origin: its frames are embeds even off an `/embed/` address; senders of it get an embed lane. */
  tenantOrigin?: string | null;
  /** Include foreign (non svc-embed) messages; default true (the panel passes its filter; the exports leave them out). */
  includeForeign?: boolean;
  /** One lane per other frame instead of one "other frames" lane. */
  expandOthers?: boolean;
  /** Which records to show (the panel's filter); a pair is shown when either half is. Default: all. */
  keep?: (r: FlowInput, index: number) => boolean;
  /** A pause at least this long between two rows becomes a gap row; default 1000 ms. */
  gapMs?: number;
}

export const DEFAULT_FLOW_GAP_MS = 1000;
const MILESTONES: ReadonlySet<string> = new Set(['svc:event:ready', 'svc:event:dashboard-loaded', 'svc:event:error']);
const SEVERITY_RANK = { info: 0, warning: 1, error: 2 } as const;
const NO_ISSUES: readonly Issue[] = Object.freeze([]);

const dataOf = (r: FlowInput): Record<string, unknown> | null =>
  r.data && typeof r.data === 'object' && !Array.isArray(r.data) ? (r.data as Record<string, unknown>) : null;

/** `svc:event:ready` → `ready`, `svc:action:set-theme` → `set-theme`; other strings unchanged. */
export function shortLabel(type: string): string {
  return type.startsWith('svc:event:') ? type.slice(10) : type.startsWith('svc:action:') ? type.slice(11) : type;
}

/** `+1.234 s`, `+2 min 05 s`: a row's time on the ruler, relative to the first row. */
export function formatOffset(ms: number): string {
  const v = Math.max(0, ms);
  if (v < 60_000) {
    return `+${(v / 1000).toFixed(3)} s`;
  }
  const s = Math.floor(v / 1000);
  return `+${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** A gap's length in words: `1.5 s`, `4 min 10 s`. */
export function formatGap(ms: number): string {
  if (ms < 60_000) {
    return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  }
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The surface an embed address names: `/embed/dashboard/…`, `/embed/d/<id>/app…`, `/embed/chat…`. */
function surfaceOfUrl(url: string | null): string | null {
  if (!url) {
    return null;
  }
  const kind = embedKind(url);
  if (kind === 'dashboard') {
    return 'dashboard';
  }
  if (kind === 'app' || kind === 'app-route') {
    return 'app';
  }
  try {
    return /^\/embed\/chat(\/|$)/.test(new URL(url).pathname) ? 'chat' : null;
  } catch {
    return null;
  }
}

/** One frame (or a sender known only by its origin), before frames become lanes. */
interface Frame {
  key: string;
  role: 'host' | 'embed' | 'other';
  origin: string | null;
  url: string | null;
  surface: string | null;
  lane: number;
}

/** Build the flow of records given in causal order. O(n); never throws on odd records. */
export function buildFlow(records: readonly FlowInput[], opts: FlowOptions = {}): FlowModel {
  const tenant = opts.tenantOrigin ? normalizeOrigin(opts.tenantOrigin) : null;
  const includeForeign = opts.includeForeign ?? true;
  const gapMs = opts.gapMs ?? DEFAULT_FLOW_GAP_MS;
  const n = records.length;

  // ---- the records by seq, and which are shown
  // Records in ascending seq order (a log, most capture files) are found by a binary search; others through a map.
  let ascending = true;
  for (let i = 0; i < n && ascending; i++) {
    const r = records[i];
    ascending = !!r && typeof r.seq === 'number' && (i === 0 || r.seq > records[i - 1].seq);
  }
  let indexMap: Map<number, number> | null = null;
  const indexOf = (seq: number): number => {
    if (ascending) {
      let lo = 0;
      let hi = n - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const s = records[mid].seq;
        if (s === seq) {
          return mid;
        }
        if (s < seq) {
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return -1;
    }
    if (!indexMap) {
      indexMap = new Map();
      for (let i = 0; i < n; i++) {
        const r = records[i];
        if (r && typeof r.seq === 'number') {
          indexMap.set(r.seq, i);
        }
      }
    }
    return indexMap.get(seq) ?? -1;
  };
  const pairOf = (i: number): number => {
    const r = records[i];
    if (r.pairedWith === undefined || r.navigation) {
      return -1;
    }
    const j = indexOf(r.pairedWith);
    return j >= 0 && j !== i && records[j].kind !== r.kind && !records[j].navigation ? j : -1;
  };
  const shown = (i: number): boolean => {
    const r = records[i];
    if (!includeForeign && !r.navigation && r.verdict === 'foreign') {
      return false;
    }
    return opts.keep ? opts.keep(r, i) : true;
  };

  // ---- frames: the frames records were observed in, first; senders known only by origin as they come
  const frames = new Map<string, Frame>();
  // The frames of records, by frame id or by URL (no key string made per record: a log's URLs are shared strings).
  const byFrameId = new Map<number, Frame>();
  const byFrameUrl = new Map<string, Frame>();
  const order: Frame[] = [];
  const frameIds = records.some((r) => r && r.frameId !== undefined);
  let host: Frame | null = null;
  // Without frame ids, the host page is the frame that received the first event or posted the first action.
  let hostUrl: string | null = null;
  if (!frameIds) {
    for (const r of records) {
      const d = r && !r.navigation ? dataOf(r) : null;
      if (d?.source === 'svc-embed' && (r.kind === 'receive') === (d.direction === 'event')) {
        hostUrl = r.frameUrl;
        break;
      }
    }
  }
  const frameKey = (r: FlowInput) => (r.frameId !== undefined ? `id:${r.frameId}` : `url:${r.frameUrl}`);
  const isEmbedFrame = (url: string | null, origin: string | null) =>
    isEmbedAddress(url) || (tenant !== null && origin === tenant);
  const addFrame = (f: Omit<Frame, 'lane'>): Frame => {
    const frame = { ...f, lane: -1 };
    frames.set(f.key, frame);
    order.push(frame);
    return frame;
  };
  const frameOf = (r: FlowInput): Frame => {
    const known = r.frameId !== undefined ? byFrameId.get(r.frameId) : byFrameUrl.get(r.frameUrl);
    if (known) {
      return known;
    }
    const key = frameKey(r);
    const url = r.navigation && typeof dataOf(r)?.url === 'string' ? (dataOf(r)!.url as string) : r.frameUrl;
    const origin = originOf(url);
    const top =
      r.frameId === 0 ||
      (!frameIds && !host && (hostUrl === null ? !isEmbedFrame(url, origin) : r.frameUrl === hostUrl));
    const role = top && !host ? 'host' : isEmbedFrame(url, origin) ? 'embed' : 'other';
    const f = addFrame({ key, role, origin, url, surface: role === 'embed' ? surfaceOfUrl(url) : null });
    if (r.frameId !== undefined) {
      byFrameId.set(r.frameId, f);
    } else {
      byFrameUrl.set(r.frameUrl, f);
    }
    if (role === 'host') {
      host = f;
    }
    return f;
  };
  for (let i = 0; i < n; i++) {
    if (records[i]) {
      frameOf(records[i]);
    }
  }
  const byOrigin = (origin: string | null, not: Frame | null, surface: string | null): Frame | null => {
    if (!origin) {
      return null;
    }
    let best: Frame | null = null;
    for (const f of order) {
      if (f.origin !== origin || f === not) {
        continue;
      }
      if (f.role === 'embed' && surface && f.surface === surface) {
        return f;
      }
      if (!best || (best.role !== 'embed' && f.role === 'embed')) {
        best = f;
      }
    }
    return best;
  };
  const originFrames = new Map<string, Frame>();
  /** The frame that sent a delivery whose post is not in the records. */
  const senderOf = (r: FlowInput, receiver: Frame): Frame => {
    const origin = r.origin && r.origin !== 'null' ? normalizeOrigin(r.origin) : null;
    const d = dataOf(r);
    const surface = typeof d?.surface === 'string' ? d.surface : null;
    const from = (r as { from?: string }).from;
    if (from === 'self') {
      return receiver;
    }
    const found = byOrigin(origin, receiver, surface);
    if (found) {
      return found;
    }
    if (from === 'parent' && host && receiver !== host && origin === host.origin) {
      return host;
    }
    const key = `origin:${origin ?? 'null'}${surface ? `:${surface}` : ''}`;
    const made = originFrames.get(key);
    if (made) {
      return made;
    }
    const f = addFrame({
      key,
      role: tenant !== null && origin === tenant ? 'embed' : 'other',
      origin,
      url: null,
      surface: tenant !== null && origin === tenant ? surface : null,
    });
    originFrames.set(key, f);
    return f;
  };
  /** The frame a post went to, when its delivery is not in the records. */
  const receiverOf = (r: FlowInput, sender: Frame): Frame | null => {
    if (r.target === 'self') {
      return sender;
    }
    const targetUrlOrigin = originOf(r.targetUrl);
    if (r.targetUrl) {
      const f = order.find((x) => x.url === r.targetUrl) ?? byOrigin(targetUrlOrigin, sender, null);
      if (f) {
        return f;
      }
    }
    const concrete = r.targetOrigin ? resolveTargetOrigin(r.targetOrigin, r.origin) : null;
    const aimed = concrete && concrete !== '*' ? byOrigin(normalizeOrigin(concrete), sender, null) : null;
    if (aimed) {
      return aimed;
    }
    if (r.target === 'parent') {
      return sender !== host ? host : null;
    }
    if (sender === host && (r.target === 'child' || r.target === undefined)) {
      // A post from the page to a child that no record shows (dropped, or not captured): its embed, when it has one.
      return order.find((x) => x.role === 'embed') ?? null;
    }
    return null;
  };

  // ---- items, in row order
  const items: FlowItem[] = [];
  const arrowFrames: Array<[Frame, Frame | null]> = [];
  const navFrames: Frame[] = [];
  const used = new Set<Frame>();
  let lastTime = Number.NaN;
  let start = Number.NaN;
  const place = (time: number) => {
    const t = Number.isFinite(time) ? time : lastTime;
    if (Number.isFinite(lastTime) && Number.isFinite(t) && t - lastTime >= gapMs) {
      items.push({ kind: 'gap', ms: t - lastTime, time: lastTime });
    }
    if (Number.isFinite(t)) {
      lastTime = Number.isFinite(lastTime) ? Math.max(lastTime, t) : t;
      if (!Number.isFinite(start)) {
        start = t;
      }
    }
  };
  let messages = 0;
  for (let i = 0; i < n; i++) {
    const r = records[i];
    if (!r) {
      continue;
    }
    if (r.navigation) {
      if (!shown(i)) {
        continue;
      }
      const f = frameOf(r);
      place(r.time);
      const url = typeof dataOf(r)?.url === 'string' ? (dataOf(r)!.url as string) : r.frameUrl;
      items.push({ kind: 'navigation', seq: r.seq, lane: -1, url, issues: r.issues ?? NO_ISSUES, time: r.time });
      navFrames.push(f);
      used.add(f);
      continue;
    }
    const j = pairOf(i);
    if (j >= 0 && r.kind === 'receive' && records[j].kind === 'post') {
      continue; // one arrow for both, placed at its post
    }
    if (!shown(i) && !(j >= 0 && shown(j))) {
      continue;
    }
    const post = r.kind === 'post' ? r : null;
    const delivery = r.kind === 'receive' ? r : j >= 0 ? records[j] : null;
    let from: Frame;
    let to: Frame | null;
    if (post) {
      from = frameOf(post);
      to = delivery ? frameOf(delivery) : receiverOf(post, from);
    } else {
      to = frameOf(r);
      from = senderOf(r, to);
    }
    const arrow = arrowOf(r, post, delivery);
    const d = dataOf(r);
    if (d && d.source === 'svc-embed' && d.surface && typeof d.surface === 'string' && from.role === 'embed') {
      from.surface ??= d.surface;
    }
    place(arrow.time);
    items.push(arrow);
    arrowFrames.push([from, to]);
    used.add(from);
    if (to) {
      used.add(to);
    }
    messages++;
  }

  // ---- lanes: the host, the embeds, the others (each in order of appearance); only frames with a row, and the host
  const lanes: FlowLane[] = [];
  const laneOf = (f: Frame): number => {
    if (f.lane < 0) {
      f.lane = lanes.length;
      const title =
        f.role === 'host' ? 'host page' : f.role === 'embed' ? `embed${f.surface ? ` · ${f.surface}` : ''}` : 'frame';
      lanes.push({ index: f.lane, role: f.role, title, origin: f.origin, surface: f.surface, url: f.url, frames: 1 });
    }
    return f.lane;
  };
  const hostFrame = host as Frame | null;
  if (hostFrame) {
    laneOf(hostFrame);
  }
  for (const f of order) {
    if (f.role === 'embed' && used.has(f)) {
      laneOf(f);
    }
  }
  const others = order.filter((f) => f.role === 'other' && used.has(f));
  if (opts.expandOthers || others.length === 1) {
    for (const f of others) {
      laneOf(f);
    }
  } else if (others.length) {
    const index = lanes.length;
    lanes.push({
      index,
      role: 'others',
      title: `other frames (${others.length})`,
      origin: null,
      surface: null,
      url: null,
      frames: others.length,
    });
    for (const f of others) {
      f.lane = index;
    }
  }
  let a = 0;
  let v = 0;
  for (const item of items) {
    if (item.kind === 'arrow') {
      const [from, to] = arrowFrames[a++];
      item.from = laneOf(from);
      item.to = to ? laneOf(to) : null;
    } else if (item.kind === 'navigation') {
      item.lane = laneOf(navFrames[v++]);
    }
  }
  // The rows by seq are made when first asked for (the exports never ask; a loop of Map writes per record is a good
  // part of a build's time at 100,000 records).
  let rowOf: Map<number, number> | null = null;
  return {
    lanes,
    items,
    get rowOf() {
      rowOf ??= rowsBySeq(items);
      return rowOf;
    },
    start: Number.isFinite(start) ? start : 0,
    messages,
  };
}

/**
 * The arrow of a message (its lanes not yet known: -1 and null): `r` is the record it stands for, its post and its
 * delivery when captured. A function of its own, apart from buildFlow's loop: the engine optimizes it on its own,
 * early, rather than the whole of buildFlow's body on the stack (a long compile while the loop runs slow).
 */
function arrowOf(r: FlowInput, post: FlowInput | null, delivery: FlowInput | null): FlowArrow {
  const d = dataOf(r);
  const type = typeof d?.type === 'string' ? d.type : null;
  const error = post && typeof post.error === 'string' ? post.error : null;
  const state: ArrowState = error
    ? 'threw'
    : post?.dropped
      ? 'dropped'
      : post && delivery
        ? 'delivered'
        : post
          ? 'sent'
          : 'received';
  // (the input's issue lists are shared, not copied, unless a delivery adds issues of its own)
  let issues: readonly Issue[] = post?.issues ?? NO_ISSUES;
  const own = delivery?.issues?.length ? delivery.issues.filter((x) => !x.sender) : NO_ISSUES;
  if (own.length) {
    issues = post ? [...issues, ...own] : own;
  }
  const pv = post?.verdict;
  const dv = delivery?.verdict;
  const verdict: Verdict =
    pv === 'invalid' || dv === 'invalid'
      ? 'invalid'
      : (pv === 'foreign' || pv === undefined) && (dv === 'foreign' || dv === undefined) && (pv ?? dv) === 'foreign'
        ? 'foreign'
        : verdictOf(issues);
  let worst = -1;
  for (const x of issues) {
    worst = Math.max(worst, SEVERITY_RANK[x.severity] ?? 0);
  }
  const tone: FlowTone =
    verdict === 'invalid' ? 'invalid' : verdict === 'foreign' ? 'foreign' : worst >= 1 ? 'warning' : 'valid';
  return {
    kind: 'arrow',
    seq: r.seq,
    post: post ? post.seq : null,
    delivery: delivery ? delivery.seq : null,
    from: -1,
    to: null,
    type,
    label: type ? shortLabel(type) : 'message',
    state,
    verdict,
    tone,
    milestone: type !== null && d?.source === 'svc-embed' && MILESTONES.has(type),
    error,
    targetOrigin: post?.targetOrigin ?? null,
    issues,
    time: post?.time ?? r.time,
  };
}

/** The row of each record: an arrow's post and delivery share its row. */
function rowsBySeq(items: readonly FlowItem[]): Map<number, number> {
  const rows = new Map<number, number>();
  items.forEach((item, row) => {
    if (item.kind === 'navigation') {
      rows.set(item.seq, row);
    } else if (item.kind === 'arrow') {
      rows.set(item.seq, row);
      if (item.post !== null) {
        rows.set(item.post, row);
      }
      if (item.delivery !== null) {
        rows.set(item.delivery, row);
      }
    }
  });
  return rows;
}

/** The worst severity among issues, for a note's mark; null without issues. */
export function worstSeverity(issues: readonly Issue[]): Issue['severity'] | null {
  let worst: Issue['severity'] | null = null;
  for (const x of issues) {
    if (worst === null || (SEVERITY_RANK[x.severity] ?? 0) > SEVERITY_RANK[worst]) {
      worst = x.severity;
    }
  }
  return worst;
}

/**
 * The flow of a checked capture: its records in causal order with the verdicts and issues of `checkCapture`
 * (records the check did not list, navigations without issues, keep none). Foreign traffic is left out unless
 * `includeForeign`.
 */
export function flowOfCapture(
  records: readonly CaptureRecord[],
  result: {
    messages: readonly { seq: number; verdict: Verdict; issues: Issue[] }[];
    summary: { tenantOrigin: string | null };
  },
  opts: Omit<FlowOptions, 'tenantOrigin'> = {},
): FlowModel {
  const bySeq = new Map(result.messages.map((m) => [m.seq, m]));
  let ordered: readonly CaptureRecord[];
  try {
    ordered = causalOrder(records);
  } catch {
    ordered = records;
  }
  const input = ordered.map((r): FlowInput => {
    const m = bySeq.get(r.seq);
    return m ? { ...r, verdict: m.verdict, issues: m.issues } : r;
  });
  return buildFlow(input, { includeForeign: false, ...opts, tenantOrigin: result.summary.tenantOrigin });
}
