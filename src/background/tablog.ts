/**
 * One tab's log: order and numbering, classification (stateless rules + session checker, with the tenant origin
 * given by hand or inferred), pairing, and the bound (eviction.ts: what goes first). Pure (no browser API):
 * the background persists and publishes what `add` reports.
 *
 * The log's segments: Clear empties the log but the embed sessions go on (the checker's state where the held
 * log starts is `sessionBase`); with preserve log, a top-level navigation starts a new page (`pageStartSeq`),
 * whose tenant origin is inferred anew (a hand-set one applies to the whole log).
 *
 * Order: the log is in causal order (`causalOrder`: a frame's own order, a post before its delivery, else capture
 * time), and `seq` follows it. Frames hand their records over at different times, so a batch may hold records
 * older than some already numbered: they are placed by time, the records from that point on are numbered again
 * (the same seqs, in the new order) and checked again by the session checker, from the last checkpoint of its
 * state before that point.
 */
import {
  applySenderIssues,
  causalOrder,
  classify,
  SessionChecker,
  verdictOf,
  normalizeOrigin,
  originOf,
  diagnose,
  isDiagnosisIssue,
  DEFAULT_READY_TIMEOUT_MS,
  type SessionState,
} from '../protocol/index.ts';
import type { ReadySessions } from '../protocol/session.ts';
import type { CaptureFile, CaptureRecord } from '../protocol/record.ts';
import { TenantFinder, type TenantFound } from '../protocol/tenant.ts';
import { CAPTURE_FORMAT, CAPTURE_VERSION } from '../protocol/record.ts';
import type { Issue } from '../protocol/classify.ts';
import { newTabState, type ClassifiedRecord, type RawRecord, type TabState } from '../shared/messages.ts';
import { Pairer, judgeDropped, type FrameInfo, type FrameTree } from './pairing.ts';
import { Eviction, noneDropped } from './eviction.ts';

export interface AddResult {
  added: ClassifiedRecord[];
  /** Records already published that changed (paired). */
  updated: ClassifiedRecord[];
  /** Seqs evicted by the bounds. */
  removed: number[];
  /** The tenant origin changed: every record was re-classified (publish a fresh snapshot). */
  reclassified: boolean;
  /**
   * Records older than some already numbered came: every held record from this seq on was placed and checked
   * again (publish them all, in seq order, in place of those the panels hold from this seq on).
   */
  reorderedFrom?: number;
}

/**
 * Judging the page (`diagnose`, over every record of the current page) takes at most this share of the time: a
 * judgement that took d ms is followed by the next one no sooner than d / JUDGE_SHARE ms later (records that bear on
 * it meanwhile owe one, made then: `nextDiagnosis`). A page of tens of thousands of records streaming ai-queries
 * is judged every second or two instead of on each batch; a small page, whose judgement is quicker than
 * JUDGE_AT_ONCE_MS, at once, always.
 */
const JUDGE_SHARE = 0.05;
const JUDGE_AT_ONCE_MS = 1;
/**
 * The session checker's state is kept before every CHECKPOINT_EVERY-th record checked, the last CHECKPOINTS times: a
 * late delivery (the log's tail placed again) checks again from the last one before it, on average half this many
 * records (4,096 made that most of a long log's work), and a checker's copy holds at most 8,192 seqs (session.ts).
 */
const CHECKPOINT_EVERY = 1024;
const CHECKPOINTS = 8;
const isSessionIssue = (i: { rule: string }) => i.rule.startsWith('session.');
/** A new record that may change what the diagnosis says: a navigation, an event the embed owes, any action. */
const bearsOnDiagnosis = (r: ClassifiedRecord): boolean => {
  if (r.navigation) {
    return true;
  }
  const d = r.data as { source?: unknown; type?: unknown; direction?: unknown } | null;
  return (
    !!d &&
    typeof d === 'object' &&
    d.source === 'svc-embed' &&
    (d.direction === 'action' ||
      d.type === 'svc:event:ready' ||
      d.type === 'svc:event:dashboard-loaded' ||
      d.type === 'svc:event:error' ||
      d.type === 'svc:event:ai-query')
  );
};

/** The background's new tab state: the shared one (a panel's copy starts the same). */
export const newState = (tabId: number, prior?: Partial<TabState>): TabState => newTabState(tabId, prior);

/** What the rest of the background reads of a tab's log (it writes only through TabLog's methods). */
export type TabLogView = Pick<TabLog, 'records' | 'nextSeq' | 'frames' | 'state' | 'sessionBase'>;

/**
 * A tab's log. Its fields are its own: the session reads them through read-only views and changes them only
 * through the named methods below (one writer).
 */
export class TabLog {
  private readonly heldRecords = new Map<number, ClassifiedRecord>();
  private nextSeqNo = 1;
  private frameTree: FrameTree = new Map();
  private tabState: TabState;
  private eviction = new Eviction();
  /** Seq of the last message (not navigation) added. */
  private lastMessageSeq = 0;
  /** The embed sessions that have said ready, at the end of the log, with their state. */
  readySessions(): ReadySessions {
    return this.session.readySessions();
  }
  /** The session checker's state where the held log starts (after a Clear), null for a fresh one. */
  private baseSession: SessionState | null;
  private session: SessionChecker;
  /** `checker`: the session checker's state before the held record `seq` (and those after it) was checked. */
  private checkpoints: Array<{ seq: number; checker: SessionChecker }> = [];
  private sinceCheckpoint = 0;
  private pairer = new Pairer(
    () => this.frameTree,
    () => this.tabState.maxRecords,
  );

  private checkpointEvery: number;
  private checkpointCount: number;
  /** How long an embed has to say ready, a dashboard to load, an AI query its answer (protocol/diagnose.ts). */
  private readyLimitMs = DEFAULT_READY_TIMEOUT_MS;
  /** The earliest time a limit runs out (diagnose again then), or null. */
  private nextLimitAt: number | null = null;
  /** The current page's tenant origin as its facts say (protocol/tenant.ts); applied unless one was set by hand. */
  private tenant = new TenantFinder();
  /** The last judgement of the page: when it ended and what it took (ms, by `clock`); when an owed one runs. */
  private judgedAt = Number.NEGATIVE_INFINITY;
  private judgeMs = 0;
  private owedAt: number | null = null;
  /** A monotonic clock in ms (the judgement's cost and spacing). */
  private readonly clock: () => number;

  constructor(
    state: TabState,
    restored: ClassifiedRecord[] = [],
    nextSeq = 1,
    opts: {
      checkpointEvery?: number;
      checkpoints?: number;
      sessionBase?: SessionState | null;
      clock?: () => number;
    } = {},
  ) {
    this.tabState = state;
    this.clock = opts.clock ?? (() => performance.now());
    this.checkpointEvery = opts.checkpointEvery ?? CHECKPOINT_EVERY;
    this.checkpointCount = opts.checkpoints ?? CHECKPOINTS;
    this.baseSession = opts.sessionBase ?? null;
    this.tabState.droppedBy ??= noneDropped();
    this.session = this.checkerAt(this.baseSession);
    this.restartCheckpoints();
    for (const r of restored) {
      if (r.seq >= (this.tabState.pageStartSeq ?? 0)) {
        this.tenant.record(r);
      }
      this.heldRecords.set(r.seq, r);
      if (!r.navigation) {
        this.lastMessageSeq = r.seq;
      }
      this.advance(r);
      if (r.pairedWith === undefined) {
        this.pairer.add(r);
      }
    }
    this.eviction.rebuild(this.heldRecords.values(), this.tabState.maxRecords);
    this.tabState.foreignCount = this.eviction.foreignCount;
    this.nextSeqNo = Math.max(nextSeq, (restored.at(-1)?.seq ?? 0) + 1);
  }

  // ------------------------------------------------------------------------------------------ read-only views

  /** The held records by seq, in log order. */
  get records(): ReadonlyMap<number, ClassifiedRecord> {
    return this.heldRecords;
  }
  /** The seq the next record gets. */
  get nextSeq(): number {
    return this.nextSeqNo;
  }
  /** The tab's frames as the log knows them (pairing and routing read them). */
  get frames(): ReadonlyMap<number, Readonly<FrameInfo>> {
    return this.frameTree;
  }
  /** Settings and counters (a copy is what leaves the background). */
  get state(): Readonly<TabState> {
    return this.tabState;
  }
  /** The session checker's state where the held log starts (after a Clear), null for a fresh one. */
  get sessionBase(): SessionState | null {
    return this.baseSession;
  }
  /** How long an embed has to say ready, a dashboard to load, an AI query its answer (protocol/diagnose.ts). */
  get readyTimeoutMs(): number {
    return this.readyLimitMs;
  }
  /** The earliest time a limit runs out or an owed judgement may run (diagnose again then), or null. */
  get nextDiagnosis(): number | null {
    if (this.owedAt === null) {
      return this.nextLimitAt;
    }
    return this.nextLimitAt === null ? this.owedAt : Math.min(this.nextLimitAt, this.owedAt);
  }

  // ------------------------------------------------------------------------------------------ mutators

  setPreserveLog(on: boolean): void {
    this.tabState.preserveLog = on;
  }
  setPaused(on: boolean): void {
    this.tabState.paused = on;
  }
  /** The extension-wide ready limit (judged with it from the next `diagnose`). */
  setReadyTimeout(ms: number): void {
    this.readyLimitMs = ms;
  }
  /** The top frame's address seen before its navigation (a relay's hello): the page's, unless one is known. */
  pageSeen(url: string): void {
    if (!this.tabState.pageUrl) {
      this.tabState.pageUrl = url;
    }
  }
  /** A frame joined the tab or went to another address (the tenant origin's evidence applies at the next add). */
  setFrame(frame: FrameInfo): void {
    this.frameTree.set(frame.frameId, frame);
    this.tenant.frame(frame.url);
  }
  /** A new top document: its frames are gone but the top one, now at `url`. */
  newTopFrame(url: string): void {
    const top = this.frameTree.get(0);
    this.frameTree = new Map([[0, { ...(top ?? { parentFrameId: -1 }), frameId: 0, url }]]);
  }
  /** The tab's document left the capture scope: none of its frames is known any more. */
  forgetFrames(): void {
    this.frameTree = new Map();
  }
  /** Records numbered from `seq0` were stored before they were added: the numbering never goes below it. */
  continueNumberingAt(seq0: number): void {
    this.nextSeqNo = Math.max(this.nextSeqNo, seq0);
  }

  // ------------------------------------------------------------------------------------------ the log

  /** Start a new log (top-level navigation). Settings and a hand-set tenant origin stay. */
  reset(pageUrl: string | null): void {
    this.heldRecords.clear();
    this.eviction.clear();
    this.pairer.clear();
    this.nextLimitAt = null;
    this.baseSession = null;
    const manual = this.tabState.tenantOriginSource === 'manual';
    this.tabState = {
      ...this.tabState,
      pageUrl,
      dropped: 0,
      foreignCount: 0,
      droppedBy: noneDropped(),
      total: 0,
      pageStartSeq: 0,
      readyBeforeClear: undefined,
      tenantOrigin: manual ? this.tabState.tenantOrigin : null,
      tenantOriginSource: manual ? 'manual' : null,
      tenantOriginFrame: undefined,
    };
    this.tenant = this.newFinder();
    this.session = this.checkerAt(null);
    this.restartCheckpoints();
  }

  /**
   * Clear: the log is emptied, the page and its embed sessions go on (a `refresh` after it is not "before
   * ready"); the tenant origin, however found, stays.
   */
  clear(): void {
    this.heldRecords.clear();
    this.eviction.clear();
    this.baseSession = this.session.save();
    const readySeen = this.baseSession.sessions.some(([, v]) => v.ready);
    this.tabState = {
      ...this.tabState,
      readyBeforeClear: readySeen || undefined,
      dropped: 0,
      foreignCount: 0,
      droppedBy: noneDropped(),
      total: 0,
      pageStartSeq: this.nextSeqNo,
    };
    this.restartCheckpoints(this.nextSeqNo);
  }

  /**
   * A top-level navigation with preserve log on: the log goes on; the next page's tenant origin is inferred
   * from its own embed frames (a hand-set one stays).
   */
  newPage(pageUrl: string): void {
    this.tabState.pageUrl = pageUrl;
    this.tabState.pageStartSeq = this.nextSeqNo;
    this.tabState.readyBeforeClear = undefined;
    this.baseSession = null; // (a top-level navigation ends every session)
    this.tenant = this.newFinder();
    if (this.tabState.tenantOriginSource !== 'manual') {
      this.tabState.tenantOrigin = null;
      this.tabState.tenantOriginSource = null;
      this.tabState.tenantOriginFrame = undefined;
      this.session = this.checkerAt(null);
      this.checkpoints.push({ seq: this.nextSeqNo, checker: this.session.clone() });
      this.sinceCheckpoint = 0;
    }
  }

  private checkerAt(base: SessionState | null): SessionChecker {
    return new SessionChecker({ tenantOrigin: this.tabState.tenantOrigin }, base);
  }

  /**
   * Classify and keep new records: one or more frames' batches, each frame's records in the order the frame saw
   * them. They are taken over (mutated into the stored records), not copied.
   */
  /**
   * `judgePage` false: the page is not judged again after this batch (`diagnose` judges the whole page from scratch,
   * so a replay of stored batches judges it once, after the last one: see TabStorage.restore).
   */
  add(raws: Array<RawRecord & { frameId?: number }>, judgePage = true): AddResult {
    const out: AddResult = { added: [], updated: [], removed: [], reclassified: false };
    if (!raws.length) {
      return out;
    }
    const firstNew = this.nextSeqNo;
    const fresh: ClassifiedRecord[] = [];
    /** Held records from this seq on are placed again (Infinity: the new records go after every held one). */
    let cut = Infinity;
    let earliest = Infinity;
    for (const raw of raws) {
      if (raw.navigation && raw.frameId === 0) {
        this.newPage(raw.frameUrl);
      }
      // The raw record becomes the classified one (the caller hands over fresh objects: no copy per record).
      const rec = raw as ClassifiedRecord;
      rec.seq = this.nextSeqNo++;
      rec.verdict = 'foreign';
      rec.issues = [];
      if (rec.kind === 'post' && !rec.injected) {
        const dropped = judgeDropped(rec, this.frameTree);
        if (dropped) {
          rec.dropped = true;
        }
      }
      if (this.inferTenant(rec)) {
        out.reclassified = true;
      }
      // Pair first: the session checker counts a message once, skipping the side whose partner it saw.
      const partner = this.pairer.add(rec);
      if (partner) {
        // Either half may arrive first, in an earlier batch or in this one: an injected post marks its
        // delivery, and the other way round.
        if (partner.injected) {
          rec.injected = true;
        } else if (rec.injected) {
          partner.injected = true;
        }
      }
      if (partner && this.heldRecords.has(partner.seq)) {
        out.updated.push(partner);
        if (partner.kind === 'receive' && rec.kind === 'post') {
          cut = Math.min(cut, partner.seq); // a delivery already held goes after its post
        }
      }
      if (Number.isFinite(rec.time) && rec.time < earliest) {
        earliest = rec.time;
      }
      fresh.push(rec);
    }
    // Held records later than the earliest new one are placed again (usually none: an append).
    const first = this.heldRecords.keys().next().value ?? firstNew;
    for (let s = firstNew - 1; s >= first; s--) {
      const r = this.heldRecords.get(s);
      if (!r) {
        continue;
      }
      if (r.time <= earliest) {
        break;
      }
      cut = Math.min(cut, s);
    }
    const placed = this.place(fresh, cut, firstNew, out.updated);
    for (const rec of fresh) {
      if (rec.navigation) {
        continue;
      }
      const c = classify(rec, { tenantOrigin: this.tabState.tenantOrigin, hostOrigin: this.hostOrigin() });
      rec.verdict = c.verdict;
      rec.issues = c.issues;
    }
    for (const r of placed) {
      if (!r.navigation && r.seq > this.lastMessageSeq) {
        this.lastMessageSeq = r.seq;
      }
    }
    if (out.reclassified) {
      this.reclassify(this.tabState.pageStartSeq ?? 0);
    } else {
      if (cut !== Infinity) {
        this.resumeFrom(cut);
      }
      for (const r of placed) {
        this.judge(r);
      }
      // A post and its delivery are one message: the delivery shows the post's issues too (protocol/pairs.ts).
      for (const r of placed) {
        const partner = r.pairedWith === undefined ? undefined : this.heldRecords.get(r.pairedWith);
        if (partner) {
          this.shareSenderIssues(r, partner);
        }
      }
      if (cut === Infinity) {
        for (const r of placed) {
          this.eviction.add(r, this.tabState.maxRecords);
        }
      } else {
        this.eviction.refileFrom(cut, this.heldFrom(cut), this.tabState.maxRecords); // (seqs from the cut on changed)
      }
    }
    if (judgePage) {
      this.judgeAfterAdd(out, placed, fresh, cut);
    }
    this.tabState.total = (this.tabState.total ?? 0) + fresh.length;
    out.added = cut === Infinity ? placed : fresh.sort((a, b) => a.seq - b.seq);
    if (cut !== Infinity) {
      out.reorderedFrom = cut;
    }
    this.evict(out.removed);
    if (out.removed.length) {
      const gone = new Set(out.removed);
      out.added = out.added.filter((r) => !gone.has(r.seq));
      out.updated = out.updated.filter((r) => !gone.has(r.seq));
    }
    return out;
  }

  /**
   * Put the new records in their place: with the held records from `cut` on (none when `cut` is Infinity), in
   * causal order, numbered with the seqs those records had (the new ones' from `firstNew`). Pairs are renamed
   * on both sides; a held record before `cut` whose partner was renumbered joins `updated`. Returns the placed
   * records in their order.
   */
  private place(
    fresh: ClassifiedRecord[],
    cut: number,
    firstNew: number,
    updated: ClassifiedRecord[],
  ): ClassifiedRecord[] {
    const moved: ClassifiedRecord[] = [];
    if (cut !== Infinity) {
      for (let s = cut; s < firstNew; s++) {
        const r = this.heldRecords.get(s);
        if (r) {
          moved.push(r);
          this.heldRecords.delete(s);
        }
      }
    }
    const all = moved.length ? moved.concat(fresh) : fresh;
    const ordered = causalOrder(all);
    const seqs = all.map((r) => r.seq); // ascending: held ones, then the new ones
    const renamed = new Map<number, number>();
    for (let k = 0; k < ordered.length; k++) {
      if (ordered[k].seq !== seqs[k]) {
        renamed.set(ordered[k].seq, seqs[k]);
      }
    }
    if (renamed.size) {
      for (const r of ordered) {
        const p = r.pairedWith;
        const to = renamed.get(r.seq);
        if (p !== undefined && to !== undefined && !renamed.has(p)) {
          // The partner keeps its seq; if it is held before the cut, it names this record's new one.
          const partner = this.heldRecords.get(p);
          if (partner && partner.pairedWith === r.seq) {
            partner.pairedWith = to;
            updated.push(partner);
          }
        }
      }
      for (const r of ordered) {
        if (r.pairedWith !== undefined) {
          r.pairedWith = renamed.get(r.pairedWith) ?? r.pairedWith;
        }
      }
      for (const r of ordered) {
        r.seq = renamed.get(r.seq) ?? r.seq;
      }
    }
    for (const r of ordered) {
      this.heldRecords.set(r.seq, r);
    }
    return ordered;
  }

  /**
   * Set the tenant origin by hand (for the whole log), or null: back to the one inferred from the current
   * page's records (for its records). Re-classifies what it applies to.
   */
  setTenantOrigin(origin: string | null): void {
    if (origin) {
      this.tabState.tenantOrigin = normalizeOrigin(origin);
      this.tabState.tenantOriginSource = 'manual';
      this.tabState.tenantOriginFrame = undefined;
      this.reclassify(0);
      this.diagnose();
      return;
    }
    const from = this.tabState.pageStartSeq ?? 0;
    this.applyTenant(this.tenant.current);
    this.reclassify(from);
    this.diagnose();
  }

  /** Apply a new buffer bound at once. Returns the evicted seqs. */
  setMaxRecords(max: number): number[] {
    this.tabState.maxRecords = Math.max(100, Math.floor(max));
    this.eviction.rebuild(this.heldRecords.values(), this.tabState.maxRecords);
    const removed: number[] = [];
    this.evict(removed);
    return removed;
  }

  exportCapture(createdBy = 'embed-inspector'): CaptureFile {
    const messages: CaptureRecord[] = [];
    for (const r of this.heldRecords.values()) {
      const { verdict: _v, issues: _i, ...rest } = r;
      messages.push(rest);
    }
    return {
      format: CAPTURE_FORMAT,
      version: CAPTURE_VERSION,
      tenantOrigin: this.tabState.tenantOrigin,
      messages,
      meta: {
        createdBy,
        createdAt: new Date().toISOString(),
        dropped: this.tabState.dropped,
        pageUrl: this.tabState.pageUrl ?? undefined,
      },
    };
  }

  /** The host page's origin (the current page's), for `origin.event-target`. */
  private hostOrigin(): string | null {
    return originOf(this.tabState.pageUrl);
  }

  /**
   * Judge the current page at `now` for what did not happen and for its embeds' addresses (protocol/diagnose.ts):
   * those issues replace the ones it held (a delivery shows its post's). Returns the records that changed; sets
   * `nextDiagnosis`. An earlier page's records (preserve log) keep theirs: they were that page's.
   */
  diagnose(now = Date.now()): ClassifiedRecord[] {
    const began = this.clock();
    const from = this.tabState.pageStartSeq ?? 0;
    const page = [...this.recordsFrom(from)];
    const d = diagnose(page, { tenantOrigin: this.tabState.tenantOrigin, now, readyTimeoutMs: this.readyLimitMs });
    this.nextLimitAt = d.next;
    this.owedAt = null;
    const changed: ClassifiedRecord[] = [];
    // The records that hold diagnosis issues of their own now (found by looking, not remembered: seqs move when
    // late records are placed, and a restored log holds what the stored snapshot had), and those that get some.
    const touch = new Set<number>(d.issues.keys());
    for (const r of page) {
      if (r.issues.some((i) => !i.sender && isDiagnosisIssue(i))) {
        touch.add(r.seq);
      }
    }
    for (const seq of touch) {
      const r = this.heldRecords.get(seq);
      if (!r) {
        continue;
      }
      const fresh = d.issues.get(seq) ?? [];
      const old = r.issues.filter((i) => !i.sender && isDiagnosisIssue(i));
      if (
        old.length === fresh.length &&
        old.every((i, k) => i.rule === fresh[k].rule && i.message === fresh[k].message)
      ) {
        continue;
      }
      const own = r.issues.filter((i) => !i.sender && !isDiagnosisIssue(i));
      const senders = r.issues.filter((i) => i.sender);
      r.issues = [...own, ...fresh, ...senders];
      if (!r.navigation && r.verdict !== 'foreign') {
        r.verdict = verdictOf(r.issues);
      }
      changed.push(r);
      const delivery = r.kind === 'post' && r.pairedWith !== undefined ? this.heldRecords.get(r.pairedWith) : undefined;
      if (delivery) {
        const before = delivery.issues;
        applySenderIssues(delivery, r);
        if (delivery.issues !== before) {
          changed.push(delivery);
        }
      }
    }
    this.judgedAt = this.clock();
    this.judgeMs = this.judgedAt - began;
    return changed;
  }

  /**
   * What did not happen and the embeds' addresses, after an add: judged again when a record that bears on it came,
   * or when records were checked again (from `cut`): at once when a re-judged navigation record lost its issues,
   * else within the judgement's share of the time (JUDGE_SHARE). The records it changed join `out.updated`.
   */
  private judgeAfterAdd(out: AddResult, placed: ClassifiedRecord[], fresh: ClassifiedRecord[], cut: number): void {
    const lost = out.reclassified || (cut !== Infinity && placed.some((r) => r.navigation));
    if (!(lost || cut !== Infinity || fresh.some(bearsOnDiagnosis)) || !(lost || this.judgeNow())) {
      return;
    }
    const changed = this.diagnose();
    const known = new Set([...placed, ...out.updated]);
    for (const r of changed) {
      if (!known.has(r)) {
        out.updated.push(r);
      }
    }
  }

  /**
   * Whether a judgement of the page may run now (JUDGE_SHARE); if not, one is owed, at the time `nextDiagnosis` says
   * (the session judges the page again then).
   */
  private judgeNow(): boolean {
    if (this.judgeMs < JUDGE_AT_ONCE_MS) {
      return true;
    }
    const wait = this.judgedAt + this.judgeMs / JUDGE_SHARE - this.clock();
    if (wait <= 0) {
      return true;
    }
    this.owedAt ??= Date.now() + Math.ceil(wait);
    return false;
  }

  /** The held records from seq `seq` to the newest, by seq (in time that grows with their number). */
  private *heldFrom(seq: number): Iterable<ClassifiedRecord> {
    for (let s = seq; s < this.nextSeqNo; s++) {
      const r = this.heldRecords.get(s);
      if (r) {
        yield r;
      }
    }
  }

  private *recordsFrom(seq: number): Iterable<ClassifiedRecord> {
    for (const r of this.heldRecords.values()) {
      if (r.seq >= seq) {
        yield r;
      }
    }
  }

  /**
   * Classify again the records from `seq` on (0: all), with the session checker from where they start; those
   * before keep their verdicts (an earlier page's tenant origin was that page's).
   */
  private reclassify(seq: number): void {
    // The held log starts at the last Clear (`sessionBase`) or at this page; an earlier page's sessions ended
    // with its navigation.
    this.session = this.checkerAt(this.baseSession);
    this.restartCheckpoints(seq);
    const redone: ClassifiedRecord[] = [];
    for (const r of this.recordsFrom(seq)) {
      if (!r.navigation) {
        const c = classify(r, { tenantOrigin: this.tabState.tenantOrigin, hostOrigin: this.hostOrigin() });
        r.verdict = c.verdict;
        r.issues = c.issues;
      }
      this.judge(r);
      redone.push(r);
    }
    for (const r of redone) {
      if (r.kind === 'receive' && r.pairedWith !== undefined) {
        const post = this.heldRecords.get(r.pairedWith);
        if (post) {
          applySenderIssues(r, post);
        }
      }
    }
    this.eviction.rebuild(this.heldRecords.values(), this.tabState.maxRecords);
    this.tabState.foreignCount = this.eviction.foreignCount;
  }

  /** A post and its delivery are one message: the delivery shows the post's issues too (protocol/pairs.ts). */
  private shareSenderIssues(a: ClassifiedRecord, b: ClassifiedRecord): void {
    if (a.kind === 'receive' && b.kind === 'post') {
      applySenderIssues(a, b);
    } else if (a.kind === 'post' && b.kind === 'receive') {
      applySenderIssues(b, a);
    }
  }

  /** The session checker's state now is the state before held record `seq` and every one after it. */
  private restartCheckpoints(seq = 0): void {
    this.checkpoints = [{ seq, checker: this.session.clone() }];
    this.sinceCheckpoint = 0;
  }

  /** Feed a record to the session checker (its verdict stays); keeps a checkpoint every CHECKPOINT_EVERY records. */
  private advance(rec: ClassifiedRecord): Issue[] {
    if (++this.sinceCheckpoint > this.checkpointEvery) {
      this.sinceCheckpoint = 1;
      this.checkpoints.push({ seq: rec.seq, checker: this.session.clone() });
      if (this.checkpoints.length > this.checkpointCount) {
        this.checkpoints.shift();
      }
    }
    return rec.navigation || rec.verdict !== 'foreign' ? this.session.check(rec) : [];
  }

  /**
   * The verdict of a record: its stateless issues (what `classify` found; session issues of an earlier check are
   * replaced) and the session checker's, in stream order.
   */
  private judge(rec: ClassifiedRecord): void {
    if (rec.navigation) {
      this.advance(rec);
      rec.verdict = 'foreign';
      rec.issues = [];
      return;
    }
    if (rec.verdict === 'foreign') {
      this.advance(rec);
      return;
    }
    const own = rec.issues.some(isSessionIssue) ? rec.issues.filter((i) => !isSessionIssue(i)) : rec.issues;
    const s = this.advance(rec);
    rec.issues = s.length ? own.concat(s) : own;
    rec.verdict = verdictOf(rec.issues);
  }

  /** Bring the session checker to its state before held record `seq`, from the last checkpoint before it. */
  private resumeFrom(seq: number): void {
    const cps = this.checkpoints;
    while (cps.length && cps[cps.length - 1].seq > seq) {
      cps.pop();
    }
    const cp = cps.at(-1);
    this.session = cp ? cp.checker.clone() : new SessionChecker({ tenantOrigin: this.tabState.tenantOrigin });
    this.sinceCheckpoint = 0;
    const from = cp?.seq ?? 0;
    if (seq - from <= 4 * this.checkpointEvery) {
      for (let s = from; s < seq; s++) {
        const r = this.heldRecords.get(s);
        if (r) {
          this.advance(r);
        }
      }
      return;
    }
    for (const r of this.heldRecords.values()) {
      if (r.seq >= seq) {
        break;
      }
      if (r.seq >= from) {
        this.advance(r);
      }
    }
  }

  /** A new page's tenant finder, knowing the frames the tab has now (its document's). */
  private newFinder(): TenantFinder {
    const finder = new TenantFinder();
    for (const f of this.frameTree.values()) {
      finder.frame(f.url);
    }
    return finder;
  }

  /** The tenant origin as the page's facts say (null: not known), unless it was set by hand. */
  private applyTenant(found: TenantFound | null): void {
    this.tabState.tenantOrigin = found?.origin ?? null;
    this.tabState.tenantOriginSource = found ? 'embed-frame' : null;
    this.tabState.tenantOriginFrame = found?.frameUrl || undefined;
  }

  /** Tenant origin inference from this record (protocol/tenant.ts); true when it changed. */
  private inferTenant(rec: ClassifiedRecord): boolean {
    this.tenant.record(rec);
    const found = this.tenant.current;
    if (!found || this.tabState.tenantOriginSource === 'manual' || found.origin === this.tabState.tenantOrigin) {
      return false;
    }
    this.applyTenant(found);
    const changed = true;
    if (changed && this.lastMessageSeq < (this.tabState.pageStartSeq ?? 0)) {
      // Nothing of this page to classify again: the checker starts again with the new origin, from the page's
      // navigation records (a page shown again from the back/forward cache goes on with its ready sessions).
      const start = this.tabState.pageStartSeq ?? 0;
      this.session = this.checkerAt(this.baseSession);
      this.restartCheckpoints(start);
      for (const r of this.recordsFrom(start)) {
        this.advance(r);
      }
      return false;
    }
    return changed;
  }

  /** Let records go past the bound, least telling first (eviction.ts), and count them by kind. */
  private evict(removed: number[]): void {
    const droppedBy = (this.tabState.droppedBy ??= noneDropped());
    for (const [seq, kind] of this.eviction.evict(this.heldRecords.size, this.tabState.maxRecords)) {
      if (this.heldRecords.delete(seq)) {
        this.tabState.dropped++;
        droppedBy[kind]++;
        removed.push(seq);
      }
    }
    this.tabState.foreignCount = this.eviction.foreignCount;
  }
}
