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
  type FieldSpec,
  type MessageSpec,
} from './catalog.ts';
import { TAG, typeName } from './encoding.ts';
import { RULE_LIST } from './rules.ts';
import { checkFilter, checkLocale, checkTimezone } from './semantics.ts';
import { normalizeOrigin } from './origin.ts';

export type Verdict = 'valid' | 'invalid' | 'foreign';
export type Severity = 'error' | 'warning' | 'info';
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

const SURFACE_SET: ReadonlySet<unknown> = new Set(SURFACES);
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

/** A payload field as the checks read it, with its issue path and the fixed ends of its messages built once. */
interface FieldCheck {
  readonly name: string;
  readonly path: string;
  readonly field: FieldSpec;
  /** How a `payload.type` message ends: `; expected string or null`. */
  readonly expectedKind: string;
  /** How a `payload.enum` message ends: `; expected one of "a", "b"`. */
  readonly expectedEnum: string;
}
const fieldCheck = (name: string, field: FieldSpec): FieldCheck => ({
  name,
  path: `payload.${name}`,
  field,
  expectedKind: `; expected ${field.kind}${field.nullable ? ' or null' : ''}`,
  expectedEnum: field.enum ? `; expected one of ${field.enum.map((e) => `"${e}"`).join(', ')}` : '',
});
/** A catalogued message type with what checking it needs, computed once from the catalog. */
interface TypeCheck {
  readonly spec: MessageSpec;
  readonly fields: readonly FieldCheck[];
  /** The surfaces an event may come from, when not all of them. */
  readonly onlySurfaces?: readonly unknown[];
}
const TYPE_CHECKS: ReadonlyMap<string, TypeCheck> = new Map(
  ([...EVENTS, ...ACTIONS] as readonly MessageSpec[]).map((spec) => [
    spec.type,
    {
      spec,
      fields: Object.entries(spec.fields).map(([name, field]) => fieldCheck(name, field)),
      onlySurfaces: spec.surfaces && spec.surfaces.length < SURFACES.length ? spec.surfaces : undefined,
    },
  ]),
);

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

function show(v: unknown): string {
  try {
    if (typeof v === 'string') {
      return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
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
    out.push(issue('envelope.direction', 'direction', `direction is ${show(direction)}; expected "event" or "action"`));
  }

  let check: TypeCheck | undefined;
  if (typeof type !== 'string') {
    out.push(
      issue(
        'envelope.type',
        'type',
        `type is ${type === undefined ? 'missing' : show(type)}; expected an event or action name`,
      ),
    );
  } else {
    check = TYPE_CHECKS.get(type);
    // Every catalogued type has its direction's prefix: a known type needs no prefix test.
    const isEventType = check ? check.spec.direction === 'event' : type.startsWith(EVENT_PREFIX),
      isActionType = check ? check.spec.direction === 'action' : type.startsWith(ACTION_PREFIX);
    if (!check) {
      out.push(
        issue(
          'envelope.type',
          'type',
          `unknown ${isEventType ? 'event' : isActionType ? 'action' : 'message'} type ${show(type)}`,
        ),
      );
    }
    if (dirOk && ((direction === 'event' && isActionType) || (direction === 'action' && isEventType))) {
      out.push(
        issue(
          'envelope.type-direction',
          'type',
          `${show(type)} is ${isEventType ? 'an event' : 'an action'} type but direction is "${direction}"`,
        ),
      );
    }
  }

  const ts = d.timestamp;
  if (typeof ts !== 'number' || !Number.isFinite(ts)) {
    out.push(
      issue(
        'envelope.timestamp',
        'timestamp',
        `timestamp is ${ts === undefined ? 'missing' : show(ts)}; expected epoch milliseconds`,
      ),
    );
  } else if (ts < EPOCH_MIN || ts > EPOCH_MAX) {
    out.push(
      issue(
        'envelope.timestamp-epoch',
        'timestamp',
        `timestamp ${ts} is not epoch milliseconds between 2000 and 2100${ts > 1e8 && ts < 1e10 ? ' (seconds?)' : ''}`,
      ),
    );
  }

  const spec = check?.spec;
  const isEvent = spec ? spec.direction === 'event' : direction === 'event';
  const hasSurface = 'surface' in d;
  if (isEvent) {
    if (!hasSurface || d.surface === undefined) {
      out.push(
        issue('envelope.surface-missing', 'surface', 'event has no surface; every event carries the envelope surface'),
      );
    } else if (!SURFACE_SET.has(d.surface)) {
      out.push(
        issue('envelope.surface', 'surface', `surface is ${show(d.surface)}; expected "dashboard", "app" or "chat"`),
      );
    }
  } else if ((spec ? spec.direction === 'action' : direction === 'action') && hasSurface) {
    out.push(issue('envelope.surface-on-action', 'surface', 'actions never carry a surface'));
  }

  if (truncated) {
    return undefined;
  }
  for (const key in d) {
    if (!isEnvelopeField(key)) {
      out.push(issue('envelope.unknown-field', key, `envelope field "${key}" is not in the spec`));
    }
  }

  const payload = d.payload;
  if (typeName(payload) !== 'object') {
    out.push(
      issue(
        'envelope.payload',
        'payload',
        `payload is ${payload === undefined ? 'missing' : typeName(payload)}; expected an object`,
      ),
    );
    return undefined;
  }
  // Surface rules need the envelope as well as the payload.
  if (check?.onlySurfaces && SURFACE_SET.has(d.surface) && !check.onlySurfaces.includes(d.surface)) {
    out.push(
      issue(
        'surface.not-allowed',
        'surface',
        `${check.spec.name} is a ${check.onlySurfaces.join('/')} event; it came from the ${d.surface} surface`,
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
function isPayloadField(key: string, checks: readonly FieldCheck[], fields: MessageSpec['fields']): boolean {
  for (const c of checks) {
    if (c.name === key) {
      return true;
    }
  }
  return key in fields;
}

function kindMatches(f: FieldSpec, v: unknown): boolean {
  switch (f.kind) {
    case 'any':
      return true;
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return typeName(v) === 'object';
  }
}

function checkPayload(check: TypeCheck, d: Record<string, unknown>, out: Issue[]): void {
  const p = d.payload as Record<string, unknown>;
  const spec = check.spec;
  const checks = check.fields;
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i];
    const { name, path, field: f } = c;
    // Absent and undefined are alike: reading the field answers both.
    const v = p[name];
    if (v === undefined) {
      if (f.required) {
        out.push(issue('payload.required', path, `${spec.name} payload needs "${name}" (${f.doc})`));
      }
      continue;
    }
    if (v === null) {
      if (f.nullable) {
        continue;
      }
      if (!f.required) {
        out.push(issue('payload.null', path, `"${name}" is null; it is optional but not nullable: omit it`));
        continue;
      }
    }
    if (!kindMatches(f, v)) {
      out.push(issue('payload.type', path, `"${name}" is ${show(v)}${c.expectedKind}`));
    } else if (f.enum && !f.enum.includes(v as string)) {
      out.push(issue('payload.enum', path, `"${name}" is ${show(v)}${c.expectedEnum}`));
    }
  }
  if (!spec.open) {
    for (const key in p) {
      if (!isPayloadField(key, checks, spec.fields)) {
        if (spec.empty) {
          out.push(
            issue(
              'action.refresh-payload',
              `payload.${key}`,
              `${spec.name} takes an empty payload; "${key}" is ignored`,
            ),
          );
        } else {
          out.push(
            issue('payload.unknown-field', `payload.${key}`, `"${key}" is not a field of the ${spec.name} payload`),
          );
        }
      }
    }
  }
  // Cross-field and semantic rules.
  switch (spec.name) {
    case 'ready':
    case 'view':
      if (typeof p.surface === 'string' && SURFACE_SET.has(d.surface) && p.surface !== d.surface) {
        out.push(
          issue(
            'surface.payload-mismatch',
            'payload.surface',
            `payload surface "${p.surface}" differs from envelope surface "${d.surface}"`,
          ),
        );
      }
      break;
    case 'download':
      if ('widgetId' in p && p.widgetId !== undefined && p.target !== 'widget') {
        out.push(
          issue(
            'download.widget-id',
            'payload.widgetId',
            `widgetId is given but target is ${show(p.target)}; it belongs to widget exports`,
          ),
        );
      }
      if ('rowCount' in p && p.rowCount !== undefined && p.format !== 'csv' && p.format !== 'xlsx') {
        out.push(
          issue(
            'download.row-count',
            'payload.rowCount',
            `rowCount is given for a ${show(p.format)} export; it belongs to csv and xlsx`,
          ),
        );
      }
      break;
    case 'set-timezone':
      if (typeof p.timezone === 'string') {
        const m = checkTimezone(p.timezone);
        if (m) {
          out.push(issue(m.rule, 'payload.timezone', m.message));
        }
      }
      break;
    case 'set-filter':
      if (typeof p.filterUrlParameter === 'string') {
        const m = checkFilter(p.filterUrlParameter);
        if (m) {
          out.push(issue('action.filter', 'payload.filterUrlParameter', m));
        }
      }
      break;
    case 'set-locale':
      if (typeof p.locale === 'string') {
        const m = checkLocale(p.locale);
        if (m) {
          out.push(issue('action.locale', 'payload.locale', m));
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
