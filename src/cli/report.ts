/** Output formats of `check` (and the summary `record` prints): text, json, junit. */
import type { CheckResult } from '../protocol/capture.ts';
import type { CaptureRecord } from '../protocol/record.ts';

export interface FileResult {
  file: string;
  records: CaptureRecord[];
  result: CheckResult;
}

const useColor = () => !!process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (s: string) => (useColor() ? `\x1b[${code}m${s}\x1b[0m` : s);
const red = paint('31'),
  yellow = paint('33'),
  green = paint('32'),
  dim = paint('2'),
  bold = paint('1'),
  cyan = paint('36');

function describe(r: CaptureRecord): string {
  const d = r.data as Record<string, unknown> | null;
  const type = d && typeof d === 'object' && typeof d.type === 'string' ? d.type : '(no type)';
  const arrow = r.kind === 'post' ? `post → ${r.targetOrigin ?? '?'}` : `receive ← ${r.origin}`;
  return `${type}  ${dim(arrow)}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function summaryLine(s: CheckResult['summary']): string {
  const parts = [
    `${plural(s.messages, 'message')}: ${green(`${s.valid} valid`)}, ${s.invalid ? red(`${s.invalid} invalid`) : '0 invalid'}, ${dim(`${s.foreign} foreign`)}`,
    `${s.errors ? red(plural(s.errors, 'error')) : '0 errors'}, ${s.warnings ? yellow(plural(s.warnings, 'warning')) : '0 warnings'}, ${plural(s.infos, 'info')}`,
  ];
  const failed = (s.startFailures ?? []).map((m) => `\n${red(m)}`).join('');
  return parts.join(' · ') + failed;
}

export function tenantLine(s: CheckResult['summary']): string {
  if (!s.tenantOrigin) {
    return 'tenant origin: unknown (no ready event, no /embed/ frame, none given): origin rules skipped';
  }
  const how =
    s.tenantOriginSource === 'given'
      ? 'given'
      : s.tenantOriginSource === 'file'
        ? 'from the capture file'
        : s.tenantOriginSource === 'ready'
          ? 'inferred from the first ready'
          : 'inferred from the embed frame URL';
  return `tenant origin: ${s.tenantOrigin} (${how})`;
}

export function renderText(files: FileResult[], opts: { all?: boolean } = {}): string {
  const out: string[] = [];
  for (const { file, records, result } of files) {
    out.push(bold(file), `  ${tenantLine(result.summary)}`);
    const bySeq = new Map(records.map((r) => [r.seq, r]));
    for (const m of result.messages) {
      if (!opts.all && (m.verdict === 'foreign' || m.issues.length === 0)) {
        continue;
      }
      const r = bySeq.get(m.seq);
      const badge =
        m.verdict === 'invalid' ? red('✗ invalid') : m.verdict === 'valid' ? green('✓ valid') : dim('· foreign');
      out.push(`  #${String(m.seq).padEnd(5)} ${badge.padEnd(9)}  ${r ? describe(r) : ''}`);
      for (const i of m.issues) {
        const sev =
          i.severity === 'error' ? red('error  ') : i.severity === 'warning' ? yellow('warning') : cyan('info   ');
        out.push(`           ${sev} ${i.rule}  ${dim(i.path)}  ${i.message}`);
      }
    }
    out.push(`  ${summaryLine(result.summary)}`, '');
  }
  return out.join('\n');
}

export function renderJson(files: FileResult[]): string {
  const total = {
    files: files.length,
    messages: 0,
    valid: 0,
    invalid: 0,
    foreign: 0,
    errors: 0,
    warnings: 0,
    infos: 0,
    rules: {} as Record<string, number>,
  };
  const messages: unknown[] = [];
  const perFile: unknown[] = [];
  for (const { file, result } of files) {
    const s = result.summary;
    for (const k of ['messages', 'valid', 'invalid', 'foreign', 'errors', 'warnings', 'infos'] as const) {
      total[k] += s[k];
    }
    for (const [rule, n] of Object.entries(s.rules)) {
      total.rules[rule] = (total.rules[rule] ?? 0) + n;
    }
    perFile.push({ file, ...s });
    for (const m of result.messages) {
      messages.push({ file, seq: m.seq, verdict: m.verdict, issues: m.issues });
    }
  }
  return JSON.stringify({ summary: { ...total, perFile }, messages }, null, 2);
}

const xml = (s: string) =>
  s
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
    // XML 1.0 cannot carry most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');

export function renderJunit(files: FileResult[]): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  let tests = 0,
    failures = 0;
  const suites: string[] = [];
  for (const { file, records, result } of files) {
    const bySeq = new Map(records.map((r) => [r.seq, r]));
    const cases: string[] = [];
    let suiteFailures = 0,
      suiteTests = 0;
    for (const m of result.messages) {
      if (m.verdict === 'foreign') {
        continue;
      }
      suiteTests++;
      const d = bySeq.get(m.seq)?.data as Record<string, unknown> | undefined;
      const name = `#${m.seq} ${typeof d?.type === 'string' ? d.type : '(no type)'}`;
      const errors = m.issues.filter((i) => i.severity === 'error');
      const others = m.issues.filter((i) => i.severity !== 'error');
      let body = '';
      if (errors.length) {
        suiteFailures++;
        body += `<failure message="${xml(errors.map((i) => i.rule).join(', '))}" type="protocol">${xml(errors.map((i) => `${i.rule} ${i.path}: ${i.message}`).join('\n'))}</failure>`;
      }
      if (others.length) {
        body += `<system-out>${xml(others.map((i) => `${i.severity} ${i.rule} ${i.path}: ${i.message}`).join('\n'))}</system-out>`;
      }
      cases.push(`    <testcase classname="${xml(file)}" name="${xml(name)}">${body}</testcase>`);
    }
    tests += suiteTests;
    failures += suiteFailures;
    suites.push(
      `  <testsuite name="${xml(file)}" tests="${suiteTests}" failures="${suiteFailures}" errors="0">`,
      ...cases,
      '  </testsuite>',
    );
  }
  out.push(
    `<testsuites name="embed-inspector" tests="${tests}" failures="${failures}" errors="0">`,
    ...suites,
    '</testsuites>',
  );
  return out.join('\n');
}
