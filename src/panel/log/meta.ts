/**
 * Per-record facts (`RecordMeta`) the filters and the grid use, computed once when a record enters the log (O(1)
 * per record), and the cache that shares them. They belong to the records: the log owns the cache (`MetaCache`),
 * so it starts empty with each log.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import { SOURCE, TAG } from './protocol.ts';

export type Direction = 'event' | 'action';

const SEV_ERROR = 1,
  SEV_WARNING = 2,
  SEV_INFO = 4;
export const SEV_BIT: Readonly<Record<string, number>> = { error: SEV_ERROR, warning: SEV_WARNING, info: SEV_INFO };

/** Per-record facts the filters and the grid use, computed once at ingestion (O(1) per record). */
export interface RecordMeta {
  readonly type: string;
  readonly direction: Direction | '';
  readonly surface: string;
  /** Bit set of the severities of its issues. */
  readonly sev: number;
  /** The record's own verdict and kind, and whether it is a frame navigation: the chips then filter on metas
   * alone, without reading the records (100,000 objects spread over the heap: a pass over them is memory-bound). */
  readonly verdict: string;
  readonly kind: string;
  readonly nav: boolean;
  /** Whether the message is an svc-embed envelope: a plain object whose `source` is svc-embed (as `isSvcEmbed`). */
  readonly svc: boolean;
}

/** The message's envelope (its fields, for a plain or encoded object), null for anything else. One read of the
 * encoding's tag (as `tagOf` then `plainEntries` would do twice): this runs for every record of a load. */
function envelopeOf(data: unknown): Record<string, unknown> | null {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return null;
  }
  const tag = (data as Record<string, unknown>)[TAG];
  if (typeof tag !== 'string' || tag === '' || tag === 'Truncated') {
    return data as Record<string, unknown>;
  }
  return tag === 'Object' ? (((data as Record<string, unknown>).v ?? {}) as Record<string, unknown>) : null;
}

const NO_META: RecordMeta = Object.freeze({
  type: '',
  direction: '',
  surface: '',
  sev: 0,
  verdict: '',
  kind: '',
  nav: false,
  svc: false,
}) as RecordMeta;
const META_CACHE_MAX = 4_096;
const SLOTS = 64;
/**
 * A slot for these facts among `SLOTS`, from their lengths: no string is read (a record copied by the transport has
 * its own copy of each, which a map would hash at each lookup). A collision only sends the lookup on to the map.
 */
const slotOf = (
  type: string,
  direction: string,
  surface: string,
  sev: number,
  verdict: string,
  kind: string,
  nav: boolean,
  svc: boolean,
) =>
  (type.length * 3 +
    kind.length * 5 +
    verdict.length * 7 +
    surface.length * 11 +
    direction.length +
    sev * 13 +
    (svc ? 17 : 0) +
    (nav ? 19 : 0)) &
  (SLOTS - 1);
const same = (
  m: RecordMeta,
  type: string,
  direction: string,
  surface: string,
  sev: number,
  verdict: string,
  kind: string,
  nav: boolean,
  svc: boolean,
) =>
  // (cheapest and most often different first: a post and its delivery differ in kind)
  m.sev === sev &&
  m.nav === nav &&
  m.svc === svc &&
  m.kind === kind &&
  m.verdict === verdict &&
  m.direction === direction &&
  m.surface === surface &&
  m.type === type;

/**
 * Metas are shared, read-only: a log has few distinct combinations (tens to a few hundred), so records share them
 * instead of allocating one each (fewer long-lived objects for the GC to mark and move). Consecutive records often
 * have the same facts or cycle through a few (a post and its delivery, a handful of message types): the last meta
 * is tried first, then the one in the record's slot among recent ones (`slotOf`), then the metas already made for
 * the record's type (a bounded cache: past `META_CACHE_MAX` of them, metas are made per record). Each meta has a
 * number, its index in `table`: the log keeps a record's meta as that number (a typed array of numbers costs the GC
 * nothing, where an array of 100,000 references to young objects is a write barrier per record), and a view can judge
 * each distinct meta once. The facts go from function to function as arguments, not as one object rewritten per
 * record: that ran a 100,000-record load ~15% slower (cold, in Node); nor is the map's lookup (`lookUp`) folded into
 * `shared`: ~20% slower.
 */
export class MetaCache {
  private lastId = 0;
  /** Recent metas by a hash of their facts' lengths (`slotOf`), tried after the last one, before the map. */
  private slots = new Uint32Array(SLOTS);
  private slot = 0;
  private byType = new Map<string, number[]>();
  private cached = 0;
  private metas: RecordMeta[] = [NO_META];

  /** Every meta made since the last reset, by number (number 0: no facts). */
  get table(): readonly RecordMeta[] {
    return this.metas;
  }

  /** Per-record facts (possibly shared with other records: read-only). */
  of(r: ClassifiedRecord): RecordMeta {
    return this.metas[this.idOf(r)];
  }

  /** The number of record r's meta (its index in `table`). */
  idOf(r: ClassifiedRecord): number {
    const nav = !!r.navigation;
    const env = nav ? null : envelopeOf(r.data);
    let sev = 0;
    const issues = r.issues;
    if (issues) {
      for (let k = 0; k < issues.length; k++) {
        sev |= SEV_BIT[issues[k].severity] ?? 0;
      }
    }
    const v = r.verdict,
      k = r.kind;
    const verdict = typeof v === 'string' ? v : String(v ?? ''),
      kind = typeof k === 'string' ? k : String(k ?? '');
    if (!env) {
      return this.shared('', '', '', sev, verdict, kind, nav, false);
    }
    const type = env.type,
      dir = env.direction,
      surface = env.surface;
    // (an encoded object's envelope is not the record's data: `isSvcEmbed` of the data says no, as here)
    const svc = env === r.data && env.source === SOURCE;
    return this.shared(
      typeof type === 'string' ? type : '',
      dir === 'event' || dir === 'action' ? dir : '',
      typeof surface === 'string' ? surface : '',
      sev,
      verdict,
      kind,
      nav,
      svc,
    );
  }

  /** Forget every meta (a new log). */
  reset(): void {
    this.lastId = 0;
    this.slots.fill(0);
    this.byType = new Map();
    this.cached = 0;
    this.metas = [NO_META];
  }

  private shared(
    type: string,
    direction: Direction | '',
    surface: string,
    sev: number,
    verdict: string,
    kind: string,
    nav: boolean,
    svc: boolean,
  ): number {
    const metas = this.metas;
    let id = this.lastId;
    if (same(metas[id], type, direction, surface, sev, verdict, kind, nav, svc)) {
      return id;
    }
    id = this.slots[(this.slot = slotOf(type, direction, surface, sev, verdict, kind, nav, svc))];
    if (same(metas[id], type, direction, surface, sev, verdict, kind, nav, svc)) {
      return (this.lastId = id);
    }
    id = this.lookUp(type, direction, surface, sev, verdict, kind, nav, svc);
    this.slots[this.slot] = id;
    return (this.lastId = id);
  }

  /** The cache's meta of these facts, made (and cached while there is room) if none. */
  private lookUp(
    type: string,
    direction: Direction | '',
    surface: string,
    sev: number,
    verdict: string,
    kind: string,
    nav: boolean,
    svc: boolean,
  ): number {
    const metas = this.metas;
    let id: number;
    let bucket = this.byType.get(type);
    if (bucket) {
      for (let k = 0; k < bucket.length; k++) {
        id = bucket[k];
        if (same(metas[id], type, direction, surface, sev, verdict, kind, nav, svc)) {
          return id;
        }
      }
    }
    id = metas.length;
    metas.push({ type, direction, surface, sev, verdict, kind, nav, svc });
    if (this.cached < META_CACHE_MAX) {
      if (!bucket) {
        this.byType.set(type, (bucket = []));
      }
      bucket.push(id);
      this.cached++;
    }
    return id;
  }
}
