/**
 * The test libraries' words for what was captured: one line per record as `embed-inspector check` prints them,
 * the issues found, the timeline text a failed test carries. Pure; redacted (failure messages end up in test
 * reports and CI logs).
 */
import type { ClassifiedRecord, TabState } from '../shared/messages.ts';
import type { RecordKind } from '../protocol/record.ts';
import type { Issue, Severity } from '../protocol/classify.ts';
import { redactString } from '../protocol/redact.ts';
import { inert } from '../protocol/inert.ts';
import { shownUrl } from '../protocol/address.ts';

export interface IssueQuery {
  severity?: Severity | Severity[];
  rule?: string | string[];
}

/** An issue with the record it was found on. */
export interface FoundIssue extends Issue {
  seq: number;
  type: string | null;
  kind: RecordKind;
  frameUrl: string;
}

/** How many records a failure message lists; the timeline attachment has them all. */
export const LISTED_RECORDS = 200;

const typeOf = (r: { data?: unknown }): string | null => {
  const d = r.data as { type?: unknown } | null;
  return d && typeof d === 'object' && typeof d.type === 'string' ? d.type : null;
};
const isSvc = (r: { data?: unknown }) => {
  const d = r.data as { source?: unknown } | null;
  return !!d && typeof d === 'object' && d.source === 'svc-embed';
};
const list = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/**
 * One line per record, as `embed-inspector check` lists them, each issue beneath it. With `limit`, the first
 * `limit` records and a line saying how many more there are. Every field of the page's is inert (no terminal escape,
 * newline or bidi control of a capture reaches a test log: protocol/inert.ts) and redacted.
 */
export function describeRecords(
  records: readonly ClassifiedRecord[],
  opts: { issues?: boolean; limit?: number } = {},
): string {
  const out: string[] = [];
  const shown = opts.limit === undefined ? records : records.slice(0, opts.limit);
  for (const r of shown) {
    if (r.navigation) {
      out.push(`  #${String(r.seq).padEnd(5)} navigation  ${inert(r.frameUrl)}`);
      continue;
    }
    const arrow = r.kind === 'post' ? `post → ${inert(r.targetOrigin ?? '?')}` : `receive ← ${inert(r.origin)}`;
    const flags = [r.dropped ? 'dropped' : '', r.error ? `threw ${inert(r.error)}` : '', r.injected ? 'injected' : '']
      .filter(Boolean)
      .join(', ');
    const type = typeOf(r);
    out.push(
      `  #${String(r.seq).padEnd(5)} ${(type == null ? (isSvc(r) ? '(no type)' : '(foreign)') : inert(type)).padEnd(30)} ${arrow}  ${r.verdict}${flags ? `  (${flags})` : ''}`,
    );
    if (opts.issues !== false) {
      for (const i of r.issues) {
        out.push(
          `           ${i.severity.padEnd(7)} ${i.rule}  ${inert(i.path)}  ${inert(i.message)}${i.sender ? ' (the post’s)' : ''}`,
        );
      }
    }
  }
  if (shown.length < records.length) {
    out.push(`  … and ${(records.length - shown.length).toLocaleString('en-US')} more records`);
  }
  return out.map(redactString).join('\n');
}

/** Issues one per line, with the record they were found on. */
export function describeIssues(issues: readonly FoundIssue[], opts: { limit?: number } = {}): string {
  const shown = opts.limit === undefined ? issues : issues.slice(0, opts.limit);
  const lines = shown.map(
    (i) =>
      `  #${String(i.seq).padEnd(5)} ${i.severity.padEnd(7)} ${i.rule}  ${inert(i.type || '(no type)')} (${i.kind})  ${inert(i.path)}  ${inert(i.message)}`,
  );
  if (shown.length < issues.length) {
    lines.push(`  … and ${(issues.length - shown.length).toLocaleString('en-US')} more issues`);
  }
  return lines.map(redactString).join('\n');
}

/** The issues of records, each found once: a delivery's copy of its post's issue (`sender`) is left out. */
export function issuesOf(records: readonly ClassifiedRecord[], q: IssueQuery = {}): FoundIssue[] {
  const sev = list(q.severity);
  const rules = list(q.rule);
  const out: FoundIssue[] = [];
  for (const r of records) {
    for (const i of r.issues ?? []) {
      if (i.sender || (sev && !sev.includes(i.severity)) || (rules && !rules.includes(i.rule))) {
        continue;
      }
      out.push({ ...i, seq: r.seq, type: typeOf(r), kind: r.kind, frameUrl: r.frameUrl });
    }
  }
  return out;
}

/**
 * The whole log as text: the page, the tenant origin, one line per record with its issues; `notes` (what was not
 * read) come first. Redacted unless `redact` is false.
 */
export function timelineText(
  state: TabState | null,
  records: readonly ClassifiedRecord[],
  opts: { notes?: string[]; redact?: boolean } = {},
): string {
  const tenant = !state
    ? 'tenant origin: not read'
    : state.tenantOrigin
      ? `tenant origin: ${state.tenantOrigin} (${state.tenantOriginSource === 'manual' ? 'set by hand' : `from the embed frame${state.tenantOriginFrame ? ` at ${shownUrl(state.tenantOriginFrame)}` : ''}`})`
      : 'tenant origin: unknown';
  const notes = (opts.notes ?? []).map((n) => `(incomplete: ${n})\n`).join('');
  const page = state ? (state.pageUrl ?? '(no page)') : '(page not read)';
  const text = `${notes}${page}\n${tenant}\n${records.length ? describeRecords(records) : '  (nothing captured)'}\n`;
  return opts.redact === false ? text : text.split('\n').map(redactString).join('\n');
}
