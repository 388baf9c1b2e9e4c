/**
 * Two sessions compared, for "it passed yesterday": what changed between capture A (the one that passed) and
 * capture B. Used by `embed-inspector diff` and, later, the panel's Import → Compare. Pure; never throws on odd
 * records.
 *
 * Each capture is first reduced to a profile (`sessionProfile`), then two profiles are compared (`diffProfiles`):
 * - message types and their counts: svc-embed messages, a post and its delivery one message;
 * - findings by rule and severity, counted as `check` counts them: each issue of a message once, at the record
 *   that found it (a delivery's copy of its post's issue, `sender`, is not a finding of its own, and neither is
 *   one the delivery found itself with the same rule and path as its post's);
 * - the order of the session's events (event types, a post and its delivery once; repeats collapsed to a run),
 *   compared as a shortest edit script;
 * - payload shapes: the key paths of the payloads of each message type (union over its messages);
 * - timing: ms from the embed frame's navigation record (else the capture's first record) to the first `ready`
 *   and the first `dashboard-loaded`, and that `dashboard-loaded`'s `loadDurationMs`;
 * - the integration's state in words (`integrationState`).
 * B regresses when it has more error findings of a rule than A (a new rule, or more of one), or when it fails as a
 * run whatever A did (no embed traffic, an embed that could not start or never said ready): `exitCode` 1.
 */
import { own, put } from './json-map.ts';
import { checkCapture, type CheckResult } from './capture.ts';
import type { Severity } from './classify.ts';
import type { IntegrationState } from './diagnose.ts';
import { isSvcEmbed } from './marker.ts';
import { evaluate } from './verdict.ts';
import type { CaptureFile, CaptureRecord } from './record.ts';

export interface SeverityCounts {
  error: number;
  warning: number;
  info: number;
}

/** The first finding of a rule in a capture: an example to show. */
export interface FindingExample {
  seq: number;
  /** The message type, `embed frame` for a frame's navigation record, `(no type)` when it has none. */
  type: string;
  severity: Severity;
  message: string;
}

/** Where the timings of a capture count from. */
export type TimingBase = 'embed-navigation' | 'first-record';

export interface SessionTiming {
  /** The embed frame's navigation record (the frame that said the first ready), else the first record; null: no record. */
  from: TimingBase | null;
  /** ms from `from` to the first `svc:event:ready`; null when none. */
  ready: number | null;
  /** ms from `from` to the first `svc:event:dashboard-loaded`; null when none. */
  dashboardLoaded: number | null;
  /** That dashboard-loaded's `payload.loadDurationMs`, when a number. */
  loadDurationMs: number | null;
}

/** What a capture is reduced to for comparison. */
export interface SessionProfile {
  /** svc-embed messages (a post and its delivery are one). */
  messages: number;
  /** Messages per type. */
  types: Record<string, number>;
  /** Findings per rule, by severity. */
  rules: Record<string, SeverityCounts>;
  /** The first finding of each rule. */
  examples: Record<string, FindingExample>;
  /** The event types in causal order, a post and its delivery once. */
  events: string[];
  /** The payload key paths of each message type (`a`, `a.b`, `list[].id`), sorted. */
  shapes: Record<string, string[]>;
  timing: SessionTiming;
  integration: IntegrationState;
  /** Why the session fails as a run whatever else it holds (verdict.ts `runFailures`: no embed, never ready…). */
  failures: string[];
}

export type RuleStatus = 'new' | 'more' | 'changed' | 'fewer' | 'gone' | 'same';
export interface RuleDiff {
  rule: string;
  /** new: none in A; gone: none in B; more/fewer: the total went up/down; changed: same total, other severities. */
  status: RuleStatus;
  /** The highest severity of its findings in A and B. */
  severity: Severity;
  a: SeverityCounts;
  b: SeverityCounts;
  /** An example: B's first finding (A's for a rule gone or fewer). */
  example: FindingExample | null;
}

export type TypeStatus = 'added' | 'removed' | 'changed' | 'same';
export interface TypeDiff {
  type: string;
  status: TypeStatus;
  a: number;
  b: number;
}

/** Consecutive events of one type. */
export interface EventRun {
  type: string;
  count: number;
}
export interface OrderHunk {
  /** same: in both; removed: only in A; added: only in B. */
  op: 'same' | 'removed' | 'added';
  events: EventRun[];
}
export interface OrderDiff {
  same: boolean;
  /** Events in A and in B. */
  a: number;
  b: number;
  /** The edit script from A to B, over runs of one type. */
  hunks: OrderHunk[];
}

export interface ShapeDiff {
  type: string;
  /** Key paths seen in A's messages of the type only. */
  onlyA: string[];
  /** Key paths seen in B's only. */
  onlyB: string[];
}

export interface TimingFigure {
  a: number | null;
  b: number | null;
  /** b − a (ms), when both are known. */
  difference: number | null;
}

/** One issue count that went up in B: a rule at a severity. */
export interface NewIssue {
  rule: string;
  severity: Severity;
  a: number;
  b: number;
}

export interface SideSummary {
  messages: number;
  events: number;
  errors: number;
  warnings: number;
  infos: number;
  integration: IntegrationState;
  /** Why this session fails as a run whatever else it holds (no embed traffic, never ready…); B's fail the diff. */
  failures: string[];
}

export interface CaptureDiff {
  /**
   * 1 when B has more error findings of some rule than A (`newIssues` with severity error), or fails as a run
   * whatever A did (`b.failures`: no embed traffic, an embed that could not start or never said ready); else 0.
   */
  exitCode: 0 | 1;
  a: SideSummary;
  b: SideSummary;
  /** Each rule and severity whose count went up from A to B, errors first. */
  newIssues: NewIssue[];
  /** Every rule seen in A or B: new, more, changed, fewer, gone, then same; by rule id within each. */
  rules: RuleDiff[];
  /** Every type seen in A or B, by type. */
  types: TypeDiff[];
  order: OrderDiff;
  /** The types seen in both whose payload key paths differ, by type; `unchanged`: how many others are in both. */
  shapes: { changed: ShapeDiff[]; unchanged: number };
  timing: {
    from: { a: TimingBase | null; b: TimingBase | null };
    ready: TimingFigure;
    dashboardLoaded: TimingFigure;
    loadDurationMs: TimingFigure;
  };
  integration: { same: boolean; a: IntegrationState; b: IntegrationState };
}

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
const MAX_DEPTH = 8;
const MAX_PATHS = 500;

const objectOf = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const typeOf = (d: Record<string, unknown> | null): string =>
  typeof d?.type === 'string' && d.type ? d.type : '(no type)';

/** The key paths of an encoded value (encoding.ts): a tagged value is a leaf, an escaped object is looked into. */
function keyPaths(value: unknown, prefix: string, out: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH || out.size >= MAX_PATHS) {
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      keyPaths(item, `${prefix}[]`, out, depth + 1);
    }
    return;
  }
  let o = objectOf(value);
  if (!o) {
    return;
  }
  if (typeof o.$ei === 'string') {
    if (o.$ei !== 'Object') {
      return;
    }
    o = objectOf(o.v);
    if (!o) {
      return;
    }
  }
  for (const k of Object.keys(o)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (out.size >= MAX_PATHS) {
      return;
    }
    out.add(p);
    keyPaths(o[k], p, out, depth + 1);
  }
}

/** A capture's records by seq (navigations apart) and the post a delivery stands with, when both were judged. */
interface ProfileIndex {
  bySeq: Map<number, CaptureRecord>;
  navBySeq: Map<number, CaptureRecord>;
  postOf: (r: CaptureRecord) => number | null;
}

function profileIndex(records: readonly CaptureRecord[], result: CheckResult): ProfileIndex {
  const bySeq = new Map<number, CaptureRecord>();
  const navBySeq = new Map<number, CaptureRecord>();
  for (const r of records) {
    if (!r || typeof r.seq !== 'number') {
      continue;
    }
    (r.navigation ? navBySeq : bySeq).set(r.seq, r);
  }
  const resultBySeq = new Map(result.messages.map((m) => [m.seq, m]));
  const postOf = (r: CaptureRecord): number | null =>
    r.kind === 'receive' && r.pairedWith !== undefined && bySeq.has(r.pairedWith) && resultBySeq.has(r.pairedWith)
      ? r.pairedWith
      : null;
  return { bySeq, navBySeq, postOf };
}

/**
 * Findings, each once (verdict.ts counts them the same way): heads (posts, unpaired records) first, so that a
 * delivery's own copy of its post's finding joins the post's; then in the result's order.
 */
function profileFindings(result: CheckResult, ix: ProfileIndex): Array<FindingExample & { rule: string }> {
  const { bySeq, navBySeq, postOf } = ix;
  const findings: Array<FindingExample & { rule: string }> = [];
  const groups = new Map<number, Array<{ seq: number; rule: string; path: string }>>(); // by the message's head
  const ordered = result.messages.filter((m) => bySeq.has(m.seq) || navBySeq.has(m.seq));
  const isTail = (seq: number) => {
    const r = bySeq.get(seq);
    return !!r && postOf(r) !== null;
  };
  for (const m of [...ordered.filter((x) => !isTail(x.seq)), ...ordered.filter((x) => isTail(x.seq))]) {
    const r = bySeq.get(m.seq) ?? navBySeq.get(m.seq)!;
    const head = r.navigation ? m.seq : (postOf(r) ?? m.seq);
    let group = groups.get(head);
    if (!group) {
      group = [];
      groups.set(head, group);
    }
    for (const i of m.issues) {
      if (i.sender || !SEVERITIES.includes(i.severity)) {
        continue;
      }
      if (group.some((f) => f.rule === i.rule && f.path === i.path && f.seq !== m.seq)) {
        continue;
      }
      group.push({ seq: m.seq, rule: i.rule, path: i.path });
      const type = r.navigation ? 'embed frame' : typeOf(objectOf(r.data));
      findings.push({ rule: i.rule, seq: m.seq, type, severity: i.severity, message: i.message });
    }
  }
  const position = new Map(result.messages.map((m, k) => [m.seq, k]));
  findings.sort((x, y) => position.get(x.seq)! - position.get(y.seq)!);
  return findings;
}

/**
 * Messages: types, events in order, payload shapes, first ready and dashboard-loaded (keyed by the capture's type
 * strings: `__proto__` stays a key).
 */
function profileMessages(result: CheckResult, ix: ProfileIndex) {
  const types: Record<string, number> = {};
  const events: string[] = [];
  const paths = new Map<string, Set<string>>();
  let messages = 0;
  let ready: CaptureRecord | null = null;
  let loaded: CaptureRecord | null = null;
  for (const m of result.messages) {
    const r = ix.bySeq.get(m.seq);
    if (!r || ix.postOf(r) !== null || !isSvcEmbed(r.data)) {
      continue;
    }
    const d = objectOf(r.data)!;
    const type = typeOf(d);
    messages++;
    put(types, type, (own(types, type) ?? 0) + 1);
    if (d.direction === 'event') {
      events.push(type);
    }
    let set = paths.get(type);
    if (!set) {
      set = new Set();
      paths.set(type, set);
    }
    keyPaths(d.payload, '', set, 0);
    if (type === 'svc:event:ready' && !ready) {
      ready = r;
    } else if (type === 'svc:event:dashboard-loaded' && !loaded) {
      loaded = r;
    }
  }
  const shapes: Record<string, string[]> = {};
  for (const [type, set] of [...paths].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    put(shapes, type, [...set].sort());
  }
  return { messages, types, events, shapes, ready, loaded };
}

/** Timing: from the navigation of the embed frame that said ready (else the first embed frame loaded). */
function profileTiming(
  records: readonly CaptureRecord[],
  result: CheckResult,
  ready: CaptureRecord | null,
  loaded: CaptureRecord | null,
): SessionTiming {
  const embeds = result.diagnosis?.embeds ?? [];
  const readySeq = ready?.seq;
  const frame =
    embeds.find((e) => e.loaded && readySeq !== undefined && e.ready === readySeq) ?? embeds.find((e) => e.loaded);
  let first = Number.POSITIVE_INFINITY;
  for (const r of records) {
    if (r && Number.isFinite(r.time) && r.time < first) {
      first = r.time;
    }
  }
  const base = frame && Number.isFinite(frame.time) ? frame.time : Number.isFinite(first) ? first : null;
  const since = (r: CaptureRecord | null) =>
    r && base !== null && Number.isFinite(r.time) ? Math.round(r.time - base) : null;
  const duration = loaded ? objectOf(objectOf(loaded.data)?.payload)?.loadDurationMs : undefined;
  return {
    from: frame && Number.isFinite(frame.time) ? 'embed-navigation' : base !== null ? 'first-record' : null,
    ready: since(ready),
    dashboardLoaded: since(loaded),
    loadDurationMs: typeof duration === 'number' && Number.isFinite(duration) ? duration : null,
  };
}

/**
 * A capture reduced for comparison, from its records and `checkCapture`'s result for them (the result's order, the
 * causal one, is the order used).
 */
export function sessionProfile(records: readonly CaptureRecord[], result: CheckResult): SessionProfile {
  const ix = profileIndex(records, result);
  const rules: Record<string, SeverityCounts> = {};
  const examples: Record<string, FindingExample> = {};
  for (const { rule, ...f } of profileFindings(result, ix)) {
    const c = (rules[rule] ??= { error: 0, warning: 0, info: 0 });
    c[f.severity]++;
    examples[rule] ??= f;
  }
  const { messages, types, events, shapes, ready, loaded } = profileMessages(result, ix);
  return {
    messages,
    types,
    rules,
    examples,
    events,
    shapes,
    timing: profileTiming(records, result, ready, loaded),
    integration: result.integration ?? { state: 'healthy', text: 'healthy', seq: null },
    failures: evaluate(records, result).runFailures,
  };
}

/** Consecutive repeats of a type as one run. */
export function eventRuns(events: readonly string[]): EventRun[] {
  const runs: EventRun[] = [];
  for (const type of events) {
    const last = runs[runs.length - 1];
    if (last && last.type === type) {
      last.count++;
    } else {
      runs.push({ type, count: 1 });
    }
  }
  return runs;
}

/** Above this many cells the middle of two orders is not aligned: it is shown removed, then added. */
const MAX_CELLS = 4_000_000;

/** A shortest edit script between two orders of runs (a longest common subsequence), as hunks. */
export function diffOrder(aEvents: readonly string[], bEvents: readonly string[]): OrderDiff {
  const a = eventRuns(aEvents);
  const b = eventRuns(bEvents);
  const eq = (x: EventRun, y: EventRun) => x.type === y.type && x.count === y.count;
  const steps: Array<{ op: OrderHunk['op']; run: EventRun }> = [];
  let start = 0;
  while (start < a.length && start < b.length && eq(a[start], b[start])) {
    steps.push({ op: 'same', run: a[start] });
    start++;
  }
  let endA = a.length;
  let endB = b.length;
  const tail: Array<{ op: OrderHunk['op']; run: EventRun }> = [];
  while (endA > start && endB > start && eq(a[endA - 1], b[endB - 1])) {
    tail.unshift({ op: 'same', run: a[endA - 1] });
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n > 0 && m > 0 && n * m <= MAX_CELLS) {
    // lcs[i][j]: the longest common subsequence of a[start+i…endA) and b[start+j…endB)
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] = eq(a[start + i], b[start + j])
          ? lcs[(i + 1) * width + j + 1] + 1
          : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && eq(a[start + i], b[start + j])) {
        steps.push({ op: 'same', run: a[start + i] });
        i++;
        j++;
      } else if (i < n && (j === m || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
        steps.push({ op: 'removed', run: a[start + i] });
        i++;
      } else {
        steps.push({ op: 'added', run: b[start + j] });
        j++;
      }
    }
  } else {
    for (let i = start; i < endA; i++) {
      steps.push({ op: 'removed', run: a[i] });
    }
    for (let j = start; j < endB; j++) {
      steps.push({ op: 'added', run: b[j] });
    }
  }
  steps.push(...tail);
  // Within a change, what A had first, then what B has instead.
  const hunks: OrderHunk[] = [];
  let k = 0;
  while (k < steps.length) {
    if (steps[k].op === 'same') {
      const events: EventRun[] = [];
      while (k < steps.length && steps[k].op === 'same') {
        events.push(steps[k++].run);
      }
      hunks.push({ op: 'same', events });
      continue;
    }
    const removed: EventRun[] = [];
    const added: EventRun[] = [];
    while (k < steps.length && steps[k].op !== 'same') {
      (steps[k].op === 'removed' ? removed : added).push(steps[k].run);
      k++;
    }
    if (removed.length) {
      hunks.push({ op: 'removed', events: removed });
    }
    if (added.length) {
      hunks.push({ op: 'added', events: added });
    }
  }
  return {
    same: hunks.every((h) => h.op === 'same'),
    a: aEvents.length,
    b: bEvents.length,
    hunks,
  };
}

const total = (c: SeverityCounts) => c.error + c.warning + c.info;
const NONE: SeverityCounts = { error: 0, warning: 0, info: 0 };
const byName = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
const STATUS_ORDER: RuleStatus[] = ['new', 'more', 'changed', 'fewer', 'gone', 'same'];

function figure(a: number | null, b: number | null): TimingFigure {
  return { a, b, difference: a !== null && b !== null ? Math.round(b - a) : null };
}

function side(p: SessionProfile): SideSummary {
  const sum = (s: Severity) => Object.values(p.rules).reduce((n, c) => n + c[s], 0);
  return {
    messages: p.messages,
    events: p.events.length,
    errors: sum('error'),
    warnings: sum('warning'),
    infos: sum('info'),
    integration: p.integration,
    failures: p.failures,
  };
}

/** Compare two profiles: A, the one that passed; B, the one in question. */
export function diffProfiles(a: SessionProfile, b: SessionProfile): CaptureDiff {
  // ---- rules
  const rules: RuleDiff[] = [];
  const newIssues: NewIssue[] = [];
  for (const rule of [...new Set([...Object.keys(a.rules), ...Object.keys(b.rules)])].sort(byName)) {
    const ca = a.rules[rule] ?? NONE;
    const cb = b.rules[rule] ?? NONE;
    const ta = total(ca);
    const tb = total(cb);
    const status: RuleStatus =
      ta === 0
        ? 'new'
        : tb === 0
          ? 'gone'
          : tb > ta
            ? 'more'
            : tb < ta
              ? 'fewer'
              : SEVERITIES.some((s) => ca[s] !== cb[s])
                ? 'changed'
                : 'same';
    const severity = SEVERITIES.find((s) => ca[s] > 0 || cb[s] > 0) ?? 'info';
    const example =
      status === 'gone' || status === 'fewer'
        ? (a.examples[rule] ?? null)
        : (b.examples[rule] ?? a.examples[rule] ?? null);
    rules.push({ rule, status, severity, a: { ...ca }, b: { ...cb }, example });
    for (const s of SEVERITIES) {
      if (cb[s] > ca[s]) {
        newIssues.push({ rule, severity: s, a: ca[s], b: cb[s] });
      }
    }
  }
  rules.sort((x, y) => STATUS_ORDER.indexOf(x.status) - STATUS_ORDER.indexOf(y.status) || byName(x.rule, y.rule));
  newIssues.sort((x, y) => RANK[y.severity] - RANK[x.severity] || byName(x.rule, y.rule));

  // ---- types
  const types: TypeDiff[] = [...new Set([...Object.keys(a.types), ...Object.keys(b.types)])]
    .sort(byName)
    .map((type) => {
      const na = own(a.types, type) ?? 0;
      const nb = own(b.types, type) ?? 0;
      const status: TypeStatus = na === 0 ? 'added' : nb === 0 ? 'removed' : na !== nb ? 'changed' : 'same';
      return { type, status, a: na, b: nb };
    });

  // ---- payload shapes of the types seen in both
  const changed: ShapeDiff[] = [];
  let unchanged = 0;
  for (const type of Object.keys(a.shapes).sort(byName)) {
    const pb = own(b.shapes, type);
    if (!pb || !Object.hasOwn(b.types, type) || !Object.hasOwn(a.types, type)) {
      continue;
    }
    const sa = new Set(a.shapes[type]);
    const sb = new Set(pb);
    const onlyA = [...sa].filter((p) => !sb.has(p));
    const onlyB = [...sb].filter((p) => !sa.has(p));
    if (onlyA.length || onlyB.length) {
      changed.push({ type, onlyA, onlyB });
    } else {
      unchanged++;
    }
  }

  return {
    exitCode: newIssues.some((i) => i.severity === 'error') || b.failures.length ? 1 : 0,
    a: side(a),
    b: side(b),
    newIssues,
    rules,
    types,
    order: diffOrder(a.events, b.events),
    shapes: { changed, unchanged },
    timing: {
      from: { a: a.timing.from, b: b.timing.from },
      ready: figure(a.timing.ready, b.timing.ready),
      dashboardLoaded: figure(a.timing.dashboardLoaded, b.timing.dashboardLoaded),
      loadDurationMs: figure(a.timing.loadDurationMs, b.timing.loadDurationMs),
    },
    integration: {
      same: a.integration.state === b.integration.state && a.integration.text === b.integration.text,
      a: a.integration,
      b: b.integration,
    },
  };
}

/**
 * Compare two capture files (format v1), each checked with `checkCapture` and the same options (a tenant origin
 * given here applies to both).
 */
export function diffCaptures(
  a: Pick<CaptureFile, 'messages' | 'tenantOrigin' | 'meta'>,
  b: Pick<CaptureFile, 'messages' | 'tenantOrigin' | 'meta'>,
  options: Parameters<typeof checkCapture>[1] = {},
): CaptureDiff {
  return diffProfiles(
    sessionProfile(a.messages, checkCapture(a, options)),
    sessionProfile(b.messages, checkCapture(b, options)),
  );
}
