// The dashboard surface: a published dashboard with widgets, exports, drill-down and the dashboard agent.
import { createAssistant, listenForQuestions } from './chat.js';
import { aggregate, applyFilters, dayIn, esc, tableHtml, widgetHtml } from './widgets.js';

/** @typedef {import('./main.js').Ctx} Ctx @typedef {import('./widgets.js').WidgetRun} WidgetRun @typedef {import('./widgets.js').Widget} Widget */

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The dashboard's state, shared by its surface and the functions below.
 * @typedef {{ctx: Ctx, script: boolean, scripted: boolean, failing: Set<string>,
 *   assistant: ReturnType<typeof createAssistant>, workbook: any, widgets: Widget[], runs: Map<string, WidgetRun>,
 *   rows: Record<string, any>[], tab: 'overview' | 'data' | null,
 *   drilled: {title: string, key: string, rows: Record<string, any>[]} | null, runId: number, started: boolean,
 *   loadError: string, loading: Promise<void> | null}} Dash
 */

/** @param {Ctx} ctx @returns {import('./main.js').Surface} */
export function dashboardSurface(ctx) {
  const assistant = createAssistant(ctx, { agentId: 'dashboard-agent' });
  listenForQuestions(assistant);
  /** @type {Dash} */
  const d = {
    ctx,
    // script=full: the scripted user's export, drill-down and question, done once, after a load that is still current.
    script: ctx.params.get('script') === 'full',
    scripted: false,
    failing: new Set((ctx.params.get('failWidget') ?? '').split(',').filter(Boolean)),
    assistant,
    workbook: null,
    widgets: [],
    runs: new Map(),
    rows: [],
    tab: 'overview',
    drilled: null,
    runId: 0,
    started: false,
    loadError: '',
    loading: null,
  };
  return {
    match: (path) => (path === base(d) ? 'overview' : path === `${base(d)}/data` ? 'data' : null),
    async load(page) {
      d.loading ??= loadWorkbook(d);
      await d.loading;
      d.tab = d.workbook ? page : null;
      return { title: d.tab ? title(d) : ctx.t('notFound') };
    },
    afterView() {
      if (!d.started && d.workbook) {
        d.started = true;
        void run(d, 'load');
      }
    },
    rerun(reason) {
      if (d.started) {
        void run(d, reason);
      } else {
        ctx.render();
      }
    },
    render: () => dashboardHtml(d),
    onClick(_e, el) {
      if (el.dataset.export) {
        exportData(d, el.dataset.export, el.dataset.widget);
      } else if (el.dataset.mark !== undefined) {
        drill(d, el.dataset.widget, Number(el.dataset.mark));
      } else if (el.hasAttribute('data-close-drill')) {
        d.drilled = null;
        ctx.render();
      }
    },
    hooks: {
      exportData: (/** @type {string} */ format, /** @type {string} */ widgetId) => exportData(d, format, widgetId),
      drill: (/** @type {string} */ widgetId, /** @type {number} */ index) => drill(d, widgetId, index),
      askAI: (/** @type {string} */ q, /** @type {any} */ outcome) => assistant.ask(q, outcome),
      failWidget: (/** @type {string} */ id) => void d.failing.add(id),
      extraState: () => ({
        tab: d.tab,
        widgets: [...d.runs.values()].map((r) => ({
          id: r.widget.id,
          title: r.widget.config.title,
          status: r.status,
          points: r.points,
        })),
        drilled: d.drilled?.key ?? null,
        aiTurns: assistant.turns.map((x) => ({ query: x.query, status: x.status })),
      }),
    },
  };
}

/** @param {Dash} d */
const base = (d) => `/embed/dashboard/${encodeURIComponent(/** @type {string} */ (d.ctx.state.publicId))}`;
/** @param {Dash} d */
const title = (d) => d.workbook?.publishedDashboard?.title ?? d.workbook?.name ?? '';

/** The workbook and its widgets, once; a failure is the dashboard's error event. @param {Dash} d */
async function loadWorkbook(d) {
  const { ctx } = d;
  const s = ctx.state;
  try {
    d.workbook = await ctx.api(`/api/v1/deployments/${s.deploymentId}/workbooks/${s.workbookId}`);
    d.widgets = (d.workbook.dashboardPublished ?? d.workbook.dashboardDraft)?.widgets ?? [];
    if (d.script && d.widgets.length > 1) {
      d.failing.add(d.widgets[d.widgets.length - 1].id);
    }
  } catch (err) {
    if (/** @type {any} */ (err).status === 401) {
      ctx.fail('The embed session has expired', 'SessionExpiredError', 'auth');
    }
    d.loadError = /** @type {Error} */ (err).message;
    ctx.bus.emit('svc:event:error', {
      message: d.loadError,
      name: 'LoadError',
      context: 'dashboard',
      fatal: false,
    });
  }
  await ctx.pageDelay();
}

/** Re-runs every widget query; only the newest run reports dashboard-loaded. @param {Dash} d @param {string} reason */
async function run(d, reason) {
  const { ctx } = d;
  const s = ctx.state;
  const id = ++d.runId;
  const start = reason === 'load' ? ctx.mountTime : performance.now();
  for (const w of d.widgets) {
    d.runs.set(w.id, { widget: w, status: 'loading', points: [], rows: [] });
  }
  ctx.render();
  try {
    const dataset = d.workbook.dashboardPublished?.settings?.dataset ?? 'orders';
    d.rows = (await ctx.api(`/embed-api/datasets/${encodeURIComponent(dataset)}`)).rows;
  } catch (err) {
    if (id !== d.runId) {
      return;
    }
    if (/** @type {any} */ (err).status === 401) {
      return ctx.fail('The embed session has expired', 'SessionExpiredError', 'query');
    }
    d.rows = [];
    ctx.bus.emit('svc:event:error', {
      message: /** @type {Error} */ (err).message,
      name: 'QueryError',
      context: 'dataset',
      fatal: false,
    });
  }
  await Promise.all(d.widgets.map((w, i) => runWidget(d, id, w, i)));
  if (id !== d.runId || s.down) {
    return;
  }
  s.loadCount++;
  ctx.bus.emit('svc:event:dashboard-loaded', {
    publicId: s.publicId,
    widgetCount: d.widgets.length,
    loadDurationMs: Math.round(performance.now() - start),
  });
  ctx.faults.afterDashboardLoaded();
  ctx.render();
  if (d.script && !d.scripted) {
    await sleep(50);
    // A refresh or filter that came meanwhile started another load (its widgets are loading again, so nothing
    // could be exported or drilled into): the scripted user acts once that one is done.
    if (id !== d.runId || s.down) {
      return;
    }
    d.scripted = true;
    const first = d.widgets.find((w) => w.config.chart === 'bar' && !d.failing.has(w.id))?.id;
    exportData(d, 'csv', first);
    drill(d, first, 0);
    d.assistant.ask('Which region grew fastest?');
  }
}

/** One widget's query of run `id` (the i-th widget). @param {Dash} d @param {number} id @param {Widget} w @param {number} i */
async function runWidget(d, id, w, i) {
  const { ctx } = d;
  const s = ctx.state;
  if (i === d.widgets.length - 1 && ctx.faults.has('no-dashboard-loaded')) {
    s.withheld.push('svc:event:dashboard-loaded');
    return new Promise(() => {}); // the last widget's query never finishes: it stays "loading"
  }
  await sleep(60 + 35 * i);
  if (id !== d.runId || s.down) {
    return;
  }
  const r = /** @type {WidgetRun} */ (d.runs.get(w.id));
  if (d.failing.has(w.id)) {
    r.status = 'error';
    r.error = 'query timed out (simulated)';
    ctx.bus.emit('svc:event:error', {
      message: `Query failed for widget "${w.config.title}"`,
      name: 'QueryError',
      context: `widget:${w.id}`,
      fatal: false,
    });
  } else {
    r.rows = applyFilters(d.rows, s.filters);
    r.points = aggregate(w, r.rows, s.timezone);
    r.status = 'ok';
  }
  ctx.render();
}

/** @param {Dash} d @param {string} format @param {string} [widgetId] */
function exportData(d, format, widgetId) {
  const { ctx } = d;
  const s = ctx.state;
  if (!['csv', 'xlsx', 'png', 'pdf'].includes(format) || !d.workbook) {
    return null;
  }
  const dataExport = format === 'csv' || format === 'xlsx';
  if (dataExport && !s.allowExport) {
    return null;
  }
  const r = widgetId
    ? d.runs.get(widgetId)
    : dataExport
      ? [...d.runs.values()].find((x) => x.status === 'ok')
      : undefined;
  if ((widgetId || dataExport) && r?.status !== 'ok') {
    return null;
  }
  /** @type {Record<string, unknown>} */
  const payload = r
    ? { format, target: 'widget', widgetId: r.widget.id, title: r.widget.config.title }
    : { format, target: 'dashboard', title: title(d) };
  if (dataExport && r) {
    payload.rowCount = r.points.length;
  }
  ctx.bus.emit('svc:event:download', payload);
  ctx.toast(`⬇ ${payload.title}.${format}${dataExport ? ` (${payload.rowCount} ${ctx.t('rows')})` : ''}`);
  return payload;
}

/** @param {Dash} d @param {string} [widgetId] @param {number} [index] */
function drill(d, widgetId, index = 0) {
  const { ctx } = d;
  const s = ctx.state;
  const r = widgetId
    ? d.runs.get(widgetId)
    : [...d.runs.values()].find((x) => x.status === 'ok' && x.widget.config.chart !== 'kpi');
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
  d.drilled = { title: `${w.config.title}: ${point.key}`, key: point.key, rows: detail };
  ctx.bus.emit('svc:event:drilldown', payload);
  ctx.render();
  return payload;
}

/** @param {Dash} d */
function dashboardHtml(d) {
  const { ctx } = d;
  const s = ctx.state;
  const t = ctx.t;
  if (!d.workbook && !d.loadError) {
    return `<div class="skeleton">${esc(t('loading'))}</div>`;
  }
  const view = { locale: s.locale, timezone: s.timezone, t, allowExport: s.allowExport, exports: true };
  const tabs = `<nav class="tabs">
        <a data-route href="${base(d)}" class="${d.tab === 'overview' ? 'active' : ''}" data-testid="tab-overview">${esc(t('overview'))}</a>
        <a data-route href="${base(d)}/data" class="${d.tab === 'data' ? 'active' : ''}" data-testid="tab-data">${esc(t('data'))}</a>
        <span class="spacer"></span>
        <button data-export="png" data-testid="export-dashboard-png">PNG</button><button data-export="pdf" data-testid="export-dashboard-pdf">PDF</button></nav>`;
  let main = `<p class="notfound" data-testid="not-found">${esc(t('notFound'))}${d.loadError ? `: ${esc(d.loadError)}` : ''}</p>`;
  if (d.tab === 'overview') {
    main = `<div class="grid">${[...d.runs.values()].map((r) => widgetHtml(r, view)).join('')}</div>`;
  }
  if (d.tab === 'data') {
    main = tableHtml(applyFilters(d.rows, s.filters), s);
  }
  const drillPanel = d.drilled
    ? `<section class="drill card" data-testid="drill-panel"><header><h3>${esc(t('drill'))} · ${esc(d.drilled.title)}</h3><button data-close-drill>×</button></header>${tableHtml(d.drilled.rows, s)}</section>`
    : '';
  const status = `<p class="status muted" data-testid="load-count" data-count="${s.loadCount}">dashboard-loaded × ${s.loadCount}</p>`;
  return `${tabs}${drillPanel}${main}${status}${d.assistant.html()}`;
}
