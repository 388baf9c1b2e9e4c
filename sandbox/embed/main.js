// The embed emulator: authenticates, mounts one surface, routes, and talks to the host. Test hooks: window.__sandboxEmbed.
import config from '/embed-config.js';
import { isIanaTimeZone } from '/static/shared/timezone.js';
import { parseFaults } from '/static/shared/faults.js';
import { applyAction, applyScheme, applyTheme, checkAction, parseFilterParameter } from './actions.js';
import { createBus } from './bus.js';
import { translator } from './i18n.js';
import { installFaults } from './faults.js';
import { dashboardSurface } from './dashboard.js';
import { appSurface } from './app.js';
import { chatSurface } from './chat.js';
import { esc } from './widgets.js';

/**
 * @typedef {{match: (path: string) => any, load: (page: any) => Promise<{title: string}>, render: () => string,
 *   afterView?: (page: any) => void, rerun: (reason: string) => void, onClick?: (e: MouseEvent, el: HTMLElement) => void,
 *   hooks: Record<string, Function>}} Surface
 * @typedef {ReturnType<typeof makeState>} State
 * @typedef {{state: State, params: URLSearchParams, config: typeof config, bus: ReturnType<typeof createBus>,
 *   t: (k: any) => string, render: () => void, go: (path: string) => void, api: (path: string, init?: RequestInit) => Promise<any>,
 *   toast: (text: string) => void, fail: (message: string, name: string, context: string) => void, updateTimezone: () => void,
 *   surface: Surface, pageDelay: () => Promise<void>, mountTime: number, scriptReleased: Promise<void>, release: () => void,
 *   faults: ReturnType<typeof installFaults>}} Ctx
 */

// The spec's parameters come in the query; the emulator's own (faults, latency, script, hostOrigin…) in the fragment
// (a host that passes them in the query works too).
const params = new URLSearchParams(location.search);
for (const [k, v] of new URLSearchParams(location.hash.slice(1))) {
  if (!params.has(k)) {
    params.set(k, v);
  }
}
const surfaceName = location.pathname.startsWith('/embed/chat')
  ? 'chat'
  : location.pathname.startsWith('/embed/d/')
    ? 'app'
    : 'dashboard';
const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** Host origin: the sandbox `hostOrigin` parameter, else the referrer (the page that framed us), else the configured one. */
function learnHostOrigin() {
  for (const candidate of [params.get('hostOrigin'), document.referrer, config.hostOrigin]) {
    try {
      if (candidate) {
        return new URL(candidate).origin;
      }
    } catch {}
  }
  return config.hostOrigin;
}

function makeState() {
  return {
    surface: surfaceName,
    path: location.pathname,
    ready: false,
    down: false,
    sessionExpired: false,
    mode: /** @type {string | null} */ (null),
    deploymentId: /** @type {number | null} */ (null),
    embedTenant: /** @type {string | null} */ (null),
    token: '',
    publicId: surfaceName === 'dashboard' ? decodeURIComponent(location.pathname.split('/')[3] ?? '') : undefined,
    workbookId: /** @type {number | undefined} */ (undefined),
    title: '',
    schemeSetting: 'light',
    scheme: 'light',
    theme: /** @type {Record<string, any>} */ ({}),
    locale: 'en-US',
    timezone: 'UTC',
    timezoneFromUrl: /** @type {string | null} */ (null),
    timezoneFromAction: /** @type {string | null} */ (null),
    filters: /** @type {Record<string, any[]>} */ ({}),
    allowExport: params.get('allowExport') === 'true',
    refreshCount: 0,
    loadCount: 0,
    /**
     * What a fault keeps the embed from ever posting, added where the embed gives it up (nothing of it is left
     * scheduled): `svc:event:ready` (never-ready), `svc:event:dashboard-loaded` (no-dashboard-loaded),
     * `svc:event:ai-query answer` (ai-query-stuck).
     */
    withheld: /** @type {string[]} */ ([]),
  };
}

const state = makeState();
const hostOrigin = learnHostOrigin();
const app = /** @type {HTMLElement} */ (document.getElementById('embed'));
const slot = /** @type {HTMLElement} */ (document.getElementById('surface'));
const top = /** @type {HTMLElement} */ (document.getElementById('top'));
let routeSeq = 0;
let releaseScript = () => {};

/** @type {Ctx} */
const ctx = /** @type {any} */ ({
  state,
  params,
  config,
  mountTime: performance.now(),
  t: translator(state.locale),
  scriptReleased: new Promise((r) => (releaseScript = () => r(undefined))),
  release: () => releaseScript(),
  render,
  go: (/** @type {string} */ path) => navigate(path),
  toast,
  updateTimezone,
  /** Minimum time a page takes to load; a script=full session holds it until the host's refresh arrives. */
  async pageDelay() {
    const latency = Math.min(Number(params.get('latency') ?? 200) || 0, 10_000);
    await sleep(latency);
    if (params.get('script') === 'full') {
      await Promise.race([ctx.scriptReleased, sleep(5000)]);
    }
  },
  /** @param {string} path @param {RequestInit} [init] */
  async api(path, init = {}) {
    if (state.sessionExpired) {
      throw Object.assign(new Error('The embed session has expired'), { status: 401 });
    }
    const res = await fetch(path, {
      ...init,
      headers: { Authorization: `Bearer ${state.token}`, 'Content-Type': 'application/json', ...init.headers },
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      throw Object.assign(new Error(body?.error?.message ?? `HTTP ${res.status}`), { status: res.status });
    }
    return body;
  },
  /** @param {string} message @param {string} name @param {string} context */
  fail(message, name, context) {
    if (state.down) {
      return;
    }
    state.down = true;
    ctx.bus.emit('svc:event:error', { message, name, context, fatal: true });
    app.dataset.down = 'true';
    slot.innerHTML = `<div class="fatal" data-testid="fatal"><h2>${esc(message)}</h2><p>${esc(ctx.t('sessionExpired'))}</p></div>`;
  },
});

ctx.bus = createBus({
  hostOrigin,
  surface: surfaceName,
  isReady: () => state.ready,
  isDown: () => state.down,
  check: checkAction,
  apply: (type, payload) => {
    applyAction(ctx, type, payload);
    if (type === 'svc:action:refresh') {
      ctx.release();
    }
  },
});
ctx.surface = { dashboard: dashboardSurface, app: appSurface, chat: chatSurface }[surfaceName](ctx);

function updateTimezone() {
  state.timezone = state.timezoneFromAction ?? state.timezoneFromUrl ?? 'UTC';
  document.documentElement.dataset.timezone = state.timezone;
  render();
}

function render() {
  ctx.t = translator(state.locale);
  const t = ctx.t;
  const chips = Object.entries(state.filters)
    .map(([m, v]) => `<span class="chip" data-member="${esc(m)}">${esc(m)} = ${esc(v.join(', '))}</span>`)
    .join('');
  top.innerHTML = `<span class="brand">${esc(state.embedTenant ?? 'embed')}</span>
    <strong class="title" data-testid="title">${esc(state.title || t('loading'))}</strong>
    <span class="meta"><span class="badge" data-testid="timezone" title="${esc(t('timezone'))}">${esc(state.timezone)}</span>
    <span class="badge" data-testid="locale">${esc(state.locale)}</span>
    <span class="badge" data-testid="refresh-count" title="${esc(t('refreshed'))}">↻ ${state.refreshCount}</span></span>
    <span class="filters" data-testid="filters">${chips || `<span class="muted">${esc(t('noFilters'))}</span>`}</span>`;
  if (!state.down && state.ready) {
    // Keep what the viewer is typing in the assistant across re-renders.
    const input = /** @type {HTMLInputElement | null} */ (slot.querySelector('[data-testid="ai-input"]'));
    const draft = input?.value ?? '';
    const focused = !!input && document.activeElement === input;
    slot.innerHTML = ctx.surface.render();
    const next = /** @type {HTMLInputElement | null} */ (slot.querySelector('[data-testid="ai-input"]'));
    if (next && (draft || focused)) {
      next.value = draft;
      if (focused) {
        next.focus();
      }
    }
  }
  document.documentElement.dataset.path = state.path;
}

/** @param {string} text */
function toast(text) {
  const el = /** @type {HTMLElement} */ (document.getElementById('toast'));
  el.textContent = text;
  el.hidden = false;
  clearTimeout(Number(el.dataset.timer));
  el.dataset.timer = String(setTimeout(() => (el.hidden = true), 3000));
}

/** A route change: `navigate` now, `view` once the page has loaded. @param {string} path @param {boolean} [initial] */
async function navigate(path, initial = false) {
  if (!initial) {
    if (path === state.path || state.down) {
      return;
    }
    const previousPath = state.path;
    history.pushState(null, '', path + location.search + location.hash);
    state.path = path;
    ctx.bus.emit('svc:event:navigate', { path, previousPath });
  }
  const seq = ++routeSeq;
  const page = ctx.surface.match(path);
  state.title = '';
  render();
  const info = await ctx.surface.load(page);
  if (seq !== routeSeq || state.down) {
    return;
  }
  state.title = info.title;
  render();
  /** @type {Record<string, unknown>} */
  const view = { surface: surfaceName, path, title: info.title };
  if (state.publicId) {
    view.publicId = state.publicId;
  }
  ctx.bus.emit('svc:event:view', view);
  ctx.faults.afterView();
  ctx.surface.afterView?.(page);
}

// ------------------------------------------------------------ boot
async function boot() {
  applyScheme(ctx);
  applyTheme(ctx);
  document.documentElement.dataset.locale = state.locale;
  document.documentElement.dataset.surface = surfaceName;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyScheme(ctx));
  // The spec's URL parameters; a value the embed cannot use is ignored and listed in the debug strip.
  const tz = params.get('timezone');
  if (tz && isIanaTimeZone(tz)) {
    state.timezoneFromUrl = tz;
  } else if (tz !== null) {
    ctx.bus.ignoreParam(
      'timezone',
      tz,
      'not an IANA time zone name (bare offsets are ignored); the account default applies',
    );
  }
  for (const [k, v] of params) {
    if (!k.startsWith('f_')) {
      continue;
    }
    const f = parseFilterParameter(`${k}=${v}`);
    if (typeof f === 'string') {
      ctx.bus.ignoreParam(k, v, f);
    } else if (f.values.length) {
      state.filters[f.member] = f.values;
    }
  }
  const allowExport = params.get('allowExport');
  if (allowExport !== null && allowExport !== 'true' && allowExport !== 'false') {
    ctx.bus.ignoreParam('allowExport', allowExport, 'only allowExport=true shows the CSV/XLSX export actions');
  }
  updateTimezone();
  const { known } = parseFaults(params.get('faults'));
  const faults = installFaults(ctx, known);
  ctx.faults = faults;
  app.addEventListener('click', onClick);
  window.addEventListener('popstate', () => {
    if (location.pathname !== state.path) {
      const previousPath = state.path;
      state.path = location.pathname;
      ctx.bus.emit('svc:event:navigate', { path: state.path, previousPath });
      void navigate(state.path, true);
    }
  });

  faults.beforeReady();
  if (faults.has('never-ready')) {
    state.withheld.push('svc:event:ready');
    return; // stuck on "Authenticating…": no session exchange, no ready, no error
  }
  const sessionId = params.get('session');
  if (!sessionId) {
    ctx.fail('The embed URL has no session parameter', 'AuthenticationError', 'auth');
    return;
  }
  const q = new URLSearchParams({ delayMs: params.get('authDelayMs') ?? '100' });
  if (state.publicId) {
    q.set('publicId', state.publicId);
  }
  let session;
  try {
    const res = await fetch(`/embed-api/session/${encodeURIComponent(sessionId)}?${q}`);
    session = await res.json();
    if (!res.ok) {
      throw new Error(session?.error?.message ?? `HTTP ${res.status}`);
    }
  } catch (err) {
    const message = /** @type {Error} */ (err).message;
    ctx.fail(message, /expired/i.test(message) ? 'SessionExpiredError' : 'AuthenticationError', 'auth');
    return;
  }
  Object.assign(state, {
    mode: session.mode,
    deploymentId: session.deploymentId,
    embedTenant: session.embedTenant,
    token: session.token,
    workbookId: session.workbookId,
  });
  state.ready = true;
  document.documentElement.dataset.ready = 'true';
  /** @type {Record<string, unknown>} */
  const ready = {
    embedTenant: state.embedTenant,
    deploymentId: state.deploymentId,
    mode: state.mode,
    surface: surfaceName,
  };
  if (state.publicId) {
    ready.publicId = state.publicId;
  }
  ctx.bus.emit('svc:event:ready', ready);
  faults.afterReady();
  void navigate(state.path, true);
}

/** Viewer clicks: in-embed links navigate; the rest goes to the surface. @param {MouseEvent} e */
function onClick(e) {
  const el = /** @type {HTMLElement | null} */ (
    /** @type {HTMLElement} */ (e.target).closest('a[data-route], button, [data-mark]')
  );
  if (!el || state.down) {
    return;
  }
  if (el.matches('a[data-route]')) {
    e.preventDefault();
    void navigate(/** @type {string} */ (el.getAttribute('href')));
    return;
  }
  ctx.surface.onClick?.(e, el);
}

/** @type {any} */ (window).__sandboxEmbed = {
  state: () => structuredClone({ ...state, token: undefined, hostOrigin, ...ctx.surface.hooks.extraState?.() }),
  sent: ctx.bus.sent,
  accepted: ctx.bus.accepted,
  ignored: ctx.bus.ignored,
  ignoredParams: ctx.bus.ignoredParams,
  /** Posts one event as is (no fault rewriting). */
  emit: (/** @type {string} */ type, /** @type {unknown} */ payload, /** @type {{surface?: string}} */ opts = {}) =>
    ctx.bus.emit(type, payload, { ...opts, raw: true }),
  navigate: (/** @type {string} */ path) => navigate(path),
  expireSession: () => {
    state.sessionExpired = true;
  },
  // Defaults for hooks a surface does not have (e.g. exportData on chat): they do nothing and return null.
  exportData: () => null,
  drill: () => null,
  failWidget: () => {},
  move: async () => null,
  ...Object.fromEntries(Object.entries(ctx.surface.hooks).filter(([k]) => k !== 'extraState')),
};

void boot();
