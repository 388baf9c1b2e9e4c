/**
 * The rule set: stable ids, default severity, the spec sentence each rule enforces.
 * docs/rules.md is generated from this table (scripts/gen-docs.ts via `npm run schema`), and a unit test fails
 * when it is stale.
 */
import type { Severity } from './classify.ts';

export interface RuleSpec {
  readonly id: string;
  readonly severity: Severity;
  readonly group: 'envelope' | 'payload' | 'cross-field' | 'action' | 'origin' | 'session' | 'rest';
  /** One line: what the rule checks. */
  readonly summary: string;
  /** The spec sentence(s) it enforces, quoted. */
  readonly spec: string;
  /** How leniently it reads the spec, where the spec is silent. */
  readonly note?: string;
}

const r = (
  id: string,
  severity: Severity,
  group: RuleSpec['group'],
  summary: string,
  spec: string,
  note?: string,
): RuleSpec => ({ id, severity, group, summary, spec, ...(note ? { note } : {}) });

export const RULE_LIST: readonly RuleSpec[] = [
  // ---- envelope
  r(
    'envelope.direction',
    'error',
    'envelope',
    '`direction` is `event` or `action`.',
    '`direction`: `event` or `action`. `event` is embed to host; `action` is host to embed.',
  ),
  r(
    'envelope.type',
    'error',
    'envelope',
    '`type` is a string naming a catalogued event or action.',
    '`type`: Event or action name, e.g. `svc:event:<name>` or `svc:action:<name>`.',
    'The spec lists 8 events and 7 actions; any other type is reported. "Events not delivered through window messaging: not shown."',
  ),
  r(
    'envelope.type-direction',
    'error',
    'envelope',
    'The `type` prefix matches `direction` (`svc:event:` with `event`, `svc:action:` with `action`).',
    '`event` is embed to host; `action` is host to embed. Type: `svc:event:<name>` or `svc:action:<name>`.',
  ),
  r(
    'envelope.truncated',
    'info',
    'envelope',
    'A message over the size cap is kept truncated: its envelope fields are checked, its payload is not checked.',
    '`payload`: object. Shape depends on `type`.',
    'The capture keeps a message over the size cap (Limits) as its envelope fields, its size and a preview; the payload rules cannot be checked.',
  ),
  r('envelope.payload', 'error', 'envelope', '`payload` is an object.', '`payload`: object. Shape depends on `type`.'),
  r(
    'envelope.timestamp',
    'error',
    'envelope',
    '`timestamp` is a finite number.',
    '`timestamp`: number. Epoch milliseconds at creation.',
  ),
  r(
    'envelope.timestamp-epoch',
    'warning',
    'envelope',
    '`timestamp` looks like epoch milliseconds (between 2000 and 2100), not seconds or a `performance.now()` reading.',
    '`timestamp`: Epoch milliseconds at creation.',
    'The spec gives no range; a value outside 2000–2100 is a warning.',
  ),
  r(
    'envelope.surface-missing',
    'error',
    'envelope',
    'Every event carries `surface`.',
    '`surface`: Optional in the type; always present on events. "Every event carries the envelope `surface`."',
  ),
  r(
    'envelope.surface',
    'error',
    'envelope',
    '`surface` is `dashboard`, `app` or `chat`.',
    '`surface`: `dashboard`, `app` or `chat`.',
  ),
  r(
    'envelope.surface-on-action',
    'error',
    'envelope',
    'Actions carry no `surface`.',
    '`surface`: never sent on actions. "The envelope of an action has `direction` equal to `action` and no `surface`."',
  ),
  r(
    'envelope.unknown-field',
    'info',
    'envelope',
    'An envelope field the spec does not list.',
    'Message envelope (both directions): source, direction, type, payload, timestamp, surface.',
    'The spec does not say the envelope is closed: extra fields are reported as info only.',
  ),
  // ---- payload
  r(
    'payload.required',
    'error',
    'payload',
    'A required payload field is missing.',
    'The payload tables of the Event payloads and Action catalog sections.',
  ),
  r(
    'payload.type',
    'error',
    'payload',
    'A payload field has the wrong type.',
    'The payload tables of the Event payloads and Action catalog sections.',
  ),
  r(
    'payload.enum',
    'error',
    'payload',
    'A payload field is not one of its listed values.',
    'The payload tables of the Event payloads and Action catalog sections.',
  ),
  r(
    'payload.null',
    'warning',
    'payload',
    'An optional field that is not nullable is present with `null`.',
    '"`X or null` means the field may be present with a null value."',
    'Optional fields are typed without `or null`; a null there is a warning, since most hosts treat it as absent.',
  ),
  r(
    'payload.unknown-field',
    'info',
    'payload',
    'A payload field the spec does not list for this type.',
    'The payload tables of the Event payloads and Action catalog sections.',
    'The spec does not say payloads are closed: extra fields are info only (set-theme takes any embedTheme field silently).',
  ),
  // ---- cross-field
  r(
    'surface.payload-mismatch',
    'error',
    'cross-field',
    'The payload `surface` of `ready`/`view` equals the envelope `surface`.',
    '"Every event carries the envelope `surface`." `ready` and `view` payloads: `surface`: `dashboard`, `app` or `chat`.',
  ),
  r(
    'surface.not-allowed',
    'error',
    'cross-field',
    'The event comes only from the surfaces the event catalog allows (`dashboard-loaded`, `download`, `drilldown`: dashboard).',
    'Event catalog, column Surfaces: `svc:event:dashboard-loaded` dashboard; `svc:event:download` dashboard; `svc:event:drilldown` dashboard.',
  ),
  r(
    'download.widget-id',
    'warning',
    'cross-field',
    '`download.widgetId` only with `target: "widget"`.',
    '`widgetId`: string, optional (when `target` is `widget`).',
  ),
  r(
    'download.row-count',
    'warning',
    'cross-field',
    '`download.rowCount` only for `csv` and `xlsx`.',
    '`rowCount`: number, optional (for `csv` and `xlsx` exports).',
  ),
  // ---- action semantics
  r(
    'action.timezone',
    'error',
    'action',
    '`set-timezone` names an IANA time zone; a bare UTC offset is ignored by the embed.',
    '`{timezone}`: IANA time zone name; bare UTC offsets are ignored.',
    "A name the running engine does not know is a warning (engines' zone lists differ); an offset is an error.",
  ),
  r(
    'action.timezone-unknown',
    'warning',
    'action',
    '`set-timezone` names a zone the running engine knows.',
    '`{timezone}`: IANA time zone name.',
    'Zone lists differ between engines and versions: a warning.',
  ),
  r(
    'action.filter',
    'error',
    'action',
    '`set-filter.filterUrlParameter` has the form `f_<semantic_view>.<dimension>=<JSON>` and its JSON parses.',
    '`{filterUrlParameter}`: string in the form `f_<semantic_view>.<dimension>=<JSON>`',
  ),
  r(
    'action.locale',
    'error',
    'action',
    '`set-locale.locale` is a well-formed language tag.',
    '`{locale}`: string; a full code, a short code or a regional variant',
  ),
  r(
    'action.refresh-payload',
    'warning',
    'action',
    '`refresh` has an empty payload.',
    '`svc:action:refresh`: none (empty payload)',
  ),
  // ---- origin
  r(
    'origin.event',
    'error',
    'origin',
    'Events come from the tenant origin; a host following the spec ignores any other.',
    'Host-side receiving rules: 1. Ignore the message when `event.origin` differs from the tenant origin.',
  ),
  r(
    'origin.action-wildcard',
    'error',
    'origin',
    'Actions are never posted with target origin `*`.',
    'Actions … are sent to the iframe content window, with the target origin set to the tenant origin and never to a wildcard.',
  ),
  r(
    'origin.action-target',
    'error',
    'origin',
    'Actions are posted with the tenant origin as target origin; the browser drops a post whose target origin does not match the frame.',
    'Actions … are sent to the iframe content window, with the target origin set to the tenant origin.',
  ),
  r(
    'origin.dropped',
    'error',
    'origin',
    'The browser dropped this post: its target origin did not match the target frame.',
    'Actions … are sent to the iframe content window, with the target origin set to the tenant origin.',
  ),
  // ---- session
  r(
    'session.event-before-ready',
    'error',
    'session',
    '`ready` is the first event of a session.',
    '`svc:event:ready`: Emitted once per session; the first event received.',
  ),
  r(
    'session.failed-before-ready',
    'info',
    'session',
    'A fatal `error` before `ready`: the embed reports that it could not start (e.g. an expired session).',
    '`svc:event:error`: `fatal` true when the error took down the whole surface.',
    'Not an ordering fault the host can fix: the summary says the embed failed to start, with its message.',
  ),
  r(
    'session.ready-duplicate',
    'error',
    'session',
    '`ready` is emitted once per session.',
    '`svc:event:ready`: Emitted once per session; the first event received.',
    'A new session starts when the embed frame navigates (reloads).',
  ),
  r(
    'session.loaded-before-ready',
    'error',
    'session',
    '`dashboard-loaded` comes after `ready`.',
    '`svc:event:dashboard-loaded`: It fires after data loads, unlike `ready`, which fires at mount.',
  ),
  r(
    'session.action-before-ready',
    'warning',
    'session',
    'An action sent before the embed reported `ready` may be lost.',
    '`svc:event:ready`: The embed has authenticated and mounted.',
    'The spec does not say what the embed does with an earlier action: a warning.',
  ),
  r(
    'session.ai-query-unmatched',
    'warning',
    'session',
    'An `ai-query` `completed`/`error` follows a `submitted` of the same chat (same `chatId`, or the same query when there is no chat id).',
    '`svc:event:ai-query`: A natural-language query is submitted, completes or fails.',
    'Transitions of the AI-query status: not shown. Ordering the spec does not guarantee is a warning.',
  ),
  r(
    'session.previous-path',
    'warning',
    'session',
    '`navigate.previousPath` equals the last path seen (`view.path` or `navigate.path`).',
    '`svc:event:navigate`: `previousPath`: string, optional.',
    'The spec does not guarantee delivery order: a warning.',
  ),
  r(
    'session.timestamp-order',
    'warning',
    'session',
    'Envelope timestamps of one embed frame do not go backwards.',
    '`timestamp`: Epoch milliseconds at creation.',
    'Messages can arrive out of order across browsers: a warning.',
  ),
  // ---- REST operations seen in the Network traffic
  r(
    'rest.auth',
    'error',
    'rest',
    'The request carries `Authorization: Bearer <token>`.',
    'Every HTTP operation uses HTTP bearer authentication. The header is `Authorization: Bearer <ACCESS_TOKEN>`.',
  ),
  r(
    'rest.path-param',
    'error',
    'rest',
    'Path ids are numeric.',
    '`deploymentId` (number, required), `reportId` (number, required); `id` (numeric id of the notification).',
  ),
  r(
    'rest.request-json',
    'error',
    'rest',
    'The request body is JSON, sent as `application/json`.',
    'Bodies are JSON (`Content-Type: application/json`).',
  ),
  r(
    'rest.request-shape',
    'error',
    'rest',
    'The request body has the documented fields and types (MoveWorkspaceObjectInput, UpdateNotificationInput, the disconnect body).',
    'Request body tables of the Endpoints section.',
    'Required fields are only those the spec marks; "whether `type` is required: not shown" (move): optional.',
  ),
  r(
    'rest.request-unknown-field',
    'info',
    'rest',
    'A request field the spec does not list.',
    'Request body tables of the Endpoints section.',
    'Extra fields are info only. `operator` in a notification filter "is not among the input fields".',
  ),
  r(
    'rest.disconnect-address',
    'warning',
    'rest',
    'A disconnect addresses a placement: by `placementId`, by `externalWorkbookId`+`sheetName`+`anchorCell`, or by `resultLocation`; `sheetId` alone matches nothing.',
    'Rules 2–4: "In the legacy form neither the sheet name nor the anchor is optional." "`sheetId` is not a substitute for `sheetName`."',
    'Such a call still succeeds (rule 7) and changes nothing: a warning.',
  ),
  r(
    'rest.status',
    'error',
    'rest',
    'A status that contradicts the spec (404 from disconnect; any 5xx).',
    'Disconnect rule 7: "A target that matches no placement succeeds, changes nothing and returns 200."',
  ),
  r(
    'rest.status-undocumented',
    'info',
    'rest',
    'A status the spec does not document for the operation (e.g. 401/403).',
    'Gaps: "Status codes for a missing or invalid token and for insufficient privilege: not shown."',
  ),
  r(
    'rest.response-shape',
    'error',
    'rest',
    'A 200 response has the documented shape (Report, Workspace item, Notification).',
    'Resources and their fields; "Response 200: the Report object" etc.',
    '"Which fields of the workspace item are required: not shown": all optional; free-form objects are not looked into.',
  ),
  r(
    'rest.response-unknown-field',
    'info',
    'rest',
    'A response field the spec does not list.',
    'Resources and their fields.',
    'Servers may return more: info only.',
  ),
  r(
    'rest.result',
    'warning',
    'rest',
    'The response agrees with the request: the moved item has the destination `folderId`; get workbook returns that workbook; an updated notification has the values set, and `filters`/`timeGrains` replaced when given.',
    'Move: "Response 200: the moved item". Update notification: "Omitted fields are left unchanged"; filters/timeGrains "replaces the existing set when provided".',
  ),
];

export const RULES: Readonly<Record<string, RuleSpec>> = Object.fromEntries(RULE_LIST.map((rule) => [rule.id, rule]));
export type RuleId = (typeof RULE_LIST)[number]['id'];
