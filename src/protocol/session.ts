/**
 * Session rules: a stateful checker over a stream of records, one session per embed. The stream is in causal
 * order (`order.ts`): the background, `checkRecords` and the panel feed it in that order.
 *
 * Each message is counted once, at its first observation: when both the post (in the sending frame) and
 * its delivery (in the receiving frame) are in the stream, the later one is skipped (it names the first in
 * `pairedWith`, or carries the same type, direction and timestamp).
 * Sessions are keyed by the embed's origin: events by the origin they come from, actions by the origin
 * they go to. A navigation of a frame of that origin (a reload of the embed) starts a new session. With the
 * tenant origin known, an event from another origin, or an action to another origin, belongs to no embed
 * session (`origin.event`, `origin.action-target` say what is wrong with it) and is not checked here.
 * Pure: no browser APIs; it never throws.
 */
import type { CaptureRecord } from './record.ts';
import { isSvcEmbed, issue, type Issue } from './classify.ts';
import { normalizeOrigin, originOf } from './origin.ts';
import { oldestKeys } from './maps.ts';
import { SeqWindow } from './seq-window.ts';

interface Session {
  ready: boolean;
  lastPath: string | null;
  lastTimestamp: number | null;
  /** Pending ai-queries: key (chatId, or "q:" + query) → count of `submitted` not yet completed. */
  pendingAi: Map<string, number>;
}

export interface SessionOptions {
  tenantOrigin?: string | null;
}
/**
 * What a checker knows at one point of the stream, as plain JSON: the embed sessions and the observations
 * waiting for their other half. The seqs it saw are left out (a record that names a forgotten seq in
 * `pairedWith` is matched by its fingerprint instead).
 */
/**
 * The sessions of a page's embeds that had said ready when the tab left the page, as a page shown again from the
 * back/forward cache goes on with them (on its navigation record: `restored`).
 */
export type ReadySessions = SessionState['sessions'];

/** Pending AI queries kept per session for a page shown again. */
const MAX_RESTORED_AI = 100;

export interface SessionState {
  sessions: Array<
    [
      string,
      { ready: boolean; lastPath: string | null; lastTimestamp: number | null; pendingAi: Array<[string, number]> },
    ]
  >;
  unmatchedPosts: Array<[string, number]>;
  unmatchedReceives: Array<[string, number]>;
  lastKey: string | null;
}
type Input = Partial<CaptureRecord> & { data: unknown };

const MAX_PENDING = 10_000;

/**
 * The seqs checked that a later half may name (`pairedWith`): the newest ones (a post and its delivery are close in a
 * log). The oldest half goes when full, rather than all at once: a partner checked just before is always known, and
 * a copy of the checker (the log's checkpoints, one on each late delivery) copies at most this many (seq-window.ts).
 */
const MAX_PROCESSED = 8_192;

/** A message's fingerprint: its direction, type and timestamp (both halves of one message carry the same). */
const fingerprint = (d: Record<string, unknown>): string =>
  `${String(d.direction)}|${String(d.type)}|${String(d.timestamp)}`;

/** Forget the oldest tenth of a full map (in one pass: see `oldestKeys`). */
function evictOldest(map: Map<string, number>): void {
  for (const k of oldestKeys(map, Math.max(1, Math.floor(map.size / 10)))) {
    map.delete(k);
  }
}

export class SessionChecker {
  private sessions = new Map<string, Session>();
  private processed = new SeqWindow<Input>(MAX_PROCESSED);
  private unmatchedPosts = new Map<string, number>();
  private unmatchedReceives = new Map<string, number>();
  private lastKey: string | null = null;

  constructor(
    private options: SessionOptions = {},
    state?: SessionState | null,
  ) {
    if (state) {
      for (const [k, v] of state.sessions) {
        this.sessions.set(k, { ...v, pendingAi: new Map(v.pendingAi) });
      }
      this.unmatchedPosts = new Map(state.unmatchedPosts);
      this.unmatchedReceives = new Map(state.unmatchedReceives);
      this.lastKey = state.lastKey;
    }
  }

  /** The sessions whose embed has said ready, now, with their state (a page left may be shown again). */
  readySessions(): ReadySessions {
    return [...this.sessions].flatMap(([k, v]) =>
      v.ready ? [[k, { ...v, pendingAi: [...v.pendingAi].slice(0, MAX_RESTORED_AI) }] as ReadySessions[number]] : [],
    );
  }

  /** The checker's state now (a copy): a new checker built from it goes on from this point of the stream. */
  save(): SessionState {
    const waiting = this.clone();
    for (const note of waiting.processed.allNotes()) {
      waiting.fileUnmatched(note); // (a state has no seqs: first halves waiting on theirs go by fingerprint)
    }
    return {
      sessions: [...this.sessions].map(([k, v]) => [k, { ...v, pendingAi: [...v.pendingAi] }]),
      unmatchedPosts: [...waiting.unmatchedPosts],
      unmatchedReceives: [...waiting.unmatchedReceives],
      lastKey: this.lastKey,
    };
  }

  /** A checker in this one's state, independent of it (to check a stream again from this point). */
  clone(): SessionChecker {
    const c = new SessionChecker(this.options);
    for (const [k, s] of this.sessions) {
      c.sessions.set(k, { ...s, pendingAi: new Map(s.pendingAi) });
    }
    c.processed = this.processed.copy();
    c.unmatchedPosts = new Map(this.unmatchedPosts);
    c.unmatchedReceives = new Map(this.unmatchedReceives);
    c.lastKey = this.lastKey;
    return c;
  }

  /** Session issues of one record, in stream order. Never throws. */
  check(record: Input): Issue[] {
    try {
      return this.checkUnsafe(record);
    } catch {
      return [];
    }
  }

  private checkUnsafe(record: Input): Issue[] {
    if (record.navigation) {
      this.onNavigation(record);
      return [];
    }
    if (!isSvcEmbed(record.data)) {
      return [];
    }
    const d = record.data as Record<string, unknown>;
    const direction = d.direction;
    if (direction !== 'event' && direction !== 'action') {
      return [];
    }

    // Count each message once: skip an observation whose other half (post or delivery) was already counted.
    if (this.seenOtherHalf(record, d)) {
      return [];
    }

    const key = this.keyOf(record, direction);
    const tenant = this.options.tenantOrigin ? normalizeOrigin(this.options.tenantOrigin) : null;
    if (tenant !== null && key !== tenant) {
      return [];
    }
    const s = this.session(key);
    if (direction === 'action') {
      return s.ready
        ? []
        : [
            issue(
              'session.action-before-ready',
              'type',
              `${String(d.type)} was sent before the embed reported ready; it may be lost`,
            ),
          ];
    }
    return this.eventIssues(s, d);
  }

  /** An event's issues in its session: its timestamp's order, its place around ready, its paths and AI queries. */
  private eventIssues(s: Session, d: Record<string, unknown>): Issue[] {
    const out: Issue[] = [];
    const type = d.type;
    const p = (d.payload && typeof d.payload === 'object' ? d.payload : {}) as Record<string, unknown>;
    if (typeof d.timestamp === 'number' && Number.isFinite(d.timestamp)) {
      if (s.lastTimestamp !== null && d.timestamp < s.lastTimestamp) {
        out.push(
          issue(
            'session.timestamp-order',
            'timestamp',
            `timestamp ${d.timestamp} is ${s.lastTimestamp - d.timestamp} ms earlier than the previous event of this embed`,
          ),
        );
      }
      s.lastTimestamp = Math.max(d.timestamp, s.lastTimestamp ?? -Infinity);
    }
    switch (type) {
      case 'svc:event:ready':
        if (s.ready) {
          out.push(
            issue(
              'session.ready-duplicate',
              'type',
              'a second ready in the same session; ready is emitted once per session',
            ),
          );
        }
        s.ready = true;
        return out;
      case 'svc:event:dashboard-loaded':
        if (!s.ready) {
          out.push(
            issue(
              'session.loaded-before-ready',
              'type',
              'dashboard-loaded before ready; it fires after data loads, ready at mount',
            ),
          );
        }
        return out;
    }
    if (!s.ready && type === 'svc:event:error' && p.fatal === true) {
      out.push(
        issue(
          'session.failed-before-ready',
          'type',
          `the embed failed to start: ${typeof p.message === 'string' ? p.message : 'no message'}`,
        ),
      );
      return out;
    }
    if (!s.ready) {
      out.push(
        issue(
          'session.event-before-ready',
          'type',
          `${String(type)} arrived before ready; ready is the first event of a session`,
        ),
      );
    }
    this.follow(s, type, p, out);
    return out;
  }

  /** The path a view or navigate leaves the session at, and the AI queries left without an answer. */
  private follow(s: Session, type: unknown, p: Record<string, unknown>, out: Issue[]): void {
    if (type === 'svc:event:view' && typeof p.path === 'string') {
      s.lastPath = p.path;
    } else if (type === 'svc:event:navigate' && typeof p.path === 'string') {
      if (typeof p.previousPath === 'string' && s.lastPath !== null && p.previousPath !== s.lastPath) {
        out.push(
          issue(
            'session.previous-path',
            'payload.previousPath',
            `previousPath "${p.previousPath}" differs from the last path seen, "${s.lastPath}"`,
          ),
        );
      }
      s.lastPath = p.path;
    } else if (type === 'svc:event:ai-query' && typeof p.query === 'string') {
      const aiKey = typeof p.chatId === 'string' ? `c:${p.chatId}` : `q:${p.query}`;
      const n = s.pendingAi.get(aiKey) ?? 0;
      if (p.status === 'submitted') {
        s.pendingAi.set(aiKey, n + 1);
      } else if (p.status === 'completed' || p.status === 'error') {
        if (n === 0) {
          out.push(
            issue(
              'session.ai-query-unmatched',
              'payload.status',
              `ai-query ${p.status} without a submitted for ${aiKey.startsWith('c:') ? `chat "${p.chatId}"` : `query "${p.query}"`}`,
            ),
          );
        } else if (n === 1) {
          s.pendingAi.delete(aiKey);
        } else {
          s.pendingAi.set(aiKey, n - 1);
        }
      }
    }
  }

  /**
   * Whether this record's other half was already counted: named in `pairedWith`, or an unmatched observation
   * of the other kind with the same fingerprint (type, direction, timestamp). Either half may come first.
   * A first half that names its partner waits as a note on its seq, not by its fingerprint: its partner names it
   * back (the log pairs both halves at once). It is filed by its fingerprint only when the window forgets its seq.
   */
  private seenOtherHalf(record: Input, d: Record<string, unknown>): boolean {
    const seq = typeof record.seq === 'number' && !Number.isNaN(record.seq) ? record.seq : undefined;
    if (seq !== undefined) {
      for (const note of this.processed.add(seq) ?? []) {
        this.fileUnmatched(note);
      }
    }
    if (record.kind !== 'post' && record.kind !== 'receive') {
      return false;
    }
    const other = record.kind === 'post' ? this.unmatchedReceives : this.unmatchedPosts;
    const partner = record.pairedWith;
    const paired = partner !== undefined && this.processed.has(partner);
    if (paired && this.processed.takeNote(partner) !== undefined) {
      return true; // (the partner waited as a note: no fingerprint of it is filed)
    }
    // The fingerprint where it is needed: to drop a partner filed by it, to find a filed half, or to file this one
    // (it names no partner, or has no seq to note).
    const fp = paired || other.size || partner === undefined || seq === undefined ? fingerprint(d) : '';
    const waiting = fp ? (other.get(fp) ?? 0) : 0;
    if (paired || waiting > 0) {
      if (waiting > 1) {
        other.set(fp, waiting - 1);
      } else if (waiting === 1) {
        other.delete(fp);
      }
      return true;
    }
    if (fp) {
      this.fileUnmatched(record, fp);
    } else {
      this.processed.note(seq as number, record);
    }
    return false;
  }

  /** Files a first half by its fingerprint, to be matched by a later half of the other kind. */
  private fileUnmatched(record: Input, fp = fingerprint(record.data as Record<string, unknown>)): void {
    const mine = record.kind === 'post' ? this.unmatchedPosts : this.unmatchedReceives;
    if (mine.size >= MAX_PENDING) {
      evictOldest(mine);
    }
    mine.set(fp, (mine.get(fp) ?? 0) + 1);
  }

  private keyOf(record: Input, direction: string): string {
    let key: string | null = null;
    if (direction === 'event') {
      key = record.origin ? normalizeOrigin(record.origin) : originOf(record.frameUrl);
    } else if (record.kind === 'receive') {
      key = originOf(record.frameUrl);
    } else {
      const t = record.targetOrigin;
      if (t && t !== '*' && t !== '/') {
        key = normalizeOrigin(t);
      } else {
        key =
          originOf(record.targetUrl) ??
          (this.options.tenantOrigin ? normalizeOrigin(this.options.tenantOrigin) : this.lastKey);
      }
    }
    key = key ?? this.lastKey ?? '(unknown)';
    if (direction === 'event') {
      this.lastKey = key;
    }
    return key;
  }

  private session(key: string): Session {
    let s = this.sessions.get(key);
    if (!s) {
      s = { ready: false, lastPath: null, lastTimestamp: null, pendingAi: new Map() };
      this.sessions.set(key, s);
    }
    return s;
  }

  /**
   * A frame navigated: the sessions of its origin end; a top-level navigation ends every one. A page shown again
   * from the back/forward cache (`restored`: the same document, and its embeds, as when the tab left it) goes on
   * with the sessions that were ready then (`sessions`): what its host sends next is not before ready.
   */
  private onNavigation(record: Input): void {
    const data = record.data as { url?: unknown; restored?: unknown; sessions?: unknown } | null;
    const o = originOf(typeof data?.url === 'string' ? data.url : record.frameUrl);
    if (o) {
      this.sessions.delete(o);
    }
    if (record.frameId === 0 || (record.frameId === undefined && !o)) {
      this.sessions.clear();
      if (data?.restored === true && Array.isArray(data.sessions)) {
        for (const entry of data.sessions) {
          const s = restoredSession(entry);
          if (s) {
            this.sessions.set(s[0], s[1]);
          }
        }
      }
    }
  }
}

/** A ready session of a restored page's navigation record (a file's may be anything), or null. */
function restoredSession(entry: unknown): [string, Session] | null {
  if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'object' || entry[1] === null) {
    return null;
  }
  const v = entry[1] as Record<string, unknown>;
  const pendingAi = new Map<string, number>();
  for (const p of Array.isArray(v.pendingAi) ? v.pendingAi.slice(0, MAX_RESTORED_AI) : []) {
    if (Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'number' && p[1] > 0) {
      pendingAi.set(p[0], p[1]);
    }
  }
  return [
    entry[0],
    {
      ready: true,
      lastPath: typeof v.lastPath === 'string' ? v.lastPath : null,
      lastTimestamp: typeof v.lastTimestamp === 'number' ? v.lastTimestamp : null,
      pendingAi,
    },
  ];
}
