// The app surface (creator mode): the workspace tree with moves, a workbook with its in-app dashboard, an assistant.
import { createAssistant, listenForQuestions } from './chat.js';
import { aggregate, applyFilters, esc, widgetHtml } from './widgets.js';

/** @typedef {import('./main.js').Ctx} Ctx */
/** @typedef {{id: number, name: string, folderId: number | null}} Entry */
/** @typedef {{folders: Entry[], workbooks: Entry[], reports: Entry[]}} Tree */
/** @typedef {{kind: 'home'} | {kind: 'workbook', id: number} | null} Page */

const ICON = {
  FOLDER: '<i class="ico folder"></i>',
  WORKBOOK: '<i class="ico workbook"></i>',
  REPORT: '<i class="ico report"></i>',
};

/** @param {Ctx} ctx @returns {import('./main.js').Surface} */
export function appSurface(ctx) {
  const s = ctx.state;
  const assistant = createAssistant(ctx, { agentId: 'app-assistant' });
  listenForQuestions(assistant);
  /** @type {Tree | null} */ let tree = null;
  /** @type {Page} */ let page = null;
  /** @type {any} */ let workbook = null;
  /** @type {Record<string, any>[]} */ let rows = [];
  let problem = '';
  let moveResult = '';

  const home = () => `/embed/d/${s.deploymentId}/app`;
  const loadTree = async () => {
    tree = await ctx.api(`/embed-api/workspace/${s.deploymentId}`);
  };
  const loadRows = async () => {
    const dataset = workbook?.dashboardDraft?.settings?.dataset;
    rows = dataset ? (await ctx.api(`/embed-api/datasets/${encodeURIComponent(dataset)}`)).rows : [];
  };
  /** @param {unknown} err @param {string} context */
  const failed = (err, context) => {
    if (/** @type {any} */ (err).status === 401) {
      return ctx.fail('The embed session has expired', 'SessionExpiredError', context);
    }
    problem = /** @type {Error} */ (err).message;
    ctx.bus.emit('svc:event:error', { message: problem, name: 'LoadError', context, fatal: false });
  };

  /** Moves a workspace item through the platform API. @param {string} type @param {number} id @param {number | null} folderId */
  async function move(type, id, folderId) {
    try {
      const item = await ctx.api(`/api/v1/deployments/${s.deploymentId}/workspace/move`, {
        method: 'POST',
        body: JSON.stringify({ type, id, folderId }),
      });
      moveResult = `${item.name} → ${item.folderPath.map((/** @type {any} */ f) => f.name).join(' / ') || ctx.t('root')}`;
      await loadTree();
      return { status: 200, body: item };
    } catch (err) {
      moveResult = `HTTP ${/** @type {any} */ (err).status ?? '?'}: ${/** @type {Error} */ (err).message}`;
      return failedMove(err);
    } finally {
      ctx.render();
    }
  }

  return {
    match(path) {
      const m = /^\/embed\/d\/(\d+)\/app(?:\/workbook\/(\d+))?\/?$/.exec(path);
      if (!m || Number(m[1]) !== s.deploymentId) {
        return null;
      }
      return m[2] ? { kind: 'workbook', id: Number(m[2]) } : { kind: 'home' };
    },
    async load(p) {
      page = p;
      workbook = null;
      problem = '';
      const jobs = [loadTree().catch((err) => failed(err, 'workspace'))];
      if (p?.kind === 'workbook') {
        jobs.push(
          ctx.api(`/api/v1/deployments/${s.deploymentId}/workbooks/${p.id}`).then(
            (wb) => (workbook = wb),
            (err) => failed(err, 'workbook'),
          ),
        );
      }
      await Promise.all(jobs);
      await loadRows().catch((err) => failed(err, 'query'));
      await ctx.pageDelay();
      if (workbook) {
        return { title: workbook.name };
      }
      return { title: p?.kind === 'home' ? ctx.t('workspace') : ctx.t('notFound') };
    },
    rerun(reason) {
      if (reason === 'refresh') {
        void Promise.all([loadTree(), loadRows()])
          .catch((err) => failed(err, 'query'))
          .then(() => ctx.render());
      } else {
        ctx.render();
      }
    },
    render() {
      const side = sideHtml(ctx, tree, page, home(), moveResult);
      return `<div class="app-layout">${side}<div class="app-main">${mainHtml(ctx, tree, page, workbook, rows, problem)}${assistant.html()}</div></div>`;
    },
    onClick(_e, el) {
      const spec = el.dataset.move;
      if (!spec) {
        return;
      }
      const [type, id] = spec.split(':');
      const select = /** @type {HTMLSelectElement} */ (
        document.querySelector(`[data-move-target="${type.toLowerCase()}-${id}"]`)
      );
      void move(type, Number(id), select.value === '' ? null : Number(select.value));
    },
    hooks: {
      askAI: (/** @type {string} */ q, /** @type {any} */ outcome) => assistant.ask(q, outcome),
      move,
      extraState: () => ({
        page,
        workbook: workbook ? { id: workbook.id, name: workbook.name, folderId: workbook.folderId } : null,
        moveResult,
      }),
    },
  };
}

/**
 * The workspace tree under a folder (null: the root), each item with its move control.
 * @param {Ctx} ctx @param {Tree | null} tree @param {Page} page @param {string} home
 * @param {number | null} parent @param {Set<number>} shown @returns {string}
 */
function treeHtml(ctx, tree, page, home, parent, shown) {
  if (!tree) {
    return '';
  }
  const t = tree;
  const visible = new Set(t.folders.map((f) => f.id));
  const here = (/** @type {Entry} */ x) =>
    x.folderId === parent || (parent === null && x.folderId !== null && !visible.has(x.folderId));
  const items = [];
  for (const f of t.folders.filter(here)) {
    if (shown.has(f.id)) {
      continue;
    }
    shown.add(f.id);
    items.push(
      `<li><span class="node">${ICON.FOLDER} ${esc(f.name)}</span>${moveControl(ctx, t, 'FOLDER', f)}${treeHtml(ctx, tree, page, home, f.id, shown)}</li>`,
    );
  }
  for (const w of t.workbooks.filter(here)) {
    const active = page?.kind === 'workbook' && page.id === w.id ? 'active' : '';
    items.push(
      `<li><a data-route class="node ${active}" href="${home}/workbook/${w.id}" data-testid="open-workbook-${w.id}">${ICON.WORKBOOK} ${esc(w.name)}</a>${moveControl(ctx, t, 'WORKBOOK', w)}</li>`,
    );
  }
  for (const r of t.reports.filter(here)) {
    items.push(`<li><span class="node">${ICON.REPORT} ${esc(r.name)}</span>${moveControl(ctx, t, 'REPORT', r)}</li>`);
  }
  return items.length ? `<ul class="tree">${items.join('')}</ul>` : '';
}

/** An item's move control: the target folder and the button. @param {Ctx} ctx @param {Tree} t @param {'FOLDER'|'WORKBOOK'|'REPORT'} type @param {Entry} x */
function moveControl(ctx, t, type, x) {
  const key = `${type.toLowerCase()}-${x.id}`;
  const options = [`<option value="">${esc(ctx.t('root'))}</option>`]
    .concat(
      t.folders
        .filter((f) => !(type === 'FOLDER' && f.id === x.id))
        .map((f) => `<option value="${f.id}" ${f.id === x.folderId ? 'selected' : ''}>${esc(f.name)}</option>`),
    )
    .join('');
  return `<span class="move"><select data-testid="move-target-${key}" data-move-target="${key}">${options}</select><button data-move="${type}:${x.id}" data-testid="move-${key}">${esc(ctx.t('move'))}</button></span>`;
}

/** A workbook's page: its title, its folder and its in-app dashboard's widgets. @param {Ctx} ctx @param {any} workbook @param {Record<string, any>[]} rows */
function workbookHtml(ctx, workbook, rows) {
  const s = ctx.state;
  const t = ctx.t;
  const cfg = workbook.dashboardDraft ?? {};
  const view = { locale: s.locale, timezone: s.timezone, t, allowExport: false, exports: false };
  const filtered = applyFilters(rows, s.filters);
  const cards = (cfg.widgets ?? []).map((/** @type {any} */ w) =>
    widgetHtml({ widget: w, status: 'ok', rows: filtered, points: aggregate(w, filtered, s.timezone) }, view),
  );
  const where = workbook.folderPath.map((/** @type {any} */ f) => f.name).join(' / ') || t('root');
  return `<header class="wb-head"><h2 data-testid="workbook-title">${esc(workbook.name)}</h2><span class="muted">${esc(where)}</span></header><div class="grid">${cards.join('')}</div>`;
}

/** The side bar: the workspace tree and the last move's result. @param {Ctx} ctx @param {Tree | null} tree @param {Page} page @param {string} home @param {string} moveResult */
function sideHtml(ctx, tree, page, home, moveResult) {
  return `<aside class="side card"><a data-route href="${home}" class="node" data-testid="app-home">${esc(ctx.t('workspace'))}</a>
        ${treeHtml(ctx, tree, page, home, null, new Set())}<p class="move-result" data-testid="move-result">${esc(moveResult)}</p></aside>`;
}

/**
 * The page: the workspace's figures, a workbook, or not found.
 * @param {Ctx} ctx @param {Tree | null} tree @param {Page} page @param {any} workbook @param {Record<string, any>[]} rows @param {string} problem
 */
function mainHtml(ctx, tree, page, workbook, rows, problem) {
  const t = ctx.t;
  if (workbook) {
    return workbookHtml(ctx, workbook, rows);
  }
  if (page?.kind === 'home') {
    return `<p class="muted">${esc(t('workspace'))}: ${tree ? tree.workbooks.length : 0} workbooks, ${tree ? tree.reports.length : 0} reports</p>`;
  }
  return `<p class="notfound" data-testid="not-found">${esc(t('notFound'))}${problem ? `: ${esc(problem)}` : ''}</p>`;
}

/** What a move that failed answers its caller (the hooks): the HTTP status, the error's message. @param {unknown} err */
function failedMove(err) {
  return {
    status: /** @type {any} */ (err).status ?? 0,
    body: { error: { message: /** @type {Error} */ (err).message } },
  };
}
