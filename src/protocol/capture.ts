/**
 * Whole-capture analysis (used by `embed-inspector check`, `record`, the background and library users):
 * reading a capture file, inferring the tenant origin, classifying every record with the stateless rules
 * and the session checker.
 */
import { CAPTURE_FORMAT, CAPTURE_VERSION, type CaptureFile, type CaptureRecord, type RestCall } from './record.ts';
import { checkRest, type RestResult } from './rest.ts';
import { classify, verdictOf, type Issue, type Severity, type Verdict } from './classify.ts';
import { SessionChecker } from './session.ts';
import { applySenderIssues, countsAsMessage } from './pairs.ts';
import { normalizeOrigin } from './origin.ts';
import { inferTenantOrigin } from './tenant.ts';
import { causalOrder } from './order.ts';
import { diagnose, hostOriginOf, integrationState, type Diagnosis, type IntegrationState } from './diagnose.ts';

export type TenantOriginSource = 'given' | 'file' | 'embed-frame';
export { inferTenantOrigin } from './tenant.ts';

export interface MessageResult {
  seq: number;
  verdict: Verdict;
  issues: Issue[];
}
export interface CheckSummary {
  messages: number;
  valid: number;
  invalid: number;
  foreign: number;
  errors: number;
  warnings: number;
  infos: number;
  /** Issue count per rule id. */
  rules: Record<string, number>;
  tenantOrigin: string | null;
  tenantOriginSource: TenantOriginSource | null;
  /** Inferred: the embed frame the tenant origin came from (protocol/tenant.ts). */
  tenantOriginFrame?: string;
  /** The embed reported that it could not start (a fatal `error` before `ready`): each message. */
  startFailures: string[];
}
export interface CheckResult {
  summary: CheckSummary;
  /**
   * The records' verdicts in causal order. A navigation record is here only when it has issues (the embed's
   * address, `silence.never-ready`); it is not a message.
   */
  messages: MessageResult[];
  /** What did not happen: the embed frames, the host page's origin, notes on the whole session (diagnose.ts). */
  diagnosis: Omit<Diagnosis, 'issues' | 'next'>;
  /** The integration's state in words, and the first record concerned. */
  integration: IntegrationState;
  /**
   * The file's REST calls of the four platform operations (`rest` of the capture file), each checked with the
   * `rest.*` rules, in the file's order. Absent when the file has no `rest` (checkRecords never sets it).
   */
  rest?: RestCallResult[];
  /**
   * Calls that are not one of the four operations, not checked: entries of the file's `rest`, and the HAR entries
   * left out when the file was read from another tool's HAR (`meta.restSkipped`).
   */
  restSkipped?: number;
}

/** One REST call of a capture file, checked (rest.ts). */
export interface RestCallResult extends RestResult {
  /** Its index in the file's `rest` array. */
  index: number;
  time: number;
  method: string;
  url: string;
  status: number;
}

/**
 * Check a capture file's REST calls with the `rest.*` rules (rest.ts). A body that is unknown (null response) or
 * truncated (`originalSize`) is not judged. Calls that are not one of the four operations are counted, not checked.
 */
export function checkRestCalls(calls: readonly RestCall[]): { results: RestCallResult[]; skipped: number } {
  const results: RestCallResult[] = [];
  let skipped = 0;
  calls.forEach((c, index) => {
    const r = checkRest({
      method: c.method,
      url: c.url,
      status: c.status,
      requestHeaders: c.requestHeaders,
      requestBody: c.requestBody,
      responseBody: c.responseBody ?? undefined,
      truncated: {
        requestBody: c.originalSize?.requestBody !== undefined,
        responseBody: c.originalSize?.responseBody !== undefined,
      },
    });
    if (!r) {
      skipped++;
      return;
    }
    results.push({ ...r, index, time: c.time, method: c.method, url: c.url, status: c.status });
  });
  return { results, skipped };
}

/** When a capture ended: its last record's time, or `endedAt` when later; 0 when neither is known. */
function endOf(records: readonly CaptureRecord[], endedAt: number | undefined): number {
  let end = -Infinity;
  for (const r of records) {
    if (Number.isFinite(r.time) && r.time > end) {
      end = r.time;
    }
  }
  if (endedAt !== undefined && Number.isFinite(endedAt) && endedAt > end) {
    end = endedAt;
  }
  return Number.isFinite(end) ? end : 0;
}

/**
 * Each record's verdict and issues: the stateless rules', the session's and the diagnosis'; `counted[k]` says
 * whether `messages[k]` counts as a message. A delivery shows its post's issues (pairs.ts).
 */
function judgeRecords(
  records: readonly CaptureRecord[],
  tenantOrigin: string | null,
  diagnosed: ReadonlyMap<number, Issue[]>,
): { messages: MessageResult[]; counted: boolean[] } {
  const session = new SessionChecker({ tenantOrigin });
  const hostOrigin = hostOriginOf(records);
  const messages: MessageResult[] = [];
  const counted: boolean[] = [];
  const bySeq = new Map<number, MessageResult>();
  for (const r of records) {
    const found = diagnosed.get(r.seq);
    if (r.navigation) {
      session.check(r);
      if (found) {
        const m: MessageResult = { seq: r.seq, verdict: verdictOf(found), issues: found };
        messages.push(m);
        counted.push(false);
        bySeq.set(r.seq, m);
      }
      continue;
    }
    const c = classify(r, { tenantOrigin, hostOrigin });
    let issues = c.issues;
    let verdict = c.verdict;
    if (verdict !== 'foreign') {
      const s = session.check(r);
      if (s.length || found) {
        issues = issues.concat(s, found ?? []);
        verdict = verdictOf(issues);
      }
    }
    const m: MessageResult = { seq: r.seq, verdict, issues };
    messages.push(m);
    counted.push(countsAsMessage(r));
    bySeq.set(r.seq, m);
  }
  for (const r of records) {
    const post = r.kind === 'receive' && r.pairedWith !== undefined ? bySeq.get(r.pairedWith) : undefined;
    const m = bySeq.get(r.seq);
    if (post && m && !r.navigation) {
      applySenderIssues(m, post);
    }
  }
  return { messages, counted };
}

const SEVERITY_COUNTS: Record<Severity, 'errors' | 'warnings' | 'infos'> = {
  error: 'errors',
  warning: 'warnings',
  info: 'infos',
};

/** The summary's figures: each issue counted where it was found, each message once. */
function tally(summary: CheckSummary, messages: readonly MessageResult[], counted: readonly boolean[]): void {
  messages.forEach((m, k) => {
    if (counted[k]) {
      summary.messages++;
      summary[m.verdict]++;
    }
    for (const i of m.issues) {
      if (i.sender) {
        continue;
      }
      summary[SEVERITY_COUNTS[i.severity]]++;
      summary.rules[i.rule] = (summary.rules[i.rule] ?? 0) + 1;
      if (i.rule === 'session.failed-before-ready') {
        summary.startFailures.push(i.message);
      }
    }
  });
}

/**
 * Classify every record of a capture, stateless and session rules together, in causal order (`causalOrder`:
 * a capture may list records in the order they reached the extension). The results are in that order. Pure;
 * never throws.
 */
export function checkRecords(
  input: readonly CaptureRecord[],
  options: {
    tenantOrigin?: string | null;
    source?: TenantOriginSource;
    /**
     * How long an embed has to say ready (a dashboard to load, an AI query to be answered), judged at the file's
     * last record: what loaded less than this before it is not judged (a capture cut short). Default 10 s.
     */
    readyTimeoutMs?: number;
    /** When the capture ended (epoch ms; e.g. the file's `meta.createdAt`), when later than its last record. */
    endedAt?: number;
  } = {},
): CheckResult {
  let records: readonly CaptureRecord[];
  try {
    records = causalOrder(input);
  } catch {
    records = input; // (not records: each is judged as it is below)
  }
  const inferred = options.tenantOrigin ? null : inferTenantOrigin(records);
  const tenantOrigin = options.tenantOrigin ? normalizeOrigin(options.tenantOrigin) : (inferred?.origin ?? null);
  const source: TenantOriginSource | null = options.tenantOrigin
    ? (options.source ?? 'given')
    : inferred
      ? 'embed-frame'
      : null;
  const diagnosis = diagnose(records, {
    tenantOrigin,
    now: endOf(records, options.endedAt),
    file: true,
    readyTimeoutMs: options.readyTimeoutMs,
  });
  const summary: CheckSummary = {
    messages: 0,
    valid: 0,
    invalid: 0,
    foreign: 0,
    errors: 0,
    warnings: 0,
    infos: 0,
    rules: {},
    tenantOrigin,
    tenantOriginSource: source,
    ...(inferred?.frameUrl ? { tenantOriginFrame: inferred.frameUrl } : {}),
    startFailures: [],
  };
  const { messages, counted } = judgeRecords(records, tenantOrigin, diagnosis.issues);
  tally(summary, messages, counted);
  const { issues: _issues, next: _next, ...rest } = diagnosis;
  const issuesOf = new Map(messages.map((m) => [m.seq, m.issues]));
  const integration = integrationState(
    records.map((r) => ({ ...r, issues: issuesOf.get(r.seq) })),
    diagnosis,
  );
  return { summary, messages, diagnosis: rest, integration };
}

export class CaptureFormatError extends Error {
  override name = 'CaptureFormatError';
}

/**
 * Validate the shape of a parsed capture file (format v1). Throws CaptureFormatError with a one-line
 * reason when it is not one; unknown extra fields are kept.
 */
export function readCapture(value: unknown): CaptureFile {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new CaptureFormatError('not a capture file: expected a JSON object');
  }
  const v = value as Record<string, unknown>;
  if (v.format !== CAPTURE_FORMAT) {
    throw new CaptureFormatError(
      `not a capture file: "format" is ${JSON.stringify(v.format) ?? 'missing'}, expected "${CAPTURE_FORMAT}"`,
    );
  }
  if (v.version !== CAPTURE_VERSION) {
    throw new CaptureFormatError(
      `unsupported capture version ${JSON.stringify(v.version) ?? '(missing)'}; this tool reads version ${CAPTURE_VERSION}`,
    );
  }
  if (v.tenantOrigin !== null && v.tenantOrigin !== undefined && typeof v.tenantOrigin !== 'string') {
    throw new CaptureFormatError('"tenantOrigin" must be a string or null');
  }
  if (!Array.isArray(v.messages)) {
    throw new CaptureFormatError('"messages" must be an array');
  }
  v.messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (!m || typeof m !== 'object' || Array.isArray(m)) {
      throw new CaptureFormatError(`${at} is not an object`);
    }
    const r = m as Record<string, unknown>;
    if (typeof r.seq !== 'number' || !Number.isFinite(r.seq)) {
      throw new CaptureFormatError(`${at}.seq must be a number`);
    }
    if (typeof r.time !== 'number' || !Number.isFinite(r.time)) {
      throw new CaptureFormatError(`${at}.time must be a number (epoch ms)`);
    }
    if (r.kind !== 'receive' && r.kind !== 'post') {
      throw new CaptureFormatError(`${at}.kind must be "receive" or "post"`);
    }
    if (typeof r.frameUrl !== 'string') {
      throw new CaptureFormatError(`${at}.frameUrl must be a string`);
    }
    if (typeof r.origin !== 'string') {
      throw new CaptureFormatError(`${at}.origin must be a string`);
    }
    if (r.targetOrigin !== undefined && typeof r.targetOrigin !== 'string') {
      throw new CaptureFormatError(`${at}.targetOrigin must be a string when present`);
    }
    if (!('data' in r)) {
      throw new CaptureFormatError(`${at}.data is missing`);
    }
  });
  if (v.rest !== undefined) {
    readRest(v.rest);
  }
  return { ...(v as unknown as CaptureFile), tenantOrigin: (v.tenantOrigin as string | null | undefined) ?? null };
}

const isObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

/** Validate a capture file's optional `rest` array (see RestCall); a one-line CaptureFormatError naming the entry. */
function readRest(rest: unknown): void {
  if (!Array.isArray(rest)) {
    throw new CaptureFormatError('"rest" must be an array when present');
  }
  rest.forEach((c, i) => {
    const at = `rest[${i}]`;
    if (!isObject(c)) {
      throw new CaptureFormatError(`${at} is not an object`);
    }
    if (typeof c.time !== 'number' || !Number.isFinite(c.time)) {
      throw new CaptureFormatError(`${at}.time must be a number (epoch ms)`);
    }
    if (typeof c.method !== 'string' || !c.method) {
      throw new CaptureFormatError(`${at}.method must be a non-empty string`);
    }
    if (typeof c.url !== 'string') {
      throw new CaptureFormatError(`${at}.url must be a string`);
    }
    if (typeof c.status !== 'number' || !Number.isInteger(c.status) || c.status < 0) {
      throw new CaptureFormatError(`${at}.status must be a whole number (0: no response)`);
    }
    if (!isObject(c.requestHeaders) || Object.values(c.requestHeaders).some((h) => typeof h !== 'string')) {
      throw new CaptureFormatError(`${at}.requestHeaders must be an object of strings`);
    }
    for (const k of ['requestBody', 'responseBody'] as const) {
      if (c[k] !== null && typeof c[k] !== 'string') {
        throw new CaptureFormatError(`${at}.${k} must be a string or null`);
      }
    }
    if (c.durationMs !== undefined && (typeof c.durationMs !== 'number' || !Number.isFinite(c.durationMs))) {
      throw new CaptureFormatError(`${at}.durationMs must be a number when present`);
    }
    if (c.originalSize !== undefined) {
      const o = c.originalSize;
      if (!isObject(o) || Object.values(o).some((n) => typeof n !== 'number' || !Number.isFinite(n))) {
        throw new CaptureFormatError(`${at}.originalSize must be an object of byte sizes when present`);
      }
    }
  });
}

/**
 * Check a whole capture file, its REST calls too (`rest`); a tenant origin given here wins over the file's own, which
 * wins over inference.
 */
export function checkCapture(
  file: Pick<CaptureFile, 'messages' | 'tenantOrigin' | 'meta' | 'rest'>,
  options: { tenantOrigin?: string | null; readyTimeoutMs?: number } = {},
): CheckResult {
  // The capture ended when it was written (a never-ready embed may be its last record).
  const created = file.meta?.createdAt ? Date.parse(file.meta.createdAt) : Number.NaN;
  const common = { readyTimeoutMs: options.readyTimeoutMs, endedAt: Number.isFinite(created) ? created : undefined };
  const result = options.tenantOrigin
    ? checkRecords(file.messages, { tenantOrigin: options.tenantOrigin, ...common })
    : checkRecords(file.messages, { tenantOrigin: file.tenantOrigin ?? null, source: 'file', ...common });
  if (file.rest) {
    const { results, skipped } = checkRestCalls(file.rest);
    result.rest = results;
    result.restSkipped = skipped + (file.meta?.restSkipped ?? 0);
  }
  return result;
}
