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

/** Diagnose a stream in causal order. */
export function diagnose(input: readonly Rec[], opts: DiagnoseOptions): Diagnosis {
  const limit = opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const issues = new Map<number, Issue[]>();
  const add = (seq: number, i: Issue) => {
    const list = issues.get(seq);
    if (list) {
      list.push(i);
    } else {
      issues.set(seq, [i]);
    }
  };
  const records = input.filter((r) => r && typeof r.seq === 'number');
  const hostOrigin = hostOriginOf(records);
  const tenant = opts.tenantOrigin ? normalizeOrigin(opts.tenantOrigin) : null;
  let next: number | null = null;
  /** Whether the limit ran out while the embed's document lived (a document replaced sooner is not judged). */
  const overdue = (since: number, end = Number.POSITIVE_INFINITY) => {
    if (Math.min(opts.now, end) - since >= limit) {
      return true;
    }
    if (end === Number.POSITIVE_INFINITY) {
      next = next === null ? since + limit : Math.min(next, since + limit);
    }
    return false;
  };
  const waited = (since: number) =>
    opts.file ? `in the ${secs(opts.now - since)} the capture goes on after it` : `${secs(opts.now - since)} ago`;

  // ---- the embed frames: navigation records of /embed/ frames (not the top frame), else frames that posted events
  const embeds: EmbedFrame[] = [];
  const byKey = new Map<string, EmbedFrame>(); // frame id (or URL) → its current document
  for (const r of records) {
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
      const e: EmbedFrame = {
        seq: r.seq,
        url,
        origin: originOf(url),
        frameId: r.frameId,
        time: r.time,
        ready: null,
        failed: null,
        loaded: true,
        end: Number.POSITIVE_INFINITY,
      };
      embeds.push(e);
      byKey.set(key, e);
      for (const i of checkEmbedAddress(url, { tenantOrigin: tenant })) {
        add(r.seq, i);
      }
    } else if (r.kind === 'post' && d && isSvcEmbed(d) && d.direction === 'event') {
      const key = r.frameId !== undefined ? `f${r.frameId}` : r.frameUrl;
      if (!byKey.has(key) && !embeds.some((e) => e.origin === eventOrigin(r))) {
        const e: EmbedFrame = {
          seq: r.seq,
          url: r.frameUrl,
          origin: eventOrigin(r),
          frameId: r.frameId,
          time: r.time,
          ready: null,
          failed: null,
          loaded: false,
          end: Number.POSITIVE_INFINITY,
        };
        embeds.push(e);
        byKey.set(key, e);
      }
    }
  }

  // ---- what each embed said: the events after its document started, from its origin (its frame, for posts)
  const pos = new Map(records.map((r, k) => [r.seq, k]));
  const current = (r: Rec, type?: unknown): EmbedFrame | undefined => {
    const o = eventOrigin(r);
    const at = pos.get(r.seq) ?? 0;
    // A ready that cannot name its frame (a delivery, seen in the host page) belongs to the earliest document of its
    // origin still waiting for one: two embeds of one tenant each get theirs.
    if (type === 'svc:event:ready' && (r.kind !== 'post' || r.frameId === undefined)) {
      const waiting = embeds.find(
        (e) => e.origin === o && e.ready === null && (pos.get(e.seq) ?? 0) <= at && e.end >= r.time,
      );
      if (waiting) {
        return waiting;
      }
    }
    let hit: EmbedFrame | undefined;
    for (const e of embeds) {
      if ((pos.get(e.seq) ?? 0) > at) {
        continue;
      }
      if (e.origin !== o) {
        continue;
      }
      if (r.kind === 'post' && r.frameId !== undefined && e.frameId !== undefined && r.frameId !== e.frameId) {
        continue;
      }
      hit = e; // the latest document of that origin (and frame) started before this record
    }
    return hit;
  };
  const seen = new Map<EmbedFrame, { types: string[]; foreign: number; any: boolean }>();
  const sawOf = (e: EmbedFrame) => {
    let s = seen.get(e);
    if (!s) {
      s = { types: [], foreign: 0, any: false };
      seen.set(e, s);
    }
    return s;
  };
  // Per embed document: dashboard readies waiting for dashboard-loaded, AI queries waiting for their answer.
  const waitingLoaded = new Map<EmbedFrame, Rec>();
  const waitingAi = new Map<string, { r: Rec; e: EmbedFrame }>();
  let events = 0;
  let actions = 0;
  let anyReady = false;
  // Whether the capture could see the host's actions: the host frame hooked (its posts are recorded: full mode), or
  // an embed frame's relay recording (its posts, or deliveries to it: either mode). Receive-only on the host alone
  // sees none of them, and then nothing is said of them.
  const embedFrameIds = new Set(embeds.map((e) => e.frameId).filter((id) => id !== undefined && id !== 0));
  let actionsVisible = false;
  for (const r of records) {
    if (r.navigation) {
      continue;
    }
    if (
      (r.kind === 'post' && r.frameId === 0 && !r.injected) ||
      (r.frameId !== undefined && embedFrameIds.has(r.frameId))
    ) {
      actionsVisible = true;
    }
    const d = dataOf(r);
    // A post and its delivery are one message: judge it once, at its first observation.
    if (r.kind === 'receive' && r.pairedWith !== undefined) {
      const e = d && isSvcEmbed(d) && d.direction === 'event' ? current(r) : undefined;
      if (e) {
        sawOf(e).any = true;
      }
      if (d && isSvcEmbed(d) && d.direction === 'event' && r.frameId === 0) {
        events++;
      }
      continue;
    }
    if (!d || !isSvcEmbed(d)) {
      for (const e of embeds) {
        if (e.frameId !== undefined && r.frameId === e.frameId && (pos.get(e.seq) ?? 0) < (pos.get(r.seq) ?? 0)) {
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
        actions++;
      }
      continue;
    }
    if (d.direction !== 'event') {
      continue;
    }
    if (r.kind === 'receive' && (r.frameId === 0 || r.frameId === undefined)) {
      events++;
    } else if (r.kind === 'post' && r.pairedWith !== undefined) {
      events++;
    }
    const type = typeof d.type === 'string' ? d.type : '(no type)';
    const e = current(r, type);
    if (!e) {
      continue;
    }
    const s = sawOf(e);
    s.any = true;
    if (!s.types.includes(type)) {
      s.types.push(type);
    }
    const p = payloadOf(d);
    if (type === 'svc:event:ready') {
      anyReady = true;
      if (e.ready === null) {
        e.ready = r.seq;
        const surface = typeof d.surface === 'string' ? d.surface : p.surface;
        if (surface === 'dashboard') {
          waitingLoaded.set(e, r);
        }
      }
    } else if (type === 'svc:event:dashboard-loaded') {
      waitingLoaded.delete(e);
    } else if (type === 'svc:event:error' && p.fatal === true && e.ready === null && e.failed === null) {
      e.failed = typeof p.message === 'string' ? p.message : '(no message)';
    } else if (type === 'svc:event:ai-query') {
      const byChat = typeof p.chatId === 'string' ? `${e.seq}|c:${p.chatId}` : null;
      const byQuery = `${e.seq}|q:${String(p.query)}`;
      if (p.status === 'submitted') {
        waitingAi.set(byChat ?? byQuery, { r, e });
      } else if (p.status === 'completed' || p.status === 'error') {
        // An answer names its chat, or only its query (a new chat may get its id with the answer).
        if (!(byChat && waitingAi.delete(byChat))) {
          waitingAi.delete(byQuery);
        }
      }
    }
  }

  // ---- never ready (only an embed whose start is in the stream: one known from its posts alone may have said
  // ready before the stream starts, e.g. before a Clear)
  for (const e of embeds) {
    if (e.ready !== null || !e.loaded || !overdue(e.time, e.end)) {
      continue;
    }
    const s = seen.get(e);
    const urlIssues = (issues.get(e.seq) ?? []).filter((i) => i.rule.startsWith('url.') && i.severity !== 'info');
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
    add(
      e.seq,
      issue(
        'silence.never-ready',
        'type',
        `the embed at ${shownUrl(e.url)} loaded ${opts.file ? `and never said ready ${waited(e.time)}` : `${waited(e.time)} and never said ready`}. ` +
          `Seen from that frame: ${saw.length ? saw.join('; ') : 'nothing'}. Likely causes: ${causes.map((c, k) => `${k + 1}) ${c}`).join('; ')}.`,
      ),
    );
  }

  // ---- a dashboard that said ready but never loaded its data
  for (const [e, r] of waitingLoaded) {
    if (!overdue(r.time, e.end)) {
      continue;
    }
    add(
      r.seq,
      issue(
        'silence.no-dashboard-loaded',
        'type',
        `the dashboard said ready ${opts.file ? '' : `${waited(r.time)} `}but no dashboard-loaded followed${opts.file ? ` ${waited(r.time)}` : ''}: a widget's data may never have loaded`,
      ),
    );
  }

  // ---- an AI query never answered
  for (const [, { r, e }] of waitingAi) {
    if (!overdue(r.time, e.end)) {
      continue;
    }
    const p = payloadOf(dataOf(r) ?? {});
    add(
      r.seq,
      issue(
        'silence.ai-query-unanswered',
        'payload.status',
        `ai-query submitted${typeof p.chatId === 'string' ? ` in chat "${p.chatId}"` : ''} ${opts.file ? '' : `${waited(r.time)} `}and never completed nor failed${opts.file ? ` ${waited(r.time)}` : ''}`,
      ),
    );
  }

  // ---- a host that never acted (a note: many hosts never act)
  const notes: Issue[] = [];
  if (anyReady && events > 0 && actions === 0 && actionsVisible) {
    notes.push(
      issue(
        'silence.host-never-acted',
        'direction',
        'the host received the embed’s events but never sent an action (many hosts never do)',
      ),
    );
  }
  return { issues, notes, embeds, hostOrigin, next, actionsVisible };
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
  const first = (pred: (i: Issue) => boolean) => {
    for (const r of records) {
      for (const i of r.issues ?? []) {
        if (!i.sender && pred(i)) {
          return { r, i };
        }
      }
    }
    return null;
  };
  const count = (pred: (i: Issue) => boolean) => {
    let n = 0;
    for (const r of records) {
      for (const i of r.issues ?? []) {
        if (!i.sender && pred(i)) {
          n++;
        }
      }
    }
    return n;
  };
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
