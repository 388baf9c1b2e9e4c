import { describe, expect, it } from 'vitest';
import { checkHarEntry, observeNetwork, type HarEntry } from './network.ts';

const entry = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  res: unknown,
  viaGetContent = false,
): HarEntry => ({
  startedDateTime: '2026-11-23T10:00:00.000Z',
  time: 12,
  request: {
    method,
    url: `http://localhost:4101/api/v1/deployments/1${path}`,
    headers: [
      { name: 'Authorization', value: 'Bearer t' },
      { name: 'Content-Type', value: 'application/json' },
    ],
    ...(body ? { postData: { text: JSON.stringify(body), mimeType: 'application/json' } } : {}),
  },
  response: { status, content: viaGetContent ? {} : { text: JSON.stringify(res) } },
  ...(viaGetContent ? { getContent: (cb: (c: string | null) => void) => cb(JSON.stringify(res)) } : {}),
});

describe('network observation', () => {
  it('checks the documented operations and ignores the rest', async () => {
    const moved = await checkHarEntry(
      entry('POST', '/workspace/move', 200, { id: 3, folderId: null }, { id: 3, folderId: 5 }, true),
    );
    expect(moved).toMatchObject({
      operation: 'moveWorkspaceItem',
      status: 200,
      verdict: 'valid',
      time: Date.parse('2026-11-23T10:00:00.000Z'),
    });
    expect(moved!.issues.map((i) => i.rule)).toContain('rest.result');
    expect(
      await checkHarEntry({
        request: { method: 'GET', url: 'http://localhost:4101/app.js' },
        response: { status: 200 },
      }),
    ).toBeNull();
  });

  it('delivers the HAR backlog, then live entries', async () => {
    let live: ((e: HarEntry) => void) | undefined;
    const got: string[] = [];
    const stop = observeNetwork(
      {
        getHAR: (cb) => cb({ entries: [entry('GET', '/workbooks/9', 200, null, { id: 9, type: 'WORKBOOK' })] }),
        onRequestFinished: {
          addListener: (fn) => {
            live = fn;
          },
          removeListener: () => {
            live = undefined;
          },
        },
      },
      (r) => got.push(r.operation),
    );
    live!(entry('PUT', '/notifications/4', 403, { isEnabled: true }, { error: {} }));
    await new Promise((r) => setTimeout(r, 10));
    expect(got).toEqual(['getWorkbook', 'updateNotification']);
    stop();
    expect(live).toBeUndefined();
  });
});
