/**
 * The panel's one door to the protocol module (src/protocol: the catalog, the rule table, classification,
 * capture files): every panel file but the tests imports it from here (biome.jsonc enforces it), so the panel
 * follows the protocol without copying it and this file lists all it uses.
 */
import { ACTION_TYPES, EVENT_TYPES, SURFACES } from '../../protocol/catalog.ts';
import { RULES, type RuleSpec } from '../../protocol/rules.ts';

export const CATALOG_TYPES: readonly string[] = [...EVENT_TYPES, ...ACTION_TYPES];
export const CATALOG_SURFACES: readonly string[] = [...SURFACES];

/** The rule table entry (severity, summary, the spec sentence it enforces), when the rule id is known. */
export function ruleSpec(id: string): RuleSpec | undefined {
  return Object.hasOwn(RULES, id) ? RULES[id] : undefined;
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
  diagnosisSieve,
  integrationState,
  DEFAULT_READY_TIMEOUT_MS,
  type IntegrationState,
} from '../../protocol/diagnose.ts';
export { originOf } from '../../protocol/origin.ts';
export { namedParameter, shownUrl } from '../../protocol/address.ts';

// What else the panel uses of the protocol, by module (the panel imports src/protocol through this file only).
export { checkRecords, checkRestCalls, readCapture } from '../../protocol/capture.ts';
export {
  ACTION_TYPES,
  ACTIONS,
  EVENT_TYPES,
  EVENTS,
  type FieldSpec,
  specOf,
  type Surface,
  SURFACES,
} from '../../protocol/catalog.ts';
export { classify, type Issue } from '../../protocol/classify.ts';
export { decode } from '../../protocol/decode.ts';
export { RULES_DOC_PATH, ruleAnchor } from '../../protocol/docs.ts';
export { headline, renderDiffText } from '../../protocol/diff-text.ts';
export { type CaptureDiff, diffCaptures } from '../../protocol/diff.ts';
export { TAG, tagOf } from '../../protocol/encoding.ts';
export { headersOf, readAnyCapture, toHar } from '../../protocol/har.ts';
export { causalOrder } from '../../protocol/order.ts';
export { SOURCE } from '../../protocol/marker.ts';
export { countsAsMessage, countsAsMessageRead } from '../../protocol/pairs.ts';
export {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  type CaptureFile,
  type CaptureRecord,
  type RestCall,
} from '../../protocol/record.ts';
export { redactCapture, redactString } from '../../protocol/redact.ts';
export { checkRest, matchOperation, type RestExchange, type RestResult } from '../../protocol/rest.ts';
export { RULES } from '../../protocol/rules.ts';
export { literal } from '../../protocol/js-literal.ts';
export { generateTest } from '../../protocol/testgen.ts';
export {
  flowOfIndex,
  indexFlow,
  type FlowArrow,
  type FlowIndex,
  type FlowItem,
  type FlowLane,
  type FlowModel,
  flowOfItems,
  formatGap,
  redactFlow,
  formatOffset,
  sliceFlow,
} from '../../protocol/flow.ts';
export { flowToMermaid } from '../../protocol/flow-mermaid.ts';
export { flowToSvg } from '../../protocol/flow-svg.ts';
export { findSorted } from '../../protocol/sorted.ts';
