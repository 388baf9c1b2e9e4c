/**
 * A synthetic, deterministic svc-embed session (host page + dashboard embed), classified by hand with the
 * rule ids of the protocol's rule table. Used by unit tests, the `?fixture=demo` page, the benchmark
 * (100,000 records) and the screenshots when no live page is available.
 */
import type { ClassifiedRecord } from '../../shared/messages.ts';
import type { Issue } from '../log/protocol.ts';

export const HOST = 'https://host.example.com';
export const TENANT = 'https://acme.svc-embed.example';
export const HOST_URL = `${HOST}/analytics`;
const EMBED_URL = `${TENANT}/embed/dashboard/dAsHbOaRd123?session=demo-session`;
export const XSS_TITLE = '<img src=x onerror="window.__xss=1">';
const XSS_PATH = 'javascript:window.__xss=2';

type Env = Record<string, unknown>;
interface Builder {
  seq: number;
  time: number;
  out: ClassifiedRecord[];
}

const ev = (type: string, payload: Env, time: number, extra: Env = {}): Env => ({
  source: 'svc-embed',
  direction: 'event',
  type: `svc:event:${type}`,
  payload,
  timestamp: time,
  surface: 'dashboard',
  ...extra,
});
const act = (type: string, payload: Env, time: number): Env => ({
  source: 'svc-embed',
  direction: 'action',
  type: `svc:action:${type}`,
  payload,
  timestamp: time,
});

/** An event posted by the embed to the host, and its delivery in the host frame. */
function event(b: Builder, data: Env, issues: Issue[] = [], opts: { foreignOrigin?: string } = {}) {
  const verdict = issues.some((i) => i.severity === 'error') ? 'invalid' : 'valid';
  const post = b.seq++,
    recv = b.seq++;
  const origin = opts.foreignOrigin ?? TENANT;
  b.out.push({
    seq: post,
    time: b.time,
    kind: 'post',
    frameUrl: EMBED_URL,
    origin,
    targetOrigin: HOST,
    target: 'parent',
    targetUrl: HOST_URL,
    data,
    pairedWith: recv,
    frameId: 7,
    verdict,
    issues,
  });
  b.out.push({
    seq: recv,
    time: b.time + 1,
    kind: 'receive',
    frameUrl: HOST_URL,
    origin,
    data,
    pairedWith: post,
    frameId: 0,
    verdict,
    issues,
  });
  b.time += 2;
}
/** An action posted by the host to the embed, and (unless dropped) its delivery. */
function action(b: Builder, data: Env, issues: Issue[] = [], targetOrigin = TENANT) {
  const verdict = issues.some((i) => i.severity === 'error') ? 'invalid' : 'valid';
  const dropped = targetOrigin !== TENANT && targetOrigin !== '*';
  const post = b.seq++;
  const rec: ClassifiedRecord = {
    seq: post,
    time: b.time,
    kind: 'post',
    frameUrl: HOST_URL,
    origin: HOST,
    targetOrigin,
    target: 'child',
    targetUrl: EMBED_URL,
    data,
    frameId: 0,
    verdict,
    issues,
  };
  b.out.push(rec);
  if (dropped) {
    rec.dropped = true;
    b.time += 1;
    return;
  }
  const recv = b.seq++;
  rec.pairedWith = recv;
  b.out.push({
    seq: recv,
    time: b.time + 1,
    kind: 'receive',
    frameUrl: EMBED_URL,
    origin: HOST,
    data,
    pairedWith: post,
    frameId: 7,
    verdict,
    issues,
  });
  b.time += 2;
}
function foreign(b: Builder, data: unknown, origin = HOST) {
  b.out.push({
    seq: b.seq++,
    time: b.time,
    kind: 'receive',
    frameUrl: HOST_URL,
    origin,
    data,
    frameId: 0,
    verdict: 'foreign',
    issues: [],
  });
  b.time += 1;
}
const issue = (rule: string, severity: Issue['severity'], path: string, message: string): Issue => ({
  rule,
  severity,
  path,
  message,
});

/** The opening of a session: navigation, ready, view, dashboard-loaded, a few actions and events, faults. */
function opening(b: Builder) {
  b.out.push({
    seq: b.seq++,
    time: b.time,
    kind: 'receive',
    frameUrl: EMBED_URL,
    origin: TENANT,
    data: { url: EMBED_URL },
    navigation: true,
    frameId: 7,
    verdict: 'foreign',
    issues: [],
  });
  b.time += 412;
  event(
    b,
    ev(
      'ready',
      { embedTenant: 'acme', deploymentId: 42, mode: 'signed', surface: 'dashboard', publicId: 'dAsHbOaRd123' },
      b.time,
    ),
  );
  b.time += 20;
  event(
    b,
    ev(
      'view',
      { surface: 'dashboard', path: '/embed/d/42/app/workbook/7', publicId: 'dAsHbOaRd123', title: 'Revenue overview' },
      b.time,
    ),
  );
  foreign(b, { source: 'react-devtools-content-script', hello: true });
  b.time += 35;
  action(b, act('set-color-scheme', { scheme: 'dark' }, b.time));
  b.time += 1_180;
  event(b, ev('dashboard-loaded', { publicId: 'dAsHbOaRd123', widgetCount: 9, loadDurationMs: 1_634 }, b.time));
  faults(b);
  oddValues(b);
}

/** Actions the rules fault: a bare offset, a post to "*", a dropped post. */
function faults(b: Builder) {
  b.time += 300;
  action(b, act('set-timezone', { timezone: '+02:00' }, b.time), [
    issue(
      'action.timezone',
      'error',
      '$.payload.timezone',
      '"+02:00" is a bare UTC offset, not an IANA time zone name; the embed ignores it',
    ),
  ]);
  b.time += 40;
  action(
    b,
    act('set-locale', { locale: 'de-DE' }, b.time),
    [issue('origin.action-wildcard', 'error', 'targetOrigin', 'the action was posted with target origin "*"')],
    '*',
  );
  b.time += 40;
  action(
    b,
    act('refresh', {}, b.time),
    [
      issue(
        'origin.dropped',
        'error',
        'targetOrigin',
        'the browser dropped this post: target origin https://wrong.example does not match the embed frame',
      ),
    ],
    'https://wrong.example',
  );
}

/** Values that test the panel's escaping and the decoder (markup in strings, dates, maps, a cycle), warnings. */
function oddValues(b: Builder) {
  b.time += 600;
  event(b, ev('view', { surface: 'dashboard', path: XSS_PATH, title: XSS_TITLE }, b.time));
  b.time += 250;
  const cyc: Env = { a: { $ei: 'Ref', path: '$' } };
  event(
    b,
    ev(
      'drilldown',
      {
        member: 'orders.revenue',
        value: {
          when: { $ei: 'Date', v: '2026-01-01T09:30:00.000Z' },
          tags: {
            $ei: 'Map',
            v: [
              ['region', 'EMEA'],
              ['tier', 2],
            ],
          },
          big: { $ei: 'BigInt', v: '9007199254740993' },
          nothing: { $ei: 'undefined' },
          ratio: { $ei: 'Number', v: 'NaN' },
          self: cyc,
          set: { $ei: 'Set', v: [1, 2, 3] },
        },
        widgetId: 'w-3',
      },
      b.time,
    ),
  );
  b.time += 500;
  event(b, ev('download', { format: 'png', target: 'dashboard', rowCount: 120 }, b.time), [
    issue(
      'download.row-count',
      'warning',
      '$.payload.rowCount',
      '`rowCount` is given for a png export; the spec gives it for csv and xlsx only',
    ),
  ]);
  b.time += 700;
  event(
    b,
    ev('ai-query', { query: 'revenue by region last quarter', status: 'submitted', chatId: 'c-1' }, b.time, {
      surface: 'dashboard',
    }),
  );
  b.time += 900;
  event(
    b,
    {
      source: 'svc-embed',
      direction: 'event',
      type: 'svc:event:error',
      payload: { message: 'Query failed: timeout', fatal: false },
      timestamp: b.time,
    },
    [issue('envelope.surface-missing', 'error', '$.surface', 'the event has no `surface`; every event carries it')],
  );
  foreign(b, { type: 'wappalyzer', payload: { technologies: ['React'] } });
}

/** A repeating middle: an action and the events that follow it, with some noise. */
function cycle(b: Builder, k: number) {
  b.time += 200 + ((k * 37) % 400);
  const paths = ['/embed/d/42/app/workbook/7', '/embed/d/42/app/workbook/8', '/embed/d/42/app/folder/3'];
  const path = paths[k % paths.length];
  action(b, act('navigate', { path }, b.time));
  b.time += 30;
  event(b, ev('navigate', { path, previousPath: paths[(k + 2) % paths.length] }, b.time));
  b.time += 15;
  event(b, ev('view', { surface: 'dashboard', path, title: `Workbook ${k}` }, b.time));
  if (k % 3 === 0) {
    b.time += 50;
    action(
      b,
      act('set-filter', { filterUrlParameter: `f_orders.region=${JSON.stringify(['EMEA', `R${k}`])}` }, b.time),
    );
  }
  if (k % 5 === 0) {
    b.time += 80;
    event(
      b,
      ev(
        'ai-query',
        { query: `top customers #${k}`, status: k % 10 === 0 ? 'error' : 'completed', chatId: 'c-1' },
        b.time,
      ),
    );
  }
  if (k % 7 === 0) {
    foreign(b, { source: 'some-extension', n: k });
  }
  if (k % 11 === 0) {
    b.time += 5;
    event(
      b,
      ev('dashboard-loaded', { publicId: 'dAsHbOaRd123', widgetCount: 9, loadDurationMs: 900 + (k % 500) }, b.time, {
        surface: 'app',
      }),
      [
        issue(
          'surface.not-allowed',
          'error',
          '$.surface',
          '`dashboard-loaded` comes from the dashboard surface only; got "app"',
        ),
      ],
    );
  }
}

/** About `n` records of a deterministic session (at least the opening, ~30 records). */
export function syntheticSession(n = 60, start = Date.UTC(2026, 0, 1, 9, 0, 0)): ClassifiedRecord[] {
  const b: Builder = { seq: 1, time: start, out: [] };
  opening(b);
  for (let k = 1; b.out.length < n; k++) {
    cycle(b, k);
  }
  return b.out.length > n && n >= 40 ? b.out.slice(0, n) : b.out;
}
