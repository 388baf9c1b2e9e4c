/**
 * One tab's log: order and numbering, classification (stateless rules + session checker, with the tenant origin
 * given by hand or inferred), pairing, the buffer bound and the foreign share cap. Pure (no browser API):
 * the background persists and publishes what `add` reports.
 *
 * Order: the log is in causal order (`causalOrder`: a frame's own order, a post before its delivery, else capture
 * time), and `seq` follows it. Frames hand their records over at different times, so a batch may hold records
 * older than some already numbered: they are placed by time, the records from that point on are numbered again
 * (the same seqs, in the new order) and checked again by the session checker, from the last checkpoint of its
 * state before that point.
 */
import {
  causalOrder,
  classify,
  SessionChecker,
  inferTenantOrigin,
  verdictOf,
  normalizeOrigin,
} from '../protocol/index.ts';
import type { CaptureFile, CaptureRecord } from '../protocol/record.ts';
import { CAPTURE_FORMAT, CAPTURE_VERSION } from '../protocol/record.ts';
import type { Issue } from '../protocol/classify.ts';
import type { ClassifiedRecord, RawRecord, TabState } from '../shared/messages.ts';
import { Pairer, judgeDropped, type FrameTree } from './pairing.ts';
import { oldestKeys } from '../protocol/maps.ts';

export const DEFAULT_MAX_RECORDS = 50_000;
/** Foreign records may take at most this share of the buffer. */
export const FOREIGN_SHARE = 0.1;

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

/** The session checker's state is kept before every CHECKPOINT_EVERY-th record checked, the last CHECKPOINTS times. */
const CHECKPOINT_EVERY = 4096;
const CHECKPOINTS = 8;
const isSessionIssue = (i: { rule: string }) => i.rule.startsWith('session.');

export function newState(tabId: number, prior?: Partial<TabState>): TabState {
  return {
    tabId,
    tenantOrigin: null,
    tenantOriginSource: null,
    preserveLog: false,
    paused: false,
    dropped: 0,
    foreignCount: 0,
    foreignDropped: 0,
    total: 0,
    maxRecords: DEFAULT_MAX_RECORDS,
    pageUrl: null,
    ...prior,
  };
}

export class TabLog {
  records = new Map<number, ClassifiedRecord>();
  nextSeq = 1;
  frames: FrameTree = new Map();
  private foreignQueue: number[] = [];
  private session: SessionChecker;
  /** `checker`: the session checker's state before the held record `seq` (and those after it) was checked. */
  private checkpoints: Array<{ seq: number; checker: SessionChecker }> = [];
  private sinceCheckpoint = 0;
  private pairer = new Pairer(() => this.frames);

  private checkpointEvery: number;
  private checkpointCount: number;

  constructor(
    public state: TabState,
    restored: ClassifiedRecord[] = [],
    nextSeq = 1,
    opts: { checkpointEvery?: number; checkpoints?: number } = {},
  ) {
    this.checkpointEvery = opts.checkpointEvery ?? CHECKPOINT_EVERY;
    this.checkpointCount = opts.checkpoints ?? CHECKPOINTS;
    this.session = new SessionChecker({ tenantOrigin: state.tenantOrigin });
    this.restartCheckpoints();
    for (const r of restored) {
      this.records.set(r.seq, r);
      if (r.verdict === 'foreign' && !r.navigation) {
        this.foreignQueue.push(r.seq);
      }
      this.advance(r);
      if (r.pairedWith === undefined) {
        this.pairer.add(r);
      }
    }
    this.nextSeq = Math.max(nextSeq, (restored.at(-1)?.seq ?? 0) + 1);
  }

  /** Start a new log (top-level navigation, clear). Settings and a hand-set tenant origin stay. */
  reset(pageUrl: string | null): void {
    this.records.clear();
    this.foreignQueue = [];
    this.pairer.clear();
    const manual = this.state.tenantOriginSource === 'manual';
    this.state = {
      ...this.state,
      pageUrl,
      dropped: 0,
      foreignCount: 0,
      foreignDropped: 0,
      total: 0,
      tenantOrigin: manual ? this.state.tenantOrigin : null,
      tenantOriginSource: manual ? 'manual' : null,
    };
    this.session = new SessionChecker({ tenantOrigin: this.state.tenantOrigin });
    this.restartCheckpoints();
  }

  /**
   * Classify and keep new records: one or more frames' batches, each frame's records in the order the frame saw
   * them. They are taken over (mutated into the stored records), not copied.
   */
  add(raws: Array<RawRecord & { frameId?: number }>): AddResult {
    const out: AddResult = { added: [], updated: [], removed: [], reclassified: false };
    if (!raws.length) {
      return out;
    }
    const firstNew = this.nextSeq;
    const fresh: ClassifiedRecord[] = [];
    /** Held records from this seq on are placed again (Infinity: the new records go after every held one). */
    let cut = Infinity;
    let earliest = Infinity;
    for (const raw of raws) {
      // The raw record becomes the classified one (the caller hands over fresh objects: no copy per record).
      const rec = raw as ClassifiedRecord;
      rec.seq = this.nextSeq++;
      rec.verdict = 'foreign';
      rec.issues = [];
      if (rec.kind === 'post' && !rec.injected) {
        const dropped = judgeDropped(rec, this.frames);
        if (dropped) {
          rec.dropped = true;
        }
      }
      if (this.inferTenant(rec)) {
        out.reclassified = true;
      }
      // Pair first: the session checker counts a message once, skipping the side whose partner it saw.
      const partner = this.pairer.add(rec);
      if (partner && this.records.has(partner.seq)) {
        // Either half may arrive first: an injected post marks its delivery, and the other way round.
        if (partner.injected) {
          rec.injected = true;
        } else if (rec.injected) {
          partner.injected = true;
        }
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
    const first = this.records.keys().next().value ?? firstNew;
    for (let s = firstNew - 1; s >= first; s--) {
      const r = this.records.get(s);
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
      const c = classify(rec, { tenantOrigin: this.state.tenantOrigin });
      rec.verdict = c.verdict;
      rec.issues = c.issues;
    }
    if (out.reclassified) {
      this.reclassifyAll();
    } else {
      if (cut !== Infinity) {
        this.resumeFrom(cut);
      }
      for (const r of placed) {
        this.judge(r);
      }
    }
    for (const rec of fresh) {
      if (rec.verdict === 'foreign' && !rec.navigation) {
        this.state.foreignCount++;
        this.foreignQueue.push(rec.seq);
      }
    }
    this.state.total = (this.state.total ?? 0) + fresh.length;
    out.added = cut === Infinity ? placed : fresh.sort((a, b) => a.seq - b.seq);
    if (cut !== Infinity) {
      out.reorderedFrom = cut;
    }
    this.capForeign(out.removed);
    this.evictOverflow(out.removed);
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
        const r = this.records.get(s);
        if (r) {
          moved.push(r);
          this.records.delete(s);
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
          const partner = this.records.get(p);
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
      if (moved.length) {
        this.foreignQueue = this.foreignQueue.map((s) => renamed.get(s) ?? s);
      }
    }
    for (const r of ordered) {
      this.records.set(r.seq, r);
    }
    return ordered;
  }

  /** Set the tenant origin by hand (null: back to inference); re-classifies everything. */
  setTenantOrigin(origin: string | null): void {
    if (origin) {
      this.state.tenantOrigin = normalizeOrigin(origin);
      this.state.tenantOriginSource = 'manual';
    } else {
      const inferred = inferTenantOrigin(this.records.values());
      this.state.tenantOrigin = inferred?.origin ?? null;
      this.state.tenantOriginSource = inferred ? (inferred.source === 'ready' ? 'ready' : 'embed-frame') : null;
    }
    this.reclassifyAll();
  }

  /** Apply a new buffer bound at once. Returns the evicted seqs. */
  setMaxRecords(max: number): number[] {
    this.state.maxRecords = Math.max(100, Math.floor(max));
    const removed: number[] = [];
    this.capForeign(removed);
    this.evictOverflow(removed);
    return removed;
  }

  exportCapture(createdBy = 'embed-inspector'): CaptureFile {
    const messages: CaptureRecord[] = [];
    for (const r of this.records.values()) {
      const { verdict: _v, issues: _i, ...rest } = r;
      messages.push(rest);
    }
    return {
      format: CAPTURE_FORMAT,
      version: CAPTURE_VERSION,
      tenantOrigin: this.state.tenantOrigin,
      messages,
      meta: {
        createdBy,
        createdAt: new Date().toISOString(),
        dropped: this.state.dropped,
        pageUrl: this.state.pageUrl ?? undefined,
      },
    };
  }

  private reclassifyAll(): void {
    this.session = new SessionChecker({ tenantOrigin: this.state.tenantOrigin });
    this.restartCheckpoints();
    for (const r of this.records.values()) {
      if (!r.navigation) {
        const c = classify(r, { tenantOrigin: this.state.tenantOrigin });
        r.verdict = c.verdict;
        r.issues = c.issues;
      }
      this.judge(r);
    }
  }

  /** The session checker's state now is the state before every held record (a new checker, or a new log). */
  private restartCheckpoints(): void {
    this.checkpoints = [{ seq: 0, checker: this.session.clone() }];
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
    this.session = cp ? cp.checker.clone() : new SessionChecker({ tenantOrigin: this.state.tenantOrigin });
    this.sinceCheckpoint = 0;
    const from = cp?.seq ?? 0;
    if (seq - from <= 4 * this.checkpointEvery) {
      for (let s = from; s < seq; s++) {
        const r = this.records.get(s);
        if (r) {
          this.advance(r);
        }
      }
      return;
    }
    for (const r of this.records.values()) {
      if (r.seq >= seq) {
        break;
      }
      if (r.seq >= from) {
        this.advance(r);
      }
    }
  }

  /** Tenant origin inference from this record; true when it changed. */
  private inferTenant(rec: ClassifiedRecord): boolean {
    const src = this.state.tenantOriginSource;
    if (src === 'manual' || src === 'ready') {
      return false;
    }
    const d = rec.data as { type?: unknown } | null;
    const isReady = !!d && typeof d === 'object' && d.type === 'svc:event:ready';
    if (
      !isReady &&
      (src === 'embed-frame' || !(rec.frameUrl.includes('/embed') || rec.targetUrl?.includes('/embed')))
    ) {
      return false;
    }
    const found = inferTenantOrigin([rec]);
    if (!found || (found.source !== 'ready' && src === 'embed-frame')) {
      return false;
    }
    const source = found.source === 'ready' ? 'ready' : 'embed-frame';
    const changed = found.origin !== this.state.tenantOrigin;
    this.state.tenantOrigin = found.origin;
    this.state.tenantOriginSource = source;
    if (changed && this.records.size === 0) {
      this.session = new SessionChecker({ tenantOrigin: found.origin });
      this.restartCheckpoints();
    }
    return changed && this.records.size > 0;
  }

  private capForeign(removed: number[]): void {
    const cap = Math.max(1, Math.floor(this.state.maxRecords * FOREIGN_SHARE));
    while (this.state.foreignCount > cap && this.foreignQueue.length) {
      const seq = this.foreignQueue.shift()!;
      if (!this.records.has(seq)) {
        continue;
      }
      this.state.foreignDropped = (this.state.foreignDropped ?? 0) + 1;
      this.evict(seq, removed);
    }
  }

  /** Evict the oldest records past the bound (in one pass: see `oldestKeys`). */
  private evictOverflow(removed: number[]): void {
    for (const seq of oldestKeys(this.records, this.records.size - this.state.maxRecords)) {
      this.evict(seq, removed);
    }
  }

  private evict(seq: number, removed: number[]): void {
    const r = this.records.get(seq);
    if (!r) {
      return;
    }
    this.records.delete(seq);
    if (r.verdict === 'foreign' && !r.navigation) {
      this.state.foreignCount--;
    }
    this.state.dropped++;
    removed.push(seq);
  }
}
