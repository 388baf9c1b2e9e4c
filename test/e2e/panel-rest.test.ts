// The REST view of the panel: real calls to the sandbox's mock platform API, as DevTools' Network panel
// would hand them to us (HAR entries), checked against the contract and shown with their issues.
// (Inside real DevTools the entries come from chrome.devtools.network: see the smoke test in panel-live.)
import type { Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server.mjs';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, waitInPanel } from '../helpers/panel.ts';

let sandbox: Sandbox;
let panel: Page;

/** Make a real request to the mock API and describe it as a HAR entry. */
async function call(method: string, path: string, body: unknown, token: string | null) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  const url = `${sandbox.tenantOrigin}/api/v1/deployments/1${path}`;
  const started = new Date().toISOString();
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return {
    startedDateTime: started,
    time: 5,
    request: {
      method,
      url,
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      ...(body === undefined ? {} : { postData: { text: JSON.stringify(body), mimeType: 'application/json' } }),
    },
    response: { status: res.status, content: { text, mimeType: 'application/json' } },
  };
}

test.beforeAll(async ({ sandbox: sb, chromium }) => {
  sandbox = sb;
  panel = await chromium.browser.newPage();
  await panel.setViewport({ width: 1280, height: 900 });
  await panel.goto(`chrome-extension://${chromium.extensionId}/src/panel/index.html?fixture=demo&n=50&theme=light`);
  await waitInPanel(panel, (h) => h.rest);
});

describe('REST operations in the panel', () => {
  it('checks each real call and shows its verdict and issues', async () => {
    const entries = [
      await call('GET', '/workbooks/100', undefined, 'tok-admin'),
      await call('POST', '/workspace/move', { type: 'WORKBOOK', id: 101, folderId: 12 }, 'tok-admin'),
      await call(
        'DELETE',
        '/reports/500/connect-workbook',
        { externalWorkbookId: 'x', sheetId: '7', anchorCell: 'A1' },
        'tok-viewer',
      ),
      await call('PUT', '/notifications/900', { isEnabled: false }, null),
      await call('GET', '/no-such-thing', undefined, 'tok-admin'),
    ];
    const added = await inPanel(panel, (h, e) => h.rest.addHar(e), entries);
    expect(added).toBe(4); // the unknown path is not one of the four operations

    const recs = await inPanel(panel, (h) =>
      h.rest.records().map((r: any) => ({
        op: r.operation,
        status: r.status,
        verdict: r.verdict,
        rules: r.issues.map((i: any) => i.rule),
      })),
    );
    expect(recs[0]).toMatchObject({ op: 'getWorkbook', status: 200, verdict: 'valid' });
    expect(recs[1]).toMatchObject({ op: 'moveWorkspaceItem', status: 200, verdict: 'valid' });
    expect(recs[1].rules).not.toContain('rest.result'); // the sandbox moved it where it was asked to
    expect(recs[2]).toMatchObject({ op: 'disconnectReportFromWorkbook', status: 200 });
    expect(recs[2].rules).toContain('rest.disconnect-address'); // sheetId is no substitute for sheetName
    expect(recs[3]).toMatchObject({ op: 'updateNotification', status: 401, verdict: 'invalid' });
    expect(recs[3].rules).toEqual(expect.arrayContaining(['rest.auth', 'rest.status-undocumented']));

    // The toolbar button counts them; the drawer lists them; a row opens its issues with the spec sentence.
    const label = await panel.$eval('.t-rest', (b) => b.textContent);
    expect(label).toMatch(/REST 4/);
    await panel.click('.t-rest');
    await panel.waitForSelector('#rest-drawer .rest-row.v-invalid');
    const rows = await panel.$$eval('#rest-drawer .rest-row:not(.rest-headrow)', (rs) => rs.map((r) => r.textContent));
    expect(rows).toHaveLength(4);
    expect(rows[3]).toContain('/api/v1/deployments/1/notifications/900');
    await panel.click('#rest-drawer .rest-row.v-invalid');
    const issues = await panel.$eval('.rest-issues', (u) => u.textContent);
    expect(issues).toContain('rest.auth');
    expect(issues).toContain('Authorization: Bearer <ACCESS_TOKEN>');
  });

  it('Clear empties the REST calls with the messages', async () => {
    const entries = [await call('GET', '/workbooks/100', undefined, 'tok-admin')];
    await inPanel(panel, (h, e) => h.rest.addHar(e), entries);
    await waitInPanel(panel, (h) => h.rest.records().length > 0);
    await panel.click('.summary button[title="Clear the log"]');
    await waitInPanel(panel, (h) => h.rest.records().length === 0);
    expect(await panel.$eval('.t-rest', (b) => b.textContent)).toMatch(/^REST 0/);
  });

  it('says where Network traffic can be seen when it cannot be here', async () => {
    await inPanel(panel, (h) => h.rest.clear());
    const text = await panel.$eval('#rest-drawer', (d) => d.textContent);
    expect(text).toContain('only in the DevTools panel');
  });
});
