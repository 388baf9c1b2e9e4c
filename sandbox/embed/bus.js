// The embed's side of window messaging: posts events to the host and accepts only actions that pass the spec's rules.
import { summarize } from '/static/shared/summarize.js';

export const ACTION_TYPES = [
  'svc:action:set-color-scheme',
  'svc:action:set-theme',
  'svc:action:set-locale',
  'svc:action:set-timezone',
  'svc:action:set-filter',
  'svc:action:navigate',
  'svc:action:refresh',
];

/**
 * @typedef {{source: 'svc-embed', direction: 'event', type: string, payload: any, timestamp: number, surface?: string}} Envelope
 * @typedef {{hostOrigin: string, surface: string, isReady: () => boolean, isDown: () => boolean,
 *   check: (type: string, payload: any) => string | null, apply: (type: string, payload: any) => void}} BusOptions
 */

/** @param {BusOptions} o */
export function createBus(o) {
  /** @type {Envelope[]} */ const sent = [];
  /** @type {{type: string, payload: unknown, at: number}[]} */ const accepted = [];
  /** @type {{reason: string, origin: string, data: unknown, at: number}[]} */ const ignored = [];
  /** URL parameters of the embed that it could not use. @type {{name: string, value: string, reason: string}[]} */
  const ignoredParams = [];
  const embedded = window.parent !== window;

  const bus = {
    hostOrigin: o.hostOrigin,
    /** Target origin of the events: the host origin (a fault may change it). */
    postTarget: o.hostOrigin,
    sent,
    accepted,
    ignored,
    ignoredParams,
    /** Lists a URL parameter the embed ignores, in the debug strip. @param {string} name @param {string} value @param {string} reason */
    ignoreParam(name, value, reason) {
      ignoredParams.push({ name, value, reason });
      updateDebug();
    },
    /** Faults may rewrite or drop an envelope on its way out. @type {(env: Envelope) => Envelope | null} */
    transform: (env) => env,
    /**
     * Creates and posts one event to the host, with the host origin as target (never "*").
     * @param {string} type @param {unknown} payload @param {{surface?: string, raw?: boolean}} [opts] raw: skip fault rewriting
     */
    emit(type, payload, opts = {}) {
      /** @type {Envelope | null} */
      let env = {
        source: 'svc-embed',
        direction: 'event',
        type,
        payload,
        timestamp: Date.now(),
        surface: opts.surface ?? o.surface,
      };
      if (!opts.raw) {
        env = bus.transform(env);
      }
      if (!env) {
        return null;
      }
      sent.push(env);
      if (embedded) {
        window.parent.postMessage(env, bus.postTarget);
      }
      updateDebug();
      return env;
    },
  };

  const updateDebug = debugArea(o, bus, embedded);
  window.addEventListener('message', (event) => {
    const reason = whyIgnored(o, event);
    if (reason) {
      ignored.push({ reason, origin: event.origin, data: event.data, at: Date.now() });
      updateDebug();
      return;
    }
    accepted.push({ type: event.data.type, payload: event.data.payload, at: Date.now() });
    updateDebug();
    o.apply(event.data.type, event.data.payload);
  });
  updateDebug();
  return bus;
}

/** Why the embed ignores a message, null for an action it accepts. @param {BusOptions} o @param {MessageEvent} event */
function whyIgnored(o, event) {
  const data = event.data;
  if (event.origin !== o.hostOrigin) {
    return `origin ${event.origin} is not the host origin`;
  }
  if (!data || typeof data !== 'object' || data.source !== 'svc-embed') {
    return 'source is not "svc-embed"';
  }
  if (data.direction !== 'action') {
    return `direction is ${JSON.stringify(data.direction)}, not "action"`;
  }
  if ('surface' in data) {
    return 'an action carries no surface';
  }
  if (!ACTION_TYPES.includes(data.type)) {
    return `unknown action type ${JSON.stringify(data.type)}`;
  }
  if (!o.isReady()) {
    return 'received before ready';
  }
  if (o.isDown()) {
    return 'the surface is down';
  }
  return o.check(data.type, data.payload);
}

/**
 * The small debug area at the bottom of the embed; returns its update (at most one per 30 ms).
 * @param {BusOptions} o @param {any} bus @param {boolean} embedded
 */
function debugArea(o, bus, embedded) {
  const box = document.createElement('details');
  box.className = 'debug';
  box.dataset.testid = 'embed-debug';
  box.innerHTML = `<summary></summary><div class="debug-body"><h4>Ignored messages</h4><ol data-testid="ignored-list"></ol>
    <div data-params hidden><h4>Ignored URL parameters</h4><ol data-testid="ignored-params"></ol></div></div>`;
  document.body.append(box);
  const summary = /** @type {HTMLElement} */ (box.querySelector('summary'));
  const list = /** @type {HTMLOListElement} */ (box.querySelector('[data-testid="ignored-list"]'));
  const paramsBox = /** @type {HTMLElement} */ (box.querySelector('[data-params]'));
  const paramsList = /** @type {HTMLOListElement} */ (box.querySelector('[data-testid="ignored-params"]'));
  const { sent, accepted, ignored, ignoredParams } = bus;
  let scheduled = false;
  return function updateDebug() {
    if (scheduled) {
      return;
    }
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      summary.innerHTML = '';
      const misdirected = bus.postTarget === o.hostOrigin ? '' : ` (posted to ${bus.postTarget})`;
      summary.append(
        `debug · host ${o.hostOrigin}${embedded ? '' : ' (not embedded)'} · events sent${misdirected} `,
        badge(sent.length, 'sent-count'),
        ' · actions accepted ',
        badge(accepted.length, 'accepted-count'),
        ' · ignored ',
        badge(ignored.length, 'ignored-count'),
      );
      if (ignoredParams.length) {
        summary.append(' · URL parameters ignored ', badge(ignoredParams.length, 'ignored-params-count'));
      }
      paramsBox.hidden = !ignoredParams.length;
      paramsList.replaceChildren(
        ...ignoredParams.map((/** @type {any} */ p) => {
          const li = document.createElement('li');
          li.textContent = `${p.name}=${p.value} — ${p.reason}`;
          return li;
        }),
      );
      list.replaceChildren(
        ...ignored.slice(-50).map((/** @type {any} */ i) => {
          const li = document.createElement('li');
          li.textContent = `${i.reason} — ${summarize(i.data, 160)}`;
          return li;
        }),
      );
    }, 30);
  };
}

/** @param {number} n @param {string} id */
function badge(n, id) {
  const b = document.createElement('b');
  b.dataset.testid = id;
  b.textContent = String(n);
  return b;
}
