/**
 * Output formats of `check` (and the summary `record` prints): text, json, junit.
 *
 * One counting (verdict.ts `Figures`): the three formats print the same figures under the same names —
 * messages (a post and its delivery are one), records (posts and deliveries, navigations excluded),
 * valid/invalid/foreign messages, findings by severity (each issue of a message once), checks passed/failed
 * (the JUnit test cases); and REST calls (`restCalls`, `restValid`, `restInvalid`), whose findings count with the
 * others.
 */
import type { CheckResult, CheckSummary } from '../protocol/capture.ts';
import type { CaptureRecord } from '../protocol/record.ts';
import { shownUrl } from '../protocol/address.ts';
import {
  evaluate,
  typeOf,
  type CheckCallLine,
  type CheckRecordLine,
  type Evaluation,
  type Figures,
  type Finding,
} from '../protocol/verdict.ts';

export interface FileResult {
  file: string;
  records: CaptureRecord[];
  result: CheckResult;
  /** The file's verdict; when absent, evaluated with the defaults (`where` = the file). */
  evaluation?: Evaluation;
}

const useColor = () => !!process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (s: string) => (useColor() ? `\x1b[${code}m${s}\x1b[0m` : s);
const red = paint('31'),
  yellow = paint('33'),
  green = paint('32'),
  dim = paint('2'),
  bold = paint('1'),
  cyan = paint('36');

/** The file's evaluation: the one given, else the defaults. */
function evaluationOf(f: FileResult): Evaluation {
  return f.evaluation ?? evaluate(f.records, f.result, { where: f.file });
}

function describe(r: CaptureRecord): string {
  const arrow = r.kind === 'post' ? `post → ${r.targetOrigin ?? '?'}` : `receive ← ${r.origin}`;
  return `${typeOf(r)}  ${dim(arrow)}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The counts line. With an evaluation (the first argument or the second): the reasons the run failed, one line
 * each, then the one counting (messages, records, findings, checks). With a CheckSummary alone (as before
 * verdict.ts): its own figures and start failures.
 */
export function summaryLine(s: Evaluation | CheckSummary, evaluation?: Evaluation): string {
  const e = evaluation ?? ('figures' in s ? s : undefined);
  if (e) {
    return [
      integrationLine(e),
      ...reasonLines(e),
      figuresLine(e.figures),
      ...e.notes.map((n) => dim(`note: ${n}`)),
    ].join('\n');
  }
  const summary = s as CheckSummary;
  const parts = [
    messagesPhrase(summary),
    `${summary.errors ? red(plural(summary.errors, 'error')) : '0 errors'}, ${summary.warnings ? yellow(plural(summary.warnings, 'warning')) : '0 warnings'}, ${plural(summary.infos, 'info')}`,
  ];
  const failed = (summary.startFailures ?? []).map((m) => `\n${red(m)}`).join('');
  return parts.join(' · ') + failed;
}

/** What the summary leads with: the integration's state in words, and the first record concerned. */
function integrationLine(e: Evaluation): string {
  const i = e.integration;
  const at = i.seq !== null ? ` (see #${i.seq})` : '';
  const good = i.state === 'healthy' || i.state === 'warnings';
  const label = e.restOnly ? 'integration:' : good ? green('integration:') : red('integration:');
  return `${label} ${i.text}${at}`;
}

function messagesPhrase(f: Pick<Figures, 'messages' | 'valid' | 'invalid' | 'foreign'>): string {
  return `${plural(f.messages, 'message')}: ${green(`${f.valid} valid`)}, ${f.invalid ? red(`${f.invalid} invalid`) : '0 invalid'}, ${dim(`${f.foreign} foreign`)}`;
}

/**
 * `5 messages: 4 valid, 0 invalid, 1 foreign · 5 records · findings: 0 errors, 0 warnings, 0 infos · checks: 7 passed,
 * 0 failed`; with REST calls, `· 4 REST calls: 3 valid, 1 invalid` after the records.
 */
function figuresLine(f: Figures): string {
  return [
    messagesPhrase(f),
    plural(f.records, 'record'),
    ...(f.restCalls
      ? [
          `${plural(f.restCalls, 'REST call')}: ${green(`${f.restValid} valid`)}, ${f.restInvalid ? red(`${f.restInvalid} invalid`) : '0 invalid'}`,
        ]
      : []),
    `findings: ${f.errors ? red(plural(f.errors, 'error')) : '0 errors'}, ${f.warnings ? yellow(plural(f.warnings, 'warning')) : '0 warnings'}, ${plural(f.infos, 'info')}`,
    `checks: ${f.checksPassed} passed, ${f.checksFailed ? red(`${f.checksFailed} failed`) : '0 failed'}`,
  ].join(' · ');
}

/** The reasons a run failed, one line each (`✗ no embed traffic seen on …`); nothing when it passed. */
function reasonLines(e: Evaluation): string[] {
  return e.reasons.map((r) => red(`✗ ${r}`));
}

export function tenantLine(s: CheckResult['summary']): string {
  if (!s.tenantOrigin) {
    return 'tenant origin: unknown (no embed frame spoke the protocol, none given): origin rules skipped';
  }
  const how =
    s.tenantOriginSource === 'given'
      ? 'given'
      : s.tenantOriginSource === 'file'
        ? 'from the capture file'
        : s.tenantOriginFrame
          ? `from the embed frame at ${shownUrl(s.tenantOriginFrame)}`
          : 'from the embed frame';
  return `tenant origin: ${s.tenantOrigin} (${how})`;
}

/** A time as ISO text; a number no date stands for (past ±8.64e15 ms) as it is. */
function isoTime(time: number): string {
  const d = new Date(time);
  return Number.isNaN(d.getTime()) ? String(time) : d.toISOString();
}

/** A record of a check, as text and JUnit print it: `#4 post in URL at ISO-TIME: what`. */
function recordLine(l: CheckRecordLine): string {
  const t = isoTime(l.time);
  return `#${l.seq} ${l.kind} in ${l.frameUrl} at ${t}: ${l.message}`;
}

/** A REST call of a check, as text and JUnit print it: `rest[2] PUT URL → 400 at ISO-TIME: what`. */
function callLine(l: CheckCallLine): string {
  const t = isoTime(l.time);
  return `rest[${l.index}] ${l.method} ${l.url} → ${l.status} at ${t}: ${l.message}`;
}

function severityLabel(s: string): string {
  return s === 'error' ? red('error  ') : s === 'warning' ? yellow('warning') : cyan('info   ');
}

/**
 * Per file: the tenant origin, the messages with findings (all with `all`), each once — a delivery under its
 * post, listed with its own findings only — then the reasons it failed and the counts line.
 */
export function renderText(files: FileResult[], opts: { all?: boolean } = {}): string {
  const out: string[] = [];
  let failed = 0;
  for (const f of files) {
    const { file, records } = f;
    const e = evaluationOf(f);
    if (!e.passed) {
      failed++;
    }
    out.push(bold(file));
    if (!e.restOnly) {
      out.push(`  ${tenantLine(f.result.summary)}`);
    }
    if (e.embedFrames.length) {
      out.push(`  ${e.embedFrames.length === 1 ? 'embed frame' : 'embed frames'}: ${e.embedFrames.join(', ')}`);
    }
    out.push(`  ${integrationLine(e)}`);
    const bySeq = new Map(records.filter((r) => !r.navigation).map((r) => [r.seq, r]));
    const navs = new Map<number, Finding[]>();
    for (const x of e.findings) {
      if (x.navigation) {
        navs.set(x.seq, [...(navs.get(x.seq) ?? []), x]);
      }
    }
    for (const [seq, list] of navs) {
      const nav = records.find((r) => r.seq === seq);
      const url = (nav?.data as { url?: unknown } | undefined)?.url;
      const bad = list.some((x) => x.severity === 'error');
      out.push(
        `  #${String(seq).padEnd(5)} ${(bad ? red('✗ frame') : yellow('! frame')).padEnd(9)}  ${dim(`navigation ${typeof url === 'string' ? url : (nav?.frameUrl ?? '')}`)}`,
      );
      out.push(...list.map((x) => `           ${severityLabel(x.severity)} ${x.rule}  ${dim(x.path)}  ${x.message}`));
    }
    for (const m of e.messages) {
      if (!opts.all && (m.verdict === 'foreign' || m.findings.length === 0)) {
        continue;
      }
      const r = bySeq.get(m.seq);
      const badge =
        m.verdict === 'invalid' ? red('✗ invalid') : m.verdict === 'valid' ? green('✓ valid') : dim('· foreign');
      out.push(`  #${String(m.seq).padEnd(5)} ${badge.padEnd(9)}  ${r ? describe(r) : ''}`);
      const issueLines = (seq: number) =>
        m.findings
          .filter((x) => x.seq === seq)
          .map((x) => `           ${severityLabel(x.severity)} ${x.rule}  ${dim(x.path)}  ${x.message}`);
      out.push(...issueLines(m.seq));
      for (const d of m.deliveries) {
        const dr = bySeq.get(d);
        out.push(`           ${dim(`↳ delivery of #${m.seq}: #${d}${dr ? ` in ${dr.frameUrl}` : ''}`)}`);
        out.push(...issueLines(d).map((l) => `  ${l}`));
      }
    }
    if (e.rest.length || e.restSkipped) {
      const skipped = e.restSkipped
        ? `; ${plural(e.restSkipped, 'other request')} not checked (not one of the four operations)`
        : '';
      out.push(`  ${plural(e.rest.length, 'REST call')} of the platform API checked${skipped}`);
    }
    for (const c of e.rest) {
      if (!opts.all && c.findings.length === 0) {
        continue;
      }
      const badge = c.verdict === 'invalid' ? red('✗ invalid') : green('✓ valid');
      out.push(
        `  ${`rest[${c.index}]`.padEnd(9)} ${badge.padEnd(9)}  ${c.method} ${c.url} → ${c.status}  ${dim(c.operation)}`,
      );
      out.push(
        ...c.findings.map((x) => `           ${severityLabel(x.severity)} ${x.rule}  ${dim(x.path)}  ${x.message}`),
      );
    }
    out.push(
      ...reasonLines(e).map((l) => `  ${l}`),
      `  ${figuresLine(e.figures)}`,
      ...e.notes.map((n) => `  ${dim(`note: ${n}`)}`),
      '',
    );
  }
  if (files.length > 1) {
    out.push(
      `${plural(files.length, 'file')}: ${files.length - failed} passed, ${failed ? red(`${failed} failed`) : '0 failed'}`,
    );
  }
  return out.join('\n');
}

const FIGURE_KEYS = [
  'messages',
  'records',
  'valid',
  'invalid',
  'foreign',
  'errors',
  'warnings',
  'infos',
  'restCalls',
  'restValid',
  'restInvalid',
  'checks',
  'checksPassed',
  'checksFailed',
] as const satisfies ReadonlyArray<keyof Figures>;

/** The figures of several files, added up. */
function totalFigures(evaluations: readonly Evaluation[]): Figures {
  const t = Object.fromEntries(FIGURE_KEYS.map((k) => [k, 0])) as unknown as Figures;
  for (const e of evaluations) {
    for (const k of FIGURE_KEYS) {
      t[k] += e.figures[k];
    }
  }
  return t;
}

function field(d: Record<string, unknown> | null, k: string): string | null {
  const v = d?.[k];
  return typeof v === 'string' ? v : null;
}

/**
 * `{"summary":{files, exitCode, reasons, …figures, rules, perFile}, "checks":[…], "expectations":[…],
 * "messages":[…], "rest":[…]}`: `messages` has one entry per record (posts and deliveries), with its own verdict and
 * issues (a delivery's include its post's, marked `sender`); `rest` one entry per REST call checked
 * (`{file, index, operation, method, url, status, time, params, verdict, issues}`); the figures count each message,
 * each REST call and each finding once.
 */
export function renderJson(files: FileResult[]): string {
  const evaluations = files.map(evaluationOf);
  const rules: Record<string, number> = {};
  const perFile: unknown[] = [];
  const checks: unknown[] = [];
  const expectations: unknown[] = [];
  const messages: unknown[] = [];
  const rest: unknown[] = [];
  files.forEach(({ file, records, result }, k) => {
    const e = evaluations[k];
    for (const [rule, n] of Object.entries(e.rules)) {
      rules[rule] = (rules[rule] ?? 0) + n;
    }
    perFile.push({
      file,
      exitCode: e.exitCode,
      reasons: e.reasons,
      ...e.figures,
      rules: e.rules,
      tenantOrigin: result.summary.tenantOrigin,
      tenantOriginSource: result.summary.tenantOriginSource,
      startFailures: e.startFailures.map((s) => s.message),
      embedFrames: e.embedFrames,
      empty: e.empty,
      failOn: e.failOn,
      restSkipped: e.restSkipped,
    });
    for (const c of e.checks) {
      checks.push({ file, ...c });
    }
    for (const x of e.expectations) {
      expectations.push({ file, ...x });
    }
    const bySeq = new Map(records.filter((r) => !r.navigation).map((r) => [r.seq, r]));
    for (const m of result.messages) {
      const r = bySeq.get(m.seq);
      const d = r?.data !== null && typeof r?.data === 'object' ? (r.data as Record<string, unknown>) : null;
      const payload =
        d?.payload !== null && typeof d?.payload === 'object' ? (d.payload as Record<string, unknown>) : null;
      messages.push({
        file,
        seq: m.seq,
        verdict: m.verdict,
        issues: m.issues,
        type: r ? field(d, 'type') : null,
        kind: r?.kind ?? null,
        direction: field(d, 'direction'),
        time: r?.time ?? null,
        frameUrl: r?.frameUrl ?? null,
        origin: r?.origin ?? null,
        targetOrigin: r?.targetOrigin ?? null,
        surface: field(d, 'surface') ?? field(payload, 'surface'),
        pairedWith: r?.pairedWith ?? null,
      });
    }
    for (const c of result.rest ?? []) {
      rest.push({
        file,
        index: c.index,
        operation: c.operation,
        method: c.method,
        url: c.url,
        status: c.status,
        time: c.time,
        params: c.params,
        verdict: c.verdict,
        issues: c.issues,
      });
    }
  });
  const exitCode = evaluations.some((e) => e.exitCode !== 0) ? 1 : 0;
  const summary = {
    files: files.length,
    exitCode,
    reasons: evaluations.flatMap((e, k) => e.reasons.map((r) => (files.length > 1 ? `${files[k].file}: ${r}` : r))),
    ...totalFigures(evaluations),
    rules,
    perFile,
  };
  return JSON.stringify({ summary, checks, expectations, messages, rest }, null, 2);
}

const xml = (s: string) =>
  s
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
    // XML 1.0 cannot carry most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');

/**
 * One testsuite per file; its test cases are the checks (verdict.ts), named and ordered the same for two
 * recordings of one session; a failing check has a `<failure>` listing its records. Each testsuite carries the
 * figures as `<properties>` and the reasons it failed as `<system-out>`.
 */
export function renderJunit(files: FileResult[]): string {
  const evaluations = files.map(evaluationOf);
  const total = totalFigures(evaluations);
  const suites: string[] = [];
  files.forEach(({ file }, k) => {
    const e = evaluations[k];
    const f = e.figures;
    suites.push(
      `  <testsuite name="${xml(file)}" tests="${f.checks}" failures="${f.checksFailed}" errors="0" skipped="0">`,
      '    <properties>',
      ...(
        [
          'messages',
          'records',
          'valid',
          'invalid',
          'foreign',
          'errors',
          'warnings',
          'infos',
          'restCalls',
          'restValid',
          'restInvalid',
        ] as const
      ).map((p) => `      <property name="${p}" value="${f[p]}"/>`),
      `      <property name="failOn" value="${e.failOn}"/>`,
      '    </properties>',
    );
    for (const c of e.checks) {
      const lines = [...c.records.map(recordLine), ...(c.calls ?? []).map(callLine)];
      const open = `    <testcase classname="${xml(c.classname)}" name="${xml(c.name)}" file="${xml(file)}"`;
      if (!c.passed) {
        const body = [c.summary, ...lines].join('\n');
        suites.push(
          `${open}><failure message="${xml(c.summary)}" type="${xml(c.classname)}">${xml(body)}</failure></testcase>`,
        );
      } else if (lines.length && c.rule !== undefined) {
        suites.push(`${open}><system-out>${xml([c.summary, ...lines].join('\n'))}</system-out></testcase>`);
      } else {
        suites.push(`${open}/>`);
      }
    }
    if (e.reasons.length) {
      suites.push(`    <system-out>${xml(e.reasons.join('\n'))}</system-out>`);
    }
    suites.push('  </testsuite>');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="embed-inspector" tests="${total.checks}" failures="${total.checksFailed}" errors="0">`,
    ...suites,
    '</testsuites>',
  ].join('\n');
}
