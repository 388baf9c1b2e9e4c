/**
 * The composer model: form fields for any catalogued action or event, built from the protocol catalog, and
 * the envelope they make. The panel renders it; validation is the classifier's. Pure.
 */
import { ACTIONS, EVENTS, SURFACES, specOf, type FieldSpec, type MessageSpec, type Surface } from '../protocol/catalog.ts';

export type InputKind = 'select' | 'text' | 'number' | 'boolean' | 'json' | 'timezone' | 'locale' | 'filter';
export interface FormField { name: string; label: string; input: InputKind; required: boolean; nullable: boolean; options?: readonly string[]; hint: string }

const SPECIAL: Record<string, InputKind> = {
  'svc:action:set-timezone.timezone': 'timezone',
  'svc:action:set-locale.locale': 'locale',
  'svc:action:set-filter.filterUrlParameter': 'filter',
};

function inputOf(type: string, name: string, f: FieldSpec): InputKind {
  const special = SPECIAL[`${type}.${name}`];
  if (special) return special;
  if (f.enum) return 'select';
  return f.kind === 'string' ? 'text' : f.kind === 'number' ? 'number' : f.kind === 'boolean' ? 'boolean' : 'json';
}

export function formFields(type: string): FormField[] {
  const spec = specOf(type);
  if (!spec) return [];
  return Object.entries(spec.fields).map(([name, f]) => ({
    name, label: name, input: inputOf(type, name, f), required: f.required, nullable: !!f.nullable,
    ...(f.enum ? { options: f.enum } : {}), hint: f.doc,
  }));
}

export const composable = { actions: ACTIONS as readonly MessageSpec[], events: EVENTS as readonly MessageSpec[] };

/** Surfaces an event may be simulated from (the catalog's), the first being the default. */
export function surfacesFor(type: string): readonly Surface[] {
  return specOf(type)?.surfaces ?? SURFACES;
}

/** The envelope for a type and payload; events get a surface, actions never do. */
export function envelope(type: string, payload: Record<string, unknown>, opts: { surface?: Surface; now?: number } = {}) {
  const spec = specOf(type);
  const direction = spec?.direction ?? (type.startsWith('svc:event:') ? 'event' : 'action');
  return {
    source: 'svc-embed', direction, type, payload, timestamp: opts.now ?? Date.now(),
    ...(direction === 'event' ? { surface: opts.surface ?? surfacesFor(type)[0] } : {}),
  };
}

/** IANA zone names for the time-zone field: the engine's own list when it has one. */
export function timeZoneSuggestions(): string[] {
  try {
    const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone');
    if (list?.length) return list.includes('UTC') ? list : ['UTC', ...list];
  } catch { /* older engine */ }
  return ['UTC', 'Europe/London', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Australia/Sydney'];
}

/** `f_<view>.<dimension>=<JSON>` from its parts. */
export function filterParameter(view: string, dimension: string, json: string): string {
  return `f_${view}.${dimension}=${json}`;
}

/** Parse a form's string values into a payload (numbers, booleans, JSON, empty optional fields dropped). */
export function payloadFromForm(type: string, values: Record<string, string>): { payload: Record<string, unknown>; errors: Record<string, string> } {
  const payload: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of formFields(type)) {
    const raw = values[f.name];
    if (raw === undefined || raw === '') continue;
    if (f.nullable && raw === 'null') { payload[f.name] = null; continue; }
    switch (f.input) {
      case 'number': { const n = Number(raw); if (raw.trim() === '' || !Number.isFinite(n)) errors[f.name] = 'not a number'; else payload[f.name] = n; break; }
      case 'boolean': payload[f.name] = raw === 'true'; break;
      case 'json': try { payload[f.name] = JSON.parse(raw); } catch { payload[f.name] = raw; } break;
      default: payload[f.name] = raw;
    }
  }
  return { payload, errors };
}
