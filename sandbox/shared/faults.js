// Fault modes of the sandbox, chosen with ?faults=a,b,c on the host page. Served to both origins.
// `side` says who misbehaves: the embed (tenant origin) or the host page. Each produces one specific violation.

/** @typedef {{name: string, side: 'embed' | 'host', what: string}} Fault */

/** @type {Fault[]} */
export const FAULTS = [
  { name: 'duplicate-ready', side: 'embed', what: 'svc:event:ready is posted twice' },
  { name: 'event-before-ready', side: 'embed', what: 'a svc:event:view is posted before svc:event:ready' },
  { name: 'missing-surface', side: 'embed', what: 'the first svc:event:view has no envelope surface' },
  { name: 'wrong-payload-types', side: 'embed', what: 'svc:event:ready carries deploymentId as a string ("1")' },
  {
    name: 'unknown-event',
    side: 'embed',
    what: 'an event of type svc:event:widget-hover (not in the catalog) is posted after ready',
  },
  {
    name: 'dashboard-event-from-chat',
    side: 'embed',
    what: 'the chat surface posts svc:event:drilldown (a dashboard-only event) after ready',
  },
  {
    name: 'third-origin',
    side: 'embed',
    what: 'a frame of the third origin, nested in the embed, posts a well-formed svc:event:view to the host',
  },
  { name: 'huge-payload', side: 'embed', what: 'a svc:event:view whose payload.title is a 5 MiB string, after ready' },
  {
    name: 'non-json-date',
    side: 'embed',
    what: 'svc:event:drilldown whose payload.value is a Date (dashboard surface)',
  },
  { name: 'non-json-map', side: 'embed', what: 'svc:event:drilldown whose payload.value is a Map (dashboard surface)' },
  {
    name: 'non-json-arraybuffer',
    side: 'embed',
    what: 'svc:event:drilldown whose payload.value is an ArrayBuffer (dashboard surface)',
  },
  {
    name: 'non-json-cyclic',
    side: 'embed',
    what: 'svc:event:drilldown whose payload.value is a cyclic object (dashboard surface)',
  },
  { name: 'non-json', side: 'embed', what: 'all four non-json-* faults, one event each' },
  {
    name: 'flood',
    side: 'embed',
    what: 'svc:event:view at flood=N per second (default 200) for floodSeconds=T seconds (default 3), after ready',
  },
  {
    name: 'action-star',
    side: 'host',
    what: 'the host posts its actions with target origin "*"; it sends one set-color-scheme dark after ready',
  },
  {
    name: 'action-wrong-origin',
    side: 'host',
    what: 'the host posts its actions to http://127.0.0.1:<tenant port> (not the tenant origin, so the browser drops them); it sends one set-color-scheme dark after ready',
  },
  {
    name: 'action-before-ready',
    side: 'host',
    what: 'the host posts set-color-scheme dark when the iframe loads, before ready (the embed ignores it)',
  },
  {
    name: 'never-ready',
    side: 'embed',
    what: 'the embed page and scripts load, but the embed never posts anything: no ready, no error (a stuck embed)',
  },
  {
    name: 'session-missing',
    side: 'host',
    what: 'the host builds the embed URL without the session parameter (the embed posts a fatal auth error, never ready)',
  },
  {
    name: 'bad-path',
    side: 'host',
    what: 'the host embeds /embed/dashbaord/<publicId> (a typo); the tenant answers 404 with a page that posts nothing',
  },
  {
    name: 'allow-export-yes',
    side: 'host',
    what: 'the host passes allowExport=yes instead of allowExport=true; the embed shows no CSV/XLSX export actions',
  },
  {
    name: 'timezone-offset',
    side: 'host',
    what: 'the host passes timezone=+02:00 (a bare offset); the embed ignores it and keeps the account default UTC',
  },
  {
    name: 'filter-not-json',
    side: 'host',
    what: 'the host passes f_orders.region=EMEA (not JSON); the embed ignores that filter',
  },
  {
    name: 'event-wrong-origin',
    side: 'embed',
    what: 'the embed posts every event to http://localhost:<host port> (not the host origin, so the browser drops them)',
  },
  {
    name: 'ai-query-stuck',
    side: 'embed',
    what: 'after dashboard-loaded (dashboard) or view (app, chat), one svc:event:ai-query submitted that never completes',
  },
  {
    name: 'no-dashboard-loaded',
    side: 'embed',
    what: 'one widget query of the dashboard never finishes, so svc:event:dashboard-loaded never comes',
  },
];

export const FAULT_NAMES = FAULTS.map((f) => f.name);

/** Splits a faults= value into known and unknown names. @param {string | null} value */
export function parseFaults(value) {
  const names = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    known: names.filter((n) => FAULT_NAMES.includes(n)),
    unknown: names.filter((n) => !FAULT_NAMES.includes(n)),
  };
}
