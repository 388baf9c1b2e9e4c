/**
 * A captured session as a test (`embed-inspector codegen`, the panel's Export → "as a Playwright test"): the test
 * opens the page, waits for the embed's `ready`, sends the host's actions in the captured order with their pauses
 * shortened, and checks that the embed sends the same events in the same order, with no protocol error; with
 * `assertPayloads`, also the payload fields of those events that do not change from one run to the next.
 *
 * Pure and browser-free: a capture file in, source text out. Strings in the output are written with
 * JSON.stringify, comments never carry a line break of the input, so whatever the capture holds the output is
 * valid TypeScript (Playwright) or JavaScript (puppeteer).
 */
import { specOf } from './catalog.ts';
import { checkCapture } from './capture.ts';
import { decode } from './decode.ts';
import { causalOrder } from './order.ts';
import type { CaptureFile, CaptureRecord } from './record.ts';
import { literal } from './js-literal.ts';
import { REDACTED } from './redact.ts';
import { inert } from './inert.ts';

export type TestFramework = 'playwright' | 'puppeteer';

export interface TestgenOptions {
  framework: TestFramework;
  /** Also pin the stable payload fields of the embed's events (`toHaveReceived(type, subset)`). */
  assertPayloads?: boolean;
  /** The page to open; default the capture's `meta.pageUrl` (else the top frame's last navigation). */
  url?: string;
  /** The longest pause between two replayed actions, ms (default 250). */
  maxGapMs?: number;
  /** Where the capture came from (a file name), for the header comment. */
  source?: string;
  /** What wrote the test, for the header comment; default the `embed-inspector codegen` command line. */
  by?: string;
}

/** One host action the test sends. */
export interface PlannedAction {
  seq: number;
  type: string;
  payload: unknown;
  /** The pause before it, ms (the captured gap, capped). */
  waitMs: number;
  /** The captured gap before it (from the previous action, or from the ready the host received), ms. */
  gapMs: number;
  /** How many of `events` the host had received before it (the test waits for them first); 0: no wait. */
  after: number;
  /** What to say about it in the code (dropped, posted to "*", a redacted value…). */
  notes: string[];
}

/** One `toHaveReceived(type, subset)`. */
export interface PayloadCheck {
  type: string;
  subset: Record<string, unknown>;
}

/** A URL parameter whose value was redacted on export, read from an environment variable by the test. */
export interface RedactedParam {
  name: string;
  env: string;
}

export interface TestPlan {
  /** The page the test opens; `[redacted]` values are replaced through `redacted`. */
  pageUrl: string;
  redacted: RedactedParam[];
  actions: PlannedAction[];
  /** The embed's event types in the order it sent them (a post and its delivery once). */
  events: string[];
  payloadChecks: PayloadCheck[];
  /** How long the events may take after the replay, ms. */
  eventsTimeoutMs: number;
  /** Protocol errors in the capture itself (the test expects none). */
  captureErrors: number;
  captureErrorRules: string[];
  /** Things the user should know (also written into the code as comments). */
  notes: string[];
}

export interface GeneratedTest {
  code: string;
  plan: TestPlan;
  /** A file name for it: `embed-session-<host>.spec.ts` or `.mjs`. */
  fileName: string;
}

export class TestgenError extends Error {
  override name = 'TestgenError';
}

export const DEFAULT_MAX_GAP_MS = 250;

/** Events that in a real session follow the viewer's clicks in the embed, which a replay of host actions does not make. */
const VIEWER_EVENTS = new Set(['svc:event:download', 'svc:event:drilldown', 'svc:event:ai-query']);

// ---------------------------------------------------------------------------------------------- reading the capture

type Msg = { source?: unknown; direction?: unknown; type?: unknown; payload?: unknown; $ei?: unknown };

const dataOf = (r: CaptureRecord): Msg | null =>
  r.data && typeof r.data === 'object' && !Array.isArray(r.data) ? (r.data as Msg) : null;
const isSvc = (r: CaptureRecord, direction: 'event' | 'action') => {
  const d = dataOf(r);
  return !r.navigation && !!d && d.source === 'svc-embed' && d.direction === direction && typeof d.type === 'string';
};
const typeOf = (r: CaptureRecord) => dataOf(r)?.type as string;

function topUrls(records: readonly CaptureRecord[], pageUrl: string | undefined): Set<string> {
  const out = new Set<string>();
  if (pageUrl) {
    out.add(pageUrl);
  }
  for (const r of records) {
    if (r.navigation && r.frameId === 0) {
      out.add(r.frameUrl);
    }
  }
  return out;
}

/** A post from the host page's own (top) frame. */
function fromTop(r: CaptureRecord, tops: Set<string>, tenantOrigin: string | null): boolean {
  if (r.frameId !== undefined) {
    return r.frameId === 0;
  }
  if (tops.size) {
    return tops.has(r.frameUrl);
  }
  return tenantOrigin ? r.origin !== tenantOrigin : true;
}

// --------------------------------------------------------------------------------------------- stable payload fields

/** Keys whose values change from run to run: ids, times, durations, counts, sizes, secrets. */
const VOLATILE_KEY =
  /(^id$|Ids?$|_ids?$|^ids?_|time|Time|At$|date|Date|duration|Duration|Ms$|count|Count|size|Size|token|Token|session|Session|nonce|hash|Hash|uuid|Uuid|seq$|Seq$)/;
/** Catalog fields that are free text or data (a title, a question, a clicked value): never pinned. */
const FREE_TEXT = new Set(['message', 'title', 'query', 'value', 'embedTenant', 'description', 'label', 'text']);
/** Catalog fields whose string values describe the behaviour: pinned unless they look generated. */
const STABLE_STRING = new Set([
  'surface',
  'path',
  'previousPath',
  'member',
  'name',
  'context',
  'mode',
  'status',
  'format',
  'target',
  'scheme',
  'locale',
  'timezone',
]);

/** The id-like tokens of a string: letters and digits mixed, 6 characters or more (`dA7kQ2mXp9Lw`, `kca7ud`). */
function idTokens(s: string): string[] {
  return s.split(/[^A-Za-z0-9]+/).filter((t) => t.length >= 6 && /\d/.test(t) && /[A-Za-z]/.test(t));
}

/**
 * Whether a string looks made by the session: a redacted secret, a date, a long number, a UUID, hex, or an id-like
 * token that neither the page's nor the embed's address nor an action the test sends contains (those come from the
 * integration's configuration, e.g. a dashboard's public id in a path).
 */
export function looksGenerated(s: string, known: ReadonlySet<string> = new Set()): boolean {
  if (s.includes(REDACTED)) {
    return true;
  }
  if (/\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}|\d{6,}/.test(s)) {
    return true;
  }
  if (/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.test(s) || /\b[0-9a-f]{12,}\b/i.test(s)) {
    return true;
  }
  return idTokens(s).some((t) => !known.has(t));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/**
 * The payload fields of an event that do not change from run to run: enum values of the catalog, booleans, and
 * strings such as `surface`, `path`, `format`, `status` that do not look generated. Never numbers (counts,
 * durations, ids), ids, times, free text (titles, messages, questions) or arrays. Nested objects by the same
 * rules. Empty when nothing is stable.
 */
export function stablePayload(
  type: string,
  payload: unknown,
  known: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const fields = specOf(type)?.fields ?? {};
  const pick = (obj: Record<string, unknown>, top: boolean): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      if (VOLATILE_KEY.test(k) || FREE_TEXT.has(k) || k === '__proto__') {
        continue;
      }
      const spec = top ? (fields as Record<string, { enum?: readonly string[] }>)[k] : undefined;
      if (typeof v === 'boolean') {
        out[k] = v;
      } else if (typeof v === 'string') {
        if (spec?.enum) {
          if (spec.enum.includes(v)) {
            out[k] = v;
          }
        } else if (looksGenerated(v, known)) {
          // made by the session
        } else if (STABLE_STRING.has(k) || /^[a-z]+(?:[-_][a-z]+)*$/.test(v)) {
          // a catalog field that names a behaviour, or another field whose value reads like an enum (`csv`, `dark-mode`)
          if (STABLE_STRING.has(k) || v.length <= 32) {
            out[k] = v;
          }
        }
      } else if (isPlainObject(v)) {
        const inner = pick(v, false);
        if (Object.keys(inner).length) {
          out[k] = inner;
        }
      }
    }
    return out;
  };
  return isPlainObject(payload) ? pick(payload, true) : {};
}

// ------------------------------------------------------------------------------------------------------- the plan

/** The environment variable a redacted URL parameter is read from: `session` → `EMBED_SESSION`. */
function envName(param: string, taken: Set<string>): string {
  const base = `EMBED_${
    param
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toUpperCase() || 'REDACTED'
  }`;
  let name = base;
  for (let i = 2; taken.has(name); i++) {
    name = `${base}_${i}`;
  }
  taken.add(name);
  return name;
}

const _ENCODED_REDACTED = encodeURIComponent(REDACTED);

/** The redacted parameters of a URL, in order. */
function redactedParams(url: string): RedactedParam[] {
  const out: RedactedParam[] = [];
  const taken = new Set<string>();
  for (const m of url.matchAll(/(?:([^?&#;=/]+)=)?(?:\[redacted\]|%5Bredacted%5D)/gi)) {
    out.push({ name: m[1] ? decodeURIComponentSafe(m[1]) : '', env: envName(m[1] ?? 'redacted', taken) });
  }
  return out;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const roundMs = (ms: number) => (Number.isFinite(ms) ? Math.max(0, Math.round(ms)) : 0);

/** A log kept across navigations: the last page is the session. */
function sessionRecords(
  capture: CaptureFile,
  notes: string[],
): { all: CaptureRecord[]; records: CaptureRecord[]; lastTop?: CaptureRecord } {
  let all: CaptureRecord[];
  try {
    all = causalOrder(capture.messages);
  } catch {
    all = capture.messages.slice();
  }
  const topNavs = all.filter((r) => r.navigation && r.frameId === 0);
  let records = all;
  if (topNavs.length > 1) {
    const last = topNavs[topNavs.length - 1];
    records = all.slice(all.indexOf(last));
    notes.push(`the capture holds ${topNavs.length} pages; the test replays the last one`);
  }
  return { all, records, lastTop: topNavs.length ? topNavs[topNavs.length - 1] : undefined };
}

/** The embed's events as the host had them, and the anchor of the replay's timing. */
interface SessionEvents {
  eventRecords: CaptureRecord[];
  /** A post and its delivery once, as toHaveSeenInOrder counts them. */
  counted: CaptureRecord[];
  events: string[];
  /** When the host had each event (a place in the records): its delivery to the host page, else the post. */
  knownAt: number[];
  /** A record's place in the records (-1 when not there). */
  at: (r: CaptureRecord) => number;
  ready?: CaptureRecord;
  /** The ready the host received (the test waits for it). */
  anchor?: CaptureRecord;
}

function sessionEvents(records: CaptureRecord[], notes: string[]): SessionEvents {
  const eventRecords = records.filter((r) => isSvc(r, 'event') && !r.injected);
  const counted = eventRecords.filter((r) => !(r.kind === 'receive' && r.pairedWith !== undefined));
  const events = counted.map(typeOf);
  const bySeq = new Map(records.map((r) => [r.seq, r]));
  const pos = new Map(records.map((r, i) => [r, i]));
  const at = (r: CaptureRecord) => pos.get(r) ?? -1;
  const deliveryOf = (r: CaptureRecord): CaptureRecord =>
    r.kind === 'post' && r.pairedWith !== undefined ? (bySeq.get(r.pairedWith) ?? r) : r;
  const knownAt = counted.map((r) => at(deliveryOf(r)));
  const ready = counted.find((r) => typeOf(r) === 'svc:event:ready');
  if (!ready) {
    notes.push('the embed never said ready in the capture: the test waits for it and fails without it');
  }
  return { eventRecords, counted, events, knownAt, at, ready, anchor: ready ? deliveryOf(ready) : undefined };
}

/** The host's actions: posts of the top frame, not injected; a capture without posts (receive-only): deliveries. */
function hostActions(
  records: CaptureRecord[],
  tops: Set<string>,
  tenantOrigin: string | null,
  notes: string[],
): CaptureRecord[] {
  const posted = records.filter(
    (r) => r.kind === 'post' && isSvc(r, 'action') && !r.injected && fromTop(r, tops, tenantOrigin),
  );
  if (posted.length) {
    return posted;
  }
  const delivered = records.filter(
    (r) => r.kind === 'receive' && isSvc(r, 'action') && !r.injected && r.pairedWith === undefined,
  );
  if (delivered.length) {
    notes.push("the capture has no posts (receive-only): the host's actions are read from their deliveries");
  }
  return delivered;
}

/** Configuration, not session: id-like tokens of the page's and frames' addresses (the actions' are added later). */
function configTokens(all: CaptureRecord[], pageUrl: string): Set<string> {
  const known = new Set<string>(idTokens(pageUrl));
  for (const r of all) {
    for (const t of idTokens(r.frameUrl ?? '')) {
      known.add(t);
    }
    if (r.navigation) {
      for (const t of idTokens(String((r.data as { url?: unknown } | null)?.url ?? ''))) {
        known.add(t);
      }
    }
  }
  return known;
}

/** What the test notes of one action of the capture. */
function actionNotes(r: CaptureRecord, payload: unknown, s: SessionEvents): string[] {
  const an: string[] = [];
  if (JSON.stringify(payload ?? null)?.includes(REDACTED)) {
    an.push('TODO: a value was redacted on export; put the real one back');
  }
  if (r.dropped) {
    an.push('the browser dropped it in the capture (its target origin did not match the embed)');
  } else if (r.targetOrigin === '*') {
    an.push('the host posted it to "*" in the capture; the test sends it to the tenant origin');
  }
  if (s.anchor && s.at(r) < s.at(s.anchor)) {
    an.push('the host sent it before the embed was ready; the test sends it after ready');
  }
  return an;
}

/** The actions to replay, with their pauses and the events each waits for; their payloads' tokens go to `known`. */
function planActions(
  actionRecords: CaptureRecord[],
  s: SessionEvents,
  maxGap: number,
  known: Set<string>,
  notes: string[],
): PlannedAction[] {
  const { events, knownAt } = s;
  const actions: PlannedAction[] = [];
  let prevTime = s.anchor?.time;
  let synced = s.ready ? events.indexOf('svc:event:ready') + 1 : 0;
  for (const r of actionRecords) {
    const d = decode(r.data) as Msg;
    if (d.$ei === 'Truncated') {
      notes.push(`#${r.seq} ${typeOf(r)} was over the size cap and is not in the capture: it is left out`);
      continue;
    }
    const payload = d && 'payload' in d ? d.payload : {};
    const an = actionNotes(r, payload, s);
    const gap = prevTime === undefined ? 0 : r.time - prevTime;
    prevTime = r.time;
    // The events the host had received before this action: the leading ones whose delivery came before it.
    let k = 0;
    while (k < events.length && knownAt[k] < s.at(r)) {
      k++;
    }
    const after = k > synced ? k : 0;
    synced = Math.max(synced, k);
    for (const t of idTokens(JSON.stringify(payload ?? null) ?? '')) {
      known.add(t);
    }
    actions.push({
      seq: r.seq,
      type: typeOf(r),
      payload,
      gapMs: roundMs(gap),
      waitMs: Math.min(maxGap, roundMs(gap)),
      after,
      notes: an,
    });
  }
  return actions;
}

/** The payloads the host received, pinned by their stable parts (once per type and subset). */
function planPayloadChecks(eventRecords: CaptureRecord[], known: Set<string>): PayloadCheck[] {
  const payloadChecks: PayloadCheck[] = [];
  const seen = new Set<string>();
  for (const r of eventRecords) {
    if (r.kind !== 'receive') {
      continue; // toHaveReceived looks at deliveries: an event the host never received is not pinned
    }
    const type = typeOf(r);
    const subset = stablePayload(type, decode(dataOf(r)?.payload), known);
    const key = JSON.stringify([type, subset]);
    if (Object.keys(subset).length && !seen.has(key)) {
      seen.add(key);
      payloadChecks.push({ type, subset });
    }
  }
  return payloadChecks;
}

/** The protocol errors of the capture itself (the test expects none). */
function captureErrorsOf(
  capture: CaptureFile,
  notes: string[],
): { captureErrors: number; captureErrorRules: string[] } {
  let captureErrors = 0;
  let captureErrorRules: string[] = [];
  try {
    const check = checkCapture(capture);
    captureErrors = check.summary.errors;
    captureErrorRules = Object.keys(check.summary.rules).filter((rule) =>
      check.messages.some((m) => m.issues.some((i) => i.rule === rule && i.severity === 'error')),
    );
  } catch {
    // judged by `embed-inspector check`; the test is written all the same
  }
  if (captureErrors) {
    notes.push(
      `the capture itself has ${captureErrors} protocol error${captureErrors === 1 ? '' : 's'} (${captureErrorRules.join(', ')}): ` +
        'the test expects none, so it fails until they are fixed',
    );
  }
  return { captureErrors, captureErrorRules };
}

/** What the test does, read from a capture; throws a TestgenError when it has no page to open. */
export function planTest(capture: CaptureFile, opts: Omit<TestgenOptions, 'framework'> = {}): TestPlan {
  const maxGap = Math.max(0, opts.maxGapMs ?? DEFAULT_MAX_GAP_MS);
  const notes: string[] = [];
  const { all, records, lastTop } = sessionRecords(capture, notes);
  const pageUrl = opts.url ?? capture.meta?.pageUrl ?? lastTop?.frameUrl;
  if (!pageUrl) {
    throw new TestgenError('the capture does not say which page it recorded (no meta.pageUrl): give the page URL');
  }
  const tenantOrigin = capture.tenantOrigin ?? null;
  const tops = topUrls(records, capture.meta?.pageUrl);
  const s = sessionEvents(records, notes);
  const actionRecords = hostActions(records, tops, tenantOrigin, notes);
  const known = configTokens(all, pageUrl);
  const actions = planActions(actionRecords, s, maxGap, known, notes);
  const payloadChecks = opts.assertPayloads ? planPayloadChecks(s.eventRecords, known) : [];

  // How long the events may take: as long as they took in the capture after ready, and some.
  const last = s.counted.length ? s.counted[s.counted.length - 1].time : undefined;
  const span = s.anchor && last !== undefined ? Math.max(0, last - s.anchor.time) : 0;
  const eventsTimeoutMs = Math.min(60_000, Math.max(10_000, Math.ceil((span + 5_000) / 1000) * 1000));

  const viewer = [...new Set(s.events.filter((t) => VIEWER_EVENTS.has(t)))];
  if (viewer.length) {
    notes.push(
      `${viewer.join(', ')} usually follow the viewer's clicks in the embed, which the test does not make: ` +
        "add those clicks in the embed's frame, or remove those events if the embed did not send them on its own",
    );
  }
  const redacted = opts.url === undefined || opts.url.includes(REDACTED) ? redactedParams(pageUrl) : [];
  for (const p of redacted) {
    notes.push(
      `the page URL's ${p.name ? `"${p.name}" parameter` : 'value'} was redacted on export: the test reads it from ${p.env}`,
    );
  }
  const errors = captureErrorsOf(capture, notes);
  return { pageUrl, redacted, actions, events: s.events, payloadChecks, eventsTimeoutMs, ...errors, notes };
}

// ------------------------------------------------------------------------------------------------------ the source

const str = (s: string) => JSON.stringify(s);
/** Comment text: one line, inert (inert.ts: a terminal escape or a bidi control is written as `\u001b`…). */
const comment = (s: string) => inert(s.replace(/[\r\n\u2028\u2029]+/g, ' '));
const ms = (n: number) => (n >= 10_000 ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '_') : String(n));

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/[^A-Za-z0-9.-]+/g, '-') || 'page';
  } catch {
    return 'page';
  }
}

/** `embed-session-<host>.spec.ts` (Playwright) or `embed-session-<host>.mjs` (puppeteer). */
export function testFileName(pageUrl: string, framework: TestFramework): string {
  return `embed-session-${hostOf(pageUrl)}${framework === 'playwright' ? '.spec.ts' : '.mjs'}`;
}

/** The page URL as code: a string, or a concatenation that reads each redacted value from the environment. */
function urlExpression(plan: TestPlan): string {
  if (!plan.redacted.length) {
    return str(plan.pageUrl);
  }
  const parts: string[] = [];
  let i = 0;
  const pieces = plan.pageUrl.split(/\[redacted\]|%5Bredacted%5D/i);
  pieces.forEach((piece, k) => {
    if (piece) {
      parts.push(str(piece));
    }
    if (k < pieces.length - 1) {
      parts.push(`fromEnv(${str(plan.redacted[i++].env)})`);
    }
  });
  return parts.join(' + ');
}

/** Words of one paragraph as comment lines of at most `width` columns (a longer word, a URL, stays whole). */
function wrap(text: string, width = 110, indent = ''): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of comment(text).split(/ +/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = `${indent}${word}`;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  out.push(line);
  return out;
}

function header(capture: CaptureFile, plan: TestPlan, opts: TestgenOptions, fileName: string): string[] {
  const meta = capture.meta ?? {};
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
  const flags = `--${opts.framework}${opts.assertPayloads ? ' --assert-payloads' : ''}`;
  const recorded = [
    meta.createdBy && `by ${meta.createdBy}`,
    meta.createdAt && `at ${meta.createdAt}`,
    `from ${meta.pageUrl ?? plan.pageUrl}`,
  ]
    .filter(Boolean)
    .join(' ');
  const checks = [
    `that the embed sends its ${n(plan.events.length, 'event')} in the same order`,
    plan.payloadChecks.length ? `${n(plan.payloadChecks.length, 'payload')} with their stable fields` : '',
    'no protocol error',
  ].filter(Boolean);
  const paragraphs = [
    `Generated by ${opts.by ?? `\`embed-inspector codegen ${flags}\``} from ${opts.source ?? 'a capture file'}, recorded ${recorded}.`,
    `It opens the page, waits for the embed's ready, sends the host's ${n(plan.actions.length, 'action')} in the ` +
      `captured order (pauses capped at ${opts.maxGapMs ?? DEFAULT_MAX_GAP_MS} ms), then checks ` +
      `${checks.slice(0, -1).join(', ')} and ${checks[checks.length - 1]}. A starting point: edit freely.`,
    `Run: ${plan.redacted.map((p) => `${p.env}=… `).join('')}${
      opts.framework === 'playwright'
        ? `npx playwright test ${fileName}`
        : `node ${fileName}   (exit status 0 passed, 1 failed)`
    }`,
    ...plan.notes.map((x) => `Note: ${x}.`),
  ];
  const lines: string[] = [];
  paragraphs.forEach((p, k) => {
    if (k) {
      lines.push('//');
    }
    lines.push(...wrap(p, 110, p.startsWith('Note:') ? '  ' : '').map((l) => `// ${l}`));
  });
  lines.push('');
  return lines;
}

const listLiteral = (types: readonly string[]) => literal([...types], '', 100 - 16);

/** What each framework's test imports. */
const IMPORTS: Record<TestFramework, string> = {
  playwright: 'import { expect, test } from "embed-inspector/playwright";',
  puppeteer: 'import { describeIssues, launchWithInspector } from "embed-inspector/puppeteer";',
};

/**
 * The start of a test file, either framework: the header comment, the import, `fromEnv` when the page URL had
 * values redacted (typed in a Playwright test), the events' timeout and the events in the captured order.
 */
function preamble(capture: CaptureFile, plan: TestPlan, opts: TestgenOptions, fileName: string): string[] {
  const ts = opts.framework === 'playwright';
  const lines = [...header(capture, plan, opts, fileName), IMPORTS[opts.framework], ''];
  if (plan.redacted.length) {
    lines.push(
      `/** A value that was redacted in the capture, from the environment (TODO: set it before running the ${ts ? 'test' : 'script'}). */`,
      ts ? 'function fromEnv(name: string): string {' : 'function fromEnv(name) {',
      '  const value = process.env[name];',
      '  if (!value) {',
      '    throw new Error(`${name} is not set: the capture had this value of the page URL redacted; set it to a live one`);',
      '  }',
      '  return encodeURIComponent(value);',
      '}',
      '',
    );
  }
  lines.push(
    `const EVENTS_TIMEOUT = ${ms(plan.eventsTimeoutMs)}; // ms the embed may take for its events`,
    '',
    "/** The embed's events, in the order it sent them in the capture. */",
    `const EVENTS = ${listLiteral(plan.events)};`,
    '',
  );
  return lines;
}

/** The test file for a capture. Throws a TestgenError when the capture has no page to open. */
export function generateTest(capture: CaptureFile, opts: TestgenOptions): GeneratedTest {
  const plan = planTest(capture, opts);
  const fileName = testFileName(plan.pageUrl, opts.framework);
  const code =
    opts.framework === 'playwright'
      ? playwright(capture, plan, opts, fileName)
      : puppeteer(capture, plan, opts, fileName);
  return { code, plan, fileName };
}

/** The replay: for each action, the events to wait for, the pause and the send; `wait(k)` writes the wait. */
function replay(plan: TestPlan, pad: string, wait: (k: number) => string, pause: (ms: number) => string): string[] {
  const out: string[] = [];
  if (!plan.actions.length) {
    return [`${pad}// The host sent no action in the capture.`];
  }
  out.push(`${pad}// The host's actions in the captured order, each after the events the host had received before it.`);
  for (const a of plan.actions) {
    if (a.after) {
      out.push(
        `${pad}// In the capture the host sent ${comment(a.type)} after it received ${comment(plan.events[a.after - 1])}.`,
        `${pad}${wait(a.after)}`,
      );
    }
    if (a.waitMs >= 10) {
      out.push(`${pad}${pause(a.waitMs)}${a.gapMs > a.waitMs ? ` // ${ms(a.gapMs)} ms in the capture` : ''}`);
    }
    for (const n of a.notes) {
      out.push(`${pad}// ${comment(n)}`);
    }
    const message = a.payload === undefined ? { type: a.type } : { type: a.type, payload: a.payload };
    out.push(`${pad}await embed.send(${literal(message, pad, 100 - 'await embed.send('.length)});`);
  }
  return out;
}

function playwright(capture: CaptureFile, plan: TestPlan, opts: TestgenOptions, fileName: string): string {
  const pad = '  ';
  const replayMs = plan.actions.reduce((s, a) => s + a.waitMs, 0);
  const testTimeout = Math.ceil((30_000 + replayMs + 2 * plan.eventsTimeoutMs) / 10_000) * 10_000;
  const lines = preamble(capture, plan, opts, fileName);
  lines.push(
    `test(${str(`the embed session recorded on ${hostOf(plan.pageUrl)}`)}, async ({ page, embed }) => {`,
    `${pad}test.setTimeout(${ms(testTimeout)});`,
    `${pad}await page.goto(${urlExpression(plan)});`,
    `${pad}await embed.waitFor("svc:event:ready");`,
    '',
    ...replay(
      plan,
      pad,
      (k) => `await expect(embed).toHaveSeenInOrder(EVENTS.slice(0, ${k}), { timeout: EVENTS_TIMEOUT });`,
      (n) => `await page.waitForTimeout(${n});`,
    ),
    '',
    `${pad}await expect(embed).toHaveSeenInOrder(EVENTS, { timeout: EVENTS_TIMEOUT });`,
  );
  if (plan.payloadChecks.length) {
    lines.push('', `${pad}// Payload fields that do not change from run to run (no ids, times, counts or free text).`);
    for (const c of plan.payloadChecks) {
      lines.push(`${pad}await expect(embed).toHaveReceived(${str(c.type)}, ${literal(c.subset, pad, 100 - 40)});`);
    }
  }
  lines.push(`${pad}await expect(embed).toHaveNoProtocolErrors();`, '});', '');
  return lines.join('\n');
}

const PUPPETEER_HELPERS = [
  'const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));',
  '',
  '/** The svc-embed types seen, in capture order, a post and its delivery once (as toHaveSeenInOrder counts them). */',
  'async function typesSeen(embed) {',
  '  return (await embed.records())',
  '    .filter((r) => !(r.kind === "receive" && r.pairedWith !== undefined))',
  '    .map((r) => r.data?.type)',
  '    .filter((t) => typeof t === "string");',
  '}',
  '',
  '/** Resolves once `types` have been seen in this order (others may come between); throws after the timeout. */',
  'async function seenInOrder(embed, types, timeout = EVENTS_TIMEOUT) {',
  '  const deadline = Date.now() + timeout;',
  '  for (;;) {',
  '    const seen = await typesSeen(embed);',
  '    let i = 0;',
  '    for (const t of seen) {',
  '      if (i < types.length && t === types[i]) {',
  '        i++;',
  '      }',
  '    }',
  '    if (i === types.length) {',
  '      return;',
  '    }',
  '    if (Date.now() >= deadline) {',
  '      throw new Error(',
  '        `expected in order: ${types.join(" → ")}\\nfound in order: ${types.slice(0, i).join(" → ") || "none"}; ` +',
  '          `then no ${types[i]}\\nsequence: ${seen.join(", ") || "no svc-embed message"}`,',
  '      );',
  '    }',
  '    await pause(100);',
  '  }',
  '}',
  '',
  '/** Whether `actual` contains `expected`: objects key by key, arrays element by element. */',
  'function contains(actual, expected) {',
  '  if (expected === null || typeof expected !== "object") {',
  '    return Object.is(actual, expected);',
  '  }',
  '  if (Array.isArray(expected)) {',
  '    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => contains(actual[i], e));',
  '  }',
  '  return (',
  '    !!actual && typeof actual === "object" && Object.entries(expected).every(([k, v]) => k in actual && contains(actual[k], v))',
  '  );',
  '}',
  '',
  '/** Resolves once a delivery of `type` has a payload containing `subset`; throws after the timeout. */',
  'async function received(embed, type, subset, timeout = EVENTS_TIMEOUT) {',
  '  const deadline = Date.now() + timeout;',
  '  for (;;) {',
  '    const delivered = await embed.records({ type, kind: "receive" });',
  '    if (delivered.some((r) => contains(r.data?.payload, subset))) {',
  '      return;',
  '    }',
  '    if (Date.now() >= deadline) {',
  '      const payloads = delivered.map((r) => `  ${JSON.stringify(r.data?.payload)}`).join("\\n");',
  '      throw new Error(',
  '        `no delivery of ${type} with a payload containing ${JSON.stringify(subset)}; ` +',
  '          `${delivered.length} of ${type}${payloads ? `:\\n${payloads}` : ""}`,',
  '      );',
  '    }',
  '    await pause(100);',
  '  }',
  '}',
];

function puppeteer(capture: CaptureFile, plan: TestPlan, opts: TestgenOptions, fileName: string): string {
  const pad = '  ';
  const lines = preamble(capture, plan, opts, fileName);
  lines.push(
    ...PUPPETEER_HELPERS,
    '',
    'const { browser, embedOf, close } = await launchWithInspector({ capture: { sites: "all", mode: "full" } });',
    'try {',
    `${pad}const page = await browser.newPage();`,
    `${pad}const embed = embedOf(page);`,
    `${pad}await page.goto(${urlExpression(plan)});`,
    `${pad}await embed.waitFor("svc:event:ready");`,
    '',
    ...replay(
      plan,
      pad,
      (k) => `await seenInOrder(embed, EVENTS.slice(0, ${k}));`,
      (n) => `await pause(${n});`,
    ),
    '',
    `${pad}await seenInOrder(embed, EVENTS);`,
  );
  if (plan.payloadChecks.length) {
    lines.push('', `${pad}// Payload fields that do not change from run to run (no ids, times, counts or free text).`);
    for (const c of plan.payloadChecks) {
      lines.push(`${pad}await received(embed, ${str(c.type)}, ${literal(c.subset, pad, 100 - 30)});`);
    }
  }
  lines.push(
    '',
    `${pad}const errors = await embed.issues({ severity: "error" });`,
    `${pad}if (errors.length) {`,
    `${pad}  throw new Error(\`\${errors.length} protocol error\${errors.length === 1 ? "" : "s"}:\\n\${describeIssues(errors)}\`);`,
    `${pad}}`,
    `${pad}console.log(\`passed: \${EVENTS.length} events in order, no protocol error\`);`,
    '} catch (e) {',
    `${pad}console.error(\`failed: \${e?.message ?? e}\`);`,
    `${pad}process.exitCode = 1;`,
    '} finally {',
    `${pad}await close();`,
    '}',
    '',
  );
  return lines.join('\n');
}
