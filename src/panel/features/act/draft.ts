/**
 * The composer's draft: what the user is writing (form or raw JSON), the message it makes, and its live
 * validation with the protocol's own classifier, as the receiver would judge the post. Pure.
 */
import {
  ACTION_TYPES,
  EVENT_TYPES,
  specOf,
  SURFACES,
  type Surface,
  classify,
  type Issue,
  decode,
} from '../../log/protocol.ts';
import {
  envelope,
  formFields,
  formValuesFromPayload,
  mergeExtraFields,
  payloadFromForm,
  surfacesFor,
} from './composer.ts';

export type Side = 'action' | 'event';
export interface Draft {
  side: Side;
  mode: 'form' | 'raw';
  type: string;
  /** Form values by payload field (strings, as typed). */
  values: Record<string, string>;
  /** set-theme: further embedTheme fields, a JSON object. */
  extra: string;
  surface: Surface;
  /** Raw mode: the whole message as JSON text. */
  raw: string;
}

export function defaultDraft(side: Side, type = side === 'action' ? ACTION_TYPES[0] : EVENT_TYPES[0]): Draft {
  const surface = surfacesFor(type)[0];
  return { side, mode: 'form', type, values: initialValues(type, surface), extra: '', surface, raw: '' };
}

/** First values of a fresh form: the first option of required selects, the surface field = the envelope's. */
function initialValues(type: string, surface: Surface): Record<string, string> {
  const v: Record<string, string> = {};
  for (const f of formFields(type)) {
    if (f.name === 'surface' && f.options) {
      v[f.name] = surface;
    } else if (f.input === 'select' && f.required && f.options) {
      v[f.name] = f.options[0];
    }
  }
  return v;
}

/** Switch the type: keep the values of same-named fields. */
export function withType(d: Draft, type: string): Draft {
  const allowed = surfacesFor(type);
  const surface = allowed.includes(d.surface) ? d.surface : allowed[0];
  const fresh = initialValues(type, surface);
  const names = new Set(formFields(type).map((f) => f.name));
  const kept = Object.fromEntries(Object.entries(d.values).filter(([k, v]) => names.has(k) && v !== ''));
  return { ...d, type, surface, values: { ...fresh, ...kept }, extra: type === 'svc:action:set-theme' ? d.extra : '' };
}

/** Switch the envelope surface; a payload `surface` field that followed it follows again. */
export function withSurface(d: Draft, surface: Surface): Draft {
  const values = { ...d.values };
  if ('surface' in values && (values.surface === d.surface || values.surface === '')) {
    values.surface = surface;
  }
  return { ...d, surface, values };
}

export interface Built {
  /** The message, when it could be built. */
  data?: unknown;
  /** Why it could not be built (unparsable JSON, a number field that is not a number…). */
  errors: string[];
  fieldErrors: Record<string, string>;
}

/** The message a draft makes. `now` is the envelope timestamp (form mode). */
export function buildMessage(d: Draft, now = Date.now()): Built {
  if (d.mode === 'raw') {
    if (d.raw.trim() === '') {
      return { errors: ['the JSON is empty'], fieldErrors: {} };
    }
    try {
      return { data: JSON.parse(d.raw), errors: [], fieldErrors: {} };
    } catch (e) {
      return { errors: [`the JSON does not parse: ${(e as Error).message}`], fieldErrors: {} };
    }
  }
  const { payload, errors: fieldErrors } = payloadFromForm(d.type, d.values);
  let full = payload;
  if (d.type === 'svc:action:set-theme') {
    const m = mergeExtraFields(payload, d.extra);
    if (m.error) {
      fieldErrors.extra = m.error;
    } else {
      full = m.payload;
    }
  }
  const errors = Object.entries(fieldErrors).map(([k, v]) => `${k === 'extra' ? 'other theme fields' : k}: ${v}`);
  if (errors.length) {
    return { errors, fieldErrors };
  }
  return { data: envelope(d.type, full, { surface: d.surface, now }), errors: [], fieldErrors };
}

export interface SendContext {
  tenantOrigin: string | null;
  hostOrigin: string | null;
}

/**
 * The issues of a message as it would be posted: an action from the host origin to the tenant origin, an
 * event from the tenant origin to the host. The same classifier as the timeline's.
 */
export function validate(
  data: unknown,
  side: Side,
  ctx: SendContext,
): { verdict: 'valid' | 'invalid' | 'foreign'; issues: Issue[] } {
  const origin = side === 'action' ? ctx.hostOrigin : ctx.tenantOrigin;
  const targetOrigin = side === 'action' ? ctx.tenantOrigin : ctx.hostOrigin;
  return classify(
    { kind: 'post', origin: origin ?? undefined, targetOrigin: targetOrigin ?? undefined, data },
    { tenantOrigin: ctx.tenantOrigin },
  );
}

/** The raw JSON of what the form makes (for the switch to JSON mode). */
export function toRaw(d: Draft, now = Date.now()): string {
  const b = buildMessage({ ...d, mode: 'form' }, now);
  return b.data === undefined ? d.raw : JSON.stringify(b.data, null, 2);
}

/** Back from JSON to the form, when the form can hold the message; otherwise null (and why). */
export function fromRaw(d: Draft): { draft: Draft } | { reason: string } {
  let v: unknown;
  try {
    v = JSON.parse(d.raw);
  } catch (e) {
    return { reason: `the JSON does not parse: ${(e as Error).message}` };
  }
  const seeded = draftFromMessage(v, d.side);
  if (seeded.mode !== 'form') {
    return {
      reason:
        'the form cannot hold this message (unknown type, extra fields or values of another type): keep editing it as JSON',
    };
  }
  return { draft: { ...seeded, raw: d.raw } };
}

/** A draft from a message (a captured record's data, encoded or not): the form when it can hold it, else raw JSON. */
export function draftFromMessage(data: unknown, fallbackSide?: Side): Draft {
  const msg = decode(data) as Record<string, unknown> | null;
  const spec = msg && typeof msg === 'object' ? specOf(msg.type) : undefined;
  const side: Side =
    spec?.direction ??
    (msg && typeof msg === 'object' && msg.direction === 'event' ? 'event' : (fallbackSide ?? 'action'));
  const raw = safeStringify(data);
  const rawDraft = (): Draft => ({ ...defaultDraft(side), mode: 'raw', raw });
  if (!spec || !msg) {
    return rawDraft();
  }
  const surface = (SURFACES as readonly unknown[]).includes(msg.surface)
    ? (msg.surface as Surface)
    : surfacesFor(spec.type)[0];
  const { values, extra, representable } = formValuesFromPayload(spec.type, msg.payload ?? {});
  const extraKeys = Object.keys(extra);
  const envelopeOk =
    msg.source === 'svc-embed' &&
    msg.direction === spec.direction &&
    (spec.direction === 'event' ? msg.surface === surface : !('surface' in msg)) &&
    Object.keys(msg).every((k) => ['source', 'direction', 'type', 'payload', 'timestamp', 'surface'].includes(k));
  if (!representable || !envelopeOk || (extraKeys.length && !spec.open)) {
    return rawDraft();
  }
  return {
    side,
    mode: 'form',
    type: spec.type,
    values,
    extra: extraKeys.length ? JSON.stringify(extra, null, 2) : '',
    surface,
    raw,
  };
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? '';
  } catch {
    return '';
  }
}
