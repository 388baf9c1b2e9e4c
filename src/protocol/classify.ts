/**
 * Stateless classification of one captured record against the protocol: envelope, payload, cross-field,
 * action semantics and origin rules. Session (ordering) rules live in session.ts.
 * Pure and total: it never throws and never mutates its input, whatever it is given.
 */
import type { CaptureRecord } from './record.ts';
import { isSvcEmbed } from './marker.ts';
import {
  ACTION_PREFIX,
  ACTIONS,
  ENVELOPE_FIELDS,
  EVENT_PREFIX,
  EVENTS,
  SURFACES,
  type FieldKind,
  type FieldSpec,
  type MessageSpec,
} from './catalog.ts';
import { TAG, typeName } from './encoding.ts';
import { RULE_LIST, type Severity } from './rules.ts';
import { checkFilter, checkLocale, checkTimezone } from './semantics.ts';
import { normalizeOrigin } from './origin.ts';

export type Verdict = 'valid' | 'invalid' | 'foreign';
export type { Severity };
export interface Issue {
  rule: string;
  severity: Severity;
  path: string;
  message: string;
  /** On a delivery: the issue is its post's (the sender's), shown where the message arrived (see pairs.ts). */
  sender?: true;
}
export interface Classification {
  verdict: Verdict;
  issues: Issue[];
}
export interface ClassifyContext {
  /** The tenant (embed) origin, e.g. "https://acme.example.com"; null/undefined when unknown (origin rules are then skipped). */
  tenantOrigin?: string | null;
  /**
   * The host page's origin (the top frame's), when known: an event the browser dropped is then said to miss the
   * host (`origin.event-target`), with both origins.
   */
  hostOrigin?: string | null;
}
/** What classify needs of a record; a bare `{data}` works for library users. */
export type ClassifyInput = Partial<Omit<CaptureRecord, 'data'>> & { data: unknown };

const EPOCH_MIN = 946_684_800_000; // 2000-01-01
const EPOCH_MAX = 4_102_444_800_000; // 2100-01-01

/** Each rule's severity, by id; no prototype, so that no other name has one. */
const SEVERITY: Readonly<Record<string, Severity | undefined>> = Object.assign(
  Object.create(null),
  Object.fromEntries(RULE_LIST.map((r) => [r.id, r.severity])),
);

export function issue(rule: string, path: string, message: string): Issue {
  return { rule, severity: SEVERITY[rule] ?? 'error', path, message };
}

/** A rule and its severity, looked up once: the checks below build their issues from these. */
interface RuleRef {
  readonly rule: string;
  readonly severity: Severity;
}
const ruleRef = (rule: string): RuleRef => ({ rule, severity: SEVERITY[rule] ?? 'error' });
const R = {
  direction: ruleRef('envelope.direction'),
  type: ruleRef('envelope.type'),
  typeDirection: ruleRef('envelope.type-direction'),
  timestamp: ruleRef('envelope.timestamp'),
  timestampEpoch: ruleRef('envelope.timestamp-epoch'),
  surfaceMissing: ruleRef('envelope.surface-missing'),
  surface: ruleRef('envelope.surface'),
  surfaceOnAction: ruleRef('envelope.surface-on-action'),
  unknownEnvelopeField: ruleRef('envelope.unknown-field'),
  payload: ruleRef('envelope.payload'),
  notAllowed: ruleRef('surface.not-allowed'),
  required: ruleRef('payload.required'),
  null: ruleRef('payload.null'),
  kind: ruleRef('payload.type'),
  enum: ruleRef('payload.enum'),
  refreshPayload: ruleRef('action.refresh-payload'),
  unknownPayloadField: ruleRef('payload.unknown-field'),
  payloadMismatch: ruleRef('surface.payload-mismatch'),
  widgetId: ruleRef('download.widget-id'),
  rowCount: ruleRef('download.row-count'),
  filter: ruleRef('action.filter'),
  locale: ruleRef('action.locale'),
};
/** `issue(r.rule, path, message)`, with the severity already known. */
const at = (r: RuleRef, path: string, message: string): Issue => ({
  rule: r.rule,
  severity: r.severity,
  path,
  message,
});

/** The kinds of FieldKind as numbers, so that the check of a value is a switch on small integers. */
const KIND_CODE = { any: 0, string: 1, number: 2, boolean: 3, object: 4 } as const satisfies Record<FieldKind, number>;

/** A payload field as the checks read it, with its issue path and the fixed parts of its messages built once. */
interface FieldCheck {
  readonly name: string;
  readonly path: string;
  readonly kind: number;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly enum: readonly string[] | undefined;
  /** The whole `payload.required` message. */
  readonly requiredMessage: string;
  /** The whole `payload.null` message. */
  readonly nullMessage: string;
  /** The whole `payload.type` message for a null value. */
  readonly nullKindMessage: string;
  /** How `payload.type` and `payload.enum` messages start: `"name" is `. */
  readonly is: string;
  /** How a `payload.type` message ends: `; expected string or null`. */
  readonly expectedKind: string;
  /** How a `payload.enum` message ends: `; expected one of "a", "b"`. */
  readonly expectedEnum: string;
  /** The last `payload.type` message of a primitive value, and the value (kindMessage is its only writer). */
  readonly memo: { value: unknown; message: string };
}
const fieldCheck = (spec: MessageSpec, name: string, field: FieldSpec): FieldCheck => {
  const expectedKind = `; expected ${field.kind}${field.nullable ? ' or null' : ''}`;
  return {
    name,
    path: `payload.${name}`,
    kind: KIND_CODE[field.kind],
    required: field.required,
    nullable: field.nullable === true,
    enum: field.enum,
    requiredMessage: `${spec.name} payload needs "${name}" (${field.doc})`,
    nullMessage: `"${name}" is null; it is optional but not nullable: omit it`,
    nullKindMessage: `"${name}" is null${expectedKind}`,
    is: `"${name}" is `,
    expectedKind,
    expectedEnum: field.enum ? `; expected one of ${field.enum.map((e) => `"${e}"`).join(', ')}` : '',
    memo: { value: undefined, message: '' },
  };
};
/** The rules across fields of a type, by the type's name (a switch on small integers, not on names). */
const CROSS_NONE = 0,
  CROSS_SURFACE = 1,
  CROSS_DOWNLOAD = 2,
  CROSS_TIMEZONE = 3,
  CROSS_FILTER = 4,
  CROSS_LOCALE = 5;
const CROSS: Readonly<Record<string, number>> = {
  ready: CROSS_SURFACE,
  view: CROSS_SURFACE,
  download: CROSS_DOWNLOAD,
  'set-timezone': CROSS_TIMEZONE,
  'set-filter': CROSS_FILTER,
  'set-locale': CROSS_LOCALE,
};
/** A catalogued message type with what checking it needs, computed once from the catalog. */
interface TypeCheck {
  readonly spec: MessageSpec;
  readonly name: string;
  readonly isEvent: boolean;
  readonly isAction: boolean;
  readonly fields: readonly FieldCheck[];
  /** The fields' names, in the catalog's order (`fields[i].name`). */
  readonly names: readonly string[];
  readonly open: boolean;
  readonly empty: boolean;
  readonly cross: number;
  /** The surfaces an event may come from, when not all of them. */
  readonly onlySurfaces?: readonly unknown[];
}
const TYPE_CHECKS: ReadonlyMap<string, TypeCheck> = new Map(
  ([...EVENTS, ...ACTIONS] as readonly MessageSpec[]).map((spec) => {
    const fields = Object.entries(spec.fields).map(([name, field]) => fieldCheck(spec, name, field));
    const check: TypeCheck = {
      spec,
      name: spec.name,
      isEvent: spec.direction === 'event',
      isAction: spec.direction === 'action',
      fields,
      names: fields.map((f) => f.name),
      open: spec.open === true,
      empty: spec.empty === true,
      cross: Object.hasOwn(CROSS, spec.name) ? CROSS[spec.name] : CROSS_NONE,
      onlySurfaces: spec.surfaces && spec.surfaces.length < SURFACES.length ? spec.surfaces : undefined,
    };
    return [spec.type, check];
  }),
);

/** `SURFACE_SET.has(v)`, compared in place. */
function isSurface(v: unknown): boolean {
  for (let i = 0; i < SURFACES.length; i++) {
    if (SURFACES[i] === v) {
      return true;
    }
  }
  return false;
}

export { isSvcEmbed };

export function verdictOf(issues: readonly Issue[]): Verdict {
  for (const i of issues) {
    if (i.severity === 'error') {
      return 'invalid';
    }
  }
  return 'valid';
}

/** Classify one record. Never throws. */
export function classify(record: ClassifyInput, context: ClassifyContext = {}): Classification {
  try {
    if (!record || !isSvcEmbed(record.data)) {
      return { verdict: 'foreign', issues: [] };
    }
    const issues: Issue[] = [];
    const data = record.data as Record<string, unknown>;
    if (data[TAG] === 'Truncated') {
      // Over the size cap: the envelope fields survive truncation and are judged; the payload is not there.
      checkEnvelope(data, issues, true);
      const size = typeof data.originalSize === 'number' ? ` (${data.originalSize} bytes)` : '';
      issues.push(
        issue(
          'envelope.truncated',
          'payload',
          `not checked: truncated; the message${size} is over the size cap, only its envelope fields were kept`,
        ),
      );
    } else {
      const check = checkEnvelope(data, issues);
      if (check) {
        checkPayload(check, data, issues);
      }
    }
    if (context.tenantOrigin) {
      checkOrigin(record, data, context.tenantOrigin, issues, context.hostOrigin);
    }
    return { verdict: verdictOf(issues), issues };
  } catch (err) {
    // Only reachable through exotic inputs (revoked proxies, throwing getters): report, never throw.
    return {
      verdict: 'invalid',
      issues: [issue('envelope.type', '$', `the message could not be read: ${describeError(err)}`)],
    };
  }
}

function describeError(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'unknown error';
  }
}

/**
 * `JSON.stringify(s)` of a string: quoted as it is when nothing in it needs an escape (no quote, backslash, control
 * character or surrogate), which is most strings and costs far less than the serialiser.
 */
function quote(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) {
      return JSON.stringify(s);
    }
  }
  return `"${s}"`;
}

function show(v: unknown): string {
  try {
    if (typeof v === 'string') {
      return quote(v.length > 60 ? `${v.slice(0, 60)}…` : v);
    }
    if (typeof v === 'number' || typeof v === 'boolean' || v === null) {
      return String(v);
    }
    return typeName(v);
  } catch {
    return 'value';
  }
}

/** `truncated`: `d` is a truncation marker (encoding.ts): its own fields are not the message's, its payload is gone. */
function checkEnvelope(d: Record<string, unknown>, out: Issue[], truncated = false): TypeCheck | undefined {
  const direction = d.direction;
  const type = d.type;
  const dirOk = direction === 'event' || direction === 'action';
  if (!dirOk) {
    out.push(at(R.direction, 'direction', `direction is ${show(direction)}; expected "event" or "action"`));
  }

  let check: TypeCheck | undefined;
  if (typeof type !== 'string') {
    out.push(
      at(R.type, 'type', `type is ${type === undefined ? 'missing' : show(type)}; expected an event or action name`),
    );
  } else {
    check = TYPE_CHECKS.get(type);
    // Every catalogued type has its direction's prefix: a known type needs no prefix test.
    const isEventType = check ? check.isEvent : type.startsWith(EVENT_PREFIX),
      isActionType = check ? check.isAction : type.startsWith(ACTION_PREFIX);
    if (!check) {
      out.push(
        at(R.type, 'type', `unknown ${isEventType ? 'event' : isActionType ? 'action' : 'message'} type ${show(type)}`),
      );
    }
    if (dirOk && ((direction === 'event' && isActionType) || (direction === 'action' && isEventType))) {
      out.push(
        at(
          R.typeDirection,
          'type',
          `${show(type)} is ${isEventType ? 'an event' : 'an action'} type but direction is "${direction}"`,
        ),
      );
    }
  }

  const ts = d.timestamp;
  if (typeof ts !== 'number' || !Number.isFinite(ts)) {
    out.push(
      at(
        R.timestamp,
        'timestamp',
        `timestamp is ${ts === undefined ? 'missing' : show(ts)}; expected epoch milliseconds`,
      ),
    );
  } else if (ts < EPOCH_MIN || ts > EPOCH_MAX) {
    out.push(
      at(
        R.timestampEpoch,
        'timestamp',
        `timestamp ${ts} is not epoch milliseconds between 2000 and 2100${ts > 1e8 && ts < 1e10 ? ' (seconds?)' : ''}`,
      ),
    );
  }

  const isEvent = check ? check.isEvent : direction === 'event';
  const hasSurface = 'surface' in d;
  if (isEvent) {
    if (!hasSurface || d.surface === undefined) {
      out.push(at(R.surfaceMissing, 'surface', 'event has no surface; every event carries the envelope surface'));
    } else if (!isSurface(d.surface)) {
      out.push(at(R.surface, 'surface', `surface is ${show(d.surface)}; expected "dashboard", "app" or "chat"`));
    }
  } else if ((check ? check.isAction : direction === 'action') && hasSurface) {
    out.push(at(R.surfaceOnAction, 'surface', 'actions never carry a surface'));
  }

  if (truncated) {
    return undefined;
  }
  for (const key in d) {
    if (!isEnvelopeField(key)) {
      out.push(at(R.unknownEnvelopeField, key, `envelope field "${key}" is not in the spec`));
    }
  }

  const payload = d.payload;
  if (typeName(payload) !== 'object') {
    out.push(
      at(
        R.payload,
        'payload',
        `payload is ${payload === undefined ? 'missing' : typeName(payload)}; expected an object`,
      ),
    );
    return undefined;
  }
  // Surface rules need the envelope as well as the payload.
  if (check?.onlySurfaces && isSurface(d.surface) && !check.onlySurfaces.includes(d.surface)) {
    out.push(
      at(
        R.notAllowed,
        'surface',
        `${check.name} is a ${check.onlySurfaces.join('/')} event; it came from the ${d.surface} surface`,
      ),
    );
  }
  return check;
}

/**
 * `key in ENVELOPE_FIELDS`, with the six names matched first: a string switch costs far less than `in` with a key
 * that changes from call to call, and every valid envelope takes it.
 */
function isEnvelopeField(key: string): boolean {
  switch (key) {
    case 'source':
    case 'direction':
    case 'type':
    case 'payload':
    case 'timestamp':
    case 'surface':
      return true;
    default:
      return key in ENVELOPE_FIELDS;
  }
}

/** `key in fields` (the payload fields of the type), with the catalogued names compared first, as for the envelope. */
function isPayloadField(key: string, check: TypeCheck): boolean {
  const names = check.names;
  for (let i = 0; i < names.length; i++) {
    if (names[i] === key) {
      return true;
    }
  }
  return key in check.spec.fields;
}

/** Does `v` (neither undefined nor null) have the field's kind? */
function kindMatches(kind: number, v: unknown): boolean {
  switch (kind) {
    case 1:
      return typeof v === 'string';
    case 2:
      return typeof v === 'number' && Number.isFinite(v);
    case 3:
      return typeof v === 'boolean';
    case 4:
      return typeName(v) === 'object';
    default:
      return true;
  }
}

/**
 * The `payload.type` message for a value of the wrong kind. A sender that gets a field wrong tends to send the same
 * wrong value again: the last message of each field is kept with its value, and a primitive value (whose message
 * depends on nothing else) that is the same as the last one gets the same message.
 */
function kindMessage(c: FieldCheck, v: unknown): string {
  if (v === c.memo.value && c.memo.message !== '') {
    return c.memo.message;
  }
  const message = c.is + show(v) + c.expectedKind;
  if (typeof v !== 'object' && typeof v !== 'function') {
    c.memo.value = v;
    c.memo.message = message;
  }
  return message;
}

function checkPayload(check: TypeCheck, d: Record<string, unknown>, out: Issue[]): void {
  const p = d.payload as Record<string, unknown>;
  const checks = check.fields;
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i];
    // Absent and undefined are alike: reading the field answers both.
    const v = p[c.name];
    if (v === undefined) {
      if (c.required) {
        out.push(at(R.required, c.path, c.requiredMessage));
      }
      continue;
    }
    if (v === null) {
      if (c.nullable) {
        continue;
      }
      if (!c.required) {
        out.push(at(R.null, c.path, c.nullMessage));
        continue;
      }
      // Required and not nullable: null is of no kind but `any` (whose enum, if any, then judges it).
      if (c.kind !== KIND_CODE.any) {
        out.push(at(R.kind, c.path, c.nullKindMessage));
        continue;
      }
    }
    if (!kindMatches(c.kind, v)) {
      out.push(at(R.kind, c.path, kindMessage(c, v)));
    } else if (c.enum && !c.enum.includes(v as string)) {
      out.push(at(R.enum, c.path, c.is + show(v) + c.expectedEnum));
    }
  }
  if (!check.open) {
    for (const key in p) {
      if (!isPayloadField(key, check)) {
        out.push(
          check.empty
            ? at(R.refreshPayload, `payload.${key}`, `${check.name} takes an empty payload; "${key}" is ignored`)
            : at(R.unknownPayloadField, `payload.${key}`, `"${key}" is not a field of the ${check.name} payload`),
        );
      }
    }
  }
  // Cross-field and semantic rules.
  switch (check.cross) {
    case CROSS_SURFACE:
      if (typeof p.surface === 'string' && isSurface(d.surface) && p.surface !== d.surface) {
        out.push(
          at(
            R.payloadMismatch,
            'payload.surface',
            `payload surface "${p.surface}" differs from envelope surface "${d.surface}"`,
          ),
        );
      }
      break;
    case CROSS_DOWNLOAD:
      if ('widgetId' in p && p.widgetId !== undefined && p.target !== 'widget') {
        out.push(
          at(
            R.widgetId,
            'payload.widgetId',
            `widgetId is given but target is ${show(p.target)}; it belongs to widget exports`,
          ),
        );
      }
      if ('rowCount' in p && p.rowCount !== undefined && p.format !== 'csv' && p.format !== 'xlsx') {
        out.push(
          at(
            R.rowCount,
            'payload.rowCount',
            `rowCount is given for a ${show(p.format)} export; it belongs to csv and xlsx`,
          ),
        );
      }
      break;
    case CROSS_TIMEZONE:
      if (typeof p.timezone === 'string') {
        const m = checkTimezone(p.timezone);
        if (m) {
          out.push(issue(m.rule, 'payload.timezone', m.message));
        }
      }
      break;
    case CROSS_FILTER:
      if (typeof p.filterUrlParameter === 'string') {
        const m = checkFilter(p.filterUrlParameter);
        if (m) {
          out.push(at(R.filter, 'payload.filterUrlParameter', m));
        }
      }
      break;
    case CROSS_LOCALE:
      if (typeof p.locale === 'string') {
        const m = checkLocale(p.locale);
        if (m) {
          out.push(at(R.locale, 'payload.locale', m));
        }
      }
      break;
  }
}

/**
 * `tenantGiven`: the tenant origin as the context gives it. An origin spelled exactly the same way normalises to the
 * same origin, so it is compared before anything is normalised.
 */
function checkOrigin(
  record: ClassifyInput,
  d: Record<string, unknown>,
  tenantGiven: string,
  out: Issue[],
  hostOrigin?: string | null,
): void {
  const tenant = normalizeOrigin(tenantGiven);
  const direction = d.direction;
  if (direction === 'event' && typeof record.origin === 'string' && record.origin && record.origin !== tenantGiven) {
    const from = normalizeOrigin(record.origin);
    if (from !== tenant) {
      out.push(
        issue(
          'origin.event',
          'origin',
          record.kind === 'post'
            ? `event posted from ${from}, not the tenant origin ${tenant}; a host following the spec ignores it`
            : `event received from ${from}, not the tenant origin ${tenant}; a host following the spec ignores it`,
        ),
      );
    }
  }
  // postMessage threw (an invalid target origin, data it cannot clone): nothing was sent, nothing dropped.
  const thrown = (record as { error?: unknown }).error;
  const threw = record.kind === 'post' && typeof thrown === 'string';
  if (direction === 'action' && record.kind === 'post' && typeof record.targetOrigin === 'string') {
    const t = record.targetOrigin;
    if (t === '*') {
      out.push(
        issue(
          'origin.action-wildcard',
          'targetOrigin',
          `action posted with target origin "*"; use the tenant origin ${tenant}`,
        ),
      );
    } else if (t !== '/' && t === tenantGiven) {
      // The tenant origin, spelled as the context spells it.
    } else {
      const target = t === '/' ? normalizeOrigin(record.origin ?? '') : normalizeOrigin(t);
      if (target !== tenant) {
        out.push(
          issue(
            'origin.action-target',
            'targetOrigin',
            threw
              ? `action posted to ${show(t)}, not the tenant origin ${tenant}; postMessage threw (${String(thrown)}): the message was never sent`
              : `action posted to ${t === '/' ? `"/" (${target})` : target}, not the tenant origin ${tenant}; the browser drops it`,
          ),
        );
      }
    }
  }
  // Read only for a dropped post.
  const host = hostOrigin && record.dropped === true ? normalizeOrigin(hostOrigin) : null;
  // An event to its parent (the host page, for an embed framed by it) at a target origin that is not the host's.
  const to = typeof record.targetOrigin === 'string' ? record.targetOrigin : '';
  if (
    record.kind === 'post' &&
    !threw &&
    record.dropped === true &&
    direction === 'event' &&
    host !== null &&
    record.target === 'parent' &&
    to !== '*' &&
    to !== '/' &&
    normalizeOrigin(to) !== host
  ) {
    out.push(
      issue(
        'origin.event-target',
        'targetOrigin',
        `event posted to ${show(record.targetOrigin)}, but the host page is ${host}: the browser dropped it and the host's listener never received it`,
      ),
    );
    return;
  }
  if (
    record.kind === 'post' &&
    !threw &&
    record.dropped === true &&
    !(direction === 'action' && out.some((i) => i.rule === 'origin.action-target'))
  ) {
    out.push(
      issue(
        'origin.dropped',
        'targetOrigin',
        `the browser dropped this post: target origin ${show(record.targetOrigin)} did not match the target frame`,
      ),
    );
  }
}
