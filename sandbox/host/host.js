// The sandbox host page: embeds one surface and talks to it the way the spec tells host developers to.
// Test hooks: window.__sandboxHost (contract in sandbox/README.md).
import config from '/config.js';
import { FAULTS, parseFaults } from '/static/shared/faults.js';
import { mountActions, scriptActions } from './actions.js';
import { mountApiConsole } from './api-console.js';
import { createLog } from './log.js';

const TENANT = config.tenantOrigin;
const EVENT_TYPES = ['ready', 'view', 'navigate', 'dashboard-loaded', 'download', 'drilldown', 'ai-query', 'error'].map(
  (t) => `svc:event:${t}`,
);
const params = new URLSearchParams(location.search);
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const warnings = [];

// ---------------------------------------------------------------- what to embed
const faults = parseFaults(params.get('faults'));
if (faults.unknown.length) {
  warnings.push(`Unknown fault names ignored: ${faults.unknown.join(', ')}`);
}
if (params.has('flood') && !faults.known.includes('flood')) {
  faults.known.push('flood');
}
const isHostFault = (/** @type {string} */ n) => FAULTS.find((f) => f.name === n)?.side === 'host';
const hostFaults = faults.known.filter(isHostFault);
const embedFaults = faults.known.filter((n) => !isHostFault(n));
const script = params.get('script') === 'full';

let surface = params.get('surface') || (faults.known.includes('dashboard-event-from-chat') ? 'chat' : 'dashboard');
if (!['dashboard', 'app', 'chat'].includes(surface)) {
  warnings.push(`Unknown surface "${surface}", showing the dashboard`);
  surface = 'dashboard';
}
const session = params.get('session') || (surface === 'app' ? 'demo-private' : 'demo-signed');
const sessionInfo = config.sessions.find((s) => s.id === session);
const deploymentId = sessionInfo?.deploymentId ?? 1;
const publicId =
  params.get('publicId') || config.dashboards.find((d) => d.deploymentId === deploymentId)?.publicId || '';
const workbookIds = config.workbooks.filter((w) => w.deploymentId === deploymentId).map((w) => w.id);
const workbookId = Number(params.get('workbookId')) || workbookIds[0];
const where = { surface, publicId, deploymentId, workbookIds };

function embedUrl() {
  const fault = (/** @type {string} */ n) => hostFaults.includes(n);
  let path = '/embed/chat';
  if (surface === 'dashboard') {
    // bad-path: a typo in the route; the tenant answers 404.
    path = `/embed/${fault('bad-path') ? 'dashbaord' : 'dashboard'}/${encodeURIComponent(publicId)}`;
  } else if (fault('bad-path')) {
    warnings.push('The bad-path fault applies to the dashboard surface only');
  }
  if (surface === 'app') {
    path = `/embed/d/${deploymentId}/app/workbook/${workbookId}`;
  }
  const q = new URLSearchParams();
  if (!fault('session-missing')) {
    q.set('session', session);
  }
  // allowExport, timezone and f_<view>.<dimension> are passed through as given: the embed decides what they mean.
  let allowExport = params.get('allowExport');
  if (script) {
    allowExport = 'true';
  }
  if (fault('allow-export-yes')) {
    allowExport = 'yes';
  }
  if (allowExport !== null) {
    q.set('allowExport', allowExport);
  }
  if (fault('timezone-offset')) {
    q.set('timezone', '+02:00');
  } else if (params.get('timezone')) {
    q.set('timezone', /** @type {string} */ (params.get('timezone')));
  }
  for (const [k, v] of params) {
    if (k.startsWith('f_')) {
      q.append(k, v);
    }
  }
  if (fault('filter-not-json')) {
    q.append('f_orders.region', 'EMEA');
  }
  const filter = params.get('filter')?.trim();
  if (filter) {
    const eq = filter.indexOf('=');
    if (filter.startsWith('f_') && eq > 2) {
      q.append(filter.slice(0, eq), filter.slice(eq + 1));
    } else {
      warnings.push(`Filter "${filter}" is not of the form f_<view>.<dimension>=<JSON>`);
    }
  }
  // Sandbox-only parameters of the emulator (not part of the spec) go in the fragment: the query holds exactly the
  // spec's parameters, as a real host's embed address does, and the fragment never reaches the tenant's server.
  const h = new URLSearchParams();
  if (embedFaults.length) {
    h.set('faults', embedFaults.join(','));
  }
  for (const k of ['flood', 'floodSeconds', 'latency', 'failWidget', 'authDelayMs']) {
    if (params.get(k)) {
      h.set(k, /** @type {string} */ (params.get(k)));
    }
  }
  if (script) {
    h.set('script', 'full');
  }
  // The embed's ready comes this long after it starts, so that the iframe's load event (when the host posts)
  // comes first even on a busy machine.
  if (hostFaults.includes('action-before-ready') && !h.has('authDelayMs')) {
    h.set('authDelayMs', '4000');
  }
  const query = q.toString();
  const hash = h.toString();
  return `${TENANT}${path}${query ? `?${query}` : ''}${hash ? `#${hash}` : ''}`;
}

// ---------------------------------------------------------------- page
$('host-origin').textContent = location.origin;
$('tenant-origin').textContent = TENANT;
const src = embedUrl();
$('embed-url').textContent = src;
const iframe = document.createElement('iframe');
iframe.src = src;
iframe.title = `Embedded ${surface}`;
iframe.dataset.testid = 'embed-frame';
iframe.allow = 'clipboard-write';
$('frame-slot').append(iframe);
if (warnings.length) {
  $('warnings').hidden = false;
  $('warnings').textContent = warnings.join(' · ');
}

const eventLog = createLog(/** @type {HTMLOListElement} */ ($('event-log')), $('event-count'));
const ignoredLog = createLog(/** @type {HTMLOListElement} */ ($('ignored-log')), $('ignored-count'));
const sentLog = createLog(/** @type {HTMLOListElement} */ ($('sent-log')), $('sent-count'));
const status = $('embed-status');

/** @type {any[]} */ const received = [];
/** @type {{reason: string, origin: string, data: unknown}[]} */ const ignored = [];
/** @type {{data: any, targetOrigin: string, at: number}[]} */ const sent = [];
/** @type {Set<() => void>} */ const watchers = new Set();
let readySeen = false;

// ---------------------------------------------------------------- sending actions
function targetOrigin() {
  if (hostFaults.includes('action-star')) {
    return '*';
  }
  if (hostFaults.includes('action-wrong-origin')) {
    return `http://127.0.0.1:${new URL(TENANT).port}`;
  }
  return TENANT;
}

/** @param {string} type @param {Record<string, unknown>} [payload] */
function sendAction(type, payload = {}) {
  const data = { source: 'svc-embed', direction: 'action', type, payload, timestamp: Date.now() };
  return postRaw(data, targetOrigin());
}

/** Posts anything to the embed window (tests use it for malformed actions). @param {unknown} data @param {string} [to] */
function postRaw(data, to = TENANT) {
  iframe.contentWindow?.postMessage(data, to);
  const entry = { data, targetOrigin: to, at: Date.now() };
  sent.push(entry);
  const type = /** @type {any} */ (data)?.type ?? '(raw)';
  sentLog.add(`${type} → ${to}`, /** @type {any} */ (data)?.payload ?? data, to === TENANT ? '' : 'warn');
  return entry;
}

// ---------------------------------------------------------------- receiving events: one listener, three rules
window.addEventListener('message', (event) => {
  if (event.origin !== TENANT) {
    return ignore(event, `origin ${event.origin} is not the tenant origin`);
  }
  const data = event.data;
  if (!data || typeof data !== 'object' || data.source !== 'svc-embed') {
    return ignore(event, 'source is not "svc-embed"');
  }
  if (data.direction !== 'event') {
    return ignore(event, `direction is ${JSON.stringify(data.direction)}, not "event"`);
  }
  received.push(data);
  dispatch(data);
  for (const w of watchers) {
    w();
  }
});

/** @param {MessageEvent} event @param {string} reason */
function ignore(event, reason) {
  ignored.push({ reason, origin: event.origin, data: event.data });
  ignoredLog.add(reason, event.data, 'bad');
}

/** @param {any} data */
function dispatch(data) {
  const p = data.payload ?? {};
  switch (data.type) {
    case 'svc:event:ready':
      eventLog.add(`ready · ${p.mode}`, p, 'ok');
      status.textContent = `ready · ${p.mode} · ${data.surface}`;
      status.className = 'badge ok';
      if (!readySeen) {
        onFirstReady();
      }
      readySeen = true;
      break;
    case 'svc:event:error':
      eventLog.add(`error${p.fatal ? ' (fatal)' : ''}`, p, 'bad');
      if (p.fatal) {
        status.textContent = `embed down: ${p.message}`;
        status.className = 'badge bad';
      }
      break;
    case 'svc:event:view':
    case 'svc:event:navigate':
    case 'svc:event:dashboard-loaded':
    case 'svc:event:download':
    case 'svc:event:drilldown':
    case 'svc:event:ai-query':
      eventLog.add(data.type.replace('svc:event:', ''), p);
      break;
    default:
      eventLog.add(`${data.type} (unhandled type)`, p, 'warn');
  }
}

function onFirstReady() {
  if (hostFaults.includes('action-star') || hostFaults.includes('action-wrong-origin')) {
    sendAction('svc:action:set-color-scheme', { scheme: 'dark' });
  }
  if (script) {
    for (const [type, payload] of scriptActions(where)) {
      sendAction(/** @type {string} */ (type), /** @type {any} */ (payload));
    }
  }
}

if (hostFaults.includes('action-before-ready')) {
  iframe.addEventListener(
    'load',
    () => {
      if (!readySeen) {
        sendAction('svc:action:set-color-scheme', { scheme: 'dark' });
      }
    },
    { once: true },
  );
}

// ---------------------------------------------------------------- UI
mountActions($('action-list'), where, (type, payload) => sendAction(type, payload));
mountApiConsole($('api-console'), config, { deploymentId, workbookId });
fillSetupForm();

function fillSetupForm() {
  const form = /** @type {HTMLFormElement} */ ($('setup'));
  const select = (/** @type {string} */ name) => /** @type {HTMLSelectElement} */ (form.elements.namedItem(name));
  /** @param {HTMLSelectElement} el @param {[string, string][]} options @param {string} value */
  const fill = (el, options, value) => {
    el.replaceChildren(...options.map(([v, label]) => new Option(label, v, false, v === value)));
  };
  select('surface').value = surface;
  fill(
    select('session'),
    config.sessions.map((s) => [s.id, `${s.id} (${s.mode}${s.expired ? ', expired' : ''})`]),
    session,
  );
  fill(
    select('publicId'),
    config.dashboards.map((d) => [d.publicId, `${d.title} (${d.publicId})`]),
    publicId,
  );
  fill(
    select('workbookId'),
    config.workbooks.map((w) => [String(w.id), `${w.name} (#${w.id}, deployment ${w.deploymentId})`]),
    String(workbookId),
  );
  /** @type {HTMLInputElement} */ (form.elements.namedItem('allowExport')).checked =
    params.get('allowExport') === 'true';
  /** @type {HTMLInputElement} */ (form.elements.namedItem('script')).checked = script;
  for (const k of ['timezone', 'filter', 'flood', 'floodSeconds']) {
    /** @type {HTMLInputElement} */ (form.elements.namedItem(k)).value = params.get(k) ?? '';
  }
  const list = $('fault-list');
  for (const f of FAULTS) {
    const label = document.createElement('label');
    label.className = 'check';
    label.title = f.what;
    label.innerHTML = `<input type="checkbox" value="${f.name}"> ${f.name} <span class="muted small">(${f.side})</span>`;
    const box = /** @type {HTMLInputElement} */ (label.firstElementChild);
    box.checked = faults.known.includes(f.name);
    list.append(label);
  }
  if (faults.known.length) {
    /** @type {HTMLDetailsElement} */ list.closest('details').open = true;
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) {
      if (typeof v === 'string' && v !== '') {
        q.set(k, v);
      }
    }
    const chosen = [...list.querySelectorAll('input:checked')].map((b) => /** @type {HTMLInputElement} */ (b).value);
    if (chosen.length) {
      q.set('faults', chosen.join(','));
    }
    location.search = q.toString();
  });
}

// ---------------------------------------------------------------- test hooks
/**
 * @param {string} type @param {number} [count] @param {number} [timeoutMs]
 * @returns {Promise<any>} the count-th received event of that type
 */
function waitFor(type, count = 1, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const check = () => {
      const hits = received.filter((e) => e.type === type);
      if (hits.length < count) {
        return false;
      }
      watchers.delete(check);
      clearTimeout(timer);
      resolve(hits[count - 1]);
      return true;
    };
    const timer = setTimeout(() => {
      watchers.delete(check);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${count} × ${type}`));
    }, timeoutMs);
    if (!check()) {
      watchers.add(check);
    }
  });
}

/** @type {any} */ (window).__sandboxHost = {
  config,
  tenantOrigin: TENANT,
  hostOrigin: location.origin,
  surface,
  /** The session id in the embed URL (null with the session-missing fault). */
  session: hostFaults.includes('session-missing') ? null : session,
  faults: faults.known,
  embedUrl: src,
  iframe,
  received,
  ignored,
  sent,
  sendAction,
  postRaw,
  waitFor,
  types: () => received.map((e) => e.type),
  isReady: () => readySeen,
  /** In a script=full session: true once every one of the 8 event types has been received, the AI answer too. */
  scriptDone: () =>
    EVENT_TYPES.every((t) => received.some((e) => e.type === t)) &&
    received.some((e) => e.type === 'svc:event:ai-query' && e.payload?.status === 'completed'),
  clear() {
    received.length = 0;
    ignored.length = 0;
    sent.length = 0;
    eventLog.clear();
    ignoredLog.clear();
    sentLog.clear();
  },
};
