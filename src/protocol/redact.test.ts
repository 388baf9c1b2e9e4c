import { describe, expect, it } from 'vitest';
import { REDACTED, redactCapture, redactRestCall, redactString, redactValue } from './redact.ts';
import type { RestCall } from './record.ts';

const R = REDACTED;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl';

describe('redactString: every secret shape, in URLs, form bodies and text', () => {
  it.each([
    [
      'the session parameter',
      'https://t.example/embed/dashboard/x?session=s3cr3t-1',
      `https://t.example/embed/dashboard/x?session=${R}`,
    ],
    ['api_key', 'https://api.example/v1?api_key=AKIA123456&x=1', `https://api.example/v1?api_key=${R}&x=1`],
    ['refresh_token', '/cb#refresh_token=rt-999&state=ok', `/cb#refresh_token=${R}&state=ok`],
    [
      'client_secret in a form body',
      'grant_type=client&client_secret=shh-123&scope=a',
      `grant_type=client&client_secret=${R}&scope=a`,
    ],
    ['an OAuth code', 'https://h.example/cb?code=abcdef123&state=1', `https://h.example/cb?code=${R}&state=1`],
    ['a signature', 'https://cdn.example/f.png?sig=0a1b2c3d&exp=1', `https://cdn.example/f.png?sig=${R}&exp=1`],
    [
      'AWS presigned parts',
      '?X-Amz-Security-Token=FQoG12345&X-Amz-Signature=abc123',
      `?X-Amz-Security-Token=${R}&X-Amz-Signature=${R}`,
    ],
    ['URL userinfo', 'https://admin:pass@t.example/embed', `https://${R}@t.example/embed`],
    ['a bearer token', 'Authorization: Bearer abc.def-ghi', `Authorization: Bearer ${R}`],
    ['Basic credentials', 'Authorization: Basic YWRtaW46cGFzcw==', `Authorization: Basic ${R}`],
    ['a JWT anywhere', `the token was ${JWT} here`, `the token was ${R} here`],
    ['a secret key in JSON text', '{"refreshToken":"rt-1","ok":true}', `{"refreshToken":"${R}","ok":true}`],
    [
      'clientSecret, sessionToken in JSON text',
      '{"clientSecret": "x1", "sessionToken":"y2"}',
      `{"clientSecret": "${R}", "sessionToken":"${R}"}`,
    ],
  ])('%s', (_name, input, expected) => {
    expect(redactString(input)).toBe(expected);
  });

  it.each([
    ['a filter parameter', 'https://t.example/embed/dashboard/x?f_sales.region=%22EU%22&timezone=UTC'],
    ['a plain sentence', 'the host posted refresh before ready'],
    ['a type', 'svc:action:set-filter'],
    ['a JSON key that is no secret', '{"type":"svc:event:ready","mode":"signed"}'],
  ])('leaves %s alone', (_name, input) => {
    expect(redactString(input)).toBe(input);
  });
});

describe('redactValue: secret-named keys whole, every string, any depth', () => {
  it('replaces the values of secret-named keys in any spelling and redacts strings elsewhere', () => {
    const v = {
      password: 'hunter2',
      refreshToken: 'rt',
      client_secret: 'cs',
      sessionToken: 'st',
      'X-Api-Key': 'k',
      nested: [{ url: 'https://t.example/?session=abc123' }],
      code: 404,
    };
    expect(redactValue(v)).toEqual({
      password: R,
      refreshToken: R,
      client_secret: R,
      sessionToken: R,
      'X-Api-Key': R,
      nested: [{ url: `https://t.example/?session=${R}` }],
      code: 404,
    });
  });

  it('keeps a __proto__ key as an own key of data, never as the prototype', () => {
    const v = JSON.parse('{"__proto__":{"verdict":"valid"},"a":{"__proto__":{"password":"p"}}}');
    const out = redactValue(v) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { verdict?: unknown }).verdict).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"verdict":"valid"},"a":{"__proto__":{"password":"${R}"}}}`);
  });

  it('redacts a secret nested 100,000 levels deep, with no stack overflow', () => {
    let v: unknown = { token: 'deep-secret' };
    for (let i = 0; i < 100_000; i++) {
      v = [v];
    }
    let out = redactValue(v);
    for (let i = 0; i < 100_000; i++) {
      out = (out as unknown[])[0];
    }
    expect(out).toEqual({ token: R });
  });
});

describe('redactRestCall and redactCapture', () => {
  const call: RestCall = {
    time: 1,
    method: 'POST',
    url: 'https://t.example/api/v1/x?access_token=at-1',
    status: 200,
    requestHeaders: {
      Authorization: 'Bearer abcdef',
      'X-Session-Token': 'st-1',
      'X-Amz-Security-Token': 'amz-1',
      Cookie: 'a=b',
      Accept: 'application/json',
    },
    requestBody: 'username=u&password=p4ss&remember=1',
    responseBody: '{"access_token":"at-2","refresh_token":"rt-2","expires":3600}',
  };
  it('redacts credential headers, form and JSON bodies, the URL', () => {
    expect(redactRestCall(call)).toMatchObject({
      url: `https://t.example/api/v1/x?access_token=${R}`,
      requestHeaders: {
        Authorization: `Bearer ${R}`,
        'X-Session-Token': R,
        'X-Amz-Security-Token': R,
        Cookie: R,
        Accept: 'application/json',
      },
      requestBody: `username=u&password=${R}&remember=1`,
      responseBody: `{"access_token":"${R}","refresh_token":"${R}","expires":3600}`,
    });
  });
  it('marks the file as redacted', () => {
    const file = redactCapture({ format: 'embed-inspector-capture', version: 1, tenantOrigin: null, messages: [] });
    expect(file.meta?.redacted).toBe(true);
  });
  it("redacts a field of a stranger's file it does not know, as the rest", () => {
    const file = { format: 'embed-inspector-capture', version: 1, tenantOrigin: null, messages: [] } as const;
    const odd = { ...file, note: 'Bearer abcdef.TOPSECRET2', extra: { apiKey: 'k-123456' } };
    const text = JSON.stringify(redactCapture(odd as unknown as Parameters<typeof redactCapture>[0]));
    expect(text).not.toContain('TOPSECRET2');
    expect(text).not.toContain('k-123456');
    expect(text).toContain('"format":"embed-inspector-capture"');
  });
});

describe('__proto__ and constructor stay data in diff and HAR', () => {
  it('a type named __proto__ or constructor is counted as a type, and a header named __proto__ kept', async () => {
    const { diffCaptures } = await import('./diff.ts');
    const { toHar, fromHar } = await import('./har.ts');
    const rec = (seq: number, type: string) => ({
      seq,
      time: seq,
      kind: 'receive' as const,
      frameUrl: 'https://h.example/',
      origin: 'https://t.example',
      data: { source: 'svc-embed', direction: 'event', type, payload: JSON.parse('{"__proto__":{"x":1}}') },
    });
    const file = {
      format: 'embed-inspector-capture' as const,
      version: 1 as const,
      tenantOrigin: null,
      messages: [rec(1, '__proto__'), rec(2, 'constructor'), rec(3, '__proto__')],
    };
    const d = diffCaptures(file, file);
    expect(d.types.map((t) => [t.type, t.a, t.b])).toEqual([
      ['__proto__', 2, 2],
      ['constructor', 1, 1],
    ]);
    const back = fromHar(JSON.parse(JSON.stringify(toHar(file))));
    expect(back.messages.map((m) => Object.keys((m.data as { payload: object }).payload))).toEqual([
      ['__proto__'],
      ['__proto__'],
      ['__proto__'],
    ]);
  });
});
