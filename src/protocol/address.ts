/**
 * The embed's own address, checked against the spec's "Embedded-surface address shape":
 *
 *   {base_url}/embed/dashboard/<dashboard_public_id>?session=<session_id>   (a dashboard embed)
 *   /embed/d/<deployment_id>/app/workbook/<workbook_id>                    (an in-embed route)
 *   allowExport=true · timezone=<IANA name> · f_<semantic_view>.<dimension>=<JSON>
 *
 * Lenient where the spec shows nothing: an `/embed/` route of another shape (the standalone chat, the app's root)
 * is an info, not an error, unless its first segment is a misspelling of `dashboard`; parameters the spec does not
 * name are an info. The session's value never appears in an issue. Pure.
 */
import { issue, type Issue } from './classify.ts';
import { checkTimezone } from './semantics.ts';
import { normalizeOrigin } from './origin.ts';

const DASHBOARD = /^\/embed\/dashboard\/([^/]+)\/?$/;
const APP_ROUTE = /^\/embed\/d\/(\d+)\/app(?:\/workbook\/([^/]+))?\/?$/;
const APP_ANY = /^\/embed\/d\/\d+\/app\/.+/;
const FILTER_PARAM = /^f_[^.=]+\.[^=]+$/;
const KNOWN = new Set(['session', 'allowExport', 'timezone']);

/** Whether the spec names a parameter of the embed's address (`session`, `allowExport`, `timezone`, `f_…`). */
export const namedParameter = (k: string): boolean => KNOWN.has(k) || k.startsWith('f_');

/** Edit distance up to a small bound (misspellings of `dashboard`). */
function near(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) {
    return false;
  }
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] <= max;
}

/** What kind of embed an address is: a dashboard, an app route, another `/embed/` route, or not an embed. */
/**
 * What an `/embed/` path is: the spec's dashboard address or in-embed route; another route of the app
 * (`/embed/d/<id>/app/…`, a shape the spec does not show); a misspelling of either (`url.path`); or another
 * `/embed/` path (`other`: a video player's, a map's — not ours unless the frame is on the tenant origin).
 */
export type PathShape = 'dashboard' | 'app' | 'app-route' | 'misspelled' | 'other';

function shapeOf(path: string): PathShape | null {
  if (!/^\/embed(\/|$)/.test(path)) {
    return null;
  }
  if (DASHBOARD.test(path)) {
    return 'dashboard';
  }
  if (APP_ROUTE.test(path)) {
    return 'app';
  }
  if (APP_ANY.test(path)) {
    // Another route of the app (a folder, an in-app dashboard), unless it misspells `workbook`.
    const seg = path.split('/')[5] ?? '';
    return seg !== 'workbook' && near(seg.toLowerCase(), 'workbook', 2) ? 'misspelled' : 'app-route';
  }
  const first = path.split('/')[2] ?? '';
  if (first === 'd' || first === 'dashboard' || near(first.toLowerCase(), 'dashboard', 3)) {
    return 'misspelled';
  }
  return 'other';
}

const kindCache = new Map<string, PathShape | null>();
/**
 * The shape of an address's path, null when it is not an `/embed/` path (or not a URL). Cached by URL: the tenant
 * finder and the integration line ask for every record's frame, and a log's records come from a few frames.
 */
export function embedKind(url: string): PathShape | null {
  let k = kindCache.get(url);
  if (k !== undefined) {
    return k;
  }
  try {
    k = shapeOf(new URL(url).pathname);
  } catch {
    k = null;
  }
  if (kindCache.size > 2000) {
    kindCache.clear();
  }
  kindCache.set(url, k);
  return k;
}

/**
 * Whether an address is the platform's embed by its shape alone (dashboard, app route, or a misspelling of
 * one). A frame on the tenant origin with another `/embed/` path is one too; that needs the tenant origin.
 */
export function isEmbedAddress(url: string | null | undefined): boolean {
  const k = url ? embedKind(url) : null;
  return k !== null && k !== 'other';
}

/** A URL for an issue's text: the session value and other secrets left out. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const k of [...u.searchParams.keys()]) {
      if (/^(session|session_id|sessionId|token|access_token|id_token)$/i.test(k)) {
        u.searchParams.set(k, '…');
      }
    }
    u.username = '';
    u.password = '';
    return decodeURI(u.href);
  } catch {
    return url.replace(/([?&]session=)[^&#]*/gi, '$1…');
  }
}

/** The path's issues (a misspelled or unknown route) and, for a dashboard embed, its session's. */
function pathIssues(path: string, q: URLSearchParams, out: Issue[]): void {
  const dashboard = DASHBOARD.exec(path);
  const shape = shapeOf(path);
  if (shape === 'misspelled') {
    out.push(
      issue(
        'url.path',
        'url.path',
        path.split('/')[2] === 'd'
          ? `"${path}" is not an in-embed route: expected /embed/d/<deployment id>/app/workbook/<workbook id>`
          : `"${path}" is not a dashboard embed address: expected /embed/dashboard/<public id>`,
      ),
    );
  } else if (shape === 'app-route' || shape === 'other') {
    out.push(
      issue(
        'url.route-unknown',
        'url.path',
        `"${path}": the spec shows only /embed/dashboard/<public id> and /embed/d/<deployment id>/app/workbook/<workbook id>`,
      ),
    );
  }
  // Each finding is independent of the others: a misspelled dashboard path is still a dashboard embed, which needs
  // its session (a wrong path does not hide a missing session).
  const dashboardMeant = !!dashboard || (shape === 'misspelled' && path.split('/')[2] !== 'd');
  if (dashboardMeant && !q.get('session')) {
    out.push(
      issue(
        'url.session',
        'url.session',
        q.has('session')
          ? 'the session parameter is empty: a dashboard embed is loaded with ?session=<session id>'
          : 'no session parameter: a dashboard embed is loaded with ?session=<session id>',
      ),
    );
  }
}

/** The issues of `allowExport` and `timezone`. */
function optionIssues(q: URLSearchParams, out: Issue[]): void {
  const allow = q.getAll('allowExport');
  if (allow.length && allow.some((v) => v !== 'true')) {
    out.push(
      issue(
        'url.allow-export',
        'url.allowExport',
        `allowExport=${allow.find((v) => v !== 'true')} is not "true": the CSV download action will not show`,
      ),
    );
  }
  for (const tz of q.getAll('timezone')) {
    const bad = checkTimezone(tz);
    if (!bad) {
      continue;
    }
    if (/bare UTC offset/.test(bad.message)) {
      out.push(
        issue(
          'url.timezone-offset',
          'url.timezone',
          `timezone=${tz} is a bare UTC offset, which the embed ignores (as for set-timezone); use an IANA name`,
        ),
      );
    } else {
      out.push(issue('url.timezone', 'url.timezone', `timezone=${tz}: ${bad.message.replace(/^"[^"]*" /, '')}`));
    }
  }
}

/** The filter parameters' issues (`f_<view>.<dimension>`, a JSON value), then the parameters the spec does not name. */
function filterIssues(q: URLSearchParams, out: Issue[]): void {
  const unknown: string[] = [];
  for (const [k, v] of q) {
    if (k.startsWith('f_')) {
      if (!FILTER_PARAM.test(k)) {
        out.push(
          issue('url.filter', `url.${k}`, `${k}: a filter parameter has the form f_<semantic_view>.<dimension>`),
        );
        continue;
      }
      try {
        JSON.parse(v);
      } catch {
        out.push(
          issue(
            'url.filter',
            `url.${k}`,
            `${k}=${v.length > 60 ? `${v.slice(0, 60)}…` : v} is not JSON: the embed cannot read this filter (use ${k}=${JSON.stringify([v])})`,
          ),
        );
      }
    } else if (!KNOWN.has(k) && !unknown.includes(k)) {
      unknown.push(k);
    }
  }
  if (unknown.length) {
    out.push(
      issue(
        'url.param-unknown',
        'url.query',
        `parameter${unknown.length === 1 ? '' : 's'} the spec does not name: ${unknown.join(', ')}`,
      ),
    );
  }
}

/**
 * The issues of one embed frame's address (its URL as the navigation record has it). `tenantOrigin`: the frame's
 * origin must be it, when it is known.
 */
export function checkEmbedAddress(url: string, opts: { tenantOrigin?: string | null } = {}): Issue[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const path = u.pathname;
  if (!/^\/embed(\/|$)/.test(path)) {
    return [];
  }
  const out: Issue[] = [];
  const q = u.searchParams;
  pathIssues(path, q, out);
  optionIssues(q, out);
  filterIssues(q, out);
  if (opts.tenantOrigin) {
    const tenant = normalizeOrigin(opts.tenantOrigin);
    if (u.origin !== tenant) {
      out.push(
        issue(
          'url.origin',
          'url.origin',
          `the embed is loaded from ${u.origin}, not the tenant origin ${tenant}: a host that checks event.origin against ${tenant} ignores every event of it`,
        ),
      );
    }
  }
  return out;
}
