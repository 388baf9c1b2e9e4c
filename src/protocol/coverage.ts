/**
 * Protocol coverage: which of the catalog's message types, surfaces, payload values and rules a capture — or a whole
 * test suite's captures — put to the test. Pure.
 *
 * Two steps, so that a suite split over machines adds up to what one run gives:
 * - `summarizeCapture`: one capture (one test) → a small summary (format `embed-inspector-test-coverage`, versioned,
 *   bounded in size, its strings from the page redacted and cut), what the Playwright fixture attaches to every test;
 *   the verdicts are checkCapture's, the rules' applicability coverage-rules.ts's;
 * - `aggregateCoverage`: the summaries of many tests → the coverage (format `embed-inspector-coverage`, the contract
 *   of `coverage.json`, schema/coverage.schema.json), with the totals from the catalog and RULE_LIST, never from what
 *   was seen, and its gaps in words.
 * A post and its delivery are one message; a record counts by its kind (post, delivery) and the surface of its embed.
 */
import { ACTIONS, EVENTS, SURFACES, specOf, type Direction, type MessageSpec, type Surface } from './catalog.ts';
import { checkCapture, type CheckResult } from './capture.ts';
import type { CaptureFile, CaptureRecord } from './record.ts';
import { RULE_LIST, type RuleSpec } from './rules.ts';
import { redactString } from './redact.ts';
import { TAG } from './encoding.ts';
import { isSvcEmbed } from './marker.ts';
import { mapJson, put } from './json-map.ts';
import { rulesFor, type MessageFacts } from './coverage-rules.ts';

const SUMMARY_FORMAT = 'embed-inspector-test-coverage';
const SUMMARY_VERSION = 1;
export const COVERAGE_FORMAT = 'embed-inspector-coverage';
const COVERAGE_VERSION = 1;

/** A surface of the catalog, or `unknown` (an event whose envelope names none of them, an action to an embed of no known surface). */
type CoverageSurface = Surface | 'unknown';
export interface KindCounts {
  post: number;
  delivery: number;
}

/** One catalogued type in one capture. */
interface TypeSummary {
  /** Messages (a post and its delivery are one). */
  messages: number;
  /** Of them, judged invalid. */
  invalid: number;
  /** Records by the surface of their embed, then kind. */
  surfaces: Partial<Record<CoverageSurface, KindCounts>>;
  /** Fields with enumerated or boolean values: each catalog value seen, how often. */
  values: Record<string, Record<string, number>>;
  /** The same fields' values outside the catalog (redacted, cut; at most 5 per field, the rest under `…`). */
  other: Record<string, Record<string, number>>;
}

/** What the Playwright fixture attaches to a test (`embed-coverage.json`): one capture's coverage. */
export interface CoverageSummary {
  format: typeof SUMMARY_FORMAT;
  version: typeof SUMMARY_VERSION;
  /** Records of the capture (navigations and foreign traffic too). */
  records: number;
  /** svc-embed messages. */
  messages: number;
  /** The catalogued types seen. */
  types: Record<string, TypeSummary>;
  /** svc-embed messages of a type the catalog does not have: up to 10 of their names, and how many messages. */
  unknownTypes: { names: string[]; messages: number };
  /** Per rule that was checked or fired: on how many subjects (messages, embed frames, REST calls, the capture). */
  rules: Record<string, { checked: number; fired: number }>;
  /** The capture could not be read: why (the test then has no coverage data). */
  error?: string;
}

const MAX_OTHER = 5;
const MAX_UNKNOWN = 10;
const MAX_TEXT = 80;
const MORE = '…';

const CATALOG: readonly MessageSpec[] = [...EVENTS, ...ACTIONS];
const isSurface = (s: unknown): s is Surface => (SURFACES as readonly unknown[]).includes(s);
const cut = (s: string, redact: boolean, max = MAX_TEXT) => {
  const r = redact ? redactString(s) : s;
  return r.length > max ? `${r.slice(0, max - 1)}…` : r;
};
/** How long a reason (`error`) may be. */
const MAX_ERROR = 240;
/** The fields whose values coverage counts: enumerated or boolean. */
function countedFields(spec: MessageSpec): [string, readonly string[]][] {
  return Object.entries(spec.fields).flatMap(([name, f]): [string, readonly string[]][] =>
    f.enum ? [[name, f.enum]] : f.kind === 'boolean' ? [[name, ['true', 'false']]] : [],
  );
}
/** `map[key] += n`, a key of the page's (`__proto__`, `constructor`) kept as data. */
function bump(map: Record<string, number>, key: string, n = 1): void {
  put(map, key, (Object.hasOwn(map, key) ? map[key] : 0) + n);
}
const dataOf = (r: CaptureRecord) => (r.data && typeof r.data === 'object' ? (r.data as Record<string, unknown>) : {});

/** Records grouped into messages (a delivery with its post), svc-embed and not foreign, in capture order. */
function messagesOf(records: readonly CaptureRecord[], result: CheckResult): Map<number, CaptureRecord[]> {
  const verdict = new Map(result.messages.map((m) => [m.seq, m.verdict]));
  const groups = new Map<number, CaptureRecord[]>();
  for (const r of records) {
    if (r.navigation || !isSvcEmbed(r.data) || verdict.get(r.seq) === 'foreign') {
      continue;
    }
    const key = r.kind === 'receive' && r.pairedWith !== undefined ? r.pairedWith : r.seq;
    const list = groups.get(key);
    if (list) {
      list.push(r);
    } else {
      groups.set(key, [r]);
    }
  }
  return groups;
}

/**
 * The surface of each embed frame (by its URL) from its own `ready`, and the capture's only surface when all its
 * ready events name one: an action goes to the embed frame it was posted to or delivered in.
 */
function embedSurfaces(records: readonly CaptureRecord[], result: CheckResult) {
  const bySeq = new Map(records.map((r) => [r.seq, r]));
  const byUrl = new Map<string, Surface>();
  for (const e of result.diagnosis.embeds) {
    const s = e.ready === null ? undefined : dataOf(bySeq.get(e.ready) ?? ({} as CaptureRecord)).surface;
    if (isSurface(s)) {
      byUrl.set(e.url, s);
    }
  }
  const ready = new Set<Surface>();
  for (const r of records) {
    const d = dataOf(r);
    if (!r.navigation && isSvcEmbed(d) && d.type === 'svc:event:ready' && isSurface(d.surface)) {
      ready.add(d.surface);
    }
  }
  const only = ready.size === 1 ? [...ready][0] : undefined;
  return (group: readonly CaptureRecord[], d: Record<string, unknown>, isEvent: boolean): CoverageSurface => {
    if (isEvent) {
      return isSurface(d.surface) ? d.surface : 'unknown';
    }
    for (const r of group) {
      const s = byUrl.get(r.kind === 'post' ? (r.targetUrl ?? '') : r.frameUrl);
      if (s) {
        return s;
      }
    }
    return only ?? 'unknown';
  };
}

/** A value outside the catalog as a key: a string as it is (redacted, cut), another value by its JSON or its kind. */
function otherKey(v: unknown, redact: boolean): string {
  if (typeof v === 'string') {
    return cut(v, redact);
  }
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) {
    return String(v);
  }
  return Array.isArray(v) ? '(array)' : `(${typeof v})`;
}

function countValues(t: TypeSummary, spec: MessageSpec, payload: Record<string, unknown>, redact: boolean): void {
  for (const [name, allowed] of countedFields(spec)) {
    const v = payload[name];
    if (v === undefined) {
      continue;
    }
    const inCatalog =
      spec.fields[name].kind === 'boolean' ? typeof v === 'boolean' : typeof v === 'string' && allowed.includes(v);
    if (inCatalog) {
      bump((t.values[name] ??= {}), String(v));
      continue;
    }
    const field = (t.other[name] ??= {});
    const k = otherKey(v, redact);
    bump(field, !Object.hasOwn(field, k) && Object.keys(field).length >= MAX_OTHER ? MORE : k);
  }
}

/** What the checkers read of one message (coverage-rules.ts). */
function factsOf(group: readonly CaptureRecord[], result: CheckResult, any: { loaded: boolean; answer: boolean }) {
  const d = dataOf(group[0]);
  const spec = specOf(d.type);
  const post = group.find((r) => r.kind === 'post');
  const payload = d.payload && typeof d.payload === 'object' && !Array.isArray(d.payload) ? d.payload : null;
  const facts: MessageFacts = {
    type: typeof d.type === 'string' ? d.type : null,
    spec,
    isEvent: spec ? spec.direction === 'event' : d.direction === 'event',
    isAction: spec ? spec.direction === 'action' : d.direction === 'action',
    direction: d.direction,
    posted: !!post,
    dropped: post?.dropped === true,
    truncated: d[TAG] === 'Truncated',
    payload: payload as Record<string, unknown> | null,
    tenantKnown: !!result.summary.tenantOrigin,
    anyLoaded: any.loaded,
    anyAnswer: any.answer,
  };
  return facts;
}

/**
 * One capture's coverage (what the fixture attaches to a test). `result`: checkCapture's result of the file, when the
 * caller has it; `redact` (default true): the strings of the page it keeps (values outside the catalog, unknown
 * type names) are redacted.
 */
export function summarizeCapture(
  file: Pick<CaptureFile, 'messages' | 'tenantOrigin' | 'meta' | 'rest'>,
  opts: { result?: CheckResult; redact?: boolean } = {},
): CoverageSummary {
  const redact = opts.redact !== false;
  const result = opts.result ?? checkCapture(file);
  const records = file.messages;
  const groups = messagesOf(records, result);
  const surfaceOf = embedSurfaces(records, result);
  const verdict = new Map(result.messages.map((m) => [m.seq, m.verdict]));
  const out: CoverageSummary = {
    format: SUMMARY_FORMAT,
    version: SUMMARY_VERSION,
    records: records.length,
    messages: groups.size,
    types: {},
    unknownTypes: { names: [], messages: 0 },
    rules: {},
  };
  for (const group of groups.values()) {
    const d = dataOf(group[0]);
    const spec = specOf(d.type);
    if (!spec) {
      out.unknownTypes.messages++;
      const name = typeof d.type === 'string' ? cut(d.type, redact) : '(no type)';
      if (!out.unknownTypes.names.includes(name) && out.unknownTypes.names.length < MAX_UNKNOWN) {
        out.unknownTypes.names.push(name);
      }
      continue;
    }
    const t = (out.types[spec.type] ??= { messages: 0, invalid: 0, surfaces: {}, values: {}, other: {} });
    t.messages++;
    if (group.some((r) => verdict.get(r.seq) === 'invalid')) {
      t.invalid++;
    }
    const cell = (t.surfaces[surfaceOf(group, d, spec.direction === 'event')] ??= { post: 0, delivery: 0 });
    for (const r of group) {
      cell[r.kind === 'post' ? 'post' : 'delivery']++;
    }
    const payload = d.payload;
    if (payload && typeof payload === 'object' && !Array.isArray(payload) && d[TAG] !== 'Truncated') {
      countValues(t, spec, payload as Record<string, unknown>, redact);
    }
  }
  const { applicable, fired } = ruleSubjects(file, result, groups);
  for (const rule of RULE_LIST) {
    const checked = new Set([...(applicable.get(rule.id) ?? []), ...(fired.get(rule.id) ?? [])]).size;
    if (checked > 0) {
      out.rules[rule.id] = { checked, fired: fired.get(rule.id)?.size ?? 0 };
    }
  }
  return out;
}

const payloadOf = (d: Record<string, unknown>) =>
  (d.payload && typeof d.payload === 'object' ? d.payload : {}) as Record<string, unknown>;

type Subjects = Map<string, Set<string>>;
const add = (m: Subjects, rule: string, subject: string) => {
  (m.get(rule) ?? m.set(rule, new Set()).get(rule)!).add(subject);
};

/**
 * For each rule, the subjects it applies to (coverage-rules.ts) and those it fired on (checkCapture's issues, each
 * where it was found: a delivery's copy of its post's issue is its post's). A subject is a message (`m` and the seq
 * of its post, or of its delivery when no post was seen), an embed frame (`n` and the seq of its navigation), a REST
 * call (`r` and its index) or the whole capture (`capture`). A summary counts a rule checked where either holds.
 */
export function ruleSubjects(
  file: Pick<CaptureFile, 'messages' | 'tenantOrigin' | 'meta' | 'rest'>,
  result: CheckResult = checkCapture(file),
  groups = messagesOf(file.messages, result),
): { applicable: Subjects; fired: Subjects } {
  const records = file.messages;
  const applicable: Subjects = new Map();
  const fired: Subjects = new Map();
  const data = [...groups.values()].map((g) => dataOf(g[0]));
  const any = {
    loaded: data.some((d) => d.type === 'svc:event:dashboard-loaded'),
    answer: data.some(
      (d) => d.type === 'svc:event:ai-query' && /^(completed|error)$/.test(String(payloadOf(d).status)),
    ),
  };
  for (const [key, group] of groups) {
    for (const id of rulesFor('message', factsOf(group, result, any))) {
      add(applicable, id, `m${key}`);
    }
  }
  const tenantKnown = !!result.summary.tenantOrigin;
  for (const e of result.diagnosis.embeds.filter((x) => x.loaded)) {
    for (const id of rulesFor('frame', { url: e.url, tenantKnown, ready: e.ready !== null })) {
      add(applicable, id, `n${e.seq}`);
    }
  }
  for (const r of result.rest ?? []) {
    for (const id of rulesFor('rest', r)) {
      add(applicable, id, `r${r.index}`);
    }
    for (const i of r.issues) {
      add(fired, i.rule, `r${r.index}`);
    }
  }
  // (judged where a ready was seen and the host's actions could have been: diagnose.ts)
  if (result.diagnosis.actionsVisible && data.some((d) => d.type === 'svc:event:ready')) {
    add(applicable, 'silence.host-never-acted', 'capture');
  }
  for (const i of result.diagnosis.notes) {
    add(fired, i.rule, 'capture');
  }
  const bySeq = new Map(records.map((r) => [r.seq, r]));
  for (const m of result.messages) {
    const r = bySeq.get(m.seq);
    const key = r && r.kind === 'receive' && r.pairedWith !== undefined ? r.pairedWith : m.seq;
    const subject = !r || r.navigation ? `n${m.seq}` : `m${key}`;
    for (const i of m.issues) {
      if (!i.sender) {
        add(fired, i.rule, subject);
      }
    }
  }
  return { applicable, fired };
}

// ------------------------------------------------------------------------------------------------ reading a summary

export class CoverageFormatError extends Error {
  override name = 'CoverageFormatError';
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
function count(v: unknown, at: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new CoverageFormatError(`${at} must be a whole number`);
  }
  return v;
}
function object(v: unknown, at: string): Record<string, unknown> {
  if (!isRecord(v)) {
    throw new CoverageFormatError(`${at} must be an object`);
  }
  return v;
}

function readType(spec: MessageSpec, v: unknown, at: string): TypeSummary {
  const o = object(v, at);
  const t: TypeSummary = {
    messages: count(o.messages, `${at}.messages`),
    invalid: 0,
    surfaces: {},
    values: {},
    other: {},
  };
  t.invalid = Math.min(t.messages, count(o.invalid, `${at}.invalid`));
  for (const [s, c] of Object.entries(object(o.surfaces, `${at}.surfaces`))) {
    if (isSurface(s) || s === 'unknown') {
      const k = object(c, `${at}.surfaces.${s}`);
      t.surfaces[s] = {
        post: count(k.post, `${at}.surfaces.${s}.post`),
        delivery: count(k.delivery, `${at}.surfaces.${s}.delivery`),
      };
    }
  }
  const values = object(o.values ?? {}, `${at}.values`);
  const other = object(o.other ?? {}, `${at}.other`);
  for (const [name, allowed] of countedFields(spec)) {
    for (const [value, n] of Object.entries(object(values[name] ?? {}, `${at}.values.${name}`))) {
      if (allowed.includes(value)) {
        bump((t.values[name] ??= {}), value, count(n, `${at}.values.${name}.${value}`));
      }
    }
    for (const [value, n] of Object.entries(object(other[name] ?? {}, `${at}.other.${name}`)).slice(0, MAX_OTHER + 1)) {
      bump((t.other[name] ??= {}), cut(value, false), count(n, `${at}.other.${name}`));
    }
  }
  return t;
}

/**
 * A summary as an attachment holds it (parsed JSON), checked and bounded again: types and rules the catalog does not
 * have are left out, strings cut. Throws CoverageFormatError with a one-line reason when it is not a summary, or one
 * of a version this reader does not know.
 */
export function readCoverageSummary(value: unknown): CoverageSummary {
  const o = object(value, 'the summary');
  if (o.format !== SUMMARY_FORMAT) {
    throw new CoverageFormatError(`not a coverage summary: "format" is ${JSON.stringify(o.format) ?? 'missing'}`);
  }
  if (o.version !== SUMMARY_VERSION) {
    throw new CoverageFormatError(
      `coverage summary version ${JSON.stringify(o.version) ?? '(missing)'}; this embed-inspector reads version ${SUMMARY_VERSION}`,
    );
  }
  const out: CoverageSummary = {
    format: SUMMARY_FORMAT,
    version: SUMMARY_VERSION,
    records: count(o.records, 'records'),
    messages: count(o.messages, 'messages'),
    types: {},
    unknownTypes: { names: [], messages: 0 },
    rules: {},
  };
  for (const [type, t] of Object.entries(object(o.types, 'types'))) {
    const spec = specOf(type);
    if (spec) {
      out.types[spec.type] = readType(spec, t, `types.${type}`);
    }
  }
  const unknown = object(o.unknownTypes, 'unknownTypes');
  out.unknownTypes.messages = count(unknown.messages, 'unknownTypes.messages');
  if (!Array.isArray(unknown.names) || unknown.names.some((n) => typeof n !== 'string')) {
    throw new CoverageFormatError('unknownTypes.names must be a list of strings');
  }
  out.unknownTypes.names = [...new Set((unknown.names as string[]).map((n) => cut(n, false)))].slice(0, MAX_UNKNOWN);
  const known = new Set(RULE_LIST.map((r) => r.id));
  for (const [id, r] of Object.entries(object(o.rules, 'rules'))) {
    if (known.has(id)) {
      const c = object(r, `rules.${id}`);
      const checked = count(c.checked, `rules.${id}.checked`);
      out.rules[id] = { checked, fired: Math.min(checked, count(c.fired, `rules.${id}.fired`)) };
    }
  }
  if (o.error !== undefined) {
    out.error = cut(String(o.error), false, MAX_ERROR);
  }
  return out;
}

/** The summary of a test whose capture could not be read. */
export function failedSummary(reason: string): CoverageSummary {
  return {
    format: SUMMARY_FORMAT,
    version: SUMMARY_VERSION,
    records: 0,
    messages: 0,
    types: {},
    unknownTypes: { names: [], messages: 0 },
    rules: {},
    error: cut(reason, true, MAX_ERROR),
  };
}

// ------------------------------------------------------------------------------------------------ a suite's coverage

/** One test (or one capture file) as the aggregation takes it. */
export interface CoverageTestInput {
  /** Stable across runs and shards (the reporter: project, file and titles; the command line: the file's path). */
  id: string;
  title: string;
  file?: string;
  project?: string;
  /** How it ended (`passed`, `failed`, `timedOut`…; for an expected failure, `failed`). */
  status?: string;
  /** Its capture, as a link relative to the report (null: none was attached). */
  capture?: string | null;
  /** Its summaries: one per run (a retried test has several); none when it had no `embed` fixture. */
  summaries: readonly CoverageSummary[];
}

export interface Ratio {
  covered: number;
  total: number;
}
export interface TypeCoverage {
  direction: Direction;
  seen: boolean;
  messages: number;
  invalid: number;
  /** Records by kind. */
  kinds: KindCounts;
  /** Records by surface then kind: every surface the catalog allows for the type (0 when never), `unknown` when any. */
  surfaces: Record<string, KindCounts>;
  /** Each enumerated or boolean field: every catalog value, with how often it was seen (0: never). */
  values: Record<string, Record<string, number>>;
  /** The same fields' values outside the catalog, when any. */
  otherValues: Record<string, Record<string, number>>;
  /** The ids of the tests that saw it. */
  tests: string[];
}
type RuleStatus = 'fired' | 'passed' | 'never-applicable';
interface RuleCoverage {
  severity: RuleSpec['severity'];
  group: RuleSpec['group'];
  /** `fired`: it found something; `passed`: checked and never fired; `never-applicable`: nothing it judges was seen. */
  status: RuleStatus;
  checked: number;
  passed: number;
  fired: number;
  /** The ids of the tests it fired in. */
  tests: string[];
}
export interface TestCoverage {
  id: string;
  title: string;
  file?: string;
  project?: string;
  status?: string;
  capture: string | null;
  /** It attached a summary that could be read. */
  hasData: boolean;
  messages: number;
  /** The catalogued types it saw, in catalog order. */
  types: string[];
  /** The rules that fired in it. */
  fired: string[];
  /** Why it has no data (its capture could not be read). */
  error?: string;
}
interface CoverageSummaryFigures {
  events: Ratio;
  actions: Ratio;
  /** Cells of the matrix: each event on each surface the catalog allows it, each action to each surface. */
  surfaces: Ratio;
  /** Catalog values of enumerated and boolean payload fields. */
  values: Ratio;
  rules: { total: number; checked: number; passed: number; fired: number; neverApplicable: number };
  tests: { total: number; withData: number; messages: number };
}
/** `coverage.json`: the contract (schema/coverage.schema.json; docs/testing.md). */
export interface Coverage {
  format: typeof COVERAGE_FORMAT;
  version: typeof COVERAGE_VERSION;
  summary: CoverageSummaryFigures;
  /** What was never exercised, one line each, the most telling first (`never sent: svc:action:set-locale`). */
  gaps: string[];
  types: Record<string, TypeCoverage>;
  unknownTypes: { names: string[]; messages: number };
  rules: Record<string, RuleCoverage>;
  tests: TestCoverage[];
  /** When minimums were asked for (`min`): them, and one line per minimum not met. */
  minimum?: { required: Minimum; misses: string[] };
}

/**
 * The coverage as a report may hold it: every string redacted (redact.ts: test titles, the page's names and values),
 * the page's values outside the catalog too, which are keys. Counts of values that become one add up.
 */
export function redactCoverage(c: Coverage): Coverage {
  const out = mapJson(c, redactString) as Coverage;
  for (const t of Object.values(out.types)) {
    const other: Record<string, Record<string, number>> = {};
    for (const [field, vs] of Object.entries(t.otherValues)) {
      const f = (other[field] = {} as Record<string, number>);
      for (const [v, n] of Object.entries(vs)) {
        bump(f, redactString(v), n);
      }
    }
    t.otherValues = other;
  }
  return out;
}

/** The surfaces a type may be exercised on: an event's catalog surfaces, an action's every surface. */
export const surfacesOf = (spec: MessageSpec): readonly Surface[] => spec.surfaces ?? SURFACES;

function emptyType(spec: MessageSpec): TypeCoverage {
  const values: Record<string, Record<string, number>> = {};
  for (const [name, allowed] of countedFields(spec)) {
    values[name] = Object.fromEntries(allowed.map((v) => [v, 0]));
  }
  return {
    direction: spec.direction,
    seen: false,
    messages: 0,
    invalid: 0,
    kinds: { post: 0, delivery: 0 },
    surfaces: Object.fromEntries(surfacesOf(spec).map((s) => [s, { post: 0, delivery: 0 }])),
    values,
    otherValues: {},
    tests: [],
  };
}

function addType(into: TypeCoverage, t: TypeSummary): void {
  into.seen = true;
  into.messages += t.messages;
  into.invalid += t.invalid;
  for (const [s, k] of Object.entries(t.surfaces) as [string, KindCounts][]) {
    const cell = (into.surfaces[s] ??= { post: 0, delivery: 0 });
    cell.post += k.post;
    cell.delivery += k.delivery;
    into.kinds.post += k.post;
    into.kinds.delivery += k.delivery;
  }
  for (const [field, vs] of Object.entries(t.values)) {
    for (const [v, n] of Object.entries(vs)) {
      bump((into.values[field] ??= {}), v, n);
    }
  }
  for (const [field, vs] of Object.entries(t.other)) {
    const f = (into.otherValues[field] ??= {});
    for (const [v, n] of Object.entries(vs)) {
      bump(f, !Object.hasOwn(f, v) && Object.keys(f).length >= MAX_OTHER * 4 ? MORE : v, n);
    }
  }
}

/** The coverage of a suite: its tests' summaries added up, totals from the catalog and RULE_LIST. Pure; ordered. */
export function aggregateCoverage(inputs: readonly CoverageTestInput[]): Coverage {
  const types: Record<string, TypeCoverage> = Object.fromEntries(CATALOG.map((s) => [s.type, emptyType(s)]));
  const rules = new Map(RULE_LIST.map((r) => [r.id, { checked: 0, fired: 0, tests: new Set<string>() }]));
  const unknown = { names: [] as string[], messages: 0 };
  const tests: TestCoverage[] = [];
  for (const input of [...inputs].sort((a, b) => compare(a.id, b.id))) {
    const good = input.summaries.filter((s) => !s.error);
    const seen = new Set<string>();
    const fired = new Set<string>();
    for (const s of good) {
      for (const [type, t] of Object.entries(s.types)) {
        if (!Object.hasOwn(types, type)) {
          continue;
        }
        addType(types[type], t);
        seen.add(type);
      }
      for (const [id, r] of Object.entries(s.rules)) {
        const into = rules.get(id);
        if (!into) {
          continue;
        }
        into.checked += r.checked;
        into.fired += r.fired;
        if (r.fired > 0) {
          into.tests.add(input.id);
          fired.add(id);
        }
      }
      unknown.messages += s.unknownTypes.messages;
      for (const n of s.unknownTypes.names) {
        if (!unknown.names.includes(n) && unknown.names.length < MAX_UNKNOWN * 5) {
          unknown.names.push(n);
        }
      }
    }
    for (const type of seen) {
      types[type].tests.push(input.id);
    }
    const error = input.summaries.find((s) => s.error)?.error;
    tests.push({
      id: input.id,
      title: input.title,
      ...(input.file !== undefined ? { file: input.file } : {}),
      ...(input.project ? { project: input.project } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      capture: input.capture ?? null,
      hasData: good.length > 0,
      messages: good.reduce((n, s) => n + s.messages, 0),
      types: CATALOG.map((s) => s.type).filter((t) => seen.has(t)),
      fired: RULE_LIST.map((r) => r.id).filter((id) => fired.has(id)),
      ...(good.length === 0 && error ? { error } : {}),
    });
  }
  unknown.names.sort(compare);
  const ruleOut = ruleCoverage(rules);
  const summary = figures(types, ruleOut, tests);
  return {
    format: COVERAGE_FORMAT,
    version: COVERAGE_VERSION,
    summary,
    gaps: gapsOf(types, ruleOut),
    types,
    unknownTypes: unknown,
    rules: ruleOut,
    tests,
  };
}

/** Code-unit order: the same in every locale and run. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function ruleCoverage(rules: Map<string, { checked: number; fired: number; tests: Set<string> }>) {
  const out: Record<string, RuleCoverage> = {};
  for (const spec of RULE_LIST) {
    const r = rules.get(spec.id)!;
    out[spec.id] = {
      severity: spec.severity,
      group: spec.group,
      status: r.fired > 0 ? 'fired' : r.checked > 0 ? 'passed' : 'never-applicable',
      checked: r.checked,
      passed: r.checked - r.fired,
      fired: r.fired,
      tests: [...r.tests].sort(compare),
    };
  }
  return out;
}

function figures(types: Record<string, TypeCoverage>, rules: Record<string, RuleCoverage>, tests: TestCoverage[]) {
  const ratio = (specs: readonly MessageSpec[]): Ratio => ({
    covered: specs.filter((s) => types[s.type].seen).length,
    total: specs.length,
  });
  const cells = CATALOG.flatMap((s) => surfacesOf(s).map((sf) => types[s.type].surfaces[sf]));
  const values = CATALOG.flatMap((s) => Object.values(types[s.type].values).flatMap((vs) => Object.values(vs)));
  const rs = Object.values(rules);
  return {
    events: ratio(EVENTS),
    actions: ratio(ACTIONS),
    surfaces: { covered: cells.filter((c) => c.post + c.delivery > 0).length, total: cells.length },
    values: { covered: values.filter((n) => n > 0).length, total: values.length },
    rules: {
      total: rs.length,
      checked: rs.filter((r) => r.checked > 0).length,
      passed: rs.filter((r) => r.status === 'passed').length,
      fired: rs.filter((r) => r.status === 'fired').length,
      neverApplicable: rs.filter((r) => r.status === 'never-applicable').length,
    },
    tests: {
      total: tests.length,
      withData: tests.filter((t) => t.hasData).length,
      messages: tests.reduce((n, t) => n + t.messages, 0),
    },
  };
}

/**
 * What was never exercised, in words, the most telling first: types never sent, types posted but never delivered,
 * surfaces a seen type never came from (or went to), catalog values never seen, rules never checked (by group).
 */
function gapsOf(types: Record<string, TypeCoverage>, rules: Record<string, RuleCoverage>): string[] {
  const never = CATALOG.filter((s) => !types[s.type].seen).map((s) => `never sent: ${s.type}`);
  const undelivered = CATALOG.filter((s) => types[s.type].kinds.post > 0 && types[s.type].kinds.delivery === 0).map(
    (s) => `no delivery seen: ${s.type} (posted ${types[s.type].kinds.post}×)`,
  );
  const surfaces: string[] = [];
  const values: string[] = [];
  for (const s of CATALOG.filter((x) => types[x.type].seen)) {
    const t = types[s.type];
    const missing = surfacesOf(s).filter((sf) => t.surfaces[sf].post + t.surfaces[sf].delivery === 0);
    if (missing.length) {
      surfaces.push(`${s.direction === 'event' ? 'never from' : 'never sent to'} ${missing.join(', ')}: ${s.type}`);
    }
    for (const [field, vs] of Object.entries(t.values)) {
      const unseen = Object.entries(vs).filter(([, n]) => n === 0);
      if (unseen.length) {
        values.push(`never with ${field} ${unseen.map(([v]) => v).join(', ')}: ${s.type}`);
      }
    }
  }
  const groups = new Map<string, string[]>();
  for (const [id, r] of Object.entries(rules)) {
    if (r.status === 'never-applicable') {
      (groups.get(r.group) ?? groups.set(r.group, []).get(r.group)!).push(id);
    }
  }
  const unchecked = [...groups].map(([g, ids]) => `never checked (${g}): ${ids.join(', ')}`);
  return [...never, ...undelivered, ...surfaces, ...values, ...unchecked];
}

// ------------------------------------------------------------------------------------------------ minimums

/** What a minimum can be set on, in percent of its total. */
const MIN_KEYS = ['events', 'actions', 'surfaces', 'values', 'rules'] as const;
type MinKey = (typeof MIN_KEYS)[number];
export type Minimum = Partial<Record<MinKey, number>>;

/** A minimum as a reporter option gives it (`{ events: 100, actions: 80 }`); a one-line CoverageFormatError if not one. */
export function readMinimum(value: unknown): Minimum {
  if (value === undefined) {
    return {};
  }
  const o = object(value, 'the minimum');
  const out: Minimum = {};
  for (const [k, v] of Object.entries(o)) {
    if (!(MIN_KEYS as readonly string[]).includes(k)) {
      throw new CoverageFormatError(`unknown key "${k}"; one of ${MIN_KEYS.join(', ')}`);
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) {
      throw new CoverageFormatError(`${k} must be a percentage from 0 to 100 (got ${JSON.stringify(v)})`);
    }
    out[k as MinKey] = v;
  }
  return out;
}

/** A minimum as the command line writes it: `events=100,actions=80`. */
export function parseMinimum(text: string): Minimum {
  const o: Record<string, unknown> = {};
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) {
    // (`--min "$COVERAGE_MIN"` with the variable unset: no gate at all, silently, is not what was asked for)
    throw new CoverageFormatError('no threshold given (e.g. events=100,actions=80)');
  }
  for (const part of parts) {
    const m = /^([a-z]+)=(\d+(?:\.\d+)?)%?$/.exec(part);
    if (!m) {
      throw new CoverageFormatError(`"${part}" is not KEY=PERCENT (e.g. events=100,actions=80)`);
    }
    o[m[1]] = Number(m[2]);
  }
  return readMinimum(o);
}

/** `covered/total` in percent, as shown: 87.5%, 100%. */
export const percent = (r: Ratio): string =>
  `${r.total === 0 ? 100 : Number(((r.covered / r.total) * 100).toFixed(1))}%`;

const some = (items: string[], max = 8) =>
  items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');

/** What each key lacks, named: the types, cells, values or rules not covered. */
function missing(c: Coverage, key: MinKey): string {
  const specs = key === 'events' ? EVENTS : ACTIONS;
  switch (key) {
    case 'events':
    case 'actions':
      return `never sent: ${some((specs as readonly MessageSpec[]).filter((s) => !c.types[s.type].seen).map((s) => s.type))}`;
    case 'surfaces':
      return `not seen: ${some(
        CATALOG.flatMap((s) =>
          surfacesOf(s)
            .filter((sf) => c.types[s.type].surfaces[sf].post + c.types[s.type].surfaces[sf].delivery === 0)
            .map((sf) => `${s.type} on ${sf}`),
        ),
      )}`;
    case 'values':
      return `never seen: ${some(
        CATALOG.flatMap((s) =>
          Object.entries(c.types[s.type].values).flatMap(([f, vs]) =>
            Object.entries(vs)
              .filter(([, n]) => n === 0)
              .map(([v]) => `${s.type} ${f}=${v}`),
          ),
        ),
      )}`;
    case 'rules':
      return `never checked: ${some(
        Object.entries(c.rules)
          .filter(([, r]) => r.checked === 0)
          .map(([id]) => id),
      )}`;
  }
}

/** One line per minimum not met, naming what is missing; none when every minimum is met. */
export function minimumMisses(c: Coverage, min: Minimum): string[] {
  const out: string[] = [];
  for (const key of MIN_KEYS) {
    const want = min[key];
    if (want === undefined) {
      continue;
    }
    const r: Ratio =
      key === 'rules' ? { covered: c.summary.rules.checked, total: c.summary.rules.total } : c.summary[key];
    if (r.covered * 100 < want * r.total) {
      out.push(`${key} ${r.covered}/${r.total} (${percent(r)}) is below the minimum of ${want}%: ${missing(c, key)}`);
    }
  }
  return out;
}

/** The coverage with its minimums and their misses (`minimum`), when any minimum is asked for. */
export function withMinimum(c: Coverage, min: Minimum): Coverage {
  return Object.keys(min).length ? { ...c, minimum: { required: min, misses: minimumMisses(c, min) } } : c;
}
