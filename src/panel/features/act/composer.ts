/**
 * The composer model: form fields for any catalogued action or event, built from the protocol catalog, and
 * the envelope they make. The panel renders it; validation is the classifier's. Pure.
 */
import { SURFACES, specOf, type FieldSpec, type Surface } from '../../log/protocol.ts';

type InputKind = 'select' | 'text' | 'number' | 'boolean' | 'json' | 'timezone' | 'locale' | 'filter';
export interface FormField {
  name: string;
  label: string;
  input: InputKind;
  required: boolean;
  nullable: boolean;
  options?: readonly string[];
  hint: string;
}

const SPECIAL: Record<string, InputKind> = {
  'svc:action:set-timezone.timezone': 'timezone',
  'svc:action:set-locale.locale': 'locale',
  'svc:action:set-filter.filterUrlParameter': 'filter',
};

function inputOf(type: string, name: string, f: FieldSpec): InputKind {
  const special = SPECIAL[`${type}.${name}`];
  if (special) {
    return special;
  }
  if (f.enum) {
    return 'select';
  }
  return f.kind === 'string' ? 'text' : f.kind === 'number' ? 'number' : f.kind === 'boolean' ? 'boolean' : 'json';
}

export function formFields(type: string): FormField[] {
  const spec = specOf(type);
  if (!spec) {
    return [];
  }
  return Object.entries(spec.fields).map(([name, f]) => ({
    name,
    label: name,
    input: inputOf(type, name, f),
    required: f.required,
    nullable: !!f.nullable,
    ...(f.enum ? { options: f.enum } : {}),
    hint: f.doc,
  }));
}

/** Surfaces an event may be simulated from (the catalog's), the first being the default. */
export function surfacesFor(type: string): readonly Surface[] {
  return specOf(type)?.surfaces ?? SURFACES;
}

/** The envelope for a type and payload; events get a surface, actions never do. */
export function envelope(
  type: string,
  payload: Record<string, unknown>,
  opts: { surface?: Surface; now?: number } = {},
) {
  const spec = specOf(type);
  const direction = spec?.direction ?? (type.startsWith('svc:event:') ? 'event' : 'action');
  return {
    source: 'svc-embed',
    direction,
    type,
    payload,
    timestamp: opts.now ?? Date.now(),
    ...(direction === 'event' ? { surface: opts.surface ?? surfacesFor(type)[0] } : {}),
  };
}

/** IANA zone names for the time-zone field: the engine's own list when it has one. */
export function timeZoneSuggestions(): string[] {
  try {
    const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone');
    if (list?.length) {
      return list.includes('UTC') ? list : ['UTC', ...list];
    }
  } catch {
    /* older engine */
  }
  return [
    'UTC',
    'Europe/London',
    'Europe/Berlin',
    'America/New_York',
    'America/Los_Angeles',
    'Asia/Tokyo',
    'Australia/Sydney',
  ];
}

/** `f_<view>.<dimension>=<JSON>` from its parts. */
export function filterParameter(view: string, dimension: string, json: string): string {
  return `f_${view}.${dimension}=${json}`;
}

/** Parse a form's string values into a payload (numbers, booleans, JSON, empty optional fields dropped). */
export function payloadFromForm(
  type: string,
  values: Record<string, string>,
): { payload: Record<string, unknown>; errors: Record<string, string> } {
  const payload: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of formFields(type)) {
    const raw = values[f.name];
    if (raw === undefined || raw === '') {
      continue;
    }
    if (f.nullable && raw === 'null') {
      payload[f.name] = null;
      continue;
    }
    switch (f.input) {
      case 'number': {
        const n = Number(raw);
        if (raw.trim() === '' || !Number.isFinite(n)) {
          errors[f.name] = 'not a number';
        } else {
          payload[f.name] = n;
        }
        break;
      }
      case 'boolean':
        payload[f.name] = raw === 'true';
        break;
      case 'json':
        try {
          payload[f.name] = JSON.parse(raw);
        } catch {
          payload[f.name] = raw;
        }
        break;
      default:
        payload[f.name] = raw;
    }
  }
  return { payload, errors };
}

const FILTER_PARAM = /^f_([^.=\s]+)\.([^=\s]+)=([\s\S]*)$/;
/** `f_<view>.<dimension>=<JSON>` split into its parts (the JSON URL-decoded when it was encoded); null when not of that form. */
export function parseFilterParameter(s: string): { view: string; dimension: string; json: string } | null {
  const m = FILTER_PARAM.exec(s);
  if (!m) {
    return null;
  }
  let json = m[3];
  if (/%[0-9A-Fa-f]{2}/.test(json)) {
    try {
      JSON.parse(json);
    } catch {
      try {
        json = decodeURIComponent(json);
      } catch {
        /* keep */
      }
    }
  }
  return { view: m[1], dimension: m[2], json };
}

/** Why a JSON text does not parse (the engine's message), or null when it parses. */
export function jsonError(text: string): string | null {
  if (text.trim() === '') {
    return 'empty: a JSON value is needed (e.g. "EMEA", ["EMEA","APAC"], null)';
  }
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Language tags for the locale field: the browser's own preferences first, then common ones. */
export function localeSuggestions(preferred: readonly string[] = []): string[] {
  const common = [
    'en',
    'en-US',
    'en-GB',
    'de',
    'de-DE',
    'de-CH',
    'fr',
    'fr-FR',
    'fr-CA',
    'es',
    'es-ES',
    'es-MX',
    'it-IT',
    'pt-BR',
    'nl-NL',
    'sv-SE',
    'pl-PL',
    'ja',
    'ja-JP',
    'ko-KR',
    'zh-CN',
    'zh-Hant-TW',
    'ar-EG',
    'he-IL',
    'hi-IN',
    'tr-TR',
    'ru-RU',
  ];
  return [...new Set([...preferred, ...common])];
}

/**
 * The inverse of `payloadFromForm`: form strings for a payload, plus the keys the form cannot hold
 * (`extra`: keys outside the catalog fields). `representable` is false when a value would not come back
 * the same through the form (then edit it as JSON).
 */
export function formValuesFromPayload(
  type: string,
  payload: unknown,
): { values: Record<string, string>; extra: Record<string, unknown>; representable: boolean } {
  const values: Record<string, string> = {};
  const extra: Record<string, unknown> = {};
  let representable = true;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { values, extra, representable: payload === undefined };
  }
  const fields = new Map(formFields(type).map((f) => [f.name, f]));
  for (const [k, v] of Object.entries(payload as Record<string, unknown>)) {
    const f = fields.get(k);
    if (!f) {
      extra[k] = v;
      continue;
    }
    if (v === null) {
      values[k] = 'null';
      if (!f.nullable && f.input !== 'json') {
        representable = false;
      }
      continue;
    }
    switch (f.input) {
      case 'number':
        if (typeof v === 'number' && Number.isFinite(v)) {
          values[k] = String(v);
        } else {
          representable = false;
        }
        break;
      case 'boolean':
        if (typeof v === 'boolean') {
          values[k] = String(v);
        } else {
          representable = false;
        }
        break;
      case 'json': {
        // A string that would parse as another JSON value is written as JSON text, so that it comes back a string.
        if (typeof v === 'string') {
          let other = false;
          try {
            JSON.parse(v);
            other = true;
          } catch {
            /* a plain string */
          }
          values[k] = other ? JSON.stringify(v) : v;
        } else {
          const t = JSON.stringify(v);
          if (t === undefined) {
            representable = false;
          } else {
            values[k] = t;
          }
        }
        break;
      }
      default:
        if (typeof v === 'string' && v !== '' && !(f.nullable && v === 'null')) {
          values[k] = v;
        } else {
          representable = false;
        }
        if (f.options && typeof v === 'string' && !f.options.includes(v)) {
          representable = false;
        }
    }
  }
  return { values, extra, representable };
}

/** set-theme: the form's payload plus the further embedTheme fields given as a JSON object. */
export function mergeExtraFields(
  payload: Record<string, unknown>,
  extraJson: string,
): { payload: Record<string, unknown>; error: string | null } {
  if (extraJson.trim() === '') {
    return { payload, error: null };
  }
  let extra: unknown;
  try {
    extra = JSON.parse(extraJson);
  } catch (e) {
    return { payload, error: `not JSON: ${(e as Error).message}` };
  }
  if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) {
    return { payload, error: 'must be a JSON object, e.g. {"fontSize": 13}' };
  }
  return { payload: { ...(extra as Record<string, unknown>), ...payload }, error: null };
}

/**
 * What the form says of a message the rules accept but that does nothing: a set-theme with an empty theme (`{}`:
 * no embedTheme field, so nothing to apply).
 */
export function draftNotes(data: unknown): string[] {
  const d = data as { type?: unknown; payload?: unknown } | null;
  if (!d || typeof d !== 'object' || d.type !== 'svc:action:set-theme') {
    return [];
  }
  const p = d.payload;
  if (p && typeof p === 'object' && !Array.isArray(p) && Object.keys(p).length === 0) {
    const fields = Object.keys(specOf('svc:action:set-theme')?.fields ?? {}).join(', ');
    return [`An empty theme ({}): nothing to apply. Set at least one embedTheme field (${fields}).`];
  }
  return [];
}
