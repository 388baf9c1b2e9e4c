/**
 * What did not happen, and the embed's address: the issues a stream of records earns by what is missing from it
 * (an embed that never said `ready`, a dashboard whose data never loaded, an AI query never answered) and by each
 * embed frame's URL (`address.ts`), plus the integration's state in words (`integrationState`).
 *
 * The same function serves the live log (the background, judged at `now`) and a file (judged at its last record):
 * either way nothing is said of a thing before its limit has passed, so a capture cut short earns no false
 * warning. Issues are keyed by the seq of the record they belong to: the embed frame's navigation record, the
 * `ready` of a dashboard, the `submitted` of an AI query. Pure; never throws on odd records.
 */
import type { CaptureRecord } from './record.ts';
import { issue, isSvcEmbed, type Issue } from './classify.ts';
import { normalizeOrigin, originOf } from './origin.ts';
import { checkEmbedAddress, embedKind, isEmbedAddress, shownUrl } from './address.ts';

/** How long an embed frame has to say `ready` (and a dashboard `dashboard-loaded`, an AI query its answer). */
export const DEFAULT_READY_TIMEOUT_MS = 10_000;

export interface DiagnoseOptions {
  tenantOrigin?: string | null;
  /** ms; DEFAULT_READY_TIMEOUT_MS by default. */
  readyTimeoutMs?: number;
  /** When the stream is judged (epoch ms): live, now; a file, its last record's time. */
  now: number;
  /** A file (the wording: "the capture goes on N s after it" instead of "N s ago"). */
  file?: boolean;
}

/** One embed frame's document, as the stream shows it. */
export interface EmbedFrame {
  /** The navigation record (or, with none in the stream, the frame's first record). */
  seq: number;
  url: string;
  origin: string | null;
  frameId?: number;
  time: number;
  /** The seq of its `ready`; null when it never came. */
  ready: number | null;
  /** Its `svc:event:error` with `fatal: true` before `ready`, when any: the message. */
  failed: string | null;
  /** Known from its navigation record (its start is in the stream), not only from what it posted. */
  loaded: boolean;
  /** When the document ended (its frame navigated again, or the page did); Infinity while it lives. */
  end: number;
}

export interface Diagnosis {
  /** Issues by the seq of the record they belong to. */
  issues: Map<number, Issue[]>;
  /** About the whole session, on no record (`silence.host-never-acted`). */
  notes: Issue[];
  embeds: EmbedFrame[];
  /** The host page's origin (the top frame's), when the stream shows it. */
  hostOrigin: string | null;
  /** The earliest time after `now` when a limit runs out (judge again then), or null. */
  next: number | null;
  /** Whether the capture could see the host's actions (the host frame hooked, or an embed frame's relay recording). */
  actionsVisible: boolean;
}

type Rec = Pick<CaptureRecord, 'seq' | 'time' | 'kind' | 'frameUrl' | 'origin' | 'data'> &
  Partial<Pick<CaptureRecord, 'frameId' | 'navigation' | 'pairedWith' | 'targetOrigin' | 'dropped' | 'injected'>>;

const dataOf = (r: Rec): Record<string, unknown> | null =>
  r.data && typeof r.data === 'object' && !Array.isArray(r.data) ? (r.data as Record<string, unknown>) : null;
const payloadOf = (d: Record<string, unknown>): Record<string, unknown> =>
  d.payload && typeof d.payload === 'object' ? (d.payload as Record<string, unknown>) : {};
const secs = (ms: number) => `${Math.max(0, ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** The host page's origin: the top frame's navigation, else a record of the top frame. */
export function hostOriginOf(records: Iterable<Rec>): string | null {
  let fallback: string | null = null;
  for (const r of records) {
    if (r.navigation && r.frameId === 0) {
      const url = dataOf(r)?.url;
      const o = originOf(typeof url === 'string' ? url : r.frameUrl);
      if (o) {
        return o;
      }
    }
    if (!fallback && r.frameId === 0 && !r.navigation) {
      fallback = originOf(r.frameUrl);
    }
  }
  return fallback;
}

/** The origin an event came from: the posting frame's (a post), `event.origin` (a delivery). */
const eventOrigin = (r: Rec): string | null => (r.origin && r.origin !== 'null' ? normalizeOrigin(r.origin) : null);

/** What a judgement finds: issues by the seq of their record, and when to judge again. */
class Findings {
  readonly issues = new Map<number, Issue[]>();
  /** The earliest time after `now` when a limit runs out, or null. */
  next: number | null = null;
  private readonly limit: number;

  constructor(readonly opts: DiagnoseOptions) {
    this.limit = opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  }

  add(seq: number, i: Issue): void {
    const list = this.issues.get(seq);
    if (list) {
      list.push(i);
    } else {
      this.issues.set(seq, [i]);
    }
  }

  /** Whether the limit ran out while the embed's document lived (a document replaced sooner is not judged). */
  overdue(since: number, end = Number.POSITIVE_INFINITY): boolean {
    if (Math.min(this.opts.now, end) - since >= this.limit) {
      return true;
    }
    if (end === Number.POSITIVE_INFINITY) {
      this.next = this.next === null ? since + this.limit : Math.min(this.next, since + this.limit);
    }
    return false;
  }

  /** How long ago `since` was, in the wording of a live log or of a file. */
  waited(since: number): string {
    const s = secs(this.opts.now - since);
    return this.opts.file ? `in the ${s} the capture goes on after it` : `${s} ago`;
  }
}

/** Diagnose a stream in causal order. */
export function diagnose(input: readonly Rec[], opts: DiagnoseOptions): Diagnosis {
  const valid = (r: Rec) => r && typeof r.seq === 'number';
  const records = input.every(valid) ? input : input.filter(valid);
  const found = new Findings(opts);
  const tenant = opts.tenantOrigin ? normalizeOrigin(opts.tenantOrigin) : null;
  const { embeds, startedAt } = findEmbeds(records, tenant, found);
  const said = whatEmbedsSaid(records, embeds, startedAt);
  judgeNeverReady(embeds, said.seen, found);
  judgeUnanswered(said, found);
  // ---- a host that never acted (a note: many hosts never act)
  const notes: Issue[] = [];
  if (said.anyReady && said.events > 0 && said.actions === 0 && said.actionsVisible) {
    notes.push(
      issue(
        'silence.host-never-acted',
        'direction',
        'the host received the embed’s events but never sent an action (many hosts never do)',
      ),
    );
  }
  return {
    issues: found.issues,
    notes,
    embeds,
    hostOrigin: hostOriginOf(records),
    next: found.next,
    actionsVisible: said.actionsVisible,
  };
}

const newEmbed = (r: Rec, url: string, origin: string | null, loaded: boolean): EmbedFrame => ({
  seq: r.seq,
  url,
  origin,
  frameId: r.frameId,
  time: r.time,
  ready: null,
  failed: null,
  loaded,
  end: Number.POSITIVE_INFINITY,
});

/**
 * The embed frames' documents: navigation records of /embed/ frames (not the top frame), else frames that posted
 * events; each document's address findings added.
 */
function findEmbeds(records: readonly Rec[], tenant: string | null, found: Findings) {
  const embeds: EmbedFrame[] = [];
  const startedAt = new Map<EmbedFrame, number>(); // an embed's index in `records`
  const byKey = new Map<string, EmbedFrame>(); // frame id (or URL) → its current document
  for (let k = 0; k < records.length; k++) {
    const r = records[k];
    const d = dataOf(r);
    if (r.navigation) {
      const url = typeof d?.url === 'string' ? d.url : r.frameUrl;
      // A document ends when its frame navigates again, or the page does.
      if (r.frameId === 0) {
        for (const e of embeds) {
          e.end = Math.min(e.end, r.time);
        }
        byKey.clear();
        continue;
      }
      const key = r.frameId !== undefined ? `f${r.frameId}` : url;
      const before = byKey.get(key);
      if (before) {
        before.end = Math.min(before.end, r.time);
        byKey.delete(key);
      }
      // Ours by its shape, or an /embed/ frame on the tenant origin: a video player's /embed/ frame is not.
      const ours = isEmbedAddress(url) || (tenant !== null && embedKind(url) !== null && originOf(url) === tenant);
      if (!ours) {
        continue;
      }
      const e = newEmbed(r, url, originOf(url), true);
      embeds.push(e);
      startedAt.set(e, k);
      byKey.set(key, e);
      for (const i of checkEmbedAddress(url, { tenantOrigin: tenant })) {
        found.add(r.seq, i);
      }
    } else if (r.kind === 'post' && d && isSvcEmbed(d) && d.direction === 'event') {
      const key = r.frameId !== undefined ? `f${r.frameId}` : r.frameUrl;
      if (!byKey.has(key) && !embeds.some((e) => e.origin === eventOrigin(r))) {
        const e = newEmbed(r, r.frameUrl, eventOrigin(r), false);
        embeds.push(e);
        startedAt.set(e, k);
        byKey.set(key, e);
      }
    }
  }
  return { embeds, startedAt };
}

/**
 * Which embed document a record belongs to, by where records are in the stream: by the seq (the last of equal seqs),
 * which is the record's own index where seqs increase, as in a log (a map of every seq only for a stream out of
 * order). `startedAt`: each embed's index.
 */
function embedLocator(
  records: readonly Rec[],
  embeds: readonly EmbedFrame[],
  startedAt: ReadonlyMap<EmbedFrame, number>,
) {
  let ascending = true;
  for (let k = 1; k < records.length && ascending; k++) {
    ascending = records[k].seq > records[k - 1].seq;
  }
  const pos = ascending ? null : new Map(records.map((r, k) => [r.seq, k]));
  /** Where the record with this seq is; k: its index. */
  const posOf = (seq: number, k: number) => (pos ? (pos.get(seq) ?? 0) : k);
  const at = (e: EmbedFrame) => posOf(e.seq, startedAt.get(e) ?? 0);
  /** The document `r` (at index k) belongs to: the latest of its origin (and frame, for a post) started before it. */
  const current = (r: Rec, k: number, type?: unknown): EmbedFrame | undefined => {
    const o = eventOrigin(r);
    const here = posOf(r.seq, k);
    // A ready that cannot name its frame (a delivery, seen in the host page) belongs to the earliest document of its
    // origin still waiting for one: two embeds of one tenant each get theirs.
    if (type === 'svc:event:ready' && (r.kind !== 'post' || r.frameId === undefined)) {
      const waiting = embeds.find((e) => e.origin === o && e.ready === null && at(e) <= here && e.end >= r.time);
      if (waiting) {
        return waiting;
      }
    }
    let hit: EmbedFrame | undefined;
    for (const e of embeds) {
      if (at(e) > here || e.origin !== o) {
        continue;
      }
      if (r.kind === 'post' && r.frameId !== undefined && e.frameId !== undefined && r.frameId !== e.frameId) {
        continue;
      }
      hit = e;
    }
    return hit;
  };
  /** Whether embed document e started before record r (at index k). */
  const before = (e: EmbedFrame, r: Rec, k: number) => at(e) < posOf(r.seq, k);
  return { current, before };
}

/** What the frame of an embed document was seen to say. */
interface Seen {
  types: string[];
  foreign: number;
  any: boolean;
}

/** What the embeds said over the stream, and what the host did. */
interface Said {
  seen: Map<EmbedFrame, Seen>;
  /** Per embed document: a dashboard's ready waiting for dashboard-loaded. */
  waitingLoaded: Map<EmbedFrame, Rec>;
  /** AI queries waiting for their answer, by document and chat (or query). */
  waitingAi: Map<string, { r: Rec; e: EmbedFrame }>;
  events: number;
  actions: number;
  anyReady: boolean;
  /** Whether the capture could see the host's actions: the host frame hooked (its posts are recorded: full mode), or
   * an embed frame's relay recording (its posts, or deliveries to it: either mode). Receive-only on the host alone
   * sees none of them, and then nothing is said of them. */
  actionsVisible: boolean;
}

/** The events after each embed's document started, from its origin (its frame, for posts); the host's actions. */
function whatEmbedsSaid(
  records: readonly Rec[],
  embeds: readonly EmbedFrame[],
  startedAt: ReadonlyMap<EmbedFrame, number>,
): Said {
  const { current, before } = embedLocator(records, embeds, startedAt);
  const said: Said = {
    seen: new Map(),
    waitingLoaded: new Map(),
    waitingAi: new Map(),
    events: 0,
    actions: 0,
    anyReady: false,
    actionsVisible: false,
  };
  const sawOf = (e: EmbedFrame) => said.seen.get(e) ?? said.seen.set(e, { types: [], foreign: 0, any: false }).get(e)!;
  const embedFrameIds = new Set(embeds.map((e) => e.frameId).filter((id) => id !== undefined && id !== 0));
  for (let k = 0; k < records.length; k++) {
    const r = records[k];
    if (r.navigation) {
      continue;
    }
    if (
      (r.kind === 'post' && r.frameId === 0 && !r.injected) ||
      (r.frameId !== undefined && embedFrameIds.has(r.frameId))
    ) {
      said.actionsVisible = true;
    }
    const d = dataOf(r);
    const svc = !!d && isSvcEmbed(d);
    // A post and its delivery are one message: judge it once, at its first observation.
    if (r.kind === 'receive' && r.pairedWith !== undefined) {
      const e = svc && d.direction === 'event' ? current(r, k) : undefined;
      if (e) {
        sawOf(e).any = true;
      }
      if (svc && d.direction === 'event' && r.frameId === 0) {
        said.events++;
      }
      continue;
    }
    if (!svc) {
      for (const e of embeds) {
        if (e.frameId !== undefined && r.frameId === e.frameId && before(e, r, k)) {
          const s = sawOf(e);
          s.foreign++;
          s.any = true;
        }
      }
      continue;
    }
    if (d.direction === 'action') {
      // the host's post, or (receive-only: no posts recorded) its delivery; the panel's own sends are not the host's
      if (!r.injected) {
        said.actions++;
      }
      continue;
    }
    if (d.direction !== 'event') {
      continue;
    }
    if (
      (r.kind === 'receive' && (r.frameId === 0 || r.frameId === undefined)) ||
      (r.kind === 'post' && r.pairedWith !== undefined)
    ) {
      said.events++;
    }
    const type = typeof d.type === 'string' ? d.type : '(no type)';
    const e = current(r, k, type);
    if (e) {
      heardEvent(e, sawOf(e), r, d, type, said);
    }
  }
  return said;
}

/** Event `r` (of type `type`, data `d`) from embed document e: what it says of the document's start and waits. */
function heardEvent(e: EmbedFrame, s: Seen, r: Rec, d: Record<string, unknown>, type: string, said: Said): void {
  s.any = true;
  if (!s.types.includes(type)) {
    s.types.push(type);
  }
  const p = payloadOf(d);
  if (type === 'svc:event:ready') {
    said.anyReady = true;
    if (e.ready === null) {
      e.ready = r.seq;
      const surface = typeof d.surface === 'string' ? d.surface : p.surface;
      if (surface === 'dashboard') {
        said.waitingLoaded.set(e, r);
      }
    }
  } else if (type === 'svc:event:dashboard-loaded') {
    said.waitingLoaded.delete(e);
  } else if (type === 'svc:event:error' && p.fatal === true && e.ready === null && e.failed === null) {
    e.failed = typeof p.message === 'string' ? p.message : '(no message)';
  } else if (type === 'svc:event:ai-query') {
    const byChat = typeof p.chatId === 'string' ? `${e.seq}|c:${p.chatId}` : null;
    const byQuery = `${e.seq}|q:${String(p.query)}`;
    if (p.status === 'submitted') {
      said.waitingAi.set(byChat ?? byQuery, { r, e });
    } else if (p.status === 'completed' || p.status === 'error') {
      // An answer names its chat, or only its query (a new chat may get its id with the answer).
      if (!(byChat && said.waitingAi.delete(byChat))) {
        said.waitingAi.delete(byQuery);
      }
    }
  }
}

/**
 * Never ready: only an embed whose start is in the stream (one known from its posts alone may have said ready
 * before the stream starts, e.g. before a Clear), with what its frame said and the likely causes.
 */
function judgeNeverReady(embeds: readonly EmbedFrame[], seen: ReadonlyMap<EmbedFrame, Seen>, found: Findings): void {
  for (const e of embeds) {
    if (e.ready !== null || !e.loaded || !found.overdue(e.time, e.end)) {
      continue;
    }
    const s = seen.get(e);
    const urlIssues = (found.issues.get(e.seq) ?? []).filter((i) => i.rule.startsWith('url.') && i.severity !== 'info');
    const saw: string[] = [];
    if (s?.types.length) {
      saw.push(`events ${s.types.map((t) => t.replace('svc:event:', '')).join(', ')}`);
    }
    if (e.failed) {
      saw.push(`a fatal error: "${e.failed}"`);
    }
    if (s?.foreign) {
      saw.push(`${s.foreign} other message${s.foreign === 1 ? '' : 's'}`);
    }
    const causes: string[] = [];
    if (e.failed) {
      causes.push('the embed could not start (it said why: an expired or invalid session is the usual cause)');
    }
    if (urlIssues.length) {
      causes.push(`its address: ${urlIssues.map((i) => i.rule).join(', ')}`);
    }
    if (!s?.any) {
      causes.push(
        'its page ran no embed: a wrong path (404), a frame the tenant refuses (X-Frame-Options, CSP frame-ancestors) or a network error',
        `capture is off for ${e.origin ?? 'its origin'} (nothing of that frame was recorded)`,
      );
    }
    if (!e.failed) {
      causes.push('an expired or invalid session, or a tenant that does not allow embedding on this host');
    }
    const { file } = found.opts;
    const waited = found.waited(e.time);
    found.add(
      e.seq,
      issue(
        'silence.never-ready',
        'type',
        `the embed at ${shownUrl(e.url)} loaded ${file ? `and never said ready ${waited}` : `${waited} and never said ready`}. ` +
          `Seen from that frame: ${saw.length ? saw.join('; ') : 'nothing'}. Likely causes: ${causes.map((c, k) => `${k + 1}) ${c}`).join('; ')}.`,
      ),
    );
  }
}

/** A dashboard that said ready but never loaded its data; an AI query never answered. */
function judgeUnanswered(said: Said, found: Findings): void {
  const { file } = found.opts;
  for (const [e, r] of said.waitingLoaded) {
    if (!found.overdue(r.time, e.end)) {
      continue;
    }
    const waited = found.waited(r.time);
    found.add(
      r.seq,
      issue(
        'silence.no-dashboard-loaded',
        'type',
        `the dashboard said ready ${file ? '' : `${waited} `}but no dashboard-loaded followed${file ? ` ${waited}` : ''}: a widget's data may never have loaded`,
      ),
    );
  }
  for (const [, { r, e }] of said.waitingAi) {
    if (!found.overdue(r.time, e.end)) {
      continue;
    }
    const p = payloadOf(dataOf(r) ?? {});
    const waited = found.waited(r.time);
    found.add(
      r.seq,
      issue(
        'silence.ai-query-unanswered',
        'payload.status',
        `ai-query submitted${typeof p.chatId === 'string' ? ` in chat "${p.chatId}"` : ''} ${file ? '' : `${waited} `}and never completed nor failed${file ? ` ${waited}` : ''}`,
      ),
    );
  }
}

/**
 * A sieve for a stream read as it comes, from its start: it lets through the records `diagnose` needs for its
 * `embeds` and `notes`, so that `diagnose` of what it let through finds the same embeds (the same seqs, readies,
 * documents) and notes as of the whole stream, in time that does not grow with it: every navigation and every
 * `ready`; between two navigations, the first event each frame posts from each origin (where an embed may be
 * found); the first event and the first action of each kind `diagnose` counts; the first record of each frame (what
 * tells whether the host's actions could be seen). Its issues differ (never-ready's text counts what the frame
 * said). `svcEmbedSeen`: whether any svc-embed message came, as `integrationState` asks. The panel's integration
 * line keeps what it lets through as records arrive (one sieve per page).
 */
export function diagnosisSieve(): DiagnosisSieve {
  /** The origins each frame (by id, else URL) posted a first event from since the last navigation. */
  let posted = new Map<number | string, unknown[]>();
  /** Frames (by id) of which a record went through (the last one's id apart: most records come from it). */
  const frames = new Set<number>();
  let lastFrame: number | undefined;
  /** Whether the host's own post went through. */
  let hostPosted = false;
  /** Kinds of events and actions (bit sets over kind, paired, frame or injected) of which one went through. */
  let events = 0;
  let actions = 0;
  let svc = false;
  /** The first event its frame posted from its origin since the last navigation. */
  const firstPosted = (r: Rec) => {
    const frame = r.frameId !== undefined ? r.frameId : r.frameUrl;
    const origins = posted.get(frame);
    if (!origins) {
      posted.set(frame, [r.origin]);
      return true;
    }
    if (!origins.includes(r.origin)) {
      origins.push(r.origin);
      return true;
    }
    return false;
  };
  // (called once per record as a log loads, mostly before V8 optimizes it: few operations, no allocation)
  const keepRead: DiagnosisSieve['keepRead'] = (r, nav, kind, isSvc, direction, type) => {
    if (nav) {
      posted = new Map();
      return true;
    }
    let keep = false;
    const f = r.frameId;
    if (f !== undefined && f !== lastFrame) {
      lastFrame = f;
      if (!frames.has(f)) {
        frames.add(f);
        keep = true;
      }
    }
    const post = kind === 'post';
    if (!hostPosted && post && f === 0 && !r.injected) {
      hostPosted = keep = true;
    }
    if (!isSvc) {
      return keep;
    }
    svc = true;
    const paired = r.pairedWith !== undefined ? 1 : 0;
    const k = post ? 0 : kind === 'receive' ? 1 : 2;
    if (direction === 'event') {
      const bit = 1 << (k * 6 + paired * 3 + (f === 0 ? 0 : f === undefined ? 1 : 2));
      if (!(events & bit)) {
        events |= bit;
        keep = true;
      }
      if (post && firstPosted(r)) {
        keep = true;
      }
      return keep || type === 'svc:event:ready';
    }
    if (direction === 'action') {
      const bit = 1 << (k * 4 + paired * 2 + (r.injected ? 1 : 0));
      if (!(actions & bit)) {
        actions |= bit;
        keep = true;
      }
    }
    return keep;
  };
  return {
    get svcEmbedSeen() {
      return svc;
    },
    keepRead,
    keep(r) {
      const d = r.data as Record<string, unknown> | null;
      if (r.navigation || !isSvcEmbed(d) || Array.isArray(d)) {
        return keepRead(r, !!r.navigation, String(r.kind), false, '', '');
      }
      const { direction, type } = d as Record<string, unknown>;
      return keepRead(
        r,
        false,
        String(r.kind),
        true,
        typeof direction === 'string' ? direction : '',
        typeof type === 'string' ? type : '',
      );
    },
  };
}

/** A sieve of the records `diagnose` needs (`diagnosisSieve`). */
export interface DiagnosisSieve {
  /** Whether `diagnose` needs record r (the records are given in stream order, each once). */
  keep(r: Rec): boolean;
  /**
   * `keep`, given what it reads of the record's message, as read once already by the caller (the panel's per-record
   * facts): a navigation; its kind; an svc-embed envelope (a plain object whose `source` is svc-embed) and then its
   * `direction` and `type` when strings, else ''.
   */
  keepRead(r: Rec, nav: boolean, kind: string, svc: boolean, direction: string, type: string): boolean;
  /** Whether any svc-embed message went through. */
  readonly svcEmbedSeen: boolean;
}

/** Whether an issue is the diagnosis's (its address, what did not happen): judged again as a whole, not per record. */
export const isDiagnosisIssue = (i: { rule: string }): boolean =>
  i.rule.startsWith('url.') || i.rule.startsWith('silence.');

/**
 * The words for an embed address's findings: the count is the number of its findings as every list shows them (the
 * row's count, the detail's Issues tab, the command line's lines under the frame), the notes among them named as such.
 */
function addressText(issues: readonly Issue[]): string {
  const all = issues.filter((i) => i.rule.startsWith('url.') && !i.sender);
  const problems = all.filter((i) => i.severity !== 'info').length;
  const n = all.length;
  if (problems === n) {
    return `the embed URL has ${n} problem${n === 1 ? '' : 's'}`;
  }
  const notes = n - problems;
  return `the embed URL has ${n} findings: ${problems} problem${problems === 1 ? '' : 's'}, ${notes} note${notes === 1 ? '' : 's'}`;
}

/** What a summary leads with: the integration's state in words, and the first record concerned. */
export interface IntegrationState {
  state:
    | 'healthy'
    | 'no-embed'
    | 'waiting'
    | 'failed-to-start'
    | 'never-ready'
    | 'address'
    | 'events-lost'
    | 'actions-wrong-origin'
    | 'errors'
    | 'warnings';
  text: string;
  /** The first record concerned, when there is one. */
  seq: number | null;
}

/** The first of the records' own issues (not a sender's) that `pred` holds of, and how many it holds of. */
function ownIssues<R extends { issues?: readonly Issue[] }>(records: readonly R[]) {
  // (indexed loops: the panel runs this once per load, before it is optimized, where an iterator per loop costs)
  const first = (pred: (i: Issue) => boolean): { r: R; i: Issue } | null => {
    for (let k = 0; k < records.length; k++) {
      const list = records[k].issues ?? [];
      for (let j = 0; j < list.length; j++) {
        if (!list[j].sender && pred(list[j])) {
          return { r: records[k], i: list[j] };
        }
      }
    }
    return null;
  };
  const count = (pred: (i: Issue) => boolean) => {
    let n = 0;
    for (let k = 0; k < records.length; k++) {
      const list = records[k].issues ?? [];
      for (let j = 0; j < list.length; j++) {
        if (!list[j].sender && pred(list[j])) {
          n++;
        }
      }
    }
    return n;
  };
  return { first, count };
}

/**
 * The integration's state, from the records (with their issues, diagnosis included), the diagnosis and the time:
 * the first that holds of: no embed; the embed failed to start; it never became ready; its address has problems;
 * its events do not reach the host; the host sends actions to the wrong origin; other errors; waiting for ready;
 * warnings; healthy.
 */
export function integrationState(
  records: readonly (Rec & { issues?: readonly Issue[] })[],
  diagnosis: Pick<Diagnosis, 'embeds'>,
  opts: { svcEmbedSeen?: boolean } = {},
): IntegrationState {
  const svc = opts.svcEmbedSeen ?? records.some((r) => !r.navigation && isSvcEmbed(r.data));
  if (!diagnosis.embeds.length && !svc) {
    return { state: 'no-embed', text: 'no embed on this page (no /embed/ frame, no svc-embed message)', seq: null };
  }
  const { first, count } = ownIssues(records);
  const failed = first((i) => i.rule === 'session.failed-before-ready');
  if (failed) {
    return { state: 'failed-to-start', text: failed.i.message, seq: failed.r.seq };
  }
  const never = first((i) => i.rule === 'silence.never-ready');
  if (never) {
    return { state: 'never-ready', text: 'the embed never became ready', seq: never.r.seq };
  }
  const url = first((i) => i.rule.startsWith('url.') && i.severity !== 'info');
  if (url) {
    return { state: 'address', text: addressText(url.r.issues ?? []), seq: url.r.seq };
  }
  const lost = first((i) => i.rule === 'origin.event-target');
  if (lost) {
    return {
      state: 'events-lost',
      text: `the embed's events do not reach the host: ${lost.i.message.replace(/^event /, '')}`,
      seq: lost.r.seq,
    };
  }
  const wrong = first((i) => ['origin.action-target', 'origin.action-wildcard'].includes(i.rule));
  if (wrong) {
    return {
      state: 'actions-wrong-origin',
      text:
        wrong.i.rule === 'origin.action-wildcard'
          ? 'the host sends actions to "*", not the tenant origin'
          : 'the host sends actions to the wrong origin',
      seq: wrong.r.seq,
    };
  }
  const err = (i: Issue) => i.severity === 'error';
  const e = first(err);
  if (e) {
    const n = count(err);
    return { state: 'errors', text: `${n} protocol error${n === 1 ? '' : 's'}, first ${e.i.rule}`, seq: e.r.seq };
  }
  const pending = diagnosis.embeds.find((x) => x.ready === null && x.loaded);
  if (pending) {
    return { state: 'waiting', text: 'waiting for the embed to say ready', seq: pending.seq };
  }
  const warn = (i: Issue) => i.severity === 'warning';
  const w = first(warn);
  if (w) {
    const n = count(warn);
    return {
      state: 'warnings',
      text: `healthy, with ${n} warning${n === 1 ? '' : 's'}, first ${w.i.rule}`,
      seq: w.r.seq,
    };
  }
  return { state: 'healthy', text: 'healthy', seq: null };
}
