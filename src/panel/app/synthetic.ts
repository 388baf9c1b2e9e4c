/**
 * A synthetic, deterministic svc-embed session (host page + dashboard embed). Its records are what the capture
 * would record (kind, frame, origins, target origin, data, the post each delivery pairs with, the posts the
 * browser dropped); their verdicts and issues are never written here: the protocol's own classification gives
 * them (`checkRecords`: the rules the background applies to a tab's log, as `embed-inspector check` and an imported
 * file are judged). So the demo shows what the product says of such a session. Used by unit tests, the
 * `?fixture=demo` page, the benchmark (100,000 records) and the screenshots when no live page is available.
 */
import type { ClassifiedRecord, WindowRelation } from '../../shared/messages.ts';
import { type CaptureRecord, checkRecords } from '../log/protocol.ts';

export const HOST = 'https://host.example.com';
export const TENANT = 'https://acme.svc-embed.example';
export const HOST_URL = `${HOST}/analytics`;
const EMBED_URL = `${TENANT}/embed/dashboard/dAsHbOaRd123?session=demo-session`;
export const XSS_TITLE = '<img src=x onerror="window.__xss=1">';
const XSS_PATH = 'javascript:window.__xss=2';
/** The browser's frame ids of the host page and of the embed's iframe. */
const HOST_FRAME = 0;
const EMBED_FRAME = 7;

/** A record as the capture records it: no verdict, no issues. */
export type DemoRecord = CaptureRecord & { from?: WindowRelation };
type Env = Record<string, unknown>;
interface Builder {
  seq: number;
  time: number;
  out: DemoRecord[];
  /** The path the embed last reported (`view.path`, `navigate.path`): the next `navigate`'s `previousPath`. */
  lastPath: string | null;
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

/** An event posted by the embed to the host page, and its delivery in the host frame. */
function event(b: Builder, data: Env) {
  const post = b.seq++,
    recv = b.seq++;
  b.out.push({
    seq: post,
    time: b.time,
    kind: 'post',
    frameUrl: EMBED_URL,
    origin: TENANT,
    targetOrigin: HOST,
    target: 'parent',
    targetUrl: HOST_URL,
    data,
    pairedWith: recv,
    frameId: EMBED_FRAME,
  });
  b.out.push({
    seq: recv,
    time: b.time + 1,
    kind: 'receive',
    frameUrl: HOST_URL,
    origin: TENANT,
    data,
    pairedWith: post,
    frameId: HOST_FRAME,
    from: 'child',
  });
  b.time += 2;
}
/**
 * An action posted by the host to the embed at `targetOrigin`, and its delivery, unless the browser dropped it
 * (a target origin that is neither the embed frame's nor `*`: the browser never dispatches such a post).
 */
function action(b: Builder, data: Env, targetOrigin = TENANT) {
  const post = b.seq++;
  const rec: DemoRecord = {
    seq: post,
    time: b.time,
    kind: 'post',
    frameUrl: HOST_URL,
    origin: HOST,
    targetOrigin,
    target: 'child',
    targetUrl: EMBED_URL,
    data,
    frameId: HOST_FRAME,
  };
  b.out.push(rec);
  if (targetOrigin !== TENANT && targetOrigin !== '*') {
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
    frameId: EMBED_FRAME,
    from: 'parent',
  });
  b.time += 2;
}
/** Another script's message to the host page's own window (an extension, a library). */
function foreign(b: Builder, data: unknown) {
  b.out.push({
    seq: b.seq++,
    time: b.time,
    kind: 'receive',
    frameUrl: HOST_URL,
    origin: HOST,
    data,
    frameId: HOST_FRAME,
    from: 'self',
  });
  b.time += 1;
}
/** The embed reports a view of `path`. */
function view(b: Builder, payload: Env & { path: string }) {
  event(b, ev('view', { surface: 'dashboard', ...payload }, b.time));
  b.lastPath = payload.path;
}
/** The embed reports a route change to `path`, from the path it last reported. */
function navigated(b: Builder, path: string) {
  event(b, ev('navigate', { path, ...(b.lastPath === null ? {} : { previousPath: b.lastPath }) }, b.time));
  b.lastPath = path;
}

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
    frameId: EMBED_FRAME,
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
  view(b, { path: '/embed/d/42/app/workbook/7', publicId: 'dAsHbOaRd123', title: 'Revenue overview' });
  foreign(b, { source: 'react-devtools-content-script', hello: true });
  b.time += 35;
  action(b, act('set-color-scheme', { scheme: 'dark' }, b.time));
  b.time += 1_180;
  event(b, ev('dashboard-loaded', { publicId: 'dAsHbOaRd123', widgetCount: 9, loadDurationMs: 1_634 }, b.time));
  faults(b);
  oddValues(b);
}

/** Actions the rules fault: a bare UTC offset, a post to "*", a post to another origin (the browser drops it). */
function faults(b: Builder) {
  b.time += 300;
  action(b, act('set-timezone', { timezone: '+02:00' }, b.time));
  b.time += 40;
  action(b, act('set-locale', { locale: 'de-DE' }, b.time), '*');
  b.time += 40;
  action(b, act('refresh', {}, b.time), 'https://wrong.example');
}

/**
 * Values that test the panel's escaping and the decoder (markup in strings, dates, maps, a cycle), and events the
 * rules fault: a row count on a png export, an event without its `surface`.
 */
function oddValues(b: Builder) {
  b.time += 600;
  view(b, { path: XSS_PATH, title: XSS_TITLE });
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
  event(b, ev('download', { format: 'png', target: 'dashboard', rowCount: 120 }, b.time));
  b.time += 700;
  const query = 'revenue by region last quarter';
  event(b, ev('ai-query', { query, status: 'submitted', chatId: 'c-1' }, b.time));
  b.time += 900;
  event(b, {
    source: 'svc-embed',
    direction: 'event',
    type: 'svc:event:error',
    payload: { message: 'Query failed: timeout', fatal: false },
    timestamp: b.time,
  });
  b.time += 10;
  event(b, ev('ai-query', { query, status: 'error', chatId: 'c-1' }, b.time));
  foreign(b, { type: 'wappalyzer', payload: { technologies: ['React'] } });
}

/** The chat's queries: every tenth cycle from the fifth submits one, answered five cycles on (every other fails). */
function aiQuery(b: Builder, k: number) {
  b.time += 80;
  if (k % 10 === 5) {
    event(b, ev('ai-query', { query: `top customers #${k}`, status: 'submitted', chatId: 'c-1' }, b.time));
  } else {
    const status = k % 20 === 0 ? 'error' : 'completed';
    event(b, ev('ai-query', { query: `top customers #${k - 5}`, status, chatId: 'c-1' }, b.time));
  }
}

/** A repeating middle: an action and the events that follow it, with some noise and a fault. */
function cycle(b: Builder, k: number) {
  b.time += 200 + ((k * 37) % 400);
  const paths = ['/embed/d/42/app/workbook/7', '/embed/d/42/app/workbook/8', '/embed/d/42/app/folder/3'];
  const path = paths[k % paths.length];
  action(b, act('navigate', { path }, b.time));
  b.time += 30;
  navigated(b, path);
  b.time += 15;
  view(b, { path, title: `Workbook ${k}` });
  if (k % 3 === 0) {
    b.time += 50;
    action(
      b,
      act('set-filter', { filterUrlParameter: `f_orders.region=${JSON.stringify(['EMEA', `R${k}`])}` }, b.time),
    );
  }
  if (k % 5 === 0) {
    aiQuery(b, k);
  }
  if (k % 7 === 0) {
    foreign(b, { source: 'some-extension', n: k });
  }
  if (k % 11 === 0) {
    // (the app surface has no dashboard-loaded: a fault)
    b.time += 5;
    const loaded = { publicId: 'dAsHbOaRd123', widgetCount: 9, loadDurationMs: 900 + (k % 500) };
    event(b, ev('dashboard-loaded', loaded, b.time, { surface: 'app' }));
  }
}

/**
 * About `n` records of the session as the capture records them (at least the opening, ~30 records; from 40 on,
 * exactly `n`: a post whose delivery is past the end is not paired yet).
 */
export function demoCapture(n = 60, start = Date.UTC(2026, 0, 1, 9, 0, 0)): DemoRecord[] {
  const b: Builder = { seq: 1, time: start, out: [], lastPath: null };
  opening(b);
  for (let k = 1; b.out.length < n; k++) {
    cycle(b, k);
  }
  if (b.out.length <= n || n < 40) {
    return b.out;
  }
  const out = b.out.slice(0, n);
  const { pairedWith, ...last } = out[n - 1];
  if (pairedWith !== undefined && pairedWith > last.seq) {
    out[n - 1] = last;
  }
  return out;
}

/**
 * About `n` records of the session, classified as the product classifies a capture (`checkRecords`: the stateless
 * rules, the session checker, the diagnosis judged at the last record, a delivery showing its post's issues; the
 * tenant origin inferred from the embed's frame).
 */
export function syntheticSession(n = 60, start?: number): ClassifiedRecord[] {
  // (the records are this call's own: each takes its verdict and issues in place)
  const records = demoCapture(n, start) as ClassifiedRecord[];
  const judged = new Map(checkRecords(records).messages.map((m) => [m.seq, m]));
  for (const r of records) {
    const m = judged.get(r.seq);
    // (a navigation has no verdict of its own; its issues are the embed's address and what it never said)
    r.verdict = r.navigation ? 'foreign' : (m?.verdict ?? 'foreign');
    r.issues = m?.issues ?? [];
  }
  return records;
}
