/**
 * One tab's log: numbering, classification (stateless rules + session checker, with the tenant origin
 * given by hand or inferred), pairing, the buffer bound and the foreign share cap. Pure (no browser API):
 * the background persists and publishes what `add` reports.
 */
import { classify, SessionChecker, inferTenantOrigin, verdictOf, normalizeOrigin } from '../protocol/index.ts';
import type { CaptureFile, CaptureRecord } from '../protocol/record.ts';
import { CAPTURE_FORMAT, CAPTURE_VERSION } from '../protocol/record.ts';
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
}

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
  private pairer = new Pairer(() => this.frames);

  constructor(
    public state: TabState,
    restored: ClassifiedRecord[] = [],
    nextSeq = 1,
  ) {
    this.session = new SessionChecker({ tenantOrigin: state.tenantOrigin });
    for (const r of restored) {
      this.records.set(r.seq, r);
      if (r.verdict === 'foreign' && !r.navigation) {
        this.foreignQueue.push(r.seq);
      }
      this.session.check(r);
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
  }

  /** Classify and keep new records. They are taken over (mutated into the stored records), not copied. */
  add(raws: Array<RawRecord & { frameId?: number }>): AddResult {
    const out: AddResult = { added: [], updated: [], removed: [], reclassified: false };
    // Capture order within a batch (a frame's posts and receives come from two worlds).
    const sorted = raws.length > 1 ? [...raws].sort((a, b) => a.time - b.time) : raws;
    for (const raw of sorted) {
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
      }
      this.classifyOne(rec);
      this.records.set(rec.seq, rec);
      this.state.total = (this.state.total ?? 0) + 1;
      out.added.push(rec);
      if (rec.verdict === 'foreign' && !rec.navigation) {
        this.state.foreignCount++;
        this.foreignQueue.push(rec.seq);
        this.capForeign(out.removed);
      }
    }
    this.evictOverflow(out.removed);
    if (out.reclassified) {
      this.reclassifyAll();
    }
    if (out.removed.length) {
      const gone = new Set(out.removed);
      out.added = out.added.filter((r) => !gone.has(r.seq));
      out.updated = out.updated.filter((r) => !gone.has(r.seq));
    }
    return out;
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
    for (const r of this.records.values()) {
      this.classifyOne(r);
    }
  }

  private classifyOne(rec: ClassifiedRecord): void {
    if (rec.navigation) {
      this.session.check(rec);
      rec.verdict = 'foreign';
      rec.issues = [];
      return;
    }
    const c = classify(rec, { tenantOrigin: this.state.tenantOrigin });
    let issues = c.issues;
    let verdict = c.verdict;
    if (verdict !== 'foreign') {
      const s = this.session.check(rec);
      if (s.length) {
        issues = issues.concat(s);
        verdict = verdictOf(issues);
      }
    }
    rec.verdict = verdict;
    rec.issues = issues;
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
