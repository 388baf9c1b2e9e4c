/**
 * Timeline filters: the filter state, its persistence, the search-box language, and the compiled predicate. They
 * belong to the view (timeline/timeline-view.ts); what belongs to the records (their facts, `RecordMeta`) is in log/meta.ts.
 * Pure TypeScript (no DOM, no Solid): unit-tested in node.
 *
 * Search language (terms are ANDed; case-insensitive):
 *   text            a substring of the message JSON, the frame URL or an origin
 *   "two words"     a quoted substring
 *   field:value     a field contains value. Fields: kind, origin, target (target origin), frame, verdict,
 *                   rule, severity, seq, injected, dropped; the envelope fields source, direction, type,
 *                   surface, timestamp; `payload.a.b` or `data.a.b` for a path; any other name is looked up
 *                   in the payload, then in the message itself (foreign messages).
 *   field:          the field is present
 *   field:>N, <N    numeric comparison (also >=, <=)
 *   -term           negation
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import { TAG, tagOf } from '../log/protocol.ts';
import { SEV_BIT, type Direction, type RecordMeta } from '../log/meta.ts';

export type TimeBase = 'ready' | 'first';

export interface FilterState {
  /** Envelope direction; empty = all. A record without an envelope direction passes only when empty. */
  directions: Direction[];
  /** Record kind (post / receive); empty = all. */
  kinds: Array<'post' | 'receive'>;
  /** Message types; empty = all. */
  types: string[];
  surfaces: string[];
  /** valid / invalid; empty = all. Foreign records are governed by `showForeign`. */
  verdicts: Array<'valid' | 'invalid'>;
  /** Records having at least one issue of one of these severities; empty = no constraint. */
  severities: Array<'error' | 'warning' | 'info'>;
  /** Frame URLs; empty = all. */
  frames: string[];
  /** Sender origins; empty = all. */
  origins: string[];
  /** Foreign traffic (not svc-embed) is hidden unless this is set. */
  showForeign: boolean;
  search: string;
}

/** The filters that hold a list of values (empty = all). */
export type ListFilter = {
  [K in keyof FilterState]: FilterState[K] extends readonly string[] ? K : never;
}[keyof FilterState];

/**
 * Every list filter, with the values it may hold (null: any string; a persisted value outside them is dropped).
 * The defaults, `isFiltering` and persistence are derived from this table: a new list filter is a field of
 * `FilterState`, a row here and its test in `compileFilter`.
 */
const LIST_FILTERS: { readonly [K in ListFilter]: readonly FilterState[K][number][] | null } = {
  directions: ['event', 'action'],
  kinds: ['post', 'receive'],
  types: null,
  surfaces: null,
  verdicts: ['valid', 'invalid'],
  severities: ['error', 'warning', 'info'],
  frames: null,
  origins: null,
};
const LIST_KEYS = Object.keys(LIST_FILTERS) as ListFilter[];

export function defaultFilters(): FilterState {
  const f = {} as FilterState;
  for (const key of LIST_KEYS) {
    (f[key] as string[]) = [];
  }
  f.showForeign = false;
  f.search = '';
  return f;
}

/** Is any filter narrowing the list beyond the defaults (foreign hidden)? */
export function isFiltering(f: FilterState): boolean {
  return LIST_KEYS.some((key) => f[key].length > 0) || f.search.trim() !== '';
}

// ------------------------------------------------------------------------------------------ persistence
/** Parse persisted filter state; anything malformed falls back to the defaults, field by field. */
export function parseFilters(text: string | null | undefined): FilterState {
  const out = defaultFilters();
  if (!text) {
    return out;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return out;
  }
  if (!raw || typeof raw !== 'object') {
    return out;
  }
  const o = raw as Record<string, unknown>;
  for (const key of LIST_KEYS) {
    const v = o[key];
    if (!Array.isArray(v)) {
      continue;
    }
    const allowed = LIST_FILTERS[key] as readonly string[] | null;
    (out[key] as string[]) = [
      ...new Set(v.filter((x): x is string => typeof x === 'string' && (!allowed || allowed.includes(x)))),
    ].slice(0, 500);
  }
  if (typeof o.showForeign === 'boolean') {
    out.showForeign = o.showForeign;
  }
  if (typeof o.search === 'string') {
    out.search = o.search.slice(0, 2000);
  }
  return out;
}
export const serializeFilters = (f: FilterState): string => JSON.stringify(f);

// ------------------------------------------------------------------------------------------ search query
export interface SearchTerm {
  negate: boolean;
  /** Absent for a plain-text term. */
  field?: string;
  /** Lower-cased. */
  value: string;
  /** Numeric comparison, when the value was `>N`, `<=N`… */
  cmp?: { op: '>' | '<' | '>=' | '<='; n: number };
}

export function parseSearch(q: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  // A token: optional '-', then either "quoted", or field:"quoted", or a run of non-space characters.
  const re = /(-?)(?:([A-Za-z_$][\w$.-]*):)?(?:"((?:[^"\\]|\\.)*)"?|(\S*))/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(q)) !== null) {
    if (m[0] === '') {
      re.lastIndex++;
      if (re.lastIndex > q.length) {
        break;
      }
      continue;
    }
    const negate = m[1] === '-';
    let field: string | undefined = m[2];
    let value = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : (m[4] ?? '');
    // `https://x` is text, not a field called https.
    if (field && m[3] === undefined && value.startsWith('//')) {
      value = `${field}:${value}`;
      field = undefined;
    }
    if (!field && value === '') {
      continue;
    }
    if (!field && value === '-') {
      continue;
    }
    const term: SearchTerm = { negate, value: value.toLowerCase() };
    if (field) {
      term.field = field;
      const c = /^(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)$/.exec(value);
      if (c) {
        term.cmp = { op: c[1] as '>' | '<' | '>=' | '<=', n: Number(c[2]) };
      }
    }
    terms.push(term);
  }
  return terms;
}

const RECORD_FIELDS: Record<string, (r: ClassifiedRecord) => unknown> = {
  kind: (r) => r.kind,
  origin: (r) => r.origin,
  target: (r) => r.targetOrigin,
  targetorigin: (r) => r.targetOrigin,
  frame: (r) => r.frameUrl,
  frameurl: (r) => r.frameUrl,
  verdict: (r) => r.verdict,
  rule: (r) => (r.issues.length ? r.issues.map((i) => i.rule) : undefined),
  severity: (r) => (r.issues.length ? r.issues.map((i) => i.severity) : undefined),
  seq: (r) => r.seq,
  injected: (r) => r.injected,
  dropped: (r) => r.dropped,
};
const ENVELOPE = new Set(['source', 'direction', 'type', 'surface', 'timestamp']);

function getPath(root: unknown, path: string[]): unknown {
  let cur = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') {
      return undefined;
    }
    if (Array.isArray(cur)) {
      cur = cur[Number(key)];
      continue;
    }
    let o = cur as Record<string, unknown>;
    const tag = o[TAG];
    if (tag === 'Truncated') {
      // A message over the size cap keeps its envelope fields on the marker; its payload is gone.
      if (!ENVELOPE.has(key)) {
        return undefined;
      }
    } else if (tag !== undefined) {
      if (tag !== 'Object') {
        return undefined; // an encoded Date, Map…: no fields to walk into
      }
      o = (o.v ?? {}) as Record<string, unknown>;
    }
    if (!Object.hasOwn(o, key)) {
      return undefined;
    }
    cur = o[key];
  }
  return cur;
}

/** How to read a `field:` term's values from a record, worked out once per search (not once per record). */
function fieldAccessor(field: string): (r: ClassifiedRecord) => unknown {
  const rec = RECORD_FIELDS[field.toLowerCase()];
  if (rec) {
    return rec;
  }
  if (ENVELOPE.has(field)) {
    const path = [field];
    return (r) => (r.navigation ? undefined : getPath(r.data, path));
  }
  const parts = field.split('.');
  if (parts[0] === 'payload') {
    return (r) => (r.navigation ? undefined : getPath(r.data, parts));
  }
  if (parts[0] === 'data') {
    const rest = parts.slice(1);
    return (r) => (r.navigation ? undefined : getPath(r.data, rest));
  }
  const inPayload = ['payload', ...parts];
  return (r) => {
    if (r.navigation) {
      return undefined;
    }
    const v = getPath(r.data, inPayload);
    return v !== undefined ? v : getPath(r.data, parts);
  };
}

function valueText(v: unknown): string {
  if (typeof v === 'string') {
    return v.toLowerCase();
  }
  if (typeof v === 'number' || typeof v === 'boolean') {
    return String(v);
  }
  const tag = tagOf(v);
  if (tag === 'Date' || tag === 'BigInt' || tag === 'Number') {
    return String((v as Record<string, unknown>).v).toLowerCase();
  }
  try {
    return (JSON.stringify(v) ?? '').toLowerCase();
  } catch {
    return '';
  }
}

type CompiledTerm = SearchTerm & { get?: (r: ClassifiedRecord) => unknown; list: boolean; re?: RegExp };

function matchTerm(r: ClassifiedRecord, t: CompiledTerm, text: () => string): boolean {
  if (!t.get) {
    return text().includes(t.value);
  }
  const v = t.get(r);
  if (v === undefined) {
    return false;
  }
  if (t.value === '') {
    return true;
  }
  // A string field: a case-insensitive regexp, compiled once per search, instead of lower-casing every value.
  if (typeof v === 'string' && t.re && !t.cmp) {
    return t.re.test(v);
  }
  if (!t.cmp && !(t.list && Array.isArray(v))) {
    return valueText(v).includes(t.value);
  }
  const values = t.list && Array.isArray(v) ? v : [v];
  for (const one of values) {
    if (t.cmp) {
      const n = typeof one === 'number' ? one : Number.NaN;
      if (
        t.cmp.op === '>'
          ? n > t.cmp.n
          : t.cmp.op === '<'
            ? n < t.cmp.n
            : t.cmp.op === '>='
              ? n >= t.cmp.n
              : n <= t.cmp.n
      ) {
        return true;
      }
    } else if (valueText(one).includes(t.value)) {
      return true;
    }
  }
  return false;
}

// ------------------------------------------------------------------------------------------ predicate
export type Predicate = ((r: ClassifiedRecord, m: RecordMeta, text: () => string) => boolean) & {
  /** The filters read the metas alone (no frame, origin or search): records that share a meta pass or fail
   * together, so a scan can ask once per meta. */
  readonly metaOnly?: boolean;
};

export function compileFilter(f: FilterState): Predicate {
  const dirs = f.directions.length ? new Set<string>(f.directions) : null;
  const kinds = f.kinds.length ? new Set<string>(f.kinds) : null;
  const types = f.types.length ? new Set(f.types) : null;
  const surfaces = f.surfaces.length ? new Set(f.surfaces) : null;
  const verdicts = f.verdicts.length ? new Set<string>(f.verdicts) : null;
  let sevMask = 0;
  for (const s of f.severities) {
    sevMask |= SEV_BIT[s] ?? 0;
  }
  const frames = f.frames.length ? new Set(f.frames) : null;
  const origins = f.origins.length ? new Set(f.origins) : null;
  const terms: CompiledTerm[] = parseSearch(f.search).map((t) =>
    t.field === undefined
      ? { ...t, list: false }
      : {
          ...t,
          get: fieldAccessor(t.field),
          list: !!RECORD_FIELDS[t.field.toLowerCase()],
          re: new RegExp(t.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'),
        },
  );
  const showForeign = f.showForeign;
  const p: Predicate = (r, m, text) => {
    // The metas' facts first: most filters never read the record itself.
    if (m.nav) {
      // A frame navigation has no verdict of its own; its issues (the embed's address, what it never said) count.
      if (verdicts || (sevMask && !(m.sev & sevMask))) {
        return false;
      }
    } else if (m.verdict === 'foreign') {
      if (!showForeign) {
        return false;
      }
    } else if (verdicts && !verdicts.has(m.verdict)) {
      return false;
    }
    if (dirs && !dirs.has(m.direction)) {
      return false;
    }
    if (kinds && !kinds.has(m.kind)) {
      return false;
    }
    if (types && !types.has(m.type)) {
      return false;
    }
    if (surfaces && !surfaces.has(m.surface)) {
      return false;
    }
    if (sevMask && !(m.sev & sevMask)) {
      return false;
    }
    if (frames && !frames.has(r.frameUrl)) {
      return false;
    }
    if (origins && !origins.has(r.origin)) {
      return false;
    }
    for (let k = 0; k < terms.length; k++) {
      if (matchTerm(r, terms[k], text) === terms[k].negate) {
        return false;
      }
    }
    return true;
  };
  return frames || origins || terms.length ? p : Object.assign(p, { metaOnly: true });
}
