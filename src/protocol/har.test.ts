// HAR in and out, and the capture file's optional `rest`: ours round-trips exactly, another tool's HAR becomes
// its REST calls, secrets are redacted on the way out, and a malformed file is refused with one line.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CaptureFormatError, checkCapture, readCapture } from './capture.ts';
import { fromHar, isHar, readAnyCapture, toHar } from './har.ts';
import { redactCapture, REDACTED } from './redact.ts';
import type { CaptureFile, RestCall } from './record.ts';

const TENANT = 'https://acme.example.com';
const BASE = `${TENANT}/api/v1/deployments/7`;
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const clean = readCapture(
  JSON.parse(readFileSync(new URL('../../test/fixtures/captures/clean-session.json', import.meta.url), 'utf8')),
);
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXN0cmluZw';

const workbook = { id: 9, deploymentId: 7, name: 'Q3', type: 'WORKBOOK', folderId: 3 };
const calls: RestCall[] = [
  {
    time: T0 + 0.25,
    method: 'GET',
    url: `${BASE}/workbooks/9`,
    status: 200,
    requestHeaders: { Authorization: 'Bearer tok-admin-secret', Accept: 'application/json' },
    requestBody: null,
    responseBody: JSON.stringify(workbook),
    durationMs: 12.5,
  },
  {
    time: T0 + 100,
    method: 'PUT',
    url: `${BASE}/notifications/4`,
    status: 400,
    requestHeaders: { Authorization: 'Bearer tok-admin-secret', 'Content-Type': 'application/json' },
    requestBody: JSON.stringify({ hour: '8' }),
    responseBody: '{"error":{"status":400,"message":"hour must be an integer"}}',
  },
  {
    time: T0 + 200,
    method: 'GET',
    url: `${BASE}/workbooks/10`,
    status: 200,
    requestHeaders: { Authorization: 'Bearer tok-admin-secret' },
    requestBody: null,
    responseBody: '{"id":10,"name":"x',
    originalSize: { responseBody: 2_000_000 },
  },
  {
    time: T0 + 300,
    method: 'POST',
    url: `${BASE}/workspace/move`,
    status: 0,
    requestHeaders: {},
    requestBody: '',
    responseBody: null,
  },
];
const capture: CaptureFile = { ...clean, rest: calls };

describe('the capture file’s rest', () => {
  it('is optional: older files still load, and a file with rest loads as it is', () => {
    expect(readCapture(clean).rest).toBeUndefined();
    expect(readCapture(JSON.parse(JSON.stringify(capture))).rest).toEqual(calls);
  });

  it.each([
    [{ rest: {} }, '"rest" must be an array when present'],
    [{ rest: [5] }, 'rest[0] is not an object'],
    [{ rest: [{ ...calls[0], time: 'now' }] }, 'rest[0].time must be a number (epoch ms)'],
    [{ rest: [calls[0], { ...calls[1], method: '' }] }, 'rest[1].method must be a non-empty string'],
    [{ rest: [{ ...calls[0], url: null }] }, 'rest[0].url must be a string'],
    [{ rest: [{ ...calls[0], status: '200' }] }, 'rest[0].status must be a whole number (0: no response)'],
    [{ rest: [{ ...calls[0], requestHeaders: [] }] }, 'rest[0].requestHeaders must be an object of strings'],
    [{ rest: [{ ...calls[0], requestHeaders: { a: 1 } }] }, 'rest[0].requestHeaders must be an object of strings'],
    [{ rest: [{ ...calls[0], responseBody: {} }] }, 'rest[0].responseBody must be a string or null'],
    [{ rest: [{ ...calls[0], durationMs: 'x' }] }, 'rest[0].durationMs must be a number when present'],
    [{ rest: [{ ...calls[0], originalSize: 5 }] }, 'rest[0].originalSize must be an object of byte sizes when present'],
  ])('a bad entry is named in one line: %j', (extra, message) => {
    expect(() => readCapture({ ...clean, ...extra })).toThrow(new CaptureFormatError(message));
  });

  it('check runs the rest.* rules on each call; truncated and unknown bodies are not judged', () => {
    const r = checkCapture(capture);
    expect(r.restSkipped).toBe(0);
    expect(r.rest?.map((c) => [c.index, c.operation, c.verdict])).toEqual([
      [0, 'getWorkbook', 'valid'],
      [1, 'updateNotification', 'invalid'],
      [2, 'getWorkbook', 'valid'],
      [3, 'moveWorkspaceItem', 'invalid'],
    ]);
    expect(r.rest![1].issues.map((i) => i.rule)).toEqual(['rest.request-shape', 'rest.status-undocumented']);
    expect(r.rest![2].issues).toEqual([]); // the response is cut: its shape is not judged
    expect(r.rest![3].issues.map((i) => i.rule)).toEqual(['rest.auth', 'rest.request-shape']);
    // the messages are judged as before
    expect(r.messages).toEqual(checkCapture(clean).messages);
    expect(checkCapture(clean).rest).toBeUndefined();
  });

  it('a call that is not one of the four operations is counted, not checked', () => {
    const r = checkCapture({ ...clean, rest: [{ ...calls[0], url: `${TENANT}/static/app.js` }] });
    expect(r.rest).toEqual([]);
    expect(r.restSkipped).toBe(1);
  });

  it('is redacted on export: the bearer token (scheme kept), cookies, secrets in URLs and bodies', () => {
    const secret: RestCall = {
      ...calls[1],
      url: `${BASE}/notifications/4?access_token=abcdefgh123`,
      requestHeaders: { authorization: 'Bearer tok-admin-secret', Cookie: 'sid=1234567890', 'X-Trace': JWT },
      requestBody: JSON.stringify({ timezone: 'UTC', token: 'short' }),
      responseBody: `{"note": "${JWT}"}`,
    };
    const [r] = redactCapture({ ...clean, rest: [secret] }).rest!;
    expect(r.requestHeaders).toEqual({ authorization: `Bearer ${REDACTED}`, Cookie: REDACTED, 'X-Trace': REDACTED });
    expect(r.url).toBe(`${BASE}/notifications/4?access_token=${REDACTED}`);
    expect(JSON.parse(r.requestBody!)).toEqual({ timezone: 'UTC', token: REDACTED });
    expect(JSON.parse(r.responseBody!)).toEqual({ note: REDACTED });
    // an unchanged body keeps its text as it was
    expect(redactCapture({ ...clean, rest: [calls[0]] }).rest![0].responseBody).toBe(calls[0].responseBody);
    // the redacted call still carries a bearer token for rest.auth
    expect(checkCapture({ ...clean, rest: [r] }).rest![0].issues.map((i) => i.rule)).not.toContain('rest.auth');
  });
});

describe('toHar / fromHar', () => {
  it('writes HAR 1.2: the REST calls as entries, the messages and the capture fields as custom fields', () => {
    const har = toHar(capture, { redact: false, version: '9.9.9' });
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'embed-inspector', version: '9.9.9' });
    expect(har.log._embedMessages).toEqual(clean.messages);
    expect(har.log._embedInspector).toEqual({
      format: 'embed-inspector-capture',
      version: 1,
      tenantOrigin: clean.tenantOrigin,
      meta: clean.meta,
      hasRest: true,
    });
    const [get, put] = har.log.entries;
    expect(get).toMatchObject({
      startedDateTime: new Date(T0).toISOString(),
      time: 12.5,
      request: {
        method: 'GET',
        url: `${BASE}/workbooks/9`,
        headers: [
          { name: 'Authorization', value: 'Bearer tok-admin-secret' },
          { name: 'Accept', value: 'application/json' },
        ],
        queryString: [],
        bodySize: 0,
      },
      response: { status: 200, content: { mimeType: 'application/json', text: JSON.stringify(workbook) } },
      timings: { send: 0, wait: 12.5, receive: 0 },
    });
    expect(get.request.postData).toBeUndefined();
    expect(put.request.postData).toEqual({ mimeType: 'application/json', text: '{"hour":"8"}' });
    expect(har.log.entries[2].response.content.size).toBe(2_000_000);
    expect(isHar(JSON.parse(JSON.stringify(har)))).toBe(true);
    expect(isHar(capture)).toBe(false);
  });

  it('ours round-trips exactly: messages, tenantOrigin, meta, rest', () => {
    const back = fromHar(JSON.parse(JSON.stringify(toHar(capture, { redact: false }))));
    expect(back).toEqual(capture);
    // a capture without rest stays without it; one with an empty rest keeps it
    expect(fromHar(JSON.parse(JSON.stringify(toHar(clean, { redact: false }))))).toEqual(clean);
    expect(fromHar(toHar({ ...clean, rest: [] }, { redact: false })).rest).toEqual([]);
    // and the checks agree
    expect(checkCapture(back)).toEqual(checkCapture(capture));
  });

  it('redacts by default, as the capture export does', () => {
    const har = toHar(capture);
    const text = JSON.stringify(har);
    expect(text).not.toContain('tok-admin-secret');
    expect(har.log.entries[0].request.headers[0]).toEqual({ name: 'Authorization', value: `Bearer ${REDACTED}` });
    expect(har.log._embedInspector.meta?.redacted).toBe(true);
    expect(fromHar(JSON.parse(text))).toEqual(redactCapture(capture));
  });

  it('reads a minimal Chrome-style HAR: its platform calls become rest, the others are left out and counted', () => {
    const chrome = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        pages: [
          { startedDateTime: '2026-11-23T10:00:00.000Z', id: 'page_1', title: 'https://host.example.org/report' },
        ],
        entries: [
          {
            startedDateTime: '2026-11-23T10:00:01.000Z',
            time: 48.2,
            request: {
              method: 'GET',
              url: 'https://host.example.org/static/app.js',
              headers: [],
            },
            response: { status: 200, content: { size: 10, mimeType: 'text/javascript', text: 'void 0;' } },
          },
          {
            startedDateTime: '2026-11-23T10:00:02.000Z',
            time: 31,
            request: {
              method: 'GET',
              url: `${BASE}/workbooks/9`,
              httpVersion: 'h2',
              headers: [
                { name: ':authority', value: 'acme.example.com' },
                { name: 'authorization', value: 'Bearer abc.def' },
                { name: 'accept', value: 'application/json' },
                { name: 'Accept', value: 'text/plain' },
              ],
            },
            response: {
              status: 200,
              content: {
                size: 80,
                mimeType: 'application/json',
                text: Buffer.from(JSON.stringify(workbook)).toString('base64'),
                encoding: 'base64',
              },
            },
          },
          {
            startedDateTime: '2026-11-23T10:00:03.000Z',
            time: -1,
            request: {
              method: 'PUT',
              url: `${BASE}/notifications/4`,
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              postData: { mimeType: 'application/json', text: '{"isEnabled":"no"}' },
            },
            response: { status: 400, content: { size: 0, mimeType: 'application/json' } },
          },
        ],
      },
    };
    const file = readAnyCapture(chrome);
    expect(file).toEqual({
      format: 'embed-inspector-capture',
      version: 1,
      tenantOrigin: null,
      messages: [],
      meta: { createdBy: 'WebInspector 537.36 (HAR)', restSkipped: 1, pageUrl: 'https://host.example.org/report' },
      rest: [
        {
          time: Date.parse('2026-11-23T10:00:02.000Z'),
          method: 'GET',
          url: `${BASE}/workbooks/9`,
          status: 200,
          requestHeaders: { authorization: 'Bearer abc.def', accept: 'application/json, text/plain' },
          requestBody: null,
          responseBody: JSON.stringify(workbook),
          durationMs: 31,
        },
        {
          time: Date.parse('2026-11-23T10:00:03.000Z'),
          method: 'PUT',
          url: `${BASE}/notifications/4`,
          status: 400,
          requestHeaders: { 'Content-Type': 'application/json' },
          requestBody: '{"isEnabled":"no"}',
          responseBody: null,
        },
      ],
    });
    const r = checkCapture(file);
    expect(r.rest?.map((c) => c.verdict)).toEqual(['valid', 'invalid']);
    expect(r.rest![1].issues.map((i) => i.rule)).toEqual(
      expect.arrayContaining(['rest.auth', 'rest.request-shape', 'rest.status-undocumented']),
    );
    expect(r.messages).toEqual([]);
    expect(r.restSkipped).toBe(1); // the entry left out
  });

  it.each([
    [[], 'not a capture file: expected a JSON object'],
    [{ log: [] }, 'not a capture file: "format" is missing, expected "embed-inspector-capture"'],
    [{ log: {} }, 'not a usable HAR: log.entries must be an array'],
    [{ log: { entries: {} } }, 'not a usable HAR: log.entries must be an array'],
    [{ log: { entries: [] } }, 'not a capture file: a HAR with no entries, nothing to inspect'],
    [{ log: { entries: [null] } }, 'not a usable HAR: log.entries[0] is not an object'],
    [
      { log: { entries: [{ response: { status: 200 } }] } },
      'not a usable HAR: log.entries[0].request must be an object',
    ],
    [
      { log: { entries: [{ request: { method: 'GET' }, response: { status: 200 } }] } },
      'not a usable HAR: log.entries[0].request.url must be a string',
    ],
    [
      { log: { entries: [{ request: { method: 'GET', url: `${BASE}/workbooks/9` }, response: {} }] } },
      'not a usable HAR: log.entries[0].response.status must be a number',
    ],
    [
      { log: { entries: [{ request: { method: 'GET', url: `${BASE}/workbooks/9` }, response: { status: 200 } }] } },
      'not a usable HAR: log.entries[0].startedDateTime must be an ISO date',
    ],
    [
      {
        log: {
          entries: [
            {
              startedDateTime: '2026-11-23T10:00:03.000Z',
              request: { method: 'GET', url: `${BASE}/workbooks/9`, headers: [{ name: 'a' }] },
              response: { status: 200 },
            },
          ],
        },
      },
      'not a usable HAR: log.entries[0].request.headers[0] must be {name, value} strings',
    ],
    [
      { log: { entries: [], _embedInspector: { format: 'embed-inspector-capture', version: 1 }, _embedMessages: 3 } },
      'not a usable HAR: log._embedMessages must be an array',
    ],
    [
      {
        log: {
          entries: [],
          _embedInspector: { format: 'embed-inspector-capture', version: 1 },
          _embedMessages: [{ seq: 'x' }],
        },
      },
      'not a usable HAR: log._embedMessages[0].seq must be a number',
    ],
    [
      { log: { entries: [], _embedInspector: { format: 'embed-inspector-capture', version: 2 }, _embedMessages: [] } },
      'not a usable HAR: unsupported capture version 2; this tool reads version 1',
    ],
  ])('a malformed file is refused in one line: %j', (json, message) => {
    expect(() => readAnyCapture(json)).toThrow(new CaptureFormatError(message));
    expect(message).not.toContain('\n');
  });

  it('readAnyCapture reads a capture file as readCapture does', () => {
    expect(readAnyCapture(JSON.parse(JSON.stringify(capture)))).toEqual(readCapture(capture));
  });
});
