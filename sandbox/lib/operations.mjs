// The four platform operations of the spec, on the in-memory store. Each throws HttpError for a refusal.
import { HttpError } from './http.mjs';
import { toNotification, toReport, toWorkspaceItem } from './shapes.mjs';
import { RANGES, SCHEDULE_TYPES, isValidCron } from './schedule.mjs';
import * as v from './validate.mjs';

/** @typedef {import('./store.mjs').Store} Store @typedef {import('./store.mjs').User} User */

/** @param {Store} store @param {number} deploymentId */
function deployment(store, deploymentId) {
  if (!store.deployment(deploymentId)) {
    throw new HttpError(404, `Deployment ${deploymentId} not found`);
  }
}

/** @param {string} message */
const forbidden = (message) => new HttpError(403, message);

// ---------------------------------------------------------------- 1. disconnect

/** `Sheet!A1` or `'My sheet'!$A$1` → `{sheetName, anchorCell}`; null when it does not name both. @param {unknown} loc */
function parseResultLocation(loc) {
  if (typeof loc !== 'string') {
    return null;
  }
  const m = /^(?:'((?:[^']|'')+)'|([^!']+))!(\$?[A-Za-z]{1,3}\$?\d+)(?::\$?[A-Za-z]{1,3}\$?\d+)?$/.exec(loc.trim());
  if (!m) {
    return null;
  }
  return { sheetName: m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2], anchorCell: m[3] };
}

/** @param {unknown} a @param {unknown} b */
const sameCell = (a, b) =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.replace(/\$/g, '').toUpperCase() === b.replace(/\$/g, '').toUpperCase();

/** @param {any} p */
const sheetOf = (p) => p.sheetName ?? parseResultLocation(p.resultLocation)?.sheetName;
/** @param {any} p */
const anchorOf = (p) => p.anchorCell ?? parseResultLocation(p.resultLocation)?.anchorCell;

/**
 * Index of the one placement the address names, or -1.
 * @param {any[]} placements @param {Record<string, string | null | undefined>} a
 */
function findPlacement(placements, a) {
  /** @type {(p: any) => boolean} */
  let matches;
  if (a.placementId != null) {
    matches = (p) => p.id != null && p.id === a.placementId;
  } else if (a.resultLocation != null) {
    const loc = parseResultLocation(a.resultLocation);
    if (!loc) {
      return -1;
    }
    matches = (p) =>
      sheetOf(p) === loc.sheetName &&
      sameCell(anchorOf(p), loc.anchorCell) &&
      (a.externalWorkbookId == null || p.workbookId === a.externalWorkbookId);
  } else {
    // Legacy addressing: spreadsheet, sheet name and anchor are all needed; sheetId never stands in for the name.
    if (!a.externalWorkbookId || !a.sheetName || !a.anchorCell) {
      return -1;
    }
    matches = (p) =>
      p.workbookId === a.externalWorkbookId && sheetOf(p) === a.sheetName && sameCell(anchorOf(p), a.anchorCell);
  }
  // sheetId only narrows: a placement stored under another sheetId is out. One stored without a sheetId has no id to differ.
  const narrowed =
    a.sheetId == null
      ? matches
      : (/** @type {any} */ p) => matches(p) && (p.sheetId == null || p.sheetId === a.sheetId);
  return placements.findIndex(narrowed);
}

/** @param {Store} store @param {User} user @param {{deploymentId:number, reportId:number}} params @param {unknown} body */
export function disconnectReportFromWorkbook(store, user, { deploymentId, reportId }, body) {
  const input = body === undefined ? {} : v.objectBody(body, 'Request body');
  /** @type {Record<string, string | null | undefined>} */
  const address = {};
  for (const key of ['placementId', 'externalWorkbookId', 'sheetName', 'anchorCell', 'resultLocation', 'sheetId']) {
    address[key] = v.stringOrNull(input, key);
  }
  deployment(store, deploymentId);
  const report = store.find('reports', deploymentId, reportId);
  if (!report) {
    throw new HttpError(404, `Report ${reportId} not found in deployment ${deploymentId}`);
  }
  if (!store.can(user, report, 'read')) {
    throw forbidden(`No read access to report ${reportId}`);
  }
  const placements = report.externalWorkbookPlacements;
  if (Array.isArray(placements)) {
    const index = findPlacement(placements, address);
    if (index >= 0) {
      placements.splice(index, 1);
    }
  }
  return toReport(store, report, user);
}

// ---------------------------------------------------------------- 2. move

const KINDS = /** @type {const} */ ({ WORKBOOK: 'workbooks', REPORT: 'reports', FOLDER: 'folders' });

/** @param {Store} store @param {User} user @param {{deploymentId:number}} params @param {unknown} body */
export function moveWorkspaceItem(store, user, { deploymentId }, body) {
  if (body === undefined) {
    throw v.bad('Request body is required: {type, id, folderId}');
  }
  const input = v.objectBody(body, 'Request body');
  const type = v.oneOf(input, 'type', /** @type {const} */ (['WORKBOOK', 'REPORT', 'FOLDER']));
  const id = v.integer(input, 'id');
  if (!('folderId' in input)) {
    throw v.bad('body.folderId is required: a folder id, or null for the workspace root');
  }
  const folderId = input.folderId === null ? null : v.integer(input, 'folderId');

  deployment(store, deploymentId);
  const item = store.find(KINDS[type], deploymentId, id);
  if (!item) {
    throw new HttpError(404, `${type} ${id} not found in deployment ${deploymentId}`);
  }
  const dest = folderId === null ? null : store.find('folders', deploymentId, folderId);
  if (folderId !== null && !dest) {
    throw v.bad(`Destination folder ${folderId} does not exist in deployment ${deploymentId}`);
  }
  if (type === 'FOLDER' && dest && store.isSelfOrDescendant(deploymentId, dest.id, item.id)) {
    throw v.bad(`Folder ${id} cannot be moved into itself or one of its descendants (folder ${folderId})`);
  }

  if (type === 'WORKBOOK') {
    if (!store.can(user, item, 'manage')) {
      throw forbidden(`Moving workbook ${id} needs manage access to it`);
    }
    if (dest && !store.can(user, dest, 'edit')) {
      throw forbidden(`Moving into folder ${folderId} needs edit access to it`);
    }
  } else if (type === 'REPORT') {
    if (!store.can(user, item, 'edit') || !store.hasPermission(user, 'ReportManage')) {
      throw forbidden(`Moving report ${id} needs edit access to it and the ReportManage permission`);
    }
  } else {
    if (!store.can(user, item, 'manage')) {
      throw forbidden(`Moving folder ${id} needs manage access to it`);
    }
    if (dest && !store.can(user, dest, 'edit')) {
      throw forbidden(`Moving into folder ${folderId} needs manage or edit access to it`);
    }
  }

  if (type === 'FOLDER') {
    item.parentId = folderId;
  } else {
    item.folderId = folderId;
  }
  item.updatedAt = new Date().toISOString();
  return toWorkspaceItem(store, type, item, user);
}

// ---------------------------------------------------------------- 3. get workbook

/** @param {Store} store @param {User} user @param {{deploymentId:number, workbookId:number}} params */
export function getWorkbook(store, user, { deploymentId, workbookId }) {
  deployment(store, deploymentId);
  const wb = store.find('workbooks', deploymentId, workbookId);
  if (!wb) {
    throw new HttpError(404, `Workbook ${workbookId} not found in deployment ${deploymentId}`);
  }
  return toWorkspaceItem(store, 'WORKBOOK', wb, user);
}

// ---------------------------------------------------------------- 4. update notification

/** @param {unknown} f @param {number} i */
function filterInput(f, i) {
  const where = `body.filters[${i}]`;
  const o = v.objectBody(f, where);
  const out = { member: v.string(o, 'member', where), value: v.string(o, 'value', where) };
  for (const key of ['caseSensitive', 'startInclusive', 'endInclusive']) {
    const x = o[key];
    if (x !== undefined && x !== null && typeof x !== 'boolean') {
      throw v.bad(`${where}.${key} must be a boolean or null`);
    }
    /** @type {any} */ (out)[key] = x ?? null;
  }
  if (!out.member) {
    throw v.bad(`${where}.member must not be empty`);
  }
  return out;
}

/** @param {unknown} g @param {number} i */
function timeGrainInput(g, i) {
  const where = `body.timeGrains[${i}]`;
  const o = v.objectBody(g, where);
  const out = { grain: v.string(o, 'grain', where), member: v.string(o, 'member', where) };
  if (!out.grain || !out.member) {
    throw v.bad(`${where} needs a non-empty grain and member`);
  }
  return out;
}

/** @param {Store} store @param {User} user @param {{deploymentId:number, id:number}} params @param {unknown} body */
export function updateNotification(store, user, { deploymentId, id }, body) {
  if (!store.isAdmin(user)) {
    throw forbidden('Updating a notification needs the admin role');
  }
  const input = body === undefined ? {} : v.objectBody(body, 'Request body');
  /** @type {Record<string, unknown>} */
  const change = {};
  if ('scheduleType' in input) {
    change.scheduleType = v.oneOf(input, 'scheduleType', SCHEDULE_TYPES);
  }
  for (const key of /** @type {const} */ (['hour', 'minute', 'dayOfWeek', 'dayOfMonth'])) {
    if (key in input) {
      change[key] = v.integer(input, key, /** @type {[number, number]} */ (RANGES[key]));
    }
  }
  if ('customCron' in input) {
    const cron = v.string(input, 'customCron');
    if (!isValidCron(cron)) {
      throw v.bad(`body.customCron is not a five-field cron expression: "${cron.slice(0, 80)}"`);
    }
    change.customCron = cron;
  }
  if ('timezone' in input) {
    const tz = v.string(input, 'timezone');
    if (!v.isIanaTimeZone(tz)) {
      throw v.bad(`body.timezone must be an IANA time zone name, got "${tz.slice(0, 80)}"`);
    }
    change.timezone = tz;
  }
  for (const key of ['isEnabled', 'notificationEnabled']) {
    if (key in input) {
      change[key] = v.boolean(input, key);
    }
  }
  if ('notificationFormat' in input) {
    change.notificationFormat = v.oneOf(input, 'notificationFormat', ['png', 'pdf']);
  }
  if ('filters' in input) {
    change.filters = v.array(input, 'filters').map(filterInput);
  }
  if ('timeGrains' in input) {
    change.timeGrains = v.array(input, 'timeGrains').map(timeGrainInput);
  }

  deployment(store, deploymentId);
  const n = store.find('notifications', deploymentId, id);
  if (!n) {
    throw new HttpError(404, `Notification ${id} not found in deployment ${deploymentId}`);
  }
  const next = { ...n, ...change };
  if (next.scheduleType === 'CUSTOM' && !next.customCron) {
    throw v.bad('A CUSTOM schedule needs body.customCron');
  }
  Object.assign(n, change);
  return toNotification(n);
}
