// Embed-side fault modes (names and meaning: /static/shared/faults.js and sandbox/README.md).

/** @typedef {import('./main.js').Ctx} Ctx */

const MiB = 1024 * 1024;
/** The question the ai-query-stuck fault submits; its answer never comes. */
export const STUCK_QUERY = 'Which region grew fastest this quarter?';

/** The host origin with the other loopback host name: same scheme and port, another origin. @param {string} origin */
export function otherLoopbackOrigin(origin) {
  const u = new URL(origin);
  u.hostname = u.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return u.origin;
}

/** @param {Ctx} ctx @param {string[]} names */
export function installFaults(ctx, names) {
  const on = (/** @type {string} */ n) => names.includes(n);
  const s = ctx.state;
  const bus = ctx.bus;
  let firstView = true;
  let aiAsked = false;

  if (on('event-wrong-origin')) {
    bus.postTarget = otherLoopbackOrigin(bus.hostOrigin);
  }
  /** ai-query-stuck: one question whose answer never comes, once the surface has loaded. */
  const askStuck = () => {
    if (!aiAsked) {
      aiAsked = true;
      void ctx.surface.hooks.askAI?.(STUCK_QUERY, 'pending');
    }
  };

  bus.transform = (env) => {
    if (on('missing-surface') && env.type === 'svc:event:view' && firstView) {
      firstView = false;
      const { surface, ...rest } = env;
      return /** @type {any} */ (rest);
    }
    if (env.type === 'svc:event:view') {
      firstView = false;
    }
    if (on('wrong-payload-types') && env.type === 'svc:event:ready') {
      return { ...env, payload: { ...env.payload, deploymentId: String(env.payload.deploymentId) } };
    }
    return env;
  };

  return {
    has: on,
    /** After each svc:event:view of a route (main.js). */
    afterView() {
      // The dashboard waits for dashboard-loaded, unless no-dashboard-loaded keeps it from ever coming.
      if (on('ai-query-stuck') && (s.surface !== 'dashboard' || on('no-dashboard-loaded'))) {
        askStuck();
      }
    },
    /** After each svc:event:dashboard-loaded (dashboard.js). */
    afterDashboardLoaded() {
      if (on('ai-query-stuck')) {
        askStuck();
      }
    },
    beforeReady() {
      if (on('event-before-ready')) {
        bus.emit('svc:event:view', { surface: s.surface, path: s.path, title: 'before ready' });
      }
    },
    afterReady() {
      afterReadyFaults(ctx, on);
    },
  };
}

/** The faults that act once the embed has said ready. @param {Ctx} ctx @param {(name: string) => boolean} on */
function afterReadyFaults(ctx, on) {
  const s = ctx.state;
  const bus = ctx.bus;
  const ready = bus.sent.find((e) => e.type === 'svc:event:ready');
  if (on('duplicate-ready') && ready) {
    bus.emit('svc:event:ready', ready.payload, { raw: true });
  }
  if (on('unknown-event')) {
    bus.emit('svc:event:widget-hover', { widgetId: 'w-revenue-region' });
  }
  if (on('dashboard-event-from-chat') && s.surface === 'chat') {
    bus.emit('svc:event:drilldown', { member: 'orders.revenue', value: 'EMEA', widgetId: 'w-revenue-region' });
  }
  if (on('third-origin')) {
    thirdOriginFrame(ctx);
  }
  if (on('huge-payload')) {
    bus.emit('svc:event:view', { surface: s.surface, path: s.path, title: 'x'.repeat(5 * MiB) });
  }
  if (on('non-json-date') || on('non-json')) {
    nonJson(ctx, new Date());
  }
  if (on('non-json-map') || on('non-json')) {
    nonJson(ctx, new Map([['EMEA', 1200]]));
  }
  if (on('non-json-arraybuffer') || on('non-json')) {
    nonJson(ctx, new Uint8Array([1, 2, 3, 4]).buffer);
  }
  if (on('non-json-cyclic') || on('non-json')) {
    nonJson(ctx, cyclic());
  }
  if (on('flood')) {
    flood(ctx, Number(ctx.params.get('flood')) || 200, Number(ctx.params.get('floodSeconds')) || 3);
  }
}

/** third-origin: a frame of a third origin that posts to the host. @param {Ctx} ctx */
function thirdOriginFrame(ctx) {
  const s = ctx.state;
  const frame = document.createElement('iframe');
  const q = new URLSearchParams({
    target: /** @type {string} */ (ctx.bus.hostOrigin),
    surface: s.surface,
    path: s.path,
  });
  frame.src = `${ctx.config.thirdOrigin}/rogue.html?${q}`;
  frame.title = 'third-origin frame';
  frame.className = 'rogue';
  frame.dataset.testid = 'third-origin-frame';
  document.body.append(frame);
}

/** One drilldown on the dashboard surface whose value JSON cannot carry. @param {Ctx} ctx @param {unknown} value */
function nonJson(ctx, value) {
  if (ctx.state.surface !== 'dashboard') {
    return;
  }
  ctx.bus.emit('svc:event:drilldown', { member: 'orders.revenue', value, widgetId: 'w-revenue-region' });
}

function cyclic() {
  /** @type {Record<string, unknown>} */
  const o = { name: 'cyclic' };
  o.self = o;
  return o;
}

/**
 * Posts `rate` view events per second for `seconds` seconds (rate × seconds in all).
 * @param {Ctx} ctx @param {number} rate @param {number} seconds
 */
function flood(ctx, rate, seconds) {
  const s = ctx.state;
  const total = Math.round(Math.min(rate, 100_000) * Math.min(seconds, 600));
  const start = performance.now();
  let sent = 0;
  const tick = () => {
    const due = Math.min(total, Math.round(((performance.now() - start) / 1000) * rate));
    for (; sent < due; sent++) {
      ctx.bus.emit('svc:event:view', { surface: s.surface, path: s.path, title: `flood #${sent + 1}` });
    }
    if (sent < total) {
      setTimeout(tick, 20);
    }
  };
  tick();
}
