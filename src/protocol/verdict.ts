/**
 * The verdict of a run (`check` of a file, `record` of a page): did the embed show up, did it start, were the
 * expected messages seen, are there findings at or above the failing severity. Also the one counting that the
 * text summary, JUnit and JSON all print (messages, records, findings, checks), so they never disagree.
 *
 * Pure: no node: imports, no I/O; the same records and result give the same evaluation.
 *
 * - A post and its delivery are two records of one message. A delivery shows its post's issues marked
 *   `sender` (pairs.ts): those are not findings of their own. An issue that the delivery finds itself with the
 *   same rule and path as its post's is the same finding of the same message: counted once, at the post.
 * - A check is what a CI dashboard shows as a test case. Its name depends only on what was seen (rule,
 *   message type, kind, expectation), never on a seq or a time, so two recordings of one session give the
 *   same names in the same order.
 * - REST calls (the capture's `rest`, or a HAR's entries) are not messages: they have their own figures
 *   (`restCalls`, `restValid`, `restInvalid`) and list (`rest`), and their findings are findings like any other
 *   (counted by severity and rule, failing at `--fail-on`), in checks named `<rule> · <operation id>`
 *   (`embed-inspector.rest`), with one passing check per operation and method seen (`embed-inspector.rest-calls`).
 *   A file with REST calls and no record at all (a HAR of another tool) is judged on its REST calls alone: it is
 *   not "empty".
 */
import { ACTION_TYPES, EVENT_TYPES } from './catalog.ts';
import type { CheckResult, RestCallResult } from './capture.ts';
import type { Issue, Severity, Verdict } from './classify.ts';
import { isSvcEmbed } from './marker.ts';
import type { CaptureRecord } from './record.ts';
import { RULES } from './rules.ts';
import { isEmbedAddress } from './address.ts';

export type FailOn = 'error' | 'warning';

export interface EvaluateOptions {
  /** Message types that must be seen (catalogued events and actions); `svc:event:ready` is added when an embed frame is seen. */
  expect?: readonly string[];
  /** The lowest severity that fails the run (default `error`; `warning`: warnings and errors). */
  failOn?: FailOn;
  /** A capture with no embed frame and no svc-embed message passes (by default it fails). */
  allowEmpty?: boolean;
  /** What was checked, for the reasons: a URL (`… seen on URL`) or a file (`… seen in FILE`). */
  where?: string;
}

/** Every message type of the catalog: what `expect` may name. */
export const EXPECTABLE_TYPES: readonly string[] = [...EVENT_TYPES, ...ACTION_TYPES];

/** The figures every output format prints: one counting. */
export interface Figures {
  /** Messages: a post and its delivery are one message; navigations are not messages. */
  messages: number;
  /** Records: posts and deliveries (navigations excluded). */
  records: number;
  /** Messages by verdict: invalid when any finding of the message (post or delivery) is an error. */
  valid: number;
  invalid: number;
  foreign: number;
  /** Findings by severity: each issue of a message once. */
  errors: number;
  warnings: number;
  infos: number;
  /** REST calls of the four platform operations checked; invalid when any of its findings is an error. */
  restCalls: number;
  restValid: number;
  restInvalid: number;
  /** Checks (JUnit test cases). */
  checks: number;
  checksPassed: number;
  checksFailed: number;
}

/** One issue of one message, counted once, at the record that found it (the post, for a post and its delivery). */
export interface Finding {
  seq: number;
  kind: CaptureRecord['kind'];
  /** The message type, `(no type)` when it has none. */
  type: string;
  rule: string;
  severity: Severity;
  path: string;
  message: string;
  /** The seqs of its deliveries that found the same issue themselves. */
  alsoAt: number[];
  /** Found on a frame's navigation record (the embed's address, what it never said): not a message. */
  navigation?: boolean;
}

/** One issue of one REST call (the file's `rest[index]`). */
interface RestFinding {
  index: number;
  operation: string;
  rule: string;
  severity: Severity;
  path: string;
  message: string;
}

/** A REST call as the reports list it. */
interface RestCallLine {
  /** Its index in the file's `rest` array. */
  index: number;
  operation: RestCallResult['operation'];
  method: string;
  url: string;
  status: number;
  /** Epoch ms when it started. */
  time: number;
  /** invalid when any of its findings is an error. */
  verdict: 'valid' | 'invalid';
  findings: RestFinding[];
}

/** A REST call as a check lists it: `rest[2] PUT URL → 400 at ISO-TIME: what`. */
export interface CheckCallLine {
  index: number;
  method: string;
  url: string;
  status: number;
  time: number;
  message: string;
}

/** A record as a check lists it. */
export interface CheckRecordLine {
  seq: number;
  kind: CaptureRecord['kind'];
  frameUrl: string;
  /** Epoch ms when the extension observed it. */
  time: number;
  /** What this record shows for the check: a finding (`error payload.x: …`), a type seen, a failure. */
  message: string;
}

/** One check: a JUnit test case, a line of the checks count. */
interface Check {
  /** Stable across recordings of one session: `origin.action-wildcard · svc:action:set-color-scheme (post)`. */
  name: string;
  /** `embed-inspector.<rule group>`, `embed-inspector.expectations`, `embed-inspector.messages`. */
  classname: string;
  passed: boolean;
  /** One line: why it failed, or what was seen. */
  summary: string;
  /** The records behind it, in capture order. */
  records: CheckRecordLine[];
  /** REST checks: the calls behind it, in the file's order. */
  calls?: CheckCallLine[];
  /** Finding checks: the rule and the highest severity of its findings. */
  rule?: string;
  severity?: Severity;
}

interface Expectation {
  type: string;
  /**
   * Added because embed traffic was seen (`svc:event:ready`), not asked for: an embed frame, or svc-embed messages
   * with no embed frame (a host acting on an embed that never spoke).
   */
  implicit: boolean;
  met: boolean;
  /** The first record of that type (capture order), when met. */
  seq: number | null;
}

/** A message (a post and its delivery, or one record) as the reports list it. */
interface MessageGroup {
  /** The record that counts it: the post of a post and its delivery. */
  seq: number;
  verdict: Verdict;
  /** Its deliveries paired with it (seqs). */
  deliveries: number[];
  /** Its findings (each once). */
  findings: Finding[];
}

export interface Evaluation {
  passed: boolean;
  exitCode: 0 | 1;
  /** Why it failed, in words, the most important first; empty when it passed. */
  reasons: string[];
  /**
   * The reasons no run passes with, whatever else it holds (the first of `reasons`): no embed traffic, an embed
   * that could not start, an embed that never said ready.
   */
  runFailures: string[];
  failOn: FailOn;
  /** No embed frame and no svc-embed message. */
  empty: boolean;
  /** URLs of the embed frames seen (deduplicated, in capture order). */
  embedFrames: string[];
  /** Any svc-embed message seen. */
  svcEmbedSeen: boolean;
  expectations: Expectation[];
  /** The embed reported that it could not start (a fatal `error` before `ready`): each message, with its seq. */
  startFailures: Array<{ seq: number; message: string }>;
  findings: Finding[];
  /** The messages, in the result's (causal) order. */
  messages: MessageGroup[];
  /** Finding count per rule id. */
  rules: Record<string, number>;
  /** Sorted by classname, then name. */
  checks: Check[];
  figures: Figures;
  /** The integration's state in words (what the summary leads with), and the first record concerned. */
  integration: CheckResult['integration'];
  /** Notes about the whole session, on no record (e.g. the host never acted). */
  notes: string[];
  /** The REST calls checked, in the file's order. */
  rest: RestCallLine[];
  /** Their findings (each issue once). */
  restFindings: RestFinding[];
  /** REST calls of the file that are not one of the four operations: not checked. */
  restSkipped: number;
  /** No record at all, only REST calls (a HAR of another tool): judged on its REST calls alone. */
  restOnly: boolean;
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
const FAILED_BEFORE_READY = 'session.failed-before-ready';

/**
 * `--expect` values: each may list several types separated by commas; blanks are dropped, repeats kept once.
 * `unknown` lists those that are not a catalogued event or action type.
 */
export function parseExpect(values: readonly string[] = []): { types: string[]; unknown: string[] } {
  const types: string[] = [];
  const unknown: string[] = [];
  for (const v of values) {
    for (const t of v.split(',').map((x) => x.trim())) {
      if (!t || types.includes(t) || unknown.includes(t)) {
        continue;
      }
      (EXPECTABLE_TYPES.includes(t) ? types : unknown).push(t);
    }
  }
  return { types, unknown };
}

function dataOf(r: CaptureRecord | undefined): Record<string, unknown> | null {
  const d = r?.data;
  return d !== null && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : null;
}

/** A record's message type, `(no type)` when it has none. */
export function typeOf(r: CaptureRecord | undefined): string {
  const t = dataOf(r)?.type;
  return typeof t === 'string' && t ? t : '(no type)';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function isUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s) || /^(about|data|blob):/i.test(s);
}

/** The reason of an empty capture: `no embed traffic seen on URL`, `… in FILE`, or without a place. */
function emptyReason(where?: string): string {
  return where ? `no embed traffic seen ${isUrl(where) ? 'on' : 'in'} ${where}` : 'no embed traffic seen';
}

/** The run's records by seq (navigations apart), and what a check lists of one. */
interface Indexed {
  bySeq: Map<number, CaptureRecord>;
  navBySeq: Map<number, CaptureRecord>;
  /** The result's messages that are records of this run, in causal order. */
  ordered: CheckResult['messages'];
  recordOf: (seq: number) => CaptureRecord | undefined;
}

function indexed(records: readonly CaptureRecord[], result: CheckResult): Indexed {
  const bySeq = new Map<number, CaptureRecord>();
  const navBySeq = new Map<number, CaptureRecord>();
  for (const r of records) {
    (r.navigation ? navBySeq : bySeq).set(r.seq, r);
  }
  return {
    bySeq,
    navBySeq,
    ordered: result.messages.filter((m) => bySeq.has(m.seq)),
    recordOf: (seq) => bySeq.get(seq) ?? navBySeq.get(seq),
  };
}

const lineOf = (r: CaptureRecord, message: string): CheckRecordLine => ({
  seq: r.seq,
  kind: r.kind,
  frameUrl: r.frameUrl,
  time: r.time,
  message,
});

/**
 * What was seen: the embed frames and svc-embed traffic. The embed frames are the diagnosis's (protocol/diagnose.ts):
 * the platform's by their address, or frames that posted svc-embed events (a video player's /embed/ frame is not one).
 */
function seen(records: readonly CaptureRecord[], result: CheckResult) {
  const frames = new Set<string>((result.diagnosis?.embeds ?? []).map((e) => e.url));
  let svcEmbedSeen = false;
  for (const r of records) {
    const d = dataOf(r);
    // (a record's frame, or a post's target, with the platform's address shape)
    if (!r.navigation && isEmbedAddress(r.frameUrl)) {
      frames.add(r.frameUrl);
    }
    if (r.kind === 'post' && !r.navigation && isEmbedAddress(r.targetUrl)) {
      frames.add(r.targetUrl as string);
    }
    if (!r.navigation && isSvcEmbed(d)) {
      svcEmbedSeen = true;
      if (r.kind === 'post' && d?.direction === 'event' && r.frameUrl) {
        frames.add(r.frameUrl);
      }
    }
  }
  const embedFrames = [...frames];
  return { embedFrames, svcEmbedSeen, empty: embedFrames.length === 0 && !svcEmbedSeen };
}

/** REST calls: findings of their own, not messages. */
function restOf(result: CheckResult): { rest: RestCallLine[]; restFindings: RestFinding[] } {
  const rest: RestCallLine[] = [];
  const restFindings: RestFinding[] = [];
  for (const c of result.rest ?? []) {
    const list: RestFinding[] = c.issues.map((i) => ({
      index: c.index,
      operation: c.operation,
      rule: i.rule,
      severity: i.severity,
      path: i.path,
      message: i.message,
    }));
    restFindings.push(...list);
    rest.push({
      index: c.index,
      operation: c.operation,
      method: c.method,
      url: c.url,
      status: c.status,
      time: c.time,
      verdict: list.some((f) => f.severity === 'error') ? 'invalid' : 'valid',
      findings: list,
    });
  }
  return { rest, restFindings };
}

/**
 * Messages and findings: a delivery paired with a post present here belongs to the post's message; each issue is
 * one finding, counted at the record that found it first (the post); navigation records' findings count too.
 */
function messagesOf(ix: Indexed, result: CheckResult): { messages: MessageGroup[]; findings: Finding[] } {
  const { bySeq, navBySeq, ordered } = ix;
  const resultBySeq = new Map(result.messages.map((m) => [m.seq, m]));
  // (a file's pairing is its word: a delivery paired with itself or with another delivery heads its own message)
  const postOf = (r: CaptureRecord): number | null =>
    r.kind === 'receive' &&
    r.pairedWith !== undefined &&
    resultBySeq.has(r.pairedWith) &&
    bySeq.get(r.pairedWith)?.kind === 'post'
      ? r.pairedWith
      : null;
  const groups = new Map<number, MessageGroup>();
  const findings: Finding[] = [];
  const add = (r: CaptureRecord, issues: readonly Issue[], group: MessageGroup) =>
    findings.push(...findingsOf(r, issues, group));
  // Heads first (posts, unpaired records), so that a delivery's own copy of its post's issue joins the post's.
  for (const m of ordered) {
    const r = bySeq.get(m.seq)!;
    if (postOf(r) === null) {
      const g: MessageGroup = { seq: m.seq, verdict: m.verdict, deliveries: [], findings: [] };
      groups.set(m.seq, g);
      add(r, m.issues, g);
    }
  }
  for (const m of ordered) {
    const r = bySeq.get(m.seq)!;
    const post = postOf(r);
    if (post !== null) {
      const g = groups.get(post)!;
      g.deliveries.push(m.seq);
      add(r, m.issues, g);
    }
  }
  // The embed frames' navigation records: their findings (address, silence) count; they are not messages.
  for (const m of result.messages) {
    const r = navBySeq.get(m.seq);
    if (r) {
      add(r, m.issues, { seq: m.seq, verdict: m.verdict, deliveries: [], findings: [] });
    }
  }
  const messages = [...groups.values()];
  for (const g of messages) {
    if (g.verdict !== 'foreign') {
      g.verdict = g.findings.some((f) => f.severity === 'error') ? 'invalid' : 'valid';
    }
  }
  const position = new Map(result.messages.map((m, k) => [m.seq, k]));
  findings.sort((a, b) => position.get(a.seq)! - position.get(b.seq)!);
  return { messages, findings };
}

/** A record's issues as new findings of its message (a delivery's copy of one already found joins it). */
function findingsOf(r: CaptureRecord, issues: readonly Issue[], group: MessageGroup): Finding[] {
  const out: Finding[] = [];
  for (const i of issues) {
    if (i.sender) {
      continue;
    }
    const same = group.findings.find((f) => f.rule === i.rule && f.path === i.path && f.seq !== r.seq);
    if (same) {
      same.alsoAt.push(r.seq);
      continue;
    }
    const f: Finding = {
      seq: r.seq,
      kind: r.kind,
      type: r.navigation ? 'embed frame' : typeOf(r),
      rule: i.rule,
      severity: i.severity,
      path: i.path,
      message: i.message,
      alsoAt: [],
      ...(r.navigation ? { navigation: true } : {}),
    };
    group.findings.push(f);
    out.push(f);
  }
  return out;
}

/** Expectations: the first record of each type wanted, in causal order (`ready` whenever an embed frame was seen). */
function expectationsOf(ix: Indexed, expect: readonly string[], embedSeen: boolean): Expectation[] {
  const firstOf = new Map<string, number>();
  for (const m of ix.ordered) {
    const r = ix.bySeq.get(m.seq)!;
    if (isSvcEmbed(r.data)) {
      const t = typeOf(r);
      if (!firstOf.has(t)) {
        firstOf.set(t, r.seq);
      }
    }
  }
  const wanted: Array<{ type: string; implicit: boolean }> = [];
  for (const t of expect) {
    if (!wanted.some((w) => w.type === t)) {
      wanted.push({ type: t, implicit: false });
    }
  }
  if (embedSeen && !wanted.some((w) => w.type === 'svc:event:ready')) {
    wanted.unshift({ type: 'svc:event:ready', implicit: true });
  }
  return wanted.map(({ type, implicit }) => ({
    type,
    implicit,
    met: firstOf.has(type),
    seq: firstOf.get(type) ?? null,
  }));
}

/** What the run's checks are made from. */
interface CheckInputs {
  ix: Indexed;
  opts: EvaluateOptions;
  failing: (s: Severity) => boolean;
  seen: ReturnType<typeof seen>;
  emptyFails: boolean;
  restOnly: boolean;
  expectations: Expectation[];
  startFailures: Array<{ seq: number; message: string }>;
  findings: Finding[];
  rest: RestCallLine[];
  restFindings: RestFinding[];
}

/** Every check, sorted by classname, then name. */
function checksOf(x: CheckInputs): Check[] {
  const checks = [...expectationChecks(x), ...findingChecks(x), ...restChecks(x), ...seenTypeChecks(x.ix)];
  return checks.sort((a, b) =>
    a.classname < b.classname ? -1 : a.classname > b.classname ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}

/** Embed traffic seen, each expected type, each start failure. */
function expectationChecks(x: CheckInputs): Check[] {
  const { seen: s, opts, emptyFails } = x;
  const checks: Check[] = [];
  if (!x.restOnly) {
    checks.push({
      name: 'embed traffic seen',
      classname: 'embed-inspector.expectations',
      passed: !emptyFails,
      summary: s.empty
        ? emptyFails
          ? emptyReason(opts.where)
          : `${emptyReason(opts.where)} (allowed)`
        : `${plural(s.embedFrames.length, 'embed frame')}${s.embedFrames.length ? ` (${s.embedFrames.join(', ')})` : ''}, ${s.svcEmbedSeen ? 'svc-embed messages' : 'no svc-embed message'}`,
      records: [],
    });
  }
  for (const e of x.expectations) {
    const r = e.seq === null ? undefined : x.ix.bySeq.get(e.seq);
    checks.push({
      name: `expect ${e.type}`,
      classname: 'embed-inspector.expectations',
      passed: e.met,
      summary: e.met
        ? `${e.type} first seen at #${e.seq}`
        : `expected ${e.type}, never seen${e.implicit ? (s.embedFrames.length ? ' (an embed frame was seen)' : ' (svc-embed messages were seen)') : ''}`,
      records: r ? [lineOf(r, `${e.type} first seen`)] : [],
    });
  }
  const startNames = new Map<string, number>();
  for (const f of x.startFailures) {
    const base = `embed started: ${f.message.replace(/^the embed failed to start: /, '')}`;
    const n = (startNames.get(base) ?? 0) + 1;
    startNames.set(base, n);
    const r = x.ix.bySeq.get(f.seq);
    checks.push({
      name: n === 1 ? base : `${base} (${n})`,
      classname: 'embed-inspector.expectations',
      passed: false,
      summary: f.message,
      records: r ? [lineOf(r, f.message)] : [],
    });
  }
  return checks;
}

/** `2 errors, 1 warning`: the findings of one check by severity. */
function severityCounts(findings: ReadonlyArray<{ severity: Severity }>): string {
  return (['error', 'warning', 'info'] as const)
    .map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => plural(n, s))
    .join(', ');
}
const worstOf = (findings: ReadonlyArray<{ severity: Severity }>): Severity =>
  findings.reduce<Severity>((w, f) => (RANK[f.severity] > RANK[w] ? f.severity : w), 'info');

/** One check per rule, message type and kind: `origin.action-wildcard · svc:action:refresh (post)`. */
function findingChecks(x: CheckInputs): Check[] {
  const byCheck = new Map<string, { rule: string; type: string; kind: string; findings: Finding[] }>();
  for (const f of x.findings) {
    const kind = f.navigation ? 'navigation' : f.kind;
    const key = `${f.rule}\n${f.type}\n${kind}`;
    let c = byCheck.get(key);
    if (!c) {
      c = { rule: f.rule, type: f.type, kind, findings: [] };
      byCheck.set(key, c);
    }
    c.findings.push(f);
  }
  return [...byCheck.values()].map((c) => ({
    name: `${c.rule} · ${c.type} (${c.kind})`,
    classname: `embed-inspector.${RULES[c.rule]?.group ?? 'other'}`,
    passed: !c.findings.some((f) => x.failing(f.severity)),
    summary: `${severityCounts(c.findings)}: ${c.findings[0].message}`,
    records: c.findings.map((f) => {
      const also = f.alsoAt.length ? ` (also found at its delivery ${f.alsoAt.map((s) => `#${s}`).join(', ')})` : '';
      return lineOf(x.ix.recordOf(f.seq)!, `${f.severity} ${f.path}: ${f.message}${also}`);
    }),
    rule: c.rule,
    severity: worstOf(c.findings),
  }));
}

const callLineOf = (c: RestCallLine, message: string): CheckCallLine => ({
  index: c.index,
  method: c.method,
  url: c.url,
  status: c.status,
  time: c.time,
  message,
});

/** One check per REST rule and operation, and a passing one per operation and method seen. */
function restChecks(x: CheckInputs): Check[] {
  const checks: Check[] = [];
  const byRestCheck = new Map<string, { rule: string; operation: string; findings: RestFinding[] }>();
  for (const f of x.restFindings) {
    const key = `${f.rule}\n${f.operation}`;
    let c = byRestCheck.get(key);
    if (!c) {
      c = { rule: f.rule, operation: f.operation, findings: [] };
      byRestCheck.set(key, c);
    }
    c.findings.push(f);
  }
  const callAt = new Map(x.rest.map((c) => [c.index, c]));
  for (const c of byRestCheck.values()) {
    checks.push({
      name: `${c.rule} · ${c.operation}`,
      classname: `embed-inspector.${RULES[c.rule]?.group ?? 'rest'}`,
      passed: !c.findings.some((f) => x.failing(f.severity)),
      summary: `${severityCounts(c.findings)}: ${c.findings[0].message}`,
      records: [],
      calls: c.findings.map((f) => callLineOf(callAt.get(f.index)!, `${f.severity} ${f.path}: ${f.message}`)),
      rule: c.rule,
      severity: worstOf(c.findings),
    });
  }
  const seenOps = new Map<string, CheckCallLine[]>();
  for (const c of x.rest) {
    const name = `${c.operation} (${c.method.toUpperCase()})`;
    const list = seenOps.get(name) ?? [];
    list.push(callLineOf(c, `${c.verdict}, ${plural(c.findings.length, 'finding')}`));
    seenOps.set(name, list);
  }
  for (const [name, list] of seenOps) {
    checks.push({
      name,
      classname: 'embed-inspector.rest-calls',
      passed: true,
      summary: `${plural(list.length, 'call')}: ${list
        .slice(0, 10)
        .map((l) => `rest[${l.index}] → ${l.status}`)
        .join(', ')}${list.length > 10 ? ', …' : ''}`,
      records: [],
      calls: list,
    });
  }
  return checks;
}

/** A passing check per svc-embed message type and kind seen. */
function seenTypeChecks(ix: Indexed): Check[] {
  const seenTypes = new Map<string, CheckRecordLine[]>();
  for (const m of ix.ordered) {
    const r = ix.bySeq.get(m.seq)!;
    if (m.verdict === 'foreign' || !isSvcEmbed(r.data)) {
      continue;
    }
    const name = `${typeOf(r)} (${r.kind})`;
    const list = seenTypes.get(name) ?? [];
    list.push(lineOf(r, r.kind === 'post' ? `post → ${r.targetOrigin ?? '?'}` : `receive ← ${r.origin}`));
    seenTypes.set(name, list);
  }
  return [...seenTypes].map(([name, list]) => ({
    name,
    classname: 'embed-inspector.messages',
    passed: true,
    summary: `${plural(list.length, 'record')}: ${list
      .slice(0, 10)
      .map((l) => `#${l.seq}`)
      .join(', ')}${list.length > 10 ? ', …' : ''}`,
    records: list,
  }));
}

/**
 * Why the run fails whatever else it holds: no embed traffic (unless allowed), an embed that could not start, an
 * embed that never said ready. `diff` fails a B that has one, whatever A had.
 */
function runFailuresOf(x: CheckInputs): string[] {
  const reasons: string[] = [];
  if (x.emptyFails) {
    reasons.push(emptyReason(x.opts.where));
  }
  for (const s of x.startFailures) {
    reasons.push(`${s.message} (#${s.seq}, a fatal error before ready)`);
  }
  for (const f of x.findings) {
    if (f.rule === 'silence.never-ready') {
      reasons.push(`${f.message} (#${f.seq})`);
    }
  }
  return reasons;
}

/** Why the run failed, the most important first. */
function reasonsOf(x: CheckInputs, checks: Check[], failOn: FailOn): string[] {
  const reasons = runFailuresOf(x);
  for (const e of x.expectations) {
    if (!e.met) {
      reasons.push(`expected ${e.type}, never seen`);
    }
  }
  const failedFindingChecks = checks.filter((c) => c.rule !== undefined && !c.passed);
  if (failedFindingChecks.length) {
    const all: ReadonlyArray<{ severity: Severity }> = [...x.findings, ...x.restFindings];
    const errors = all.filter((f) => f.severity === 'error').length;
    const warnings = all.filter((f) => f.severity === 'warning').length;
    const what =
      failOn === 'warning'
        ? [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : '']
            .filter(Boolean)
            .join(' and ')
        : plural(errors, 'error');
    const names = failedFindingChecks.map((c) => c.name);
    const shown = names.length > 3 ? `${names.slice(0, 3).join('; ')}; and ${names.length - 3} more` : names.join('; ');
    reasons.push(`${what} (--fail-on ${failOn}) in ${plural(names.length, 'check')}: ${shown}`);
  }
  return reasons;
}

/** The one counting every output format prints. */
function figuresOf(x: CheckInputs, messages: MessageGroup[], checks: Check[]): Figures {
  const all: ReadonlyArray<{ severity: Severity }> = [...x.findings, ...x.restFindings];
  const count = <T>(xs: readonly T[], p: (t: T) => boolean) => xs.filter(p).length;
  const checksFailed = count(checks, (c) => !c.passed);
  return {
    messages: messages.length,
    records: x.ix.ordered.length,
    valid: count(messages, (g) => g.verdict === 'valid'),
    invalid: count(messages, (g) => g.verdict === 'invalid'),
    foreign: count(messages, (g) => g.verdict === 'foreign'),
    errors: count(all, (f) => f.severity === 'error'),
    warnings: count(all, (f) => f.severity === 'warning'),
    infos: count(all, (f) => f.severity === 'info'),
    restCalls: x.rest.length,
    restValid: count(x.rest, (c) => c.verdict === 'valid'),
    restInvalid: count(x.rest, (c) => c.verdict === 'invalid'),
    checks: checks.length,
    checksPassed: checks.length - checksFailed,
    checksFailed,
  };
}

/** Decide a run: see the module comment. */
export function evaluate(
  records: readonly CaptureRecord[],
  result: CheckResult,
  opts: EvaluateOptions = {},
): Evaluation {
  const failOn: FailOn = opts.failOn ?? 'error';
  const ix = indexed(records, result);
  const s = seen(records, result);
  const { rest, restFindings } = restOf(result);
  const restOnly = records.length === 0 && rest.length > 0;
  const { messages, findings } = messagesOf(ix, result);
  const rules: Record<string, number> = {};
  for (const f of [...findings, ...restFindings]) {
    rules[f.rule] = (rules[f.rule] ?? 0) + 1;
  }
  const inputs: CheckInputs = {
    ix,
    opts,
    failing: (sev) => RANK[sev] >= RANK[failOn],
    seen: s,
    emptyFails: s.empty && !opts.allowEmpty && !restOnly,
    restOnly,
    // (an embed frame, or svc-embed messages with none: a host acting on an embed that never spoke)
    expectations: expectationsOf(ix, opts.expect ?? [], s.embedFrames.length > 0 || s.svcEmbedSeen),
    // The embed said it could not start.
    startFailures: findings
      .filter((f) => f.rule === FAILED_BEFORE_READY)
      .map((f) => ({ seq: f.seq, message: f.message })),
    findings,
    rest,
    restFindings,
  };
  const checks = checksOf(inputs);
  const figures = figuresOf(inputs, messages, checks);
  const passed = figures.checksFailed === 0;
  return {
    passed,
    exitCode: passed ? 0 : 1,
    reasons: reasonsOf(inputs, checks, failOn),
    runFailures: runFailuresOf(inputs),
    failOn,
    ...s,
    expectations: inputs.expectations,
    startFailures: inputs.startFailures,
    findings,
    messages,
    rules,
    checks,
    figures,
    integration: integrationOf(inputs, result),
    notes: (result.diagnosis?.notes ?? []).map((n) => n.message),
    rest,
    restFindings,
    restSkipped: result.restSkipped ?? 0,
    restOnly,
  };
}

/** The integration's state in words: the diagnosis's, unless the run has no embed traffic to judge. */
function integrationOf(x: CheckInputs, result: CheckResult): Evaluation['integration'] {
  if (x.emptyFails) {
    return { state: 'no-embed', text: emptyReason(x.opts.where), seq: null };
  }
  if (x.restOnly) {
    return {
      state: 'no-embed',
      text: `no window messages in this file (a HAR of another tool has none); REST calls checked: ${x.rest.length}`,
      seq: null,
    };
  }
  return result.integration ?? { state: 'healthy', text: 'healthy', seq: null };
}
