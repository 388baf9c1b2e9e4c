// Response shapes of the mock API, following the spec's Report, Workspace item and Notification tables.
import { deriveSchedule } from './schedule.mjs';

/** @typedef {import('./store.mjs').Store} Store @typedef {import('./store.mjs').Item} Item @typedef {import('./store.mjs').User} User */

const REPORT_OPTIONAL = [
  'description',
  'title',
  'endResultCell',
  'resultLocation',
  'externalWorkbookId',
  'jsonQuery',
  'sqlQuery',
  'meta',
  'pivotItems',
  'refreshedBy',
  'rolesWithAccess',
  'source',
  'version',
  'workbookId',
];

/** ResourceOwner: `{id, email, firstName, picture}`. @param {User | undefined} u */
function resourceOwner(u) {
  if (!u) {
    return { id: 0, email: 'unknown@invalid', firstName: null, picture: null };
  }
  return { id: u.id, email: u.email, firstName: u.firstName ?? null, picture: u.picture ?? null };
}

/** @param {string} name */
const slugify = (name) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The Report object. `canEdit`/`canManage` are computed for the caller.
 * @param {Store} store @param {Item} r @param {User} caller
 */
export function toReport(store, r, caller) {
  /** @type {Record<string, unknown>} */
  const out = {
    id: r.id,
    publicId: r.publicId,
    deploymentId: r.deploymentId,
    userId: r.userId,
    user: resourceOwner(store.user(r.userId)),
    name: r.name,
    refreshedByUser: resourceOwner(store.user(r.refreshedBy ?? r.userId)),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    type: 'REPORT',
    createdBy: r.createdBy ?? r.userId,
    canEdit: store.can(caller, r, 'edit'),
    canManage: store.can(caller, r, 'manage'),
    externalWorkbookPlacements:
      r.externalWorkbookPlacements == null ? null : structuredClone(r.externalWorkbookPlacements),
    folderId: r.folderId ?? null,
    folderPath: store.folderPath(r.deploymentId, r.folderId),
  };
  for (const key of REPORT_OPTIONAL) {
    out[key] = r[key] ?? null;
  }
  return out;
}

/** @param {Record<string, number>} p */
const position = (p) => ({ h: p?.h ?? 4, w: p?.w ?? 6, x: p?.x ?? 0, y: p?.y ?? 0 });

/** DashboardConfig with every documented member present. @param {any} c */
function dashboardConfig(c) {
  if (!c) {
    return undefined;
  }
  const sizes = ['lg', 'md', 'sm', 'xs', 'xxs'];
  return {
    title: c.title ?? '',
    description: c.description ?? '',
    kind: c.kind ?? 'CLASSIC',
    settings: c.settings ?? {},
    theme: c.theme ?? {},
    app: c.app ?? { entry: 'index.html', html: '', files: {}, manifest: { dependencies: {}, version: 1 } },
    layout: c.layout ?? {
      breakpoints: { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 },
      cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
      containerPadding: [16, 16],
      margin: [12, 12],
      rowHeight: 48,
    },
    widgets: (c.widgets ?? []).map((/** @type {any} */ w) => ({
      id: w.id,
      position: position(w.position),
      type: w.type ?? 'CHART',
      config: w.config ?? {},
      responsiveLayouts: w.responsiveLayouts ?? Object.fromEntries(sizes.map((s) => [s, position(w.position)])),
      style: w.style ?? {},
    })),
  };
}

/** @param {Store} store @param {Item} wb */
function publishedDashboard(store, wb) {
  const p = wb.publishedDashboard;
  if (!p) {
    return undefined;
  }
  const config = dashboardConfig(wb.dashboardPublished ?? wb.dashboardDraft);
  const snapshots = store.data.reports
    .filter((r) => r.deploymentId === wb.deploymentId && r.workbookId === wb.id)
    .map((r) => ({
      id: r.id * 10 + 1,
      reportId: r.id,
      versionNumber: r.version ?? 1,
      name: r.name,
      title: r.title ?? r.name,
      description: r.description ?? '',
      kind: 'vega',
      spec: JSON.stringify({ mark: 'bar' }),
      sqlQuery: r.sqlQuery ?? '',
      isSourceReport: true,
      meta: r.meta ?? {},
      preferences: { columnFormats: {} },
      fillMissingRows: { member: '', excludedDimensions: [] },
      periodComparisons: [],
    }));
  return {
    id: p.id,
    deploymentId: wb.deploymentId,
    publicId: p.publicId,
    workbookId: wb.id,
    versionId: p.versionId ?? 1,
    versionNumber: p.versionNumber ?? 1,
    status: p.status ?? 'draft',
    allowEmbed: p.allowEmbed ?? true,
    config,
    createdBy: p.createdBy ?? wb.userId,
    title: p.title ?? config?.title ?? wb.name,
    description: p.description ?? config?.description ?? '',
    fromSharedWorkspace: p.fromSharedWorkspace ?? false,
    restrictDataDownload: p.restrictDataDownload ?? false,
    useBoardDashboards: p.useBoardDashboards ?? false,
    reportSnapshots: snapshots,
  };
}

/**
 * The Workspace item shape, for a workbook, report or folder.
 * `folderId` is the containing folder, null at the workspace root; `folderPath` runs from the root to it.
 * @param {Store} store @param {'WORKBOOK'|'REPORT'|'FOLDER'} type @param {Item} item @param {User} caller
 */
export function toWorkspaceItem(store, type, item, caller) {
  const owner = store.user(item.userId);
  const folderId = type === 'FOLDER' ? (item.parentId ?? null) : (item.folderId ?? null);
  /** @type {Record<string, unknown>} */
  const out = {
    id: item.id,
    deploymentId: item.deploymentId,
    name: item.name,
    type,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    createdBy: item.createdBy ?? item.userId,
    userId: item.userId,
    user: {
      email: owner?.email ?? '',
      id: item.userId,
      firstName: owner?.firstName ?? '',
      picture: owner?.picture ?? '',
    },
    calculatedFields: item.calculatedFields ?? {},
    meta: item.meta ?? {},
    slug: item.slug ?? slugify(item.name),
    folderId,
    folderPath: store.folderPath(item.deploymentId, folderId),
    isFavorite: (item.favoriteOf ?? []).includes(caller.id),
  };
  if (type === 'WORKBOOK') {
    const draft = dashboardConfig(item.dashboardDraft);
    if (draft) {
      out.dashboardDraft = draft;
    }
    const published = dashboardConfig(item.dashboardPublished);
    if (published) {
      out.dashboardPublished = published;
    }
    const pd = publishedDashboard(store, item);
    if (pd) {
      out.publishedDashboard = pd;
    }
  }
  return out;
}

/** The Notification object; the cron fields follow the stored schedule fields, filters carry `operator`, recipients are never part of it. @param {Item} n */
export function toNotification(n) {
  const { cronExpression, humanReadableSchedule } = deriveSchedule(/** @type {any} */ (n));
  return {
    id: n.id,
    deploymentId: n.deploymentId,
    dashboardId: n.dashboardId,
    cronExpression,
    humanReadableSchedule,
    timezone: n.timezone,
    isEnabled: n.isEnabled,
    notificationEnabled: n.notificationEnabled,
    notificationFormat: n.notificationFormat,
    filters: (n.filters ?? []).map((/** @type {any} */ f) => ({
      member: f.member,
      value: f.value,
      operator: 'equals',
      caseSensitive: f.caseSensitive ?? null,
      startInclusive: f.startInclusive ?? null,
      endInclusive: f.endInclusive ?? null,
    })),
    timeGrains: (n.timeGrains ?? []).map((/** @type {any} */ g) => ({ grain: g.grain, member: g.member })),
  };
}
