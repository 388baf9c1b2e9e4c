// The dashboard surface: a published dashboard with widgets, exports, drill-down and the dashboard agent.
import { createAssistant, listenForQuestions } from './chat.js';
import { aggregate, applyFilters, dayIn, esc, tableHtml, widgetHtml } from './widgets.js';

/** @typedef {import('./main.js').Ctx} Ctx @typedef {import('./widgets.js').WidgetRun} WidgetRun @typedef {import('./widgets.js').Widget} Widget */

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** @param {Ctx} ctx @returns {import('./main.js').Surface} */
export function dashboardSurface(ctx) {
  const s = ctx.state;
  const script = ctx.params.get('script') === 'full';
  // script=full: the scripted user's export, drill-down and question, done once, after a load that is still current.
  let scripted = false;
  const failing = new Set((ctx.params.get('failWidget') ?? '').split(',').filter(Boolean));
  const assistant = createAssistant(ctx, { agentId: 'dashboard-agent' });
  listenForQuestions(assistant);
  /** @type {any} */ let workbook = null;
  /** @type {Widget[]} */ let widgets = [];
  /** @type {Map<string, WidgetRun>} */ const runs = new Map();
  /** @type {Record<string, any>[]} */ let rows = [];
  /** @type {'overview' | 'data' | null} */ let tab = 'overview';
  /** @type {{title: string, key: string, rows: Record<string, any>[]} | null} */ let drilled = null;
  let runId = 0;
  let started = false;
  let loadError = '';
  /** @type {Promise<void> | null} */ let loading = null;

  const base = () => `/embed/dashboard/${encodeURIComponent(/** @type {string} */ (s.publicId))}`;
  const title = () => workbook?.publishedDashboard?.title ?? workbook?.name ?? '';

  /** Re-runs every widget query; only the newest run reports dashboard-loaded. @param {string} reason */
  async function run(reason) {
    const id = ++runId;
    const start = reason === 'load' ? ctx.mountTime : performance.now();
    for (const w of widgets) {
      runs.set(w.id, { widget: w, status: 'loading', points: [], rows: [] });
    }
    ctx.render();
    try {
      const dataset = workbook.dashboardPublished?.settings?.dataset ?? 'orders';
      rows = (await ctx.api(`/embed-api/datasets/${encodeURIComponent(dataset)}`)).rows;
    } catch (err) {
      if (id !== runId) {
        return;
      }
      if (/** @type {any} */ (err).status === 401) {
        return ctx.fail('The embed session has expired', 'SessionExpiredError', 'query');
      }
      rows = [];
      ctx.bus.emit('svc:event:error', {
        message: /** @type {Error} */ (err).message,
        name: 'QueryError',
        context: 'dataset',
        fatal: false,
      });
    }
    await Promise.all(
      widgets.map(async (w, i) => {
        if (i === widgets.length - 1 && ctx.faults.has('no-dashboard-loaded')) {
          s.withheld.push('svc:event:dashboard-loaded');
          return new Promise(() => {}); // the last widget's query never finishes: it stays "loading"
        }
        await sleep(60 + 35 * i);
        if (id !== runId || s.down) {
          return;
        }
        const r = /** @type {WidgetRun} */ (runs.get(w.id));
        if (failing.has(w.id)) {
          r.status = 'error';
          r.error = 'query timed out (simulated)';
          ctx.bus.emit('svc:event:error', {
            message: `Query failed for widget "${w.config.title}"`,
            name: 'QueryError',
            context: `widget:${w.id}`,
            fatal: false,
          });
        } else {
          r.rows = applyFilters(rows, s.filters);
          r.points = aggregate(w, r.rows, s.timezone);
          r.status = 'ok';
        }
        ctx.render();
      }),
    );
    if (id !== runId || s.down) {
      return;
    }
    s.loadCount++;
    ctx.bus.emit('svc:event:dashboard-loaded', {
      publicId: s.publicId,
      widgetCount: widgets.length,
      loadDurationMs: Math.round(performance.now() - start),
    });
    ctx.faults.afterDashboardLoaded();
    ctx.render();
    if (script && !scripted) {
      await sleep(50);
      // A refresh or filter that came meanwhile started another load (its widgets are loading again, so nothing
      // could be exported or drilled into): the scripted user acts once that one is done.
      if (id !== runId || s.down) {
        return;
      }
      scripted = true;
      const first = widgets.find((w) => w.config.chart === 'bar' && !failing.has(w.id))?.id;
      exportData('csv', first);
      drill(first, 0);
      assistant.ask('Which region grew fastest?');
    }
  }

  /** @param {string} format @param {string} [widgetId] */
  function exportData(format, widgetId) {
    if (!['csv', 'xlsx', 'png', 'pdf'].includes(format) || !workbook) {
      return null;
    }
    const dataExport = format === 'csv' || format === 'xlsx';
    if (dataExport && !s.allowExport) {
      return null;
    }
    const r = widgetId
      ? runs.get(widgetId)
      : dataExport
        ? [...runs.values()].find((x) => x.status === 'ok')
        : undefined;
    if ((widgetId || dataExport) && r?.status !== 'ok') {
      return null;
    }
    /** @type {Record<string, unknown>} */
    const payload = r
      ? { format, target: 'widget', widgetId: r.widget.id, title: r.widget.config.title }
      : { format, target: 'dashboard', title: title() };
    if (dataExport && r) {
      payload.rowCount = r.points.length;
    }
    ctx.bus.emit('svc:event:download', payload);
    ctx.toast(`⬇ ${payload.title}.${format}${dataExport ? ` (${payload.rowCount} ${ctx.t('rows')})` : ''}`);
    return payload;
  }

  /** @param {string} [widgetId] @param {number} [index] */
  function drill(widgetId, index = 0) {
    const r = widgetId
      ? runs.get(widgetId)
      : [...runs.values()].find((x) => x.status === 'ok' && x.widget.config.chart !== 'kpi');
    const point = r?.status === 'ok' ? r.points[index] : undefined;
    if (!r || !point) {
      return null;
    }
    const w = r.widget;
    /** @type {Record<string, unknown>} */
    const payload = {
      member: w.config.measure,
      value: w.config.chart === 'kpi' ? point.value : point.key,
      widgetId: w.id,
    };
    const dim = w.config.dimension ?? '';
    const detail =
      w.config.chart === 'kpi'
        ? r.rows
        : r.rows.filter(
            (row) => (w.config.chart === 'byDay' ? dayIn(row[dim], s.timezone) : String(row[dim])) === point.key,
          );
    drilled = { title: `${w.config.title}: ${point.key}`, key: point.key, rows: detail };
    ctx.bus.emit('svc:event:drilldown', payload);
    ctx.render();
    return payload;
  }

  return {
    match: (path) => (path === base() ? 'overview' : path === `${base()}/data` ? 'data' : null),
    async load(page) {
      loading ??= (async () => {
        try {
          workbook = await ctx.api(`/api/v1/deployments/${s.deploymentId}/workbooks/${s.workbookId}`);
          widgets = (workbook.dashboardPublished ?? workbook.dashboardDraft)?.widgets ?? [];
          if (script && widgets.length > 1) {
            failing.add(widgets[widgets.length - 1].id);
          }
        } catch (err) {
          if (/** @type {any} */ (err).status === 401) {
            ctx.fail('The embed session has expired', 'SessionExpiredError', 'auth');
          }
          loadError = /** @type {Error} */ (err).message;
          ctx.bus.emit('svc:event:error', {
            message: loadError,
            name: 'LoadError',
            context: 'dashboard',
            fatal: false,
          });
        }
        await ctx.pageDelay();
      })();
      await loading;
      tab = workbook ? page : null;
      return { title: tab ? title() : ctx.t('notFound') };
    },
    afterView() {
      if (!started && workbook) {
        started = true;
        void run('load');
      }
    },
    rerun(reason) {
      if (started) {
        void run(reason);
      } else {
        ctx.render();
      }
    },
    render() {
      const t = ctx.t;
      if (!workbook && !loadError) {
        return `<div class="skeleton">${esc(t('loading'))}</div>`;
      }
      const view = { locale: s.locale, timezone: s.timezone, t, allowExport: s.allowExport, exports: true };
      const tabs = `<nav class="tabs">
        <a data-route href="${base()}" class="${tab === 'overview' ? 'active' : ''}" data-testid="tab-overview">${esc(t('overview'))}</a>
        <a data-route href="${base()}/data" class="${tab === 'data' ? 'active' : ''}" data-testid="tab-data">${esc(t('data'))}</a>
        <span class="spacer"></span>
        <button data-export="png" data-testid="export-dashboard-png">PNG</button><button data-export="pdf" data-testid="export-dashboard-pdf">PDF</button></nav>`;
      let main = `<p class="notfound" data-testid="not-found">${esc(t('notFound'))}${loadError ? `: ${esc(loadError)}` : ''}</p>`;
      if (tab === 'overview') {
        main = `<div class="grid">${[...runs.values()].map((r) => widgetHtml(r, view)).join('')}</div>`;
      }
      if (tab === 'data') {
        main = tableHtml(applyFilters(rows, s.filters), s);
      }
      const drillPanel = drilled
        ? `<section class="drill card" data-testid="drill-panel"><header><h3>${esc(t('drill'))} · ${esc(drilled.title)}</h3><button data-close-drill>×</button></header>${tableHtml(drilled.rows, s)}</section>`
        : '';
      const status = `<p class="status muted" data-testid="load-count" data-count="${s.loadCount}">dashboard-loaded × ${s.loadCount}</p>`;
      return `${tabs}${drillPanel}${main}${status}${assistant.html()}`;
    },
    onClick(_e, el) {
      if (el.dataset.export) {
        exportData(el.dataset.export, el.dataset.widget);
      } else if (el.dataset.mark !== undefined) {
        drill(el.dataset.widget, Number(el.dataset.mark));
      } else if (el.hasAttribute('data-close-drill')) {
        drilled = null;
        ctx.render();
      }
    },
    hooks: {
      exportData,
      drill,
      askAI: (/** @type {string} */ q, /** @type {any} */ outcome) => assistant.ask(q, outcome),
      failWidget: (/** @type {string} */ id) => void failing.add(id),
      extraState: () => ({
        tab,
        widgets: [...runs.values()].map((r) => ({
          id: r.widget.id,
          title: r.widget.config.title,
          status: r.status,
          points: r.points,
        })),
        drilled: drilled?.key ?? null,
        aiTurns: assistant.turns.map((x) => ({ query: x.query, status: x.status })),
      }),
    },
  };
}
