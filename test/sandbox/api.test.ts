// The sandbox's mock platform API over real HTTP: disconnect, move, get workbook. Each rule of the spec is one row:
// a request, the expected status, and what the state must look like afterwards.
import { describe, expect, it } from 'vitest';
import type { SandboxData } from '../../sandbox/server.mjs';
import { send, type Req, type Res } from './http.ts';
import { cases, runRow, useSandbox, type Row } from './rows.ts';

const sandbox = useSandbox();

// ------------------------------------------------------------------ helpers over the fixture state
const report = (s: SandboxData, id: number) => s.reports.find((r) => r.id === id)!;
const placements = (s: SandboxData, id = 500): string[] =>
  report(s, id).externalWorkbookPlacements.map((p: any) => p.id ?? `legacy:${p.workbookId}`);
const folderOf = (s: SandboxData, kind: 'workbooks' | 'reports', id: number) =>
  s[kind].find((x) => x.id === id)!.folderId;
const parentOf = (s: SandboxData, id: number) => s.folders.find((f) => f.id === id)!.parentId;

/** Exactly these placements are gone from report 500, the rest is as before. */
const removed =
  (...gone: string[]) =>
  (res: Res, s: SandboxData, b: SandboxData) => {
    expect(placements(s)).toEqual(placements(b).filter((p) => !gone.includes(p)));
    expect(res.body.externalWorkbookPlacements.map((p: any) => p.id ?? `legacy:${p.workbookId}`)).toEqual(
      placements(s),
    );
  };
const unchanged = (res: Res, s: SandboxData, b: SandboxData) => {
  expect(s).toEqual(b);
  expect(res.body.id).toBeTypeOf('number');
};

// ------------------------------------------------------------------ 1. disconnect
const DISCONNECT = '/api/v1/deployments/1/reports/500/connect-workbook';
const del = (body: unknown, token = 'tok-viewer'): Req => ({ method: 'DELETE', path: DISCONNECT, token, body });

const disconnectRows: Row[] = [
  {
    name: 'by placementId removes that placement only',
    ...del({ placementId: 'pl-2' }),
    status: 200,
    after: removed('pl-2'),
  },
  {
    name: 'legacy address (spreadsheet + sheet + anchor) removes one placement, not the same cell in another spreadsheet',
    ...del({ externalWorkbookId: 'gsheet-7f3a', sheetName: 'Summary', anchorCell: 'B2' }),
    status: 200,
    after: removed('pl-1'),
  },
  {
    name: 'legacy address reaches a placement recorded before ids existed',
    ...del({ externalWorkbookId: 'xlsx-legacy-01', sheetName: 'Sheet1', anchorCell: 'C3' }),
    status: 200,
    after: removed('legacy:xlsx-legacy-01'),
  },
  {
    name: 'legacy address without anchor matches nothing',
    ...del({ externalWorkbookId: 'gsheet-7f3a', sheetName: 'Summary' }),
    status: 200,
    after: unchanged,
  },
  {
    name: 'legacy address without sheet name matches nothing',
    ...del({ externalWorkbookId: 'gsheet-7f3a', anchorCell: 'B2' }),
    status: 200,
    after: unchanged,
  },
  {
    name: 'sheetId is no substitute for sheetName',
    ...del({ externalWorkbookId: 'gsheet-7f3a', sheetId: '0', anchorCell: 'B2' }),
    status: 200,
    after: unchanged,
  },
  {
    name: 'sheetId narrows: a placement stored under another sheetId is not matched',
    ...del({ externalWorkbookId: 'gsheet-7f3a', sheetName: 'Summary', anchorCell: 'B2', sheetId: '999' }),
    status: 200,
    after: unchanged,
  },
  {
    name: 'sheetId that agrees still matches',
    ...del({ externalWorkbookId: 'gsheet-7f3a', sheetName: 'Summary', anchorCell: 'B2', sheetId: '0' }),
    status: 200,
    after: removed('pl-1'),
  },
  {
    name: 'placementId with a disagreeing sheetId is narrowed away',
    ...del({ placementId: 'pl-3', sheetId: '42' }),
    status: 200,
    after: unchanged,
  },
  {
    name: 'a placement stored without sheetId is still reached by name when a sheetId is sent',
    ...del({ externalWorkbookId: 'xlsx-legacy-01', sheetName: 'Sheet1', anchorCell: 'C3', sheetId: '{77}' }),
    status: 200,
    after: removed('legacy:xlsx-legacy-01'),
  },
  {
    name: 'resultLocation with a quoted sheet name',
    ...del({ resultLocation: "'Q1 Sales'!A1" }),
    status: 200,
    after: removed('pl-3'),
  },
  {
    name: 'resultLocation plus spreadsheet picks the placement in that spreadsheet',
    ...del({ resultLocation: 'Summary!B2', externalWorkbookId: 'xlsx-9c21' }),
    status: 200,
    after: removed('pl-5'),
  },
  {
    name: 'resultLocation alone removes exactly one placement',
    ...del({ resultLocation: 'Summary!B2' }),
    status: 200,
    after: (_res, s, b) => expect(placements(s)).toHaveLength(placements(b).length - 1),
  },
  {
    name: 'resultLocation that does not name a sheet matches nothing',
    ...del({ resultLocation: 'B2' }),
    status: 200,
    after: unchanged,
  },
  {
    name: 'unknown placementId succeeds and changes nothing',
    ...del({ placementId: 'pl-nope' }),
    status: 200,
    after: unchanged,
  },
  {
    name: 'a retry of a removal is safe',
    before: [del({ placementId: 'pl-2' })],
    ...del({ placementId: 'pl-2' }),
    status: 200,
    after: unchanged,
  },
  {
    name: 'no body matches nothing',
    method: 'DELETE',
    path: DISCONNECT,
    token: 'tok-viewer',
    status: 200,
    after: unchanged,
  },
  {
    name: 'records nothing about the report definition (updatedAt, version kept)',
    ...del({ placementId: 'pl-1' }),
    status: 200,
    after: (res, s, b) => {
      expect(report(s, 500).updatedAt).toBe(report(b, 500).updatedAt);
      expect(report(s, 500).version).toBe(report(b, 500).version);
      expect(res.body.updatedAt).toBe(report(b, 500).updatedAt);
    },
  },
  { name: 'read access is enough', ...del({ placementId: 'pl-1' }, 'tok-viewer'), status: 200, after: removed('pl-1') },
  { name: 'no access to the report: 403', ...del({ placementId: 'pl-1' }, 'tok-embed'), status: 403 },
  {
    name: 'report of another deployment: 404',
    method: 'DELETE',
    path: '/api/v1/deployments/1/reports/502/connect-workbook',
    token: 'tok-admin',
    body: { placementId: 'pl-g1' },
    status: 404,
  },
  { name: 'a field of the wrong type: 400', ...del({ placementId: 5 }), status: 400 },
  { name: 'a body that is not an object: 400', ...del(['pl-1']), status: 400 },
];

describe('DELETE …/reports/{id}/connect-workbook', () => {
  it.each(cases(disconnectRows))('%s', async (_n, row) => runRow(sandbox(), row));

  it('returns the Report shape', async () => {
    const res = await send(sandbox().tenantOrigin, del({ placementId: 'pl-2' }));
    const r = res.body;
    for (const key of ['id', 'deploymentId', 'userId']) {
      expect(r[key]).toBeTypeOf('number');
    }
    expect(r.publicId).toMatch(/^[0-9A-Za-z]{12}$/);
    expect(r.type).toBe('REPORT');
    for (const owner of [r.user, r.refreshedByUser]) {
      expect(owner.id).toBeTypeOf('number');
      expect(owner.email).toBeTypeOf('string');
    }
    expect(r.folderPath).toEqual([{ id: 10, name: 'Sales' }]);
    for (const p of r.externalWorkbookPlacements) {
      expect(p.workbookId).toBeTypeOf('string');
      expect(p.resultLocation).toBeTypeOf('string');
    }
    const legacy = r.externalWorkbookPlacements.find((p: any) => p.workbookId === 'xlsx-legacy-01');
    expect('id' in legacy).toBe(false);
    expect('sheetId' in legacy).toBe(false);
    expect(r.canEdit).toBe(false);
  });
});

// ------------------------------------------------------------------ 2. move
const MOVE = '/api/v1/deployments/1/workspace/move';
const move = (body: unknown, token = 'tok-builder'): Req => ({ method: 'POST', path: MOVE, token, body });

const moveRows: Row[] = [
  {
    name: 'workbook into a folder: manage on the workbook + edit on the folder',
    ...move({ type: 'WORKBOOK', id: 100, folderId: 12 }),
    status: 200,
    after: (res, s) => {
      expect(folderOf(s, 'workbooks', 100)).toBe(12);
      expect(res.body).toMatchObject({
        id: 100,
        type: 'WORKBOOK',
        folderId: 12,
        folderPath: [{ id: 12, name: 'Archive' }],
      });
    },
  },
  {
    name: 'folderId null moves to the workspace root',
    ...move({ type: 'WORKBOOK', id: 100, folderId: null }),
    status: 200,
    after: (res, s) => {
      expect(folderOf(s, 'workbooks', 100)).toBeNull();
      expect(res.body).toMatchObject({ folderId: null, folderPath: [] });
    },
  },
  {
    name: 'workbook into a folder with read access only: 403',
    ...move({ type: 'WORKBOOK', id: 100, folderId: 13 }),
    status: 403,
  },
  {
    name: 'workbook without manage access: 403',
    ...move({ type: 'WORKBOOK', id: 101, folderId: null }, 'tok-viewer'),
    status: 403,
  },
  {
    name: 'report: edit access plus the ReportManage permission',
    ...move({ type: 'REPORT', id: 500, folderId: 11 }),
    status: 200,
    after: (res, s) => {
      expect(folderOf(s, 'reports', 500)).toBe(11);
      expect(res.body).toMatchObject({
        type: 'REPORT',
        folderId: 11,
        folderPath: [
          { id: 10, name: 'Sales' },
          { id: 11, name: 'EMEA' },
        ],
      });
    },
  },
  {
    name: 'report: edit access without ReportManage: 403',
    ...move({ type: 'REPORT', id: 501, folderId: 12 }, 'tok-viewer'),
    status: 403,
  },
  {
    name: 'folder: manage on it + edit on the new parent',
    ...move({ type: 'FOLDER', id: 11, folderId: 12 }),
    status: 200,
    after: (res, s) => {
      expect(parentOf(s, 11)).toBe(12);
      expect(res.body).toMatchObject({ type: 'FOLDER', folderId: 12, folderPath: [{ id: 12, name: 'Archive' }] });
    },
  },
  {
    name: 'folder to the root',
    ...move({ type: 'FOLDER', id: 11, folderId: null }),
    status: 200,
    after: (_r, s) => expect(parentOf(s, 11)).toBeNull(),
  },
  {
    name: 'folder into a parent with read access only: 403',
    ...move({ type: 'FOLDER', id: 11, folderId: 13 }),
    status: 403,
  },
  {
    name: 'folder with edit (not manage) access: 403',
    ...move({ type: 'FOLDER', id: 12, folderId: null }, 'tok-viewer'),
    status: 403,
  },
  {
    name: 'folder into its own descendant: 400',
    ...move({ type: 'FOLDER', id: 10, folderId: 11 }, 'tok-admin'),
    status: 400,
  },
  { name: 'folder into itself: 400', ...move({ type: 'FOLDER', id: 10, folderId: 10 }, 'tok-admin'), status: 400 },
  {
    name: 'destination folder that does not exist: 400',
    ...move({ type: 'WORKBOOK', id: 100, folderId: 999 }),
    status: 400,
  },
  {
    name: 'destination folder of another deployment: 400',
    ...move({ type: 'WORKBOOK', id: 100, folderId: 20 }, 'tok-admin'),
    status: 400,
  },
  {
    name: 'item of another deployment: 404',
    ...move({ type: 'WORKBOOK', id: 200, folderId: null }, 'tok-admin'),
    status: 404,
  },
  {
    name: 'item that does not exist: 404',
    ...move({ type: 'WORKBOOK', id: 999, folderId: null }, 'tok-admin'),
    status: 404,
  },
  {
    name: 'id of another kind of item: 404',
    ...move({ type: 'REPORT', id: 100, folderId: null }, 'tok-admin'),
    status: 404,
  },
  { name: 'unknown type: 400', ...move({ type: 'DASHBOARD', id: 100, folderId: null }), status: 400 },
  { name: 'id as a string: 400', ...move({ type: 'WORKBOOK', id: '100', folderId: null }), status: 400 },
  { name: 'folderId missing: 400', ...move({ type: 'WORKBOOK', id: 100 }), status: 400 },
  { name: 'folderId of the wrong type: 400', ...move({ type: 'WORKBOOK', id: 100, folderId: 'root' }), status: 400 },
  { name: 'no body: 400', method: 'POST', path: MOVE, token: 'tok-builder', status: 400 },
  {
    name: 'malformed JSON: 400',
    method: 'POST',
    path: MOVE,
    token: 'tok-builder',
    raw: '{"type": "WORKBOOK",',
    status: 400,
  },
];

describe('POST …/workspace/move', () => {
  it.each(cases(moveRows))('%s', async (_n, row) => runRow(sandbox(), row));
});

// ------------------------------------------------------------------ 3. get workbook
describe('GET …/workbooks/{id}', () => {
  const get = (path: string, token = 'tok-viewer'): Req => ({ method: 'GET', path, token });
  const rows: Row[] = [
    {
      name: 'returns the Workspace item with dashboard draft and published config',
      ...get('/api/v1/deployments/1/workbooks/100'),
      status: 200,
      after: (res) => {
        const wb = res.body;
        expect(wb).toMatchObject({
          id: 100,
          deploymentId: 1,
          type: 'WORKBOOK',
          folderId: 10,
          folderPath: [{ id: 10, name: 'Sales' }],
        });
        for (const config of [wb.dashboardDraft, wb.dashboardPublished, wb.publishedDashboard.config]) {
          expect(config.layout.cols).toMatchObject({ lg: expect.any(Number), xxs: expect.any(Number) });
          expect(config.widgets.length).toBeGreaterThan(0);
          for (const w of config.widgets) {
            expect(w.position).toEqual({
              h: expect.any(Number),
              w: expect.any(Number),
              x: expect.any(Number),
              y: expect.any(Number),
            });
            expect(Object.keys(w.responsiveLayouts).sort()).toEqual(['lg', 'md', 'sm', 'xs', 'xxs']);
          }
        }
        expect(wb.publishedDashboard).toMatchObject({
          workbookId: 100,
          deploymentId: 1,
          publicId: expect.any(String),
          allowEmbed: true,
        });
        expect(wb.publishedDashboard.reportSnapshots.map((r: any) => r.reportId)).toContain(500);
        expect(wb.user).toEqual({
          id: 1,
          email: expect.any(String),
          firstName: expect.any(String),
          picture: expect.any(String),
        });
      },
    },
    {
      name: 'isFavorite is per caller',
      ...get('/api/v1/deployments/1/workbooks/100', 'tok-builder'),
      status: 200,
      after: (res) => expect(res.body.isFavorite).toBe(true),
    },
    { name: 'workbook of another deployment: 404', ...get('/api/v1/deployments/1/workbooks/200'), status: 404 },
    { name: 'workbook that does not exist: 404', ...get('/api/v1/deployments/1/workbooks/999'), status: 404 },
    { name: 'deployment that does not exist: 404', ...get('/api/v1/deployments/99/workbooks/100'), status: 404 },
    { name: 'non-numeric id: 400', ...get('/api/v1/deployments/1/workbooks/abc'), status: 400 },
  ];
  it.each(cases(rows))('%s', async (_n, row) => runRow(sandbox(), row));
});
