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

  /** @param {MessageEvent} event @param {string} reason */
  const ignore = (event, reason) => {
    ignored.push({ reason, origin: event.origin, data: event.data, at: Date.now() });
    updateDebug();
  };

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.origin !== o.hostOrigin) {
      return ignore(event, `origin ${event.origin} is not the host origin`);
    }
    if (!data || typeof data !== 'object' || data.source !== 'svc-embed') {
      return ignore(event, 'source is not "svc-embed"');
    }
    if (data.direction !== 'action') {
      return ignore(event, `direction is ${JSON.stringify(data.direction)}, not "action"`);
    }
    if ('surface' in data) {
      return ignore(event, 'an action carries no surface');
    }
    if (!ACTION_TYPES.includes(data.type)) {
      return ignore(event, `unknown action type ${JSON.stringify(data.type)}`);
    }
    if (!o.isReady()) {
      return ignore(event, 'received before ready');
    }
    if (o.isDown()) {
      return ignore(event, 'the surface is down');
    }
    const problem = o.check(data.type, data.payload);
    if (problem) {
      return ignore(event, problem);
    }
    accepted.push({ type: data.type, payload: data.payload, at: Date.now() });
    updateDebug();
    o.apply(data.type, data.payload);
  });

  // ------------------------------------------------ the small debug area at the bottom of the embed
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
  let scheduled = false;
  function updateDebug() {
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
        ...ignoredParams.map((p) => {
          const li = document.createElement('li');
          li.textContent = `${p.name}=${p.value} — ${p.reason}`;
          return li;
        }),
      );
      list.replaceChildren(
        ...ignored.slice(-50).map((i) => {
          const li = document.createElement('li');
          li.textContent = `${i.reason} — ${summarize(i.data, 160)}`;
          return li;
        }),
      );
    }, 30);
  }
  /** @param {number} n @param {string} id */
  function badge(n, id) {
    const b = document.createElement('b');
    b.dataset.testid = id;
    b.textContent = String(n);
    return b;
  }
  updateDebug();
  return bus;
}
