// Widgets of the emulated dashboards: query results (filters and time zone applied) and their rendering.

/**
 * @typedef {{id: string, type: string, config: {title: string, chart: 'bar'|'byDay'|'kpi', view: string, measure: string, dimension?: string}}} Widget
 * @typedef {{key: string, value: number}} Point
 * @typedef {{widget: Widget, status: 'loading'|'ok'|'error', points: Point[], rows: Record<string, any>[], error?: string}} WidgetRun
 */

/** Rows that pass every filter; a filter on a member the rows lack filters nothing out. @param {Record<string, any>[]} rows @param {Record<string, any[]>} filters */
export function applyFilters(rows, filters) {
  const active = Object.entries(filters).filter(([member]) => rows.length === 0 || member in rows[0]);
  return rows.filter((r) => active.every(([member, values]) => values.map(String).includes(String(r[member]))));
}

/** Calendar day of an instant in a time zone, as YYYY-MM-DD. @param {string} iso @param {string} timeZone */
export function dayIn(iso, timeZone) {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}

/** @param {Widget} w @param {Record<string, any>[]} rows @param {string} timeZone @returns {Point[]} */
export function aggregate(w, rows, timeZone) {
  const { chart, measure, dimension } = w.config;
  if (chart === 'kpi') {
    return [{ key: 'total', value: rows.reduce((sum, r) => sum + (Number(r[measure]) || 0), 0) }];
  }
  /** @type {Map<string, number>} */
  const groups = new Map();
  for (const r of rows) {
    const key =
      chart === 'byDay'
        ? dayIn(r[/** @type {string} */ (dimension)], timeZone)
        : String(r[/** @type {string} */ (dimension)]);
    groups.set(key, (groups.get(key) ?? 0) + (Number(r[measure]) || 0));
  }
  const points = [...groups].map(([key, value]) => ({ key, value }));
  return chart === 'byDay' ? points.sort((a, b) => a.key.localeCompare(b.key)) : points;
}

/** @param {string} s */
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * HTML of one widget card. Chart marks are buttons `data-testid="mark-<widgetId>-<index>"` (click = drill down).
 * @param {WidgetRun} run
 * @param {{locale: string, timezone: string, t: (k: any) => string, allowExport: boolean, exports: boolean}} view
 */
export function widgetHtml(run, view) {
  const { widget: w } = run;
  const num = new Intl.NumberFormat(view.locale, { maximumFractionDigits: 0 });
  const tools = view.exports
    ? `<span class="tools">${view.allowExport ? `<button data-export="csv" data-widget="${w.id}" data-testid="export-csv-${w.id}">CSV</button><button data-export="xlsx" data-widget="${w.id}" data-testid="export-xlsx-${w.id}">XLSX</button>` : ''}<button data-export="png" data-widget="${w.id}" data-testid="export-png-${w.id}">PNG</button></span>`
    : '';
  let body;
  if (run.status === 'loading') {
    body = `<div class="skeleton">${esc(view.t('loading'))}</div>`;
  } else if (run.status === 'error') {
    body = `<div class="widget-error">${esc(view.t('failed'))}: ${esc(run.error ?? '')}</div>`;
  } else if (w.config.chart === 'kpi') {
    body = `<button class="kpi mark" data-mark="0" data-widget="${w.id}" data-testid="mark-${w.id}-0">${num.format(run.points[0]?.value ?? 0)}</button>`;
  } else {
    const max = Math.max(1, ...run.points.map((p) => p.value));
    body = `<div class="bars">${
      run.points
        .map((p, i) => {
          const label =
            w.config.chart === 'byDay'
              ? new Intl.DateTimeFormat(view.locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
                  new Date(`${p.key}T00:00:00Z`),
                )
              : p.key;
          return `<button class="bar mark" data-mark="${i}" data-widget="${w.id}" data-testid="mark-${w.id}-${i}" title="${esc(p.key)}: ${num.format(p.value)}">
          <span class="bar-label">${esc(label)}</span><span class="bar-track"><span class="bar-fill" style="width:${(100 * p.value) / max}%"></span></span><span class="bar-value">${num.format(p.value)}</span></button>`;
        })
        .join('') || `<div class="muted">0 ${esc(view.t('rows'))}</div>`
    }</div>`;
  }
  return `<article class="widget card" data-testid="widget-${w.id}" data-status="${run.status}" data-points="${run.points.length}">
    <header><h3>${esc(w.config.title)}</h3>${tools}</header>${body}</article>`;
}

/** A table of the filtered rows, times shown in the time zone. @param {Record<string, any>[]} rows @param {{locale: string, timezone: string}} view */
export function tableHtml(rows, view) {
  if (!rows.length) {
    return '<p class="muted">0</p>';
  }
  const cols = Object.keys(rows[0]);
  const time = new Intl.DateTimeFormat(view.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: view.timezone,
  });
  const num = new Intl.NumberFormat(view.locale);
  const cell = (/** @type {string} */ c, /** @type {any} */ v) =>
    c.endsWith('_at') ? time.format(new Date(v)) : typeof v === 'number' ? num.format(v) : String(v);
  return `<table class="rows" data-testid="data-table"><thead><tr>${cols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead>
    <tbody>${rows.map((r) => `<tr>${cols.map((c) => `<td>${esc(cell(c, r[c]))}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

export { esc };
