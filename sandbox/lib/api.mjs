// The tenant origin's JSON endpoints: the spec's platform API (/api/v1) and the sandbox's own embed back end (/embed-api).
import { HttpError, readJsonBody, sendError, sendJson, sleep } from './http.mjs';
import { disconnectReportFromWorkbook, getWorkbook, moveWorkspaceItem, updateNotification } from './operations.mjs';
import { pathId } from './validate.mjs';

/** @typedef {import('./store.mjs').Store} Store @typedef {import('./store.mjs').User} User */
/** @typedef {(store: Store, user: User, params: any, body: unknown) => unknown} Operation */

/** @type {{method:string, pattern:RegExp, names:string[], op:Operation, body:boolean}[]} */
const ROUTES = [
  {
    method: 'DELETE',
    pattern: /^\/api\/v1\/deployments\/([^/]+)\/reports\/([^/]+)\/connect-workbook$/,
    names: ['deploymentId', 'reportId'],
    op: disconnectReportFromWorkbook,
    body: true,
  },
  {
    method: 'POST',
    pattern: /^\/api\/v1\/deployments\/([^/]+)\/workspace\/move$/,
    names: ['deploymentId'],
    op: moveWorkspaceItem,
    body: true,
  },
  {
    method: 'GET',
    pattern: /^\/api\/v1\/deployments\/([^/]+)\/workbooks\/([^/]+)$/,
    names: ['deploymentId', 'workbookId'],
    op: getWorkbook,
    body: false,
  },
  {
    method: 'PUT',
    pattern: /^\/api\/v1\/deployments\/([^/]+)\/notifications\/([^/]+)$/,
    names: ['deploymentId', 'id'],
    op: updateNotification,
    body: true,
  },
];

const CORS_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';

/**
 * CORS for the host origin only: the host page may call the API with an Authorization header.
 * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res @param {string} hostOrigin
 */
function cors(req, res, hostOrigin) {
  res.setHeader('Vary', 'Origin');
  if (req.headers.origin !== hostOrigin) {
    return;
  }
  res.setHeader('Access-Control-Allow-Origin', hostOrigin);
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type');
    res.setHeader('Access-Control-Max-Age', '600');
  }
}

/** @param {Store} store @param {import('node:http').IncomingMessage} req @returns {User} */
function authenticate(store, req) {
  const header = req.headers.authorization;
  if (!header) {
    throw new HttpError(401, 'Missing Authorization header: send "Authorization: Bearer <ACCESS_TOKEN>"');
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) {
    throw new HttpError(401, 'Authorization header must use the Bearer scheme');
  }
  const user = store.userForToken(m[1]);
  if (!user) {
    throw new HttpError(401, 'Invalid or unknown bearer token');
  }
  return user;
}

/**
 * Handles /api/* and /embed-api/* on the tenant origin. Returns false for other paths.
 * @param {{store: Store, hostOrigin: string, log: (line: string) => void}} ctx
 * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res @param {URL} url
 */
export async function handleApi(ctx, req, res, url) {
  const path = url.pathname;
  if (!path.startsWith('/api/') && !path.startsWith('/embed-api/')) {
    return false;
  }
  cors(req, res, ctx.hostOrigin);
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { Allow: CORS_METHODS });
    res.end();
    return true;
  }
  try {
    const result = path.startsWith('/api/')
      ? await platform(ctx.store, req, path)
      : await embedBackend(ctx.store, req, url);
    sendJson(res, 200, result);
  } catch (err) {
    if (err instanceof HttpError) {
      /** @type {Record<string, string>} */
      const headers = {};
      if (err.status === 401) {
        headers['WWW-Authenticate'] = 'Bearer';
      }
      if (err.status === 413) {
        headers.Connection = 'close';
      }
      if (/** @type {any} */ (err).allow) {
        headers.Allow = /** @type {any} */ (err).allow;
      }
      sendError(res, err.status, err.message, headers);
    } else {
      ctx.log(`internal error on ${req.method} ${path}: ${/** @type {Error} */ (err)?.stack ?? err}`);
      sendError(res, 500, 'Internal error in the sandbox (a bug: please report it)');
    }
  }
  return true;
}

/** @param {Store} store @param {import('node:http').IncomingMessage} req @param {string} path */
async function platform(store, req, path) {
  const candidates = ROUTES.filter((r) => r.pattern.test(path));
  if (candidates.length === 0) {
    req.resume();
    throw new HttpError(404, `No such operation: ${req.method} ${path}`);
  }
  const route = candidates.find((r) => r.method === req.method);
  if (!route) {
    req.resume();
    const err = new HttpError(405, `Method ${req.method} not allowed on ${path}`);
    /** @type {any} */ (err).allow = candidates.map((r) => r.method).join(', ');
    throw err;
  }
  const match = /** @type {RegExpExecArray} */ (route.pattern.exec(path));
  let user;
  try {
    user = authenticate(store, req);
  } catch (err) {
    req.resume();
    throw err;
  }
  /** @type {Record<string, number>} */
  const params = {};
  route.names.forEach((name, i) => {
    params[name] = pathId(decodeURIComponent(match[i + 1]), name);
  });
  if (!route.body) {
    req.resume();
  }
  const body = route.body ? await readJsonBody(req) : undefined;
  return route.op(store, user, params, body);
}

/**
 * The sandbox's embed back end, used by the emulated surfaces (not part of the spec):
 * GET /embed-api/session/<id>[?publicId=&delayMs=], GET /embed-api/workspace/<deploymentId>, GET /embed-api/datasets/<name>.
 * @param {Store} store @param {import('node:http').IncomingMessage} req @param {URL} url
 */
async function embedBackend(store, req, url) {
  req.resume();
  if (req.method !== 'GET') {
    throw new HttpError(405, `Method ${req.method} not allowed on ${url.pathname}`);
  }
  const [, , what, name = ''] = url.pathname.split('/');
  if (what === 'session') {
    const delay = Math.min(Number(url.searchParams.get('delayMs')) || 0, 10_000);
    if (delay > 0) {
      await sleep(delay);
    }
    const s = Object.hasOwn(store.data.sessions, name) ? store.data.sessions[name] : undefined;
    if (!s) {
      throw new HttpError(404, `Unknown embed session "${name}"`);
    }
    if (s.expired) {
      throw new HttpError(401, `Embed session "${name}" has expired`);
    }
    /** @type {Record<string, unknown>} */
    const out = {
      session: name,
      mode: s.mode,
      token: s.token,
      deploymentId: s.deploymentId,
      embedTenant: store.data.embedTenant ?? null,
    };
    const publicId = url.searchParams.get('publicId');
    if (publicId) {
      const wb = store.data.workbooks.find(
        (w) => w.deploymentId === s.deploymentId && w.publishedDashboard?.publicId === publicId,
      );
      if (!wb) {
        throw new HttpError(404, `No published dashboard "${publicId}" in deployment ${s.deploymentId}`);
      }
      out.workbookId = wb.id;
    }
    return out;
  }
  const user = authenticate(store, req);
  if (what === 'workspace') {
    const dep = pathId(name, 'deploymentId');
    /** @param {any[]} list @param {string} parentKey */
    const pick = (list, parentKey) =>
      list
        .filter((x) => x.deploymentId === dep && store.can(user, x, 'read'))
        .map((x) => ({ id: x.id, name: x.name, folderId: x[parentKey] ?? null }));
    return {
      folders: pick(store.data.folders, 'parentId'),
      workbooks: pick(store.data.workbooks, 'folderId'),
      reports: pick(store.data.reports, 'folderId'),
    };
  }
  if (what === 'datasets') {
    if (!Object.hasOwn(store.data.datasets, name)) {
      throw new HttpError(404, `Unknown dataset "${name}"`);
    }
    return { rows: store.data.datasets[name] };
  }
  throw new HttpError(404, `No such endpoint: ${url.pathname}`);
}
