// The sandbox's mock platform API over real HTTP: notification update, and the gaps the spec leaves (authentication,
// error bodies, limits, CORS). Each rule is one row: request, expected status, state afterwards.
import { describe, expect, it } from 'vitest';
import type { SandboxData } from '../../sandbox/server.mjs';
import { send, type Req, type Res } from './http.ts';
import { cases, runRow, useSandbox, type Row } from './rows.ts';

const sandbox = useSandbox();
const MOVE = '/api/v1/deployments/1/workspace/move';
const notification = (s: SandboxData, id = 900) => s.notifications.find((n) => n.id === id)!;

// ------------------------------------------------------------------ 4. update notification
const NOTIF = '/api/v1/deployments/1/notifications/900';
const put = (body: unknown, token = 'tok-admin'): Req => ({ method: 'PUT', path: NOTIF, token, body });
/** Only `fields` changed on notification 900; everything else, recipients included, as before. */
const onlyChanged =
  (...fields: string[]) =>
  (_res: Res, s: SandboxData, b: SandboxData) => {
    const now = notification(s);
    const was = notification(b);
    for (const key of Object.keys(was)) {
      if (!fields.includes(key)) {
        expect(now[key], key).toEqual(was[key]);
      }
    }
    expect(now.recipients).toEqual(was.recipients);
  };

const notificationRows: Row[] = [
  {
    name: 'weekly schedule: cron and description follow the schedule fields, minute kept',
    ...put({ scheduleType: 'WEEKLY', dayOfWeek: 3, hour: 7 }),
    status: 200,
    after: (res, s, b) => {
      onlyChanged('scheduleType', 'dayOfWeek', 'hour')(res, s, b);
      expect(res.body.cronExpression).toBe(`${notification(b).minute} 7 * * 3`);
      expect(res.body.humanReadableSchedule).toMatch(/Wednesday/);
      expect(res.body.humanReadableSchedule).toMatch(/07:00/);
    },
  },
  {
    name: 'hourly schedule',
    ...put({ scheduleType: 'HOURLY', minute: 15 }),
    status: 200,
    after: (res) => expect(res.body.cronExpression).toBe('15 * * * *'),
  },
  {
    name: 'monthly schedule',
    ...put({ scheduleType: 'MONTHLY', dayOfMonth: 15, hour: 6, minute: 5 }),
    status: 200,
    after: (res) => {
      expect(res.body.cronExpression).toBe('5 6 15 * *');
      expect(res.body.humanReadableSchedule).toMatch(/15th/);
    },
  },
  {
    name: 'custom schedule uses customCron',
    ...put({ scheduleType: 'CUSTOM', customCron: '0 9 * * 1-5' }),
    status: 200,
    after: (res) => {
      expect(res.body.cronExpression).toBe('0 9 * * 1-5');
      expect(res.body.humanReadableSchedule).toMatch(/weekday/i);
    },
  },
  {
    name: 'time change on a daily schedule moves the cron',
    ...put({ hour: 18, minute: 45 }),
    status: 200,
    after: (res) => expect(res.body.cronExpression).toBe('45 18 * * *'),
  },
  { name: 'CUSTOM without a cron expression: 400', ...put({ scheduleType: 'CUSTOM' }), status: 400 },
  {
    name: 'customCron that is not cron: 400',
    ...put({ scheduleType: 'CUSTOM', customCron: 'every day at nine' }),
    status: 400,
  },
  {
    name: 'filters replace the existing set; responses carry operator',
    ...put({ filters: [{ member: 'orders.status', value: 'completed', caseSensitive: true }] }),
    status: 200,
    after: (res, s, b) => {
      onlyChanged('filters')(res, s, b);
      expect(res.body.filters).toEqual([
        {
          member: 'orders.status',
          value: 'completed',
          operator: 'equals',
          caseSensitive: true,
          startInclusive: null,
          endInclusive: null,
        },
      ]);
    },
  },
  {
    name: 'an empty filters array clears them',
    ...put({ filters: [] }),
    status: 200,
    after: (res) => expect(res.body.filters).toEqual([]),
  },
  {
    name: 'timeGrains replace the existing set',
    ...put({ timeGrains: [{ grain: 'month', member: 'orders.created_at' }] }),
    status: 200,
    after: (res, s, b) => {
      onlyChanged('timeGrains')(res, s, b);
      expect(res.body.timeGrains).toEqual([{ grain: 'month', member: 'orders.created_at' }]);
    },
  },
  {
    name: 'omitted fields are left unchanged',
    ...put({ isEnabled: false }),
    status: 200,
    after: onlyChanged('isEnabled'),
  },
  {
    name: 'recipients in the body are never touched',
    ...put({ recipients: [{ email: 'x@evil.test' }], notificationEnabled: false }),
    status: 200,
    after: onlyChanged('notificationEnabled'),
  },
  {
    name: 'an empty body changes nothing',
    method: 'PUT',
    path: NOTIF,
    token: 'tok-admin',
    status: 200,
    after: onlyChanged(),
  },
  {
    name: 'IANA time zone accepted',
    ...put({ timezone: 'America/New_York' }),
    status: 200,
    after: (res) => expect(res.body.timezone).toBe('America/New_York'),
  },
  { name: 'bare UTC offset refused: 400', ...put({ timezone: '+02:00' }), status: 400 },
  { name: 'unknown time zone: 400', ...put({ timezone: 'Mars/Olympus_Mons' }), status: 400 },
  { name: 'not an administrator: 403', ...put({ isEnabled: false }, 'tok-builder'), status: 403 },
  {
    name: 'notification of another deployment: 404',
    method: 'PUT',
    path: '/api/v1/deployments/1/notifications/901',
    token: 'tok-admin',
    body: { isEnabled: false },
    status: 404,
  },
  { name: 'unknown scheduleType: 400', ...put({ scheduleType: 'YEARLY' }), status: 400 },
  { name: 'unknown notificationFormat: 400', ...put({ notificationFormat: 'gif' }), status: 400 },
  { name: 'hour out of range: 400', ...put({ hour: 24 }), status: 400 },
  { name: 'hour as a string: 400', ...put({ hour: '7' }), status: 400 },
  { name: 'minute not an integer: 400', ...put({ minute: 1.5 }), status: 400 },
  { name: 'isEnabled not a boolean: 400', ...put({ isEnabled: 'yes' }), status: 400 },
  { name: 'filters not an array: 400', ...put({ filters: { member: 'orders.region' } }), status: 400 },
  { name: 'a filter without value: 400', ...put({ filters: [{ member: 'orders.region' }] }), status: 400 },
  { name: 'one bad field refuses the whole update', ...put({ isEnabled: false, hour: -1 }), status: 400 },
  { name: 'malformed JSON: 400', method: 'PUT', path: NOTIF, token: 'tok-admin', raw: '{"hour": 7', status: 400 },
  { name: 'a body that is not an object: 400', ...put('DAILY'), status: 400 },
  {
    name: 'a huge body: 413',
    method: 'PUT',
    path: NOTIF,
    token: 'tok-admin',
    raw: JSON.stringify({ customCron: 'x'.repeat(1_500_000) }),
    status: 413,
  },
  {
    name: 'a huge chunked body: 413',
    method: 'PUT',
    path: NOTIF,
    token: 'tok-admin',
    raw: JSON.stringify({ customCron: 'x'.repeat(1_500_000) }),
    chunked: true,
    status: 413,
  },
  {
    name: 'a body that is not JSON: 415',
    method: 'PUT',
    path: NOTIF,
    token: 'tok-admin',
    raw: 'hour=7',
    headers: { 'Content-Type': 'text/plain' },
    status: 415,
  },
];

describe('PUT …/notifications/{id}', () => {
  it.each(cases(notificationRows))('%s', async (_n, row) => runRow(sandbox(), row));

  it('returns the Notification shape', async () => {
    const res = await send(sandbox().tenantOrigin, put({}));
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'cronExpression',
        'dashboardId',
        'deploymentId',
        'filters',
        'humanReadableSchedule',
        'id',
        'isEnabled',
        'notificationEnabled',
        'notificationFormat',
        'timeGrains',
        'timezone',
      ].sort(),
    );
    for (const f of res.body.filters) {
      expect(f.operator).toBe('equals');
    }
  });
});

// ------------------------------------------------------------------ authentication, routing, CORS
describe('gaps of the spec: authentication, errors, CORS', () => {
  const rows: Row[] = [
    {
      name: 'no Authorization header: 401',
      method: 'GET',
      path: '/api/v1/deployments/1/workbooks/100',
      token: null,
      status: 401,
    },
    {
      name: 'not the Bearer scheme: 401',
      method: 'GET',
      path: '/api/v1/deployments/1/workbooks/100',
      token: null,
      headers: { Authorization: 'Basic YWRhOnB3' },
      status: 401,
    },
    {
      name: 'unknown token: 401',
      method: 'GET',
      path: '/api/v1/deployments/1/workbooks/100',
      token: 'tok-stolen',
      status: 401,
    },
    { name: 'unknown token on a write: 401, nothing changes', ...put({ isEnabled: false }, 'tok-stolen'), status: 401 },
    {
      name: 'unknown operation: 404',
      method: 'GET',
      path: '/api/v1/deployments/1/dashboards',
      token: 'tok-admin',
      status: 404,
    },
    {
      name: 'wrong method: 405',
      method: 'GET',
      path: MOVE,
      token: 'tok-admin',
      status: 405,
      after: (res) => expect(res.headers.allow).toBe('POST'),
    },
  ];
  it.each(cases(rows))('%s', async (_n, row) => runRow(sandbox(), row));

  it('401 names the scheme in WWW-Authenticate', async () => {
    const res = await send(sandbox().tenantOrigin, { method: 'GET', path: '/api/v1/deployments/1/workbooks/100' });
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers a preflight from the host origin with the Authorization header allowed', async () => {
    const res = await send(sandbox().tenantOrigin, {
      method: 'OPTIONS',
      path: NOTIF,
      headers: {
        Origin: sandbox().hostOrigin,
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(sandbox().hostOrigin);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(String(res.headers['access-control-allow-methods'])).toContain('PUT');
  });

  it('allows the host origin on responses, and no other origin', async () => {
    const path = '/api/v1/deployments/1/workbooks/100';
    const fromHost = await send(sandbox().tenantOrigin, {
      method: 'GET',
      path,
      token: 'tok-viewer',
      headers: { Origin: sandbox().hostOrigin },
    });
    expect(fromHost.headers['access-control-allow-origin']).toBe(sandbox().hostOrigin);
    const fromElsewhere = await send(sandbox().tenantOrigin, {
      method: 'GET',
      path,
      token: 'tok-viewer',
      headers: { Origin: 'http://evil.test' },
    });
    expect(fromElsewhere.status).toBe(200);
    expect(fromElsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps serving after a burst of bad requests', async () => {
    const bad = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        send(sandbox().tenantOrigin, { method: 'POST', path: MOVE, token: 'tok-builder', raw: `{"id": ${i},` }),
      ),
    );
    expect(bad.every((r) => r.status === 400)).toBe(true);
    const ok = await send(sandbox().tenantOrigin, {
      method: 'GET',
      path: '/api/v1/deployments/1/workbooks/100',
      token: 'tok-viewer',
    });
    expect(ok.status).toBe(200);
  });
});

// ------------------------------------------------------------------ the embed back end used by the emulator
describe('embed sessions (sandbox back end)', () => {
  it('a session resolves to its mode, token and dashboard', async () => {
    const res = await send(sandbox().tenantOrigin, {
      method: 'GET',
      path: '/embed-api/session/demo-signed?publicId=dA7kQ2mXp9Lw',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'signed', deploymentId: 1, workbookId: 100 });
    const wb = await send(sandbox().tenantOrigin, {
      method: 'GET',
      path: `/api/v1/deployments/1/workbooks/${res.body.workbookId}`,
      token: res.body.token,
    });
    expect(wb.status).toBe(200);
  });
  it('an expired session is refused with 401', async () => {
    const res = await send(sandbox().tenantOrigin, { method: 'GET', path: '/embed-api/session/demo-expired' });
    expect(res.status).toBe(401);
  });
});
