/**
 * The JSON Schema (2020-12) of svc-embed messages, generated from the catalog.
 * Written to schema/svc-embed.schema.json by `npm run schema`; a unit test fails when that file is stale.
 * It is the structural part of the protocol only: origin, session and semantic rules (time zones, filters,
 * locales) are beyond JSON Schema and live in the classifier.
 */
import { ACTIONS, ENVELOPE_FIELDS, EVENTS, SOURCE, SURFACES, type FieldSpec, type MessageSpec } from './catalog.ts';

type Schema = Record<string, unknown>;

function fieldSchema(f: FieldSpec): Schema {
  const s: Schema = { description: f.doc };
  if (f.kind === 'any') {
    return s;
  }
  const base = f.kind === 'object' ? 'object' : f.kind;
  s.type = f.nullable ? [base, 'null'] : base;
  if (f.enum) {
    s.enum = f.nullable ? [...f.enum, null] : [...f.enum];
  }
  return s;
}

function payloadSchema(m: MessageSpec): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(m.fields)) {
    properties[name] = fieldSchema(f);
    if (f.required) {
      required.push(name);
    }
  }
  const s: Schema = { type: 'object', properties };
  if (required.length) {
    s.required = required;
  }
  if (m.empty) {
    s.maxProperties = 0;
  }
  return s;
}

function messageSchema(m: MessageSpec): Schema {
  const isEvent = m.direction === 'event';
  const s: Schema = {
    title: m.type,
    description: m.summary,
    type: 'object',
    required: ['source', 'direction', 'type', 'payload', 'timestamp', ...(isEvent ? ['surface'] : [])],
    properties: {
      source: { const: SOURCE, description: ENVELOPE_FIELDS.source },
      direction: { const: m.direction, description: ENVELOPE_FIELDS.direction },
      type: { const: m.type, description: ENVELOPE_FIELDS.type },
      payload: payloadSchema(m),
      timestamp: { type: 'number', description: ENVELOPE_FIELDS.timestamp },
      ...(isEvent
        ? {
            surface:
              m.surfaces && m.surfaces.length < SURFACES.length
                ? { enum: [...m.surfaces], description: ENVELOPE_FIELDS.surface }
                : { $ref: '#/$defs/surface' },
          }
        : {}),
    },
  };
  if (!isEvent) {
    s.not = { required: ['surface'], description: 'Actions never carry a surface.' };
  }
  return s;
}

const defName = (m: MessageSpec) => `${m.direction}.${m.name}`;

export function toJsonSchema(): Schema {
  const all = [...EVENTS, ...ACTIONS] as readonly MessageSpec[];
  const $defs: Schema = { surface: { enum: [...SURFACES], description: 'Embedded surface.' } };
  for (const m of all) {
    $defs[defName(m)] = messageSchema(m);
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://embed-inspector.dev/schema/svc-embed.schema.json',
    title: 'svc-embed message',
    description:
      'An event (embed to host) or action (host to embed) of the svc-embed window-messaging protocol. Generated from src/protocol/catalog.ts; do not edit.',
    oneOf: all.map((m) => ({ $ref: `#/$defs/${defName(m)}` })),
    $defs,
  };
}
