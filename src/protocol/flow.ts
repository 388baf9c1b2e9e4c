/**
 * A capture as a conversation: one lane per frame, one arrow per message (a post and its delivery are one arrow),
 * time running down. The model behind the panel's flow view and the SVG and Mermaid exports (flow-svg.ts,
 * flow-mermaid.ts). Pure, no DOM. Two steps: `indexFlow` reads the records once into typed arrays (pairs, frames,
 * times); `flowOfIndex` makes the flow of the records a filter shows in one pass over those arrays, and a row's item
 * only when it is asked for (a view reads the rows in its viewport, the exports all of them). `buildFlow` does both.
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
import { redactValue } from './redact.ts';
import { findSorted } from './sorted.ts';

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

type LaneRole = 'host' | 'embed' | 'other' | 'others';

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
type ArrowState = 'delivered' | 'sent' | 'received' | 'dropped' | 'threw';

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
interface FlowNavigation {
  kind: 'navigation';
  seq: number;
  lane: number;
  url: string;
  issues: readonly Issue[];
  time: number;
}

/** A compressed pause: `ms` passed between the rows before and after it. */
interface FlowGap {
  kind: 'gap';
  ms: number;
  time: number;
}

export type FlowItem = FlowArrow | FlowNavigation | FlowGap;

export interface FlowModel {
  lanes: FlowLane[];
  /** How many rows. */
  count: number;
  /** The item of a row (made when first asked for: a view reads only the rows it shows); undefined past the end. */
  item(row: number): FlowItem | undefined;
  /** The seq of the record a row stands for (an arrow's post or delivery, a navigation); null for a gap or past
   * the end. Read from the build's arrays: no item is made. */
  seqAt(row: number): number | null;
  /** Every row's item, in row order (made when first read: the exports read them all). */
  readonly items: readonly FlowItem[];
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

const DEFAULT_FLOW_GAP_MS = 1000;
const MILESTONES: ReadonlySet<string> = new Set(['svc:event:ready', 'svc:event:dashboard-loaded', 'svc:event:error']);
const SEVERITY_RANK = { info: 0, warning: 1, error: 2 } as const;
const NO_ISSUES: readonly Issue[] = Object.freeze([]);

const dataOf = (r: FlowInput): Record<string, unknown> | null =>
  r.data && typeof r.data === 'object' && !Array.isArray(r.data) ? (r.data as Record<string, unknown>) : null;

/** `svc:event:ready` → `ready`, `svc:action:set-theme` → `set-theme`; other strings unchanged. */
function shortLabel(type: string): string {
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
  /** Its place in the order of appearance. */
  id: number;
}

/** The bits of `FlowIndex.flags`. */
const NAV = 1;
const POST = 2;
const RECEIVE = 4;
const FOREIGN = 8;

/**
 * What the flow needs of each record, made once for a list of records (in causal order) and read by every flow of
 * a subset of them (`flowOfIndex`: a filter change is one pass over these arrays, the records left unread). A
 * record's frames are decided from all the records: its frame, and for a record that stands for an arrow (a post,
 * a delivery whose post is not there) the frames it goes from and to.
 */
export interface FlowIndex {
  /** The records indexed (the first `flags.length`: a log's list may grow after). */
  readonly records: readonly FlowInput[];
  /** The frames, in order of appearance (opaque to readers: lanes are made of them). */
  readonly frames: readonly unknown[];
  /** The frame of the host page, -1 when none. */
  readonly host: number;
  /** NAV, POST, RECEIVE, FOREIGN (verdict foreign); 0 for a hole in the records. */
  readonly flags: Uint8Array;
  /** The other half of a record's pair (its index), -1 when none. */
  readonly pair: Int32Array;
  /** A navigation's frame, an arrow's sender; -1 when the record stands for no row of its own (a delivery whose
   * post is there, a hole). */
  readonly from: Int32Array;
  /** An arrow's receiver, -1 when not known. */
  readonly to: Int32Array;
  readonly seq: Float64Array;
  /** Its time (an arrow's is its post's); NaN when not a number. */
  readonly time: Float64Array;
}

/**
 * The frames of a list of records, as indexFlow meets them: the frames records were observed in, first; senders
 * known only by origin as they come.
 */
class FrameTable {
  readonly order: Frame[] = [];
  host: Frame | null = null;
  // The frames of records, by frame id or by URL (no key string made per record: a log's URLs are shared strings).
  private readonly byFrameId = new Map<number, Frame>();
  private readonly byFrameUrl = new Map<string, Frame>();
  // The sender of a delivery with the same facts is the same frame while no frame is added and no surface learned
  // (the cache is emptied then): a log's many deliveries from a sender whose posts are not captured decide it once.
  private readonly senders = new Map<string, Frame>();
  private readonly originFrames = new Map<string, Frame>();
  private readonly frameIds: boolean;
  // Without frame ids, the host page is the frame that received the first event or posted the first action.
  private readonly hostUrl: string | null = null;
  private readonly tenant: string | null;

  constructor(records: readonly FlowInput[], tenant: string | null) {
    this.tenant = tenant;
    this.frameIds = records.some((r) => r && r.frameId !== undefined);
    if (!this.frameIds) {
      for (const r of records) {
        const d = r && !r.navigation ? dataOf(r) : null;
        if (d?.source === 'svc-embed' && (r.kind === 'receive') === (d.direction === 'event')) {
          this.hostUrl = r.frameUrl;
          break;
        }
      }
    }
  }

  private isEmbedFrame(url: string | null, origin: string | null): boolean {
    return isEmbedAddress(url) || (this.tenant !== null && origin === this.tenant);
  }

  private add(f: Omit<Frame, 'id'>): Frame {
    const frame = { ...f, id: this.order.length };
    this.senders.clear();
    this.order.push(frame);
    return frame;
  }

  /** The frame a record was observed in. */
  frameOf(r: FlowInput): Frame {
    const known = r.frameId !== undefined ? this.byFrameId.get(r.frameId) : this.byFrameUrl.get(r.frameUrl);
    if (known) {
      return known;
    }
    const key = r.frameId !== undefined ? `id:${r.frameId}` : `url:${r.frameUrl}`;
    const url = r.navigation && typeof dataOf(r)?.url === 'string' ? (dataOf(r)!.url as string) : r.frameUrl;
    const origin = originOf(url);
    const top =
      r.frameId === 0 ||
      (!this.frameIds &&
        !this.host &&
        (this.hostUrl === null ? !this.isEmbedFrame(url, origin) : r.frameUrl === this.hostUrl));
    const role = top && !this.host ? 'host' : this.isEmbedFrame(url, origin) ? 'embed' : 'other';
    const f = this.add({ key, role, origin, url, surface: role === 'embed' ? surfaceOfUrl(url) : null });
    if (r.frameId !== undefined) {
      this.byFrameId.set(r.frameId, f);
    } else {
      this.byFrameUrl.set(r.frameUrl, f);
    }
    if (role === 'host') {
      this.host = f;
    }
    return f;
  }

  private byOrigin(origin: string | null, not: Frame | null, surface: string | null): Frame | null {
    if (!origin) {
      return null;
    }
    let best: Frame | null = null;
    for (const f of this.order) {
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
  }

  /** The frame that sent a delivery whose post is not in the records. */
  senderOf(r: FlowInput, receiver: Frame): Frame {
    const d = dataOf(r);
    const surface = typeof d?.surface === 'string' ? d.surface : null;
    const from = (r as { from?: string }).from;
    if (from === 'self') {
      return receiver;
    }
    const key = `${receiver.id} ${from} ${surface} ${r.origin}`;
    const known = this.senders.get(key);
    if (known) {
      return known;
    }
    const found = this.decideSender(r, receiver, from, surface);
    this.senders.set(key, found);
    return found;
  }

  private decideSender(r: FlowInput, receiver: Frame, from: string | undefined, surface: string | null): Frame {
    const origin = r.origin && r.origin !== 'null' ? normalizeOrigin(r.origin) : null;
    const found = this.byOrigin(origin, receiver, surface);
    if (found) {
      return found;
    }
    const host = this.host;
    if (from === 'parent' && host && receiver !== host && origin === host.origin) {
      return host;
    }
    const key = `origin:${origin ?? 'null'}${surface ? `:${surface}` : ''}`;
    const made = this.originFrames.get(key);
    if (made) {
      return made;
    }
    const tenant = this.tenant;
    const f = this.add({
      key,
      role: tenant !== null && origin === tenant ? 'embed' : 'other',
      origin,
      url: null,
      surface: tenant !== null && origin === tenant ? surface : null,
    });
    this.originFrames.set(key, f);
    return f;
  }

  /** The frame a post went to, when its delivery is not in the records. */
  receiverOf(r: FlowInput, sender: Frame): Frame | null {
    if (r.target === 'self') {
      return sender;
    }
    const targetUrlOrigin = originOf(r.targetUrl);
    if (r.targetUrl) {
      const f = this.order.find((x) => x.url === r.targetUrl) ?? this.byOrigin(targetUrlOrigin, sender, null);
      if (f) {
        return f;
      }
    }
    const concrete = r.targetOrigin ? resolveTargetOrigin(r.targetOrigin, r.origin) : null;
    const aimed = concrete && concrete !== '*' ? this.byOrigin(normalizeOrigin(concrete), sender, null) : null;
    if (aimed) {
      return aimed;
    }
    if (r.target === 'parent') {
      return sender !== this.host ? this.host : null;
    }
    if (sender === this.host && (r.target === 'child' || r.target === undefined)) {
      // A post from the page to a child that no record shows (dropped, or not captured): its embed, when it has one.
      return this.order.find((x) => x.role === 'embed') ?? null;
    }
    return null;
  }

  /** An embed sender whose surface is not known learns it from its message. */
  learnSurface(sender: Frame, r: FlowInput): void {
    if (sender.role === 'embed' && sender.surface === null) {
      const d = dataOf(r);
      if (d && d.source === 'svc-embed' && d.surface && typeof d.surface === 'string') {
        sender.surface = d.surface;
        this.senders.clear();
      }
    }
  }
}

/** Each record's facts, read once: FlowIndex's flags, seq and time, the seq it pairs with and its frame. */
interface RecordFacts {
  flags: Uint8Array;
  seqs: Float64Array;
  times: Float64Array;
  pairSeq: Float64Array;
  recFrame: Int32Array;
  /** The records are in ascending seq order (a log, most capture files). */
  ascending: boolean;
}

function readFacts(records: readonly FlowInput[], frames: FrameTable): RecordFacts {
  const n = records.length;
  const flags = new Uint8Array(n);
  const seqs = new Float64Array(n);
  const times = new Float64Array(n);
  const pairSeq = new Float64Array(n);
  const recFrame = new Int32Array(n).fill(-1);
  let ascending = true;
  for (let i = 0; i < n; i++) {
    const r = records[i];
    if (!r) {
      ascending = false;
      continue;
    }
    const seq = r.seq;
    ascending &&= typeof seq === 'number' && (i === 0 || seq > seqs[i - 1]);
    seqs[i] = typeof seq === 'number' ? seq : Number.NaN;
    times[i] = Number.isFinite(r.time) ? r.time : Number.NaN;
    flags[i] =
      (r.navigation ? NAV : 0) |
      (r.kind === 'post' ? POST : r.kind === 'receive' ? RECEIVE : 0) |
      (r.verdict === 'foreign' ? FOREIGN : 0);
    pairSeq[i] = r.pairedWith === undefined || r.navigation ? Number.NaN : r.pairedWith;
    recFrame[i] = frames.frameOf(r).id;
  }
  return { flags, seqs, times, pairSeq, recFrame, ascending };
}

/**
 * The other half of each record's pair (its index, -1 when none). Records in ascending seq order are found by a
 * binary search over their seqs, others through a map.
 */
function pairRecords(records: readonly FlowInput[], facts: RecordFacts): Int32Array {
  const { flags, seqs, pairSeq, ascending } = facts;
  const n = records.length;
  let indexMap: Map<number, number> | null = null;
  const indexOf = (seq: number, near: number): number => {
    if (ascending) {
      // seqs are mostly consecutive: where a record `seq - seqs[near]` places after `near` is tried first
      const guess = near + (seq - seqs[near]);
      if (guess >= 0 && guess < n && seqs[guess] === seq) {
        return guess;
      }
      return findSorted(n, (i) => seqs[i], seq);
    }
    if (!indexMap) {
      indexMap = new Map();
      for (let i = 0; i < n; i++) {
        if (records[i] && typeof records[i].seq === 'number') {
          indexMap.set(seqs[i], i);
        }
      }
    }
    return indexMap.get(seq) ?? -1;
  };
  const KIND = POST | RECEIVE;
  const pair = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const p = pairSeq[i];
    if (!Number.isNaN(p)) {
      const j = indexOf(p, i);
      if (j >= 0 && j !== i && (flags[j] & KIND) !== (flags[i] & KIND) && (flags[j] & NAV) === 0 && records[j]) {
        pair[i] = j;
      }
    }
  }
  return pair;
}

/**
 * The frames of the rows: a navigation's frame; an arrow's sender and receiver (a post and its delivery are one
 * arrow, at the post).
 */
function rowFrames(
  records: readonly FlowInput[],
  facts: RecordFacts,
  pair: Int32Array,
  frames: FrameTable,
): { from: Int32Array; to: Int32Array } {
  const { flags, recFrame } = facts;
  const order = frames.order;
  const n = records.length;
  const from = new Int32Array(n).fill(-1);
  const to = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const f = flags[i];
    if (recFrame[i] < 0) {
      continue;
    }
    if (f & NAV) {
      from[i] = recFrame[i];
      continue;
    }
    const j = pair[i];
    if (j >= 0 && f & RECEIVE && flags[j] & POST) {
      continue; // the arrow is its post's
    }
    const r = records[i];
    let sender: Frame;
    let receiver: Frame | null;
    if (f & POST) {
      sender = order[recFrame[i]];
      receiver = j >= 0 ? order[recFrame[j]] : frames.receiverOf(r, sender);
    } else {
      receiver = order[recFrame[i]];
      sender = frames.senderOf(r, receiver);
    }
    frames.learnSurface(sender, r);
    from[i] = sender.id;
    to[i] = receiver ? receiver.id : -1;
  }
  return { from, to };
}

/** The index of records given in causal order (see FlowIndex). O(n); never throws on odd records. */
export function indexFlow(records: readonly FlowInput[], opts: Pick<FlowOptions, 'tenantOrigin'> = {}): FlowIndex {
  const tenant = opts.tenantOrigin ? normalizeOrigin(opts.tenantOrigin) : null;
  const frames = new FrameTable(records, tenant);
  const facts = readFacts(records, frames);
  const pair = pairRecords(records, facts);
  const { from, to } = rowFrames(records, facts, pair, frames);
  const host = frames.host;
  return {
    records,
    frames: frames.order,
    host: host ? host.id : -1,
    flags: facts.flags,
    pair,
    from,
    to,
    seq: facts.seqs,
    time: facts.times,
  };
}

/** Build the flow of records given in causal order. O(n); never throws on odd records. */
export function buildFlow(records: readonly FlowInput[], opts: FlowOptions = {}): FlowModel {
  const index = indexFlow(records, opts);
  const includeForeign = opts.includeForeign ?? true;
  const n = records.length;
  const shown = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = records[i];
    if (r && (includeForeign || (index.flags[i] & (NAV | FOREIGN)) !== FOREIGN)) {
      shown[i] = opts.keep ? (opts.keep(r, i) ? 1 : 0) : 1;
    }
  }
  return flowOfIndex(index, shown, opts);
}

/**
 * The rows of a flow, in row order: the record a row stands for (its index; -1 for a gap), the other half of its
 * pair (-1 when none), its seq (NaN for a gap); the frames with a row (`used`), the first time, the messages.
 */
interface FlowRows {
  count: number;
  rowRec: Int32Array;
  rowPair: Int32Array;
  rowSeq: Float64Array;
  /** A gap row's pause and time (the row before it), by the gap's row. */
  gaps: Map<number, { ms: number; time: number }>;
  used: Uint8Array;
  start: number;
  messages: number;
}

/** The rows of the records `shown` marks: a pause of at least gapMs since the rows before becomes a gap row. */
function flowRows(index: FlowIndex, shown: Uint8Array, gapMs: number): FlowRows {
  const { flags, pair, from: fromOf, to: toOf, seq: seqs, time: times } = index;
  // (the records as they were indexed: a log's list may have grown since)
  const n = flags.length;
  let cap = n + 16;
  let rowRec = new Int32Array(cap);
  let rowPair = new Int32Array(cap);
  let rowSeq = new Float64Array(cap);
  const gaps = new Map<number, { ms: number; time: number }>();
  let count = 0;
  const grow = () => {
    cap *= 2;
    const ints = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    rowRec = ints(rowRec);
    rowPair = ints(rowPair);
    const s = new Float64Array(cap);
    s.set(rowSeq);
    rowSeq = s;
  };
  const used = new Uint8Array(index.frames.length);
  let lastTime = Number.NaN;
  let start = Number.NaN;
  let messages = 0;
  for (let i = 0; i < n; i++) {
    const f = fromOf[i];
    if (f < 0) {
      continue;
    }
    const j = pair[i];
    if ((flags[i] & NAV) !== 0 ? shown[i] === 0 : shown[i] === 0 && !(j >= 0 && shown[j] === 1)) {
      continue;
    }
    // the time: a pause of at least gapMs since the rows before becomes a gap row
    const time = times[i];
    const t = Number.isNaN(time) ? lastTime : time;
    if (count + 2 > cap) {
      grow();
    }
    if (t - lastTime >= gapMs) {
      gaps.set(count, { ms: t - lastTime, time: lastTime });
      rowRec[count] = -1;
      rowPair[count] = -1;
      rowSeq[count++] = Number.NaN;
    }
    if (!Number.isNaN(t)) {
      lastTime = Number.isNaN(lastTime) ? t : Math.max(lastTime, t);
      if (Number.isNaN(start)) {
        start = t;
      }
    }
    rowRec[count] = i;
    rowPair[count] = (flags[i] & NAV) !== 0 ? -1 : j;
    rowSeq[count++] = seqs[i];
    used[f] = 1;
    if ((flags[i] & NAV) === 0) {
      messages++;
      if (toOf[i] >= 0) {
        used[toOf[i]] = 1;
      }
    }
  }
  return { count, rowRec, rowPair, rowSeq, gaps, used, start, messages };
}

/** The lanes: the host, the embeds, the others (each in order of appearance); only frames with a row, and the host. */
function flowLanes(
  frames: readonly Frame[],
  host: number,
  used: Uint8Array,
  expandOthers: boolean | undefined,
): { lanes: FlowLane[]; laneOfFrame: Int32Array } {
  const lanes: FlowLane[] = [];
  const laneOfFrame = new Int32Array(frames.length).fill(-1);
  const laneOf = (id: number): number => {
    if (laneOfFrame[id] < 0) {
      const f = frames[id];
      laneOfFrame[id] = lanes.length;
      const title =
        f.role === 'host' ? 'host page' : f.role === 'embed' ? `embed${f.surface ? ` · ${f.surface}` : ''}` : 'frame';
      lanes.push({
        index: lanes.length,
        role: f.role,
        title,
        origin: f.origin,
        surface: f.surface,
        url: f.url,
        frames: 1,
      });
    }
    return laneOfFrame[id];
  };
  if (host >= 0) {
    laneOf(host);
  }
  for (const f of frames) {
    if (f.role === 'embed' && used[f.id] === 1) {
      laneOf(f.id);
    }
  }
  const others = frames.filter((f) => f.role === 'other' && used[f.id] === 1);
  if (expandOthers || others.length === 1) {
    for (const f of others) {
      laneOf(f.id);
    }
  } else if (others.length) {
    const at = lanes.length;
    lanes.push({
      index: at,
      role: 'others',
      title: `other frames (${others.length})`,
      origin: null,
      surface: null,
      url: null,
      frames: others.length,
    });
    for (const f of others) {
      laneOfFrame[f.id] = at;
    }
  }
  return { lanes, laneOfFrame };
}

/** The item of a row (a row within the rows): a gap, a navigation or an arrow with its lanes. */
function flowItem(index: FlowIndex, rows: FlowRows, laneOfFrame: Int32Array, row: number): FlowItem {
  const { records, flags, from: fromOf, to: toOf } = index;
  const i = rows.rowRec[row];
  if (i < 0) {
    const g = rows.gaps.get(row) ?? { ms: 0, time: Number.NaN };
    return { kind: 'gap', ms: g.ms, time: g.time };
  }
  const r = records[i];
  const lane = laneOfFrame[fromOf[i]];
  if (flags[i] & NAV) {
    const d = dataOf(r);
    const url = typeof d?.url === 'string' ? d.url : r.frameUrl;
    return { kind: 'navigation', seq: r.seq, lane, url, issues: r.issues ?? NO_ISSUES, time: r.time };
  }
  const j = rows.rowPair[row];
  const post = flags[i] & POST ? r : null;
  const delivery = flags[i] & RECEIVE ? r : j >= 0 ? records[j] : null;
  const arrow = arrowOf(r, post, delivery);
  arrow.from = lane;
  arrow.to = toOf[i] >= 0 ? laneOfFrame[toOf[i]] : null;
  return arrow;
}

/**
 * The flow of the records of an index that `shown` marks (1: shown): a navigation is a row when shown, a post and
 * its delivery one arrow when either is. One pass over the index's arrays decides the rows, their lanes and the
 * gaps; an item is made when asked for (`item(row)`), so a view that draws the rows in its viewport makes only those.
 */
export function flowOfIndex(
  index: FlowIndex,
  shown: Uint8Array,
  opts: Pick<FlowOptions, 'expandOthers' | 'gapMs'> = {},
): FlowModel {
  const rows = flowRows(index, shown, opts.gapMs ?? DEFAULT_FLOW_GAP_MS);
  const { count, rowRec, rowPair, rowSeq } = rows;
  const { lanes, laneOfFrame } = flowLanes(index.frames as readonly Frame[], index.host, rows.used, opts.expandOthers);
  const made: Array<FlowItem | undefined> = [];
  const item = (row: number): FlowItem | undefined => {
    if (!(row >= 0 && row < count)) {
      return undefined;
    }
    return (made[row] ??= flowItem(index, rows, laneOfFrame, row));
  };
  let all: FlowItem[] | null = null;
  // The rows by seq are made when first asked for (the panel finds rows by a binary search over `seqAt`).
  let rowOf: Map<number, number> | null = null;
  return {
    lanes,
    count,
    item,
    seqAt: (row) => (row >= 0 && row < count && rowRec[row] >= 0 ? rowSeq[row] : null),
    get items() {
      if (!all) {
        all = new Array<FlowItem>(count);
        for (let row = 0; row < count; row++) {
          all[row] = item(row) as FlowItem;
        }
      }
      return all;
    },
    get rowOf() {
      if (!rowOf) {
        rowOf = new Map();
        for (let row = 0; row < count; row++) {
          if (rowRec[row] >= 0) {
            rowOf.set(rowSeq[row], row);
            if (rowPair[row] >= 0) {
              rowOf.set(index.seq[rowPair[row]], row);
            }
          }
        }
      }
      return rowOf;
    },
    start: Number.isNaN(rows.start) ? 0 : rows.start,
    messages: rows.messages,
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

/** A model over items already made (`lanes` indexed as the items' lanes). */
export function flowOfItems(lanes: FlowLane[], items: readonly FlowItem[], start?: number): FlowModel {
  let rowOf: Map<number, number> | null = null;
  const first = items.find((x) => x.kind !== 'gap');
  return {
    lanes,
    count: items.length,
    item: (row) => items[row],
    seqAt: (row) => {
      const x = items[row];
      return x && x.kind !== 'gap' ? x.seq : null;
    },
    items,
    get rowOf() {
      if (!rowOf) {
        rowOf = new Map();
        for (const [row, x] of items.entries()) {
          if (x.kind === 'navigation') {
            rowOf.set(x.seq, row);
          } else if (x.kind === 'arrow') {
            for (const seq of [x.seq, x.post, x.delivery]) {
              if (seq !== null) {
                rowOf.set(seq, row);
              }
            }
          }
        }
      }
      return rowOf;
    },
    start: start ?? first?.time ?? 0,
    messages: items.reduce((k, x) => k + (x.kind === 'arrow' ? 1 : 0), 0),
  };
}

/**
 * The flow as a file or the clipboard gets it: every string of its lanes and items redacted (redact.ts: the frames'
 * addresses, the issues quoting a payload or an address), as `check --format svg|mermaid` draws redacted records.
 */
export function redactFlow(model: FlowModel): FlowModel {
  return flowOfItems(redactValue(model.lanes) as FlowLane[], redactValue(model.items) as FlowItem[], model.start);
}

/**
 * The rows `from` to `to` (both included, in either order, clamped to the model) as a flow of their own: the lanes
 * its rows use (in the model's order, re-indexed from 0), gaps at either end left out, the ruler's zero at its
 * first row. Only those rows' items are made.
 */
export function sliceFlow(model: FlowModel, from: number, to: number): FlowModel {
  let a = Math.max(0, Math.min(from, to));
  let b = Math.min(model.count - 1, Math.max(from, to));
  while (a <= b && model.seqAt(a) === null) {
    a++;
  }
  while (b >= a && model.seqAt(b) === null) {
    b--;
  }
  const picked: FlowItem[] = [];
  const usedLanes = new Set<number>();
  for (let row = a; row <= b; row++) {
    const x = model.item(row);
    if (!x) {
      continue;
    }
    picked.push(x);
    if (x.kind === 'arrow') {
      usedLanes.add(x.from);
      if (x.to !== null) {
        usedLanes.add(x.to);
      }
    } else if (x.kind === 'navigation') {
      usedLanes.add(x.lane);
    }
  }
  const newIndex = new Map<number, number>();
  const lanes: FlowLane[] = [];
  for (const l of model.lanes) {
    if (usedLanes.has(l.index)) {
      newIndex.set(l.index, lanes.length);
      lanes.push({ ...l, index: lanes.length });
    }
  }
  const lane = (i: number) => newIndex.get(i) ?? i;
  const items = picked.map(
    (x): FlowItem =>
      x.kind === 'arrow'
        ? { ...x, from: lane(x.from), to: x.to === null ? null : lane(x.to) }
        : x.kind === 'navigation'
          ? { ...x, lane: lane(x.lane) }
          : x,
  );
  return flowOfItems(lanes, items);
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
