// The panel's REST calls in and out: what the export writes for each call seen (bodies capped, secrets redacted),
// HAR import, and the REST log showing an imported file's calls while it is shown.
import { describe, expect, it } from 'vitest';
import { captureOf, exportFileName, readImported } from '../act/capture-file.ts';
import { checkCapture } from '../../../protocol/capture.ts';
import { fromHar, toHar } from '../../../protocol/har.ts';
import { REDACTED } from '../../../protocol/redact.ts';
import { createRestLog } from './rest-log.ts';
import { checkHarEntry, MAX_REST_BODY, restCallOf, type HarEntry } from './network.ts';

const API = 'http://localhost:4101/api/v1/deployments/1';
const entry = (over: Partial<HarEntry['request']> = {}, res: Partial<HarEntry['response']> = {}): HarEntry => ({
  startedDateTime: '2026-11-23T10:00:00.000Z',
  time: 7,
  request: {
    method: 'GET',
    url: `${API}/workbooks/100`,
    headers: [
      { name: ':authority', value: 'localhost:4101' },
      { name: 'Authorization', value: 'Bearer tok-admin' },
    ],
    ...over,
  },
  response: { status: 200, content: { text: JSON.stringify({ id: 100, type: 'WORKBOOK' }) }, ...res },
});

describe('the REST call the panel keeps for the export', () => {
  it('is the request and response as seen, without HTTP/2 pseudo-headers', async () => {
    const r = await checkHarEntry(entry());
    expect(r?.call).toEqual({
      time: Date.parse('2026-11-23T10:00:00.000Z'),
      method: 'GET',
      url: `${API}/workbooks/100`,
      status: 200,
      requestHeaders: { Authorization: 'Bearer tok-admin' },
      requestBody: null,
      responseBody: JSON.stringify({ id: 100, type: 'WORKBOOK' }),
      durationMs: 7,
    });
  });

  it('caps a body over MAX_REST_BODY and says how large it was; check does not judge it', () => {
    const big = `{"id":100,"name":"${'é'.repeat(MAX_REST_BODY)}"}`;
    const call = restCallOf(entry(), 1, big);
    expect(call.responseBody).toHaveLength(MAX_REST_BODY);
    expect(call.originalSize).toEqual({ responseBody: new TextEncoder().encode(big).length });
    const file = captureOf([], { tenantOrigin: null, rest: [call] });
    expect(checkCapture(file).rest?.[0].issues).toEqual([]);
  });

  it('a response body DevTools cannot give is unknown, not an error', async () => {
    const r = await checkHarEntry({ ...entry(), response: { status: 200, content: {} } });
    expect(r?.issues).toEqual([]);
    expect(r?.call.responseBody).toBeNull();
  });
});

describe('export and import with REST calls', () => {
  it('captureOf writes the calls as rest, redacted unless asked not to; HAR is the same file', async () => {
    const r = (await checkHarEntry(entry()))!;
    const file = captureOf([], { tenantOrigin: null, rest: [r.call], now: new Date(0) });
    expect(file.rest?.[0].requestHeaders).toEqual({ Authorization: `Bearer ${REDACTED}` });
    expect(captureOf([], { tenantOrigin: null, rest: [r.call], redact: false }).rest?.[0]).toEqual(r.call);
    expect(captureOf([], { tenantOrigin: null }).rest).toBeUndefined();
    expect(fromHar(JSON.parse(JSON.stringify(toHar(file, { redact: false }))))).toEqual(file);
    expect(exportFileName('http://127.0.0.1:4100/?session=x', new Date(2026, 0, 2, 3, 4, 5), 'har')).toBe(
      'embed-capture-127.0.0.1-4100-20260102-030405.har',
    );
  });

  it('Import reads a HAR (ours or another tool’s) and refuses an empty one', async () => {
    const r = (await checkHarEntry(entry()))!;
    const har = JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [entry()] } });
    const got = readImported(har, 'x.har');
    expect('file' in got && got.file.rest).toEqual([
      { ...r.call, requestHeaders: { Authorization: 'Bearer tok-admin' } },
    ]);
    const ours = JSON.stringify(toHar(captureOf([], { tenantOrigin: null, rest: [r.call] })));
    expect('file' in readImported(ours, 'ours.har')).toBe(true);
    expect(readImported('{"log":{"entries":[]}}', 'e.har')).toEqual({
      error: 'e.har: not a capture file: a HAR with no entries, nothing to inspect',
    });
  });

  it('the REST log shows an imported file’s calls while it is shown, then the live ones again', async () => {
    const log = createRestLog(undefined);
    await log.addHar([entry()]);
    expect(log.records()).toHaveLength(1);
    const put = restCallOf(
      entry({ method: 'PUT', url: `${API}/notifications/900`, postData: { text: '{"hour":"8"}' } }, { status: 400 }),
      5,
      '{}',
    );
    log.showFile([put, put]);
    expect(log.records().map((r) => [r.operation, r.verdict, r.status])).toEqual([
      ['updateNotification', 'invalid', 400],
      ['updateNotification', 'invalid', 400],
    ]);
    expect(log.records()[0].call).toBe(put);
    log.showFile(null);
    expect(log.records().map((r) => r.operation)).toEqual(['getWorkbook']);
  });
});
