/**
 * embed-inspector as a library: the svc-embed protocol catalog, the classifier, the session checker and the
 * capture format, for host developers' own tests. Pure: runs in Node, a page or a worker.
 */
export * from './catalog.ts';
export type * from './types.ts';
export * from './record.ts';
export * from './encoding.ts';
export * from './decode.ts';
export * from './base64.ts';
export * from './classify.ts';
export * from './session.ts';
export * from './capture.ts';
export { redactCapture, redactRecord, redactRestCall, redactString, redactValue, REDACTED } from './redact.ts';
export { causalOrder, type Orderable } from './order.ts';
export * from './pairs.ts';
export * from './rules.ts';
export { normalizeOrigin, originOf, isEmbedUrl } from './origin.ts';
export { checkTimezone, checkFilter, checkLocale } from './semantics.ts';
export { checkEmbedAddress, embedKind } from './address.ts';
export {
  diagnose,
  isDiagnosisIssue,
  hostOriginOf,
  integrationState,
  DEFAULT_READY_TIMEOUT_MS,
  type Diagnosis,
  type EmbedFrame,
  type IntegrationState,
} from './diagnose.ts';
export { toJsonSchema } from './schema.ts';
export { rulesMarkdown } from './docs.ts';
export { checkRest, matchOperation, REST_OPERATIONS, type RestExchange, type RestResult } from './rest.ts';
export * from './diff.ts';
export { toHar, fromHar, readAnyCapture, isHar, type Har, type HarEntry, type ToHarOptions } from './har.ts';
export {
  generateTest,
  planTest,
  stablePayload,
  looksGenerated,
  testFileName,
  TestgenError,
  DEFAULT_MAX_GAP_MS,
  type GeneratedTest,
  type TestFramework,
  type TestgenOptions,
  type TestPlan,
  type PlannedAction,
  type PayloadCheck,
  type RedactedParam,
} from './testgen.ts';
