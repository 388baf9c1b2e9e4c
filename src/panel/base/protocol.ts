/**
 * What the panel needs of the protocol catalog and rule table (src/protocol, owned by the protocol module).
 * One import point, so the panel's filters and detail pane follow the catalog without copying it.
 */
import { ACTION_TYPES, EVENT_TYPES, SURFACES } from '../../protocol/catalog.ts';
import { RULES, type RuleSpec } from '../../protocol/rules.ts';

export const CATALOG_TYPES: readonly string[] = [...EVENT_TYPES, ...ACTION_TYPES];
export const CATALOG_SURFACES: readonly string[] = [...SURFACES];

/** The rule table entry (severity, summary, the spec sentence it enforces), when the rule id is known. */
export function ruleSpec(id: string): RuleSpec | undefined {
  return Object.prototype.hasOwnProperty.call(RULES, id) ? RULES[id] : undefined;
}

/** `svc:event:ready` → `ready`; other strings unchanged. */
export function shortType(type: string): string {
  if (type.startsWith('svc:event:')) {
    return type.slice(10);
  }
  if (type.startsWith('svc:action:')) {
    return type.slice(11);
  }
  return type;
}

export {
  diagnose,
  integrationState,
  DEFAULT_READY_TIMEOUT_MS,
  type IntegrationState,
} from '../../protocol/diagnose.ts';
export { originOf } from '../../protocol/origin.ts';
