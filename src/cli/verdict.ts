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
import { ACTION_TYPES, EVENT_TYPES } from '../protocol/catalog.ts';
import type { CheckResult, RestCallResult } from '../protocol/capture.ts';
import type { Issue, Severity, Verdict } from '../protocol/classify.ts';
import { isSvcEmbed } from '../protocol/marker.ts';
import type { CaptureRecord } from '../protocol/record.ts';
import { RULES } from '../protocol/rules.ts';
import { isEmbedAddress } from '../protocol/address.ts';

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
  /** Added because an embed frame was seen (`svc:event:ready`), not asked for. */
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

/** Decide a run: see the module comment. */
export function evaluate(
  records: readonly CaptureRecord[],
  result: CheckResult,
  opts: EvaluateOptions = {},
): Evaluation {
  const failOn: FailOn = opts.failOn ?? 'error';
  const failing = (s: Severity) => RANK[s] >= RANK[failOn];
  const bySeq = new Map<number, CaptureRecord>();
  for (const r of records) {
    if (!r.navigation) {
      bySeq.set(r.seq, r);
    }
  }
  const navBySeq = new Map<number, CaptureRecord>();
  for (const r of records) {
    if (r.navigation) {
      navBySeq.set(r.seq, r);
    }
  }
  const recordOf = (seq: number) => bySeq.get(seq) ?? navBySeq.get(seq);
  const resultBySeq = new Map(result.messages.map((m) => [m.seq, m]));
  const ordered = result.messages.filter((m) => bySeq.has(m.seq));
  const line = (r: CaptureRecord, message: string): CheckRecordLine => ({
    seq: r.seq,
    kind: r.kind,
    frameUrl: r.frameUrl,
    time: r.time,
    message,
  });

  // ---- what was seen: embed frames, svc-embed traffic
  // The embed frames are the diagnosis's (protocol/diagnose.ts): the platform's by their address, or frames that
  // posted svc-embed events (a video player's /embed/ frame is not one).
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
  const empty = embedFrames.length === 0 && !svcEmbedSeen;

  // ---- REST calls: findings of their own, not messages
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
  const restOnly = records.length === 0 && rest.length > 0;

  // ---- messages and findings: a delivery paired with a post present here belongs to the post's message
  const postOf = (r: CaptureRecord): number | null =>
    r.kind === 'receive' && r.pairedWith !== undefined && resultBySeq.has(r.pairedWith) && bySeq.has(r.pairedWith)
      ? r.pairedWith
      : null;
  const groups = new Map<number, MessageGroup>();
  const findings: Finding[] = [];
  const addFindings = (r: CaptureRecord, issues: readonly Issue[], group: MessageGroup) => {
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
      findings.push(f);
    }
  };
  // Heads first (posts, unpaired records), so that a delivery's own copy of its post's issue joins the post's.
  for (const m of ordered) {
    const r = bySeq.get(m.seq)!;
    if (postOf(r) === null) {
      const g: MessageGroup = { seq: m.seq, verdict: m.verdict, deliveries: [], findings: [] };
      groups.set(m.seq, g);
      addFindings(r, m.issues, g);
    }
  }
  for (const m of ordered) {
    const r = bySeq.get(m.seq)!;
    const post = postOf(r);
    if (post !== null) {
      const g = groups.get(post)!;
      g.deliveries.push(m.seq);
      addFindings(r, m.issues, g);
    }
  }
  const messages = [...groups.values()];
  // The embed frames' navigation records: their findings (address, silence) count; they are not messages.
  for (const m of result.messages) {
    const r = navBySeq.get(m.seq);
    if (r) {
      addFindings(r, m.issues, { seq: m.seq, verdict: m.verdict, deliveries: [], findings: [] });
    }
  }
  for (const g of messages) {
    if (g.verdict !== 'foreign') {
      g.verdict = g.findings.some((f) => f.severity === 'error') ? 'invalid' : 'valid';
    }
  }
  const position = new Map(result.messages.map((m, k) => [m.seq, k]));
  findings.sort((a, b) => position.get(a.seq)! - position.get(b.seq)!);
  const rules: Record<string, number> = {};
  for (const f of [...findings, ...restFindings]) {
    rules[f.rule] = (rules[f.rule] ?? 0) + 1;
  }

  // ---- expectations: the first record of each type, in causal order
  const firstOf = new Map<string, number>();
  for (const m of ordered) {
    const r = bySeq.get(m.seq)!;
    if (isSvcEmbed(r.data)) {
      const t = typeOf(r);
      if (!firstOf.has(t)) {
        firstOf.set(t, r.seq);
      }
    }
  }
  const wanted: Array<{ type: string; implicit: boolean }> = [];
  for (const t of opts.expect ?? []) {
    if (!wanted.some((w) => w.type === t)) {
      wanted.push({ type: t, implicit: false });
    }
  }
  if (embedFrames.length > 0 && !wanted.some((w) => w.type === 'svc:event:ready')) {
    wanted.unshift({ type: 'svc:event:ready', implicit: true });
  }
  const expectations: Expectation[] = wanted.map(({ type, implicit }) => ({
    type,
    implicit,
    met: firstOf.has(type),
    seq: firstOf.get(type) ?? null,
  }));

  // ---- start failures: the embed said it could not start
  const startFailures: Array<{ seq: number; message: string }> = findings
    .filter((f) => f.rule === FAILED_BEFORE_READY)
    .map((f) => ({ seq: f.seq, message: f.message }));

  // ---- checks
  const checks: Check[] = [];
  const emptyFails = empty && !opts.allowEmpty && !restOnly;
  if (!restOnly) {
    checks.push({
      name: 'embed traffic seen',
      classname: 'embed-inspector.expectations',
      passed: !emptyFails,
      summary: empty
        ? emptyFails
          ? emptyReason(opts.where)
          : `${emptyReason(opts.where)} (allowed)`
        : `${plural(embedFrames.length, 'embed frame')}${embedFrames.length ? ` (${embedFrames.join(', ')})` : ''}, ${svcEmbedSeen ? 'svc-embed messages' : 'no svc-embed message'}`,
      records: [],
    });
  }
  for (const e of expectations) {
    const r = e.seq === null ? undefined : bySeq.get(e.seq);
    checks.push({
      name: `expect ${e.type}`,
      classname: 'embed-inspector.expectations',
      passed: e.met,
      summary: e.met
        ? `${e.type} first seen at #${e.seq}`
        : `expected ${e.type}, never seen${e.implicit ? ' (an embed frame was seen)' : ''}`,
      records: r ? [line(r, `${e.type} first seen`)] : [],
    });
  }
  const startNames = new Map<string, number>();
  for (const s of startFailures) {
    const base = `embed started: ${s.message.replace(/^the embed failed to start: /, '')}`;
    const n = (startNames.get(base) ?? 0) + 1;
    startNames.set(base, n);
    const r = bySeq.get(s.seq);
    checks.push({
      name: n === 1 ? base : `${base} (${n})`,
      classname: 'embed-inspector.expectations',
      passed: false,
      summary: s.message,
      records: r ? [line(r, s.message)] : [],
    });
  }
  const byCheck = new Map<string, { rule: string; type: string; kind: string; findings: Finding[] }>();
  for (const f of findings) {
    const kind = f.navigation ? 'navigation' : f.kind;
    const key = `${f.rule}\n${f.type}\n${kind}`;
    let c = byCheck.get(key);
    if (!c) {
      c = { rule: f.rule, type: f.type, kind, findings: [] };
      byCheck.set(key, c);
    }
    c.findings.push(f);
  }
  for (const c of byCheck.values()) {
    const worst = c.findings.reduce<Severity>((w, f) => (RANK[f.severity] > RANK[w] ? f.severity : w), 'info');
    const bad = c.findings.filter((f) => failing(f.severity));
    const counts = (['error', 'warning', 'info'] as const)
      .map((s) => [s, c.findings.filter((f) => f.severity === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => plural(n, s));
    checks.push({
      name: `${c.rule} · ${c.type} (${c.kind})`,
      classname: `embed-inspector.${RULES[c.rule]?.group ?? 'other'}`,
      passed: bad.length === 0,
      summary: `${counts.join(', ')}: ${c.findings[0].message}`,
      records: c.findings.map((f) => {
        const also = f.alsoAt.length ? ` (also found at its delivery ${f.alsoAt.map((s) => `#${s}`).join(', ')})` : '';
        return line(recordOf(f.seq)!, `${f.severity} ${f.path}: ${f.message}${also}`);
      }),
      rule: c.rule,
      severity: worst,
    });
  }
  const callLine = (c: RestCallLine, message: string): CheckCallLine => ({
    index: c.index,
    method: c.method,
    url: c.url,
    status: c.status,
    time: c.time,
    message,
  });
  const byRestCheck = new Map<string, { rule: string; operation: string; findings: RestFinding[] }>();
  for (const f of restFindings) {
    const key = `${f.rule}\n${f.operation}`;
    let c = byRestCheck.get(key);
    if (!c) {
      c = { rule: f.rule, operation: f.operation, findings: [] };
      byRestCheck.set(key, c);
    }
    c.findings.push(f);
  }
  const callAt = new Map(rest.map((c) => [c.index, c]));
  for (const c of byRestCheck.values()) {
    const worst = c.findings.reduce<Severity>((w, f) => (RANK[f.severity] > RANK[w] ? f.severity : w), 'info');
    const counts = (['error', 'warning', 'info'] as const)
      .map((sev) => [sev, c.findings.filter((f) => f.severity === sev).length] as const)
      .filter(([, n]) => n > 0)
      .map(([sev, n]) => plural(n, sev));
    checks.push({
      name: `${c.rule} · ${c.operation}`,
      classname: `embed-inspector.${RULES[c.rule]?.group ?? 'rest'}`,
      passed: !c.findings.some((f) => failing(f.severity)),
      summary: `${counts.join(', ')}: ${c.findings[0].message}`,
      records: [],
      calls: c.findings.map((f) => callLine(callAt.get(f.index)!, `${f.severity} ${f.path}: ${f.message}`)),
      rule: c.rule,
      severity: worst,
    });
  }
  const seenOps = new Map<string, CheckCallLine[]>();
  for (const c of rest) {
    const name = `${c.operation} (${c.method.toUpperCase()})`;
    const list = seenOps.get(name) ?? [];
    list.push(callLine(c, `${c.verdict}, ${plural(c.findings.length, 'finding')}`));
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
  const seenTypes = new Map<string, CheckRecordLine[]>();
  for (const m of ordered) {
    const r = bySeq.get(m.seq)!;
    if (m.verdict === 'foreign' || !isSvcEmbed(r.data)) {
      continue;
    }
    const name = `${typeOf(r)} (${r.kind})`;
    const list = seenTypes.get(name) ?? [];
    list.push(line(r, r.kind === 'post' ? `post → ${r.targetOrigin ?? '?'}` : `receive ← ${r.origin}`));
    seenTypes.set(name, list);
  }
  for (const [name, list] of seenTypes) {
    checks.push({
      name,
      classname: 'embed-inspector.messages',
      passed: true,
      summary: `${plural(list.length, 'record')}: ${list
        .slice(0, 10)
        .map((l) => `#${l.seq}`)
        .join(', ')}${list.length > 10 ? ', …' : ''}`,
      records: list,
    });
  }
  checks.sort((a, b) =>
    a.classname < b.classname ? -1 : a.classname > b.classname ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );

  // ---- reasons, the most important first
  const reasons: string[] = [];
  if (emptyFails) {
    reasons.push(emptyReason(opts.where));
  }
  for (const s of startFailures) {
    reasons.push(`${s.message} (#${s.seq}, a fatal error before ready)`);
  }
  for (const f of findings) {
    if (f.rule === 'silence.never-ready') {
      reasons.push(`${f.message} (#${f.seq})`);
    }
  }
  for (const e of expectations) {
    if (!e.met) {
      reasons.push(`expected ${e.type}, never seen`);
    }
  }
  const failedFindingChecks = checks.filter((c) => c.rule !== undefined && !c.passed);
  const allFindings: ReadonlyArray<{ severity: Severity }> = [...findings, ...restFindings];
  if (failedFindingChecks.length) {
    const errors = allFindings.filter((f) => f.severity === 'error').length;
    const warnings = allFindings.filter((f) => f.severity === 'warning').length;
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

  const checksFailed = checks.filter((c) => !c.passed).length;
  const figures: Figures = {
    messages: messages.length,
    records: ordered.length,
    valid: messages.filter((g) => g.verdict === 'valid').length,
    invalid: messages.filter((g) => g.verdict === 'invalid').length,
    foreign: messages.filter((g) => g.verdict === 'foreign').length,
    errors: allFindings.filter((f) => f.severity === 'error').length,
    warnings: allFindings.filter((f) => f.severity === 'warning').length,
    infos: allFindings.filter((f) => f.severity === 'info').length,
    restCalls: rest.length,
    restValid: rest.filter((c) => c.verdict === 'valid').length,
    restInvalid: rest.filter((c) => c.verdict === 'invalid').length,
    checks: checks.length,
    checksPassed: checks.length - checksFailed,
    checksFailed,
  };
  const passed = checksFailed === 0;
  return {
    passed,
    exitCode: passed ? 0 : 1,
    reasons,
    failOn,
    empty,
    embedFrames,
    svcEmbedSeen,
    expectations,
    startFailures,
    findings,
    messages,
    rules,
    checks,
    figures,
    integration: emptyFails
      ? { state: 'no-embed', text: emptyReason(opts.where), seq: null }
      : restOnly
        ? {
            state: 'no-embed',
            text: `no window messages in this file (a HAR of another tool has none); REST calls checked: ${rest.length}`,
            seq: null,
          }
        : (result.integration ?? { state: 'healthy', text: 'healthy', seq: null }),
    notes: (result.diagnosis?.notes ?? []).map((n) => n.message),
    rest,
    restFindings,
    restSkipped: result.restSkipped ?? 0,
    restOnly,
  };
}
