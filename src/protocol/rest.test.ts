import { describe, expect, it } from 'vitest';
import { checkRest, matchOperation, type RestExchange } from './rest.ts';
import { RULES } from './rules.ts';

const BASE = 'https://acme.example.com/api/v1/deployments/7';
const auth = { Authorization: 'Bearer tok', 'Content-Type': 'application/json' };
const owner = { id: 1, email: 'a@b.c', firstName: null };
const report = {
  id: 5,
  publicId: 'AbCdEf123456',
  deploymentId: 7,
  userId: 1,
  user: owner,
  name: 'R',
  refreshedByUser: owner,
  createdAt: '2026-01-01',
  updatedAt: '2026-01-02T10:00:00Z',
  type: 'REPORT',
  externalWorkbookPlacements: [
    {
      workbookId: 'wb',
      resultLocation: 'Sheet1!A1',
      id: 'p1',
      sheetName: 'Sheet1',
      anchorCell: 'A1',
      host: 'GOOGLE_SHEETS',
    },
  ],
};
const item = {
  id: 9,
  deploymentId: 7,
  name: 'Q3',
  type: 'WORKBOOK',
  folderId: 3,
  folderPath: [{ id: 3, name: 'Finance' }],
  dashboardDraft: {
    title: 't',
    layout: { rowHeight: 30, cols: { lg: 12 } },
    widgets: [{ id: 'w', position: { h: 1, w: 2, x: 0, y: 0 } }],
  },
};
const notification = {
  id: 4,
  deploymentId: 7,
  dashboardId: 2,
  cronExpression: '0 9 * * *',
  humanReadableSchedule: 'Every day at 09:00',
  timezone: 'UTC',
  isEnabled: true,
  notificationEnabled: true,
  notificationFormat: 'pdf',
  filters: [{ member: 'a.b', value: 'x', operator: 'equals', caseSensitive: null }],
  timeGrains: [],
};

const ex = (
  method: string,
  path: string,
  body: unknown,
  status: number,
  res: unknown,
  headers: Record<string, string> = auth,
): RestExchange => ({
  method,
  url: `${BASE}${path}`,
  status,
  requestHeaders: headers,
  requestBody: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  responseBody: res === undefined ? undefined : typeof res === 'string' ? res : JSON.stringify(res),
});
const rules = (x: RestExchange) => checkRest(x)!.issues.map((i) => i.rule);

describe('matching the four operations', () => {
  it.each([
    ['DELETE', '/reports/5/connect-workbook', 'disconnectReportFromWorkbook'],
    ['POST', '/workspace/move', 'moveWorkspaceItem'],
    ['GET', '/workbooks/9', 'getWorkbook'],
    ['PUT', '/notifications/4', 'updateNotification'],
    ['GET', '/notifications/4', null],
    ['GET', '/workbooks', null],
    ['GET', '/build/api/v1/x', null],
  ])('%s %s → %s', (method, path, id) => {
    expect(matchOperation(method, `${BASE}${path}?x=1`)?.op.id ?? null).toBe(id);
  });
});

describe('valid exchanges', () => {
  it.each([
    ['disconnect by placementId', ex('DELETE', '/reports/5/connect-workbook', { placementId: 'p1' }, 200, report)],
    [
      'disconnect legacy',
      ex(
        'DELETE',
        '/reports/5/connect-workbook',
        { externalWorkbookId: 'wb', sheetName: 'S', anchorCell: 'A1', sheetId: '12' },
        200,
        report,
      ),
    ],
    [
      'disconnect by resultLocation',
      ex('DELETE', '/reports/5/connect-workbook', { resultLocation: 'S!A1' }, 200, report),
    ],
    ['move to a folder', ex('POST', '/workspace/move', { type: 'WORKBOOK', id: 9, folderId: 3 }, 200, item)],
    [
      'move to the root',
      ex('POST', '/workspace/move', { type: 'WORKBOOK', id: 9, folderId: null }, 200, {
        ...item,
        folderId: null,
        folderPath: [],
      }),
    ],
    [
      'move 404',
      ex('POST', '/workspace/move', { type: 'REPORT', id: 99, folderId: null }, 404, {
        error: { status: 404, message: 'not found' },
      }),
    ],
    ['get workbook', ex('GET', '/workbooks/9', undefined, 200, item)],
    [
      'update notification',
      ex('PUT', '/notifications/4', { isEnabled: true, filters: [{ member: 'a.b', value: 'x' }] }, 200, notification),
    ],
  ])('%s has no error or warning', (_n, x) => {
    const r = checkRest(x)!;
    expect(r.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(r.verdict).toBe('valid');
  });
});

const table: Array<[rule: string, trips: RestExchange, nearMiss: RestExchange]> = [
  ['rest.auth', ex('GET', '/workbooks/9', undefined, 200, item, {}), ex('GET', '/workbooks/9', undefined, 200, item)],
  [
    'rest.auth',
    ex('GET', '/workbooks/9', undefined, 200, item, { authorization: 'Basic xyz' }),
    ex('GET', '/workbooks/9', undefined, 200, item, { authorization: 'bearer xyz' }),
  ],
  [
    'rest.path-param',
    ex('GET', '/workbooks/abc', undefined, 200, item),
    ex('GET', '/workbooks/9', undefined, 200, item),
  ],
  [
    'rest.request-json',
    ex('POST', '/workspace/move', '{id: 9', 400, {}),
    ex('POST', '/workspace/move', { id: 9 }, 400, {}),
  ],
  [
    'rest.request-json',
    ex('POST', '/workspace/move', { id: 9, folderId: 3 }, 200, item, {
      Authorization: 'Bearer t',
      'Content-Type': 'text/plain',
    }),
    ex('POST', '/workspace/move', { id: 9, folderId: 3 }, 200, item),
  ],
  [
    'rest.request-shape',
    ex('POST', '/workspace/move', { type: 'DASHBOARD', id: 9 }, 400, {}),
    ex('POST', '/workspace/move', { type: 'FOLDER', id: 9 }, 400, {}),
  ],
  [
    'rest.request-shape',
    ex('POST', '/workspace/move', { id: '9' }, 400, {}),
    ex('POST', '/workspace/move', { id: 9 }, 400, {}),
  ],
  [
    'rest.request-shape',
    ex('PUT', '/notifications/4', { hour: 9.5 }, 200, notification),
    ex('PUT', '/notifications/4', { hour: 9 }, 200, notification),
  ],
  [
    'rest.request-shape',
    ex('PUT', '/notifications/4', { notificationFormat: 'jpg' }, 200, notification),
    ex('PUT', '/notifications/4', { notificationFormat: 'png' }, 200, { ...notification, notificationFormat: 'png' }),
  ],
  [
    'rest.request-unknown-field',
    ex('PUT', '/notifications/4', { filters: [{ member: 'a.b', value: 'x', operator: 'equals' }] }, 200, notification),
    ex('PUT', '/notifications/4', { filters: [{ member: 'a.b', value: 'x' }] }, 200, notification),
  ],
  [
    'rest.disconnect-address',
    ex('DELETE', '/reports/5/connect-workbook', { externalWorkbookId: 'wb', sheetName: 'S' }, 200, report),
    ex(
      'DELETE',
      '/reports/5/connect-workbook',
      { externalWorkbookId: 'wb', sheetName: 'S', anchorCell: 'B2' },
      200,
      report,
    ),
  ],
  [
    'rest.disconnect-address',
    ex(
      'DELETE',
      '/reports/5/connect-workbook',
      { externalWorkbookId: 'wb', sheetId: '12', anchorCell: 'A1' },
      200,
      report,
    ),
    ex(
      'DELETE',
      '/reports/5/connect-workbook',
      { externalWorkbookId: 'wb', sheetName: 'S', sheetId: '12', anchorCell: 'A1' },
      200,
      report,
    ),
  ],
  [
    'rest.disconnect-address',
    ex('DELETE', '/reports/5/connect-workbook', undefined, 200, report),
    ex('DELETE', '/reports/5/connect-workbook', { placementId: 'p9' }, 200, report),
  ],
  [
    'rest.status',
    ex('DELETE', '/reports/5/connect-workbook', { placementId: 'nope' }, 404, {}),
    ex('DELETE', '/reports/5/connect-workbook', { placementId: 'nope' }, 200, report),
  ],
  ['rest.status', ex('GET', '/workbooks/9', undefined, 500, 'oops'), ex('GET', '/workbooks/9', undefined, 200, item)],
  [
    'rest.status-undocumented',
    ex('PUT', '/notifications/4', { isEnabled: false }, 403, { error: {} }),
    ex('PUT', '/notifications/4', { isEnabled: false }, 404, { error: {} }),
  ],
  [
    'rest.response-shape',
    ex('DELETE', '/reports/5/connect-workbook', { placementId: 'p' }, 200, { ...report, publicId: 'short' }),
    ex('DELETE', '/reports/5/connect-workbook', { placementId: 'p' }, 200, report),
  ],
  [
    'rest.response-shape',
    ex(
      'DELETE',
      '/reports/5/connect-workbook',
      { placementId: 'p' },
      200,
      (() => {
        const r: any = { ...report };
        delete r.user;
        return r;
      })(),
    ),
    ex('DELETE', '/reports/5/connect-workbook', { placementId: 'p' }, 200, report),
  ],
  [
    'rest.response-shape',
    ex('GET', '/workbooks/9', undefined, 200, { ...item, folderPath: [{ id: '3', name: 'F' }] }),
    ex('GET', '/workbooks/9', undefined, 200, item),
  ],
  [
    'rest.response-shape',
    ex('GET', '/workbooks/9', undefined, 200, '<html>'),
    ex('GET', '/workbooks/9', undefined, 200, item),
  ],
  [
    'rest.response-unknown-field',
    ex('GET', '/workbooks/9', undefined, 200, { ...item, color: 'red' }),
    ex('GET', '/workbooks/9', undefined, 200, item),
  ],
  [
    'rest.result',
    ex('POST', '/workspace/move', { id: 9, folderId: null }, 200, item),
    ex('POST', '/workspace/move', { id: 9, folderId: 3 }, 200, item),
  ],
  ['rest.result', ex('GET', '/workbooks/10', undefined, 200, item), ex('GET', '/workbooks/9', undefined, 200, item)],
  [
    'rest.result',
    ex('PUT', '/notifications/4', { isEnabled: false }, 200, notification),
    ex('PUT', '/notifications/4', { isEnabled: true }, 200, notification),
  ],
  [
    'rest.result',
    ex('PUT', '/notifications/4', { filters: [] }, 200, notification),
    ex('PUT', '/notifications/4', { timeGrains: [] }, 200, notification),
  ],
];

describe('REST rules: each trips and has a near miss', () => {
  it.each(table)('%s', (rule, trips, nearMiss) => {
    expect(rules(trips)).toContain(rule);
    expect(rules(nearMiss)).not.toContain(rule);
  });
  it('covers every REST rule', () => {
    const all = Object.values(RULES)
      .filter((r) => r.group === 'rest')
      .map((r) => r.id);
    const covered = new Set(table.map((r) => r[0]));
    expect(all.filter((id) => !covered.has(id))).toEqual([]);
  });
  it('ignores other traffic and never throws', () => {
    expect(checkRest({ method: 'GET', url: 'https://x/app.js', status: 200 })).toBeNull();
    expect(checkRest({ method: 'PUT', url: '::::', status: 200 })).toBeNull();
    expect(() =>
      checkRest({
        method: 'PUT',
        url: `${BASE}/notifications/4`,
        status: 200,
        requestBody: '[1,2]',
        responseBody: 'null',
      }),
    ).not.toThrow();
  });
});
