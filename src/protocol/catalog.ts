/**
 * The svc-embed protocol as data: the envelope, the 3 surfaces, the 8 events and the 7 actions, with every
 * payload field of the spec's tables. This one declaration drives the validator, the TypeScript types
 * (types.ts), the JSON Schema (schema.ts), the action composer and the docs.
 *
 * Spec: "Workspace, Reports, Notifications and Embed Messaging Interface", sections Events / Action catalog.
 */
export { SOURCE } from './marker.ts';
export const DIRECTIONS = ['event', 'action'] as const;
export const SURFACES = ['dashboard', 'app', 'chat'] as const;
export const EVENT_PREFIX = 'svc:event:';
export const ACTION_PREFIX = 'svc:action:';

export type Direction = (typeof DIRECTIONS)[number];
export type Surface = (typeof SURFACES)[number];

/** The type of one payload field. `any` accepts every value; `object` is a free-form object. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'object' | 'any';

export interface FieldSpec {
  readonly kind: FieldKind;
  readonly required: boolean;
  /** `X or null` in the spec. */
  readonly nullable?: boolean;
  readonly enum?: readonly string[];
  /** The spec's words for the field. */
  readonly doc: string;
}

export interface MessageSpec {
  readonly type: string;
  readonly direction: Direction;
  /** Short name, e.g. `ready`, `set-locale`. */
  readonly name: string;
  /** "Fires when" (events) or "Effect" (actions), from the spec. */
  readonly summary: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /**
   * Whether payload keys beyond `fields` are part of the shape. The spec lists the payloads as tables and
   * does not say whether they are closed; extra keys are reported as `info` only (see docs/rules.md).
   * `open` payloads (set-theme: "an embedTheme object … common fields …") take any further key silently.
   */
  readonly open?: boolean;
  /** Surfaces an event may come from (events only). */
  readonly surfaces?: readonly Surface[];
  /** The payload must be empty (refresh). */
  readonly empty?: boolean;
}

type Extra = { readonly nullable?: boolean; readonly enum?: readonly string[] };
// biome-ignore lint/complexity/noBannedTypes: `{}` is the empty set of extras, so the derived field type gains no key
function req<const K extends FieldKind, const X extends Extra = {}>(kind: K, doc: string, extra?: X) {
  return { kind, required: true as const, doc, ...(extra as X) };
}
// biome-ignore lint/complexity/noBannedTypes: as for req
function opt<const K extends FieldKind, const X extends Extra = {}>(kind: K, doc: string, extra?: X) {
  return { kind, required: false as const, doc, ...(extra as X) };
}
const surfaceField = req('string', '`dashboard`, `app` or `chat`', { enum: SURFACES });

export const EVENTS = [
  {
    type: 'svc:event:ready',
    direction: 'event',
    name: 'ready',
    surfaces: SURFACES,
    summary: 'The embed has authenticated and mounted. Emitted once per session; the first event received.',
    fields: {
      embedTenant: req('string', 'the embed tenant the iframe resolved to, when known', { nullable: true }),
      deploymentId: req('number', 'the bound deployment, when known', { nullable: true }),
      mode: req('string', '`signed` or `private`', { enum: ['signed', 'private'] }),
      surface: surfaceField,
      publicId: opt('string', 'dashboard public id, dashboard surface'),
    },
  },
  {
    type: 'svc:event:view',
    direction: 'event',
    name: 'view',
    surfaces: SURFACES,
    summary: 'A surface is viewed: on load and on each in-embed navigation',
    fields: {
      surface: surfaceField,
      path: req('string', 'in-embed route path viewed'),
      publicId: opt('string', 'public id'),
      title: opt('string', 'title'),
    },
  },
  {
    type: 'svc:event:navigate',
    direction: 'event',
    name: 'navigate',
    surfaces: SURFACES,
    summary: 'The viewer navigates within the embed (route change)',
    fields: {
      path: req('string', 'new path'),
      previousPath: opt('string', 'previous path'),
    },
  },
  {
    type: 'svc:event:dashboard-loaded',
    direction: 'event',
    name: 'dashboard-loaded',
    surfaces: ['dashboard'],
    summary:
      'All widgets of a dashboard have rendered. It fires after data loads, unlike `ready`, which fires at mount.',
    fields: {
      publicId: opt('string', 'dashboard public id'),
      widgetCount: opt('number', 'number of widgets'),
      loadDurationMs: opt('number', 'milliseconds from mount to all widgets loaded, when measurable'),
    },
  },
  {
    type: 'svc:event:download',
    direction: 'event',
    name: 'download',
    surfaces: ['dashboard'],
    summary:
      'The viewer exports data or an image. It reports that an export happened and its shape, never the exported rows.',
    fields: {
      format: req('string', '`csv`, `xlsx`, `png` or `pdf`', { enum: ['csv', 'xlsx', 'png', 'pdf'] }),
      target: req('string', '`widget` or `dashboard`', { enum: ['widget', 'dashboard'] }),
      widgetId: opt('string', 'when `target` is `widget`'),
      title: opt('string', 'title'),
      rowCount: opt('number', 'for `csv` and `xlsx` exports'),
    },
  },
  {
    type: 'svc:event:drilldown',
    direction: 'event',
    name: 'drilldown',
    surfaces: ['dashboard'],
    summary: 'The viewer drills into a measure (chart mark or table cell to detail rows)',
    fields: {
      member: req('string', 'fully-qualified measure drilled into'),
      value: opt('any', 'clicked value, when the click carried one'),
      widgetId: opt('string', 'widget id'),
    },
  },
  {
    type: 'svc:event:ai-query',
    direction: 'event',
    name: 'ai-query',
    surfaces: SURFACES,
    summary: 'A natural-language query is submitted, completes or fails.',
    fields: {
      query: req('string', 'the natural-language query submitted'),
      status: req('string', '`submitted`, `completed` or `error`', { enum: ['submitted', 'completed', 'error'] }),
      chatId: opt('string', 'chat id'),
      agentId: opt('string', 'agent id'),
    },
  },
  {
    type: 'svc:event:error',
    direction: 'event',
    name: 'error',
    surfaces: SURFACES,
    summary: 'The embed surfaces an error (render error, query failure, auth or session problem)',
    fields: {
      message: req('string', 'error message'),
      name: opt('string', 'error class name'),
      context: opt('string', 'origin of the error'),
      fatal: opt('boolean', '`true` when the error took down the whole surface'),
    },
  },
] as const satisfies readonly MessageSpec[];

export const ACTIONS = [
  {
    type: 'svc:action:set-color-scheme',
    direction: 'action',
    name: 'set-color-scheme',
    summary: "Switch color scheme; `auto` follows the viewer's OS preference",
    fields: { scheme: req('string', '`light`, `dark` or `auto`', { enum: ['light', 'dark', 'auto'] }) },
  },
  {
    type: 'svc:action:set-theme',
    direction: 'action',
    name: 'set-theme',
    open: true,
    summary:
      'Apply a brand theme at runtime (an embedTheme object, the same shape the session-generation operation accepts)',
    // The spec names the common fields and their object (embedTheme, as the session-generation operation takes
    // it) but not their value forms: any value is accepted.
    fields: {
      primaryColor: opt('any', 'the primary (brand) colour; a common embedTheme field, as session generation takes it'),
      borderRadius: opt('any', 'the corner radius; a common embedTheme field, as session generation takes it'),
      font: opt('any', 'the font; a common embedTheme field, as session generation takes it'),
    },
  },
  {
    type: 'svc:action:set-locale',
    direction: 'action',
    name: 'set-locale',
    summary: 'Switch the UI language',
    fields: { locale: req('string', 'a full code, a short code or a regional variant') },
  },
  {
    type: 'svc:action:set-timezone',
    direction: 'action',
    name: 'set-timezone',
    summary:
      "Switch the time zone of the embed's queries; takes precedence over the `timezone` URL parameter and the account default",
    fields: { timezone: req('string', 'IANA time zone name; bare UTC offsets are ignored') },
  },
  {
    type: 'svc:action:set-filter',
    direction: 'action',
    name: 'set-filter',
    summary: 'Push a filter into a dashboard',
    fields: { filterUrlParameter: req('string', 'string in the form `f_<semantic_view>.<dimension>=<JSON>`') },
  },
  {
    type: 'svc:action:navigate',
    direction: 'action',
    name: 'navigate',
    summary: 'Navigate the embed to an in-embed path',
    fields: { path: req('string', 'in-embed path') },
  },
  {
    type: 'svc:action:refresh',
    direction: 'action',
    name: 'refresh',
    empty: true,
    summary: "Re-run the embed's queries and refresh data",
    fields: {},
  },
] as const satisfies readonly MessageSpec[];

export type EventType = (typeof EVENTS)[number]['type'];
export type ActionType = (typeof ACTIONS)[number]['type'];
export type MessageType = EventType | ActionType;

export const EVENT_TYPES: readonly EventType[] = EVENTS.map((e) => e.type);
export const ACTION_TYPES: readonly ActionType[] = ACTIONS.map((a) => a.type);

const byType = new Map<string, MessageSpec>([...EVENTS, ...ACTIONS].map((m) => [m.type, m as MessageSpec]));
/** The catalog entry of a message type, or undefined for an unknown type. */
export function specOf(type: unknown): MessageSpec | undefined {
  return typeof type === 'string' ? byType.get(type) : undefined;
}

/** Envelope fields, for docs, schema and the unknown-field rule. */
export const ENVELOPE_FIELDS = {
  source: 'Always `svc-embed`. Receivers check it first.',
  direction: '`event` is embed to host; `action` is host to embed.',
  type: 'Event or action name, e.g. `svc:event:<name>` or `svc:action:<name>`.',
  payload: 'Shape depends on `type`.',
  timestamp: 'Epoch milliseconds at creation.',
  surface: 'Optional in the type; always present on events; never sent on actions.',
} as const;
