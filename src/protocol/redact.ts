/**
 * Redaction of secrets wherever we print or write (check's text, JSON and JUnit, diff, codegen, view, har, exports,
 * test attachments, capture files), by default. One rule set, table-tested (redact.test.ts):
 * - URL and form parameters named like a secret (SECRET_PARAMS: `session`, `access_token`, `api_key`, `code`,
 *   `sig`…), in URLs, form-encoded bodies and any text;
 * - a URL's user name and password (`https://admin:pass@host`);
 * - `Bearer …` and `Basic …` credentials, and anything shaped like a JWT;
 * - the values of object keys named like a secret (SECRET_KEYS: `password`, `refreshToken`, `client_secret`…), in
 *   values and in JSON text;
 * - headers that carry a credential (SECRET_HEADERS), whole; `Authorization` keeps its scheme.
 * A `__proto__` key is kept as data (an own property), never as a prototype. Pure.
 */
import type { CaptureFile, CaptureRecord, RestCall } from './record.ts';
import { mapJson, put } from './json-map.ts';

export const REDACTED = '[redacted]';

/** Parameter names whose value is a secret (URL query or fragment, form bodies). */
const SECRET_PARAMS = [
  'session',
  'session_id',
  'sessionid',
  'session_token',
  'sessiontoken',
  'token',
  'access_token',
  'accesstoken',
  'id_token',
  'idtoken',
  'refresh_token',
  'refreshtoken',
  'api_key',
  'apikey',
  'api-key',
  'key',
  'client_secret',
  'clientsecret',
  'code',
  'sig',
  'signature',
  'password',
  'passwd',
  'secret',
  'jwt',
  'auth',
  'x-amz-signature',
  'x-amz-security-token',
  'x-amz-credential',
];
/** Object keys whose value is a secret, compared without case, `_` or `-`. */
const SECRET_KEYS = new Set([
  'authorization',
  'session',
  'sessionid',
  'sessiontoken',
  'token',
  'accesstoken',
  'idtoken',
  'refreshtoken',
  'apikey',
  'clientsecret',
  'jwt',
  'password',
  'passwd',
  'secret',
  'privatekey',
  'cookie',
]);
/** Headers whose whole value is a secret (besides Authorization, which keeps its scheme). */
const SECRET_HEADERS =
  /^(cookie|set-cookie|proxy-authorization|x-api-key|x-auth-token|x-csrf-token|x-xsrf-token|x-session-token|x-amz-security-token|x-goog-api-key|[a-z-]*-token|[a-z-]*-api-key|[a-z-]*secret[a-z-]*)$/i;

const PARAM = new RegExp(`((?:^|[?&#;\\s"'])(?:${SECRET_PARAMS.map(literal).join('|')})=)[^&#;\\s"'<>]+`, 'gi');
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
const CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/** `"secretKey": "value"` in JSON text (a key of SECRET_KEYS, spelled in any case, with `_` or `-`). */
const JSON_PAIR = /("([A-Za-z_-]{3,40})"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
}

/** Endings of an object key that name a secret (`xApiKey`, `csrfToken`, `appSecret`). */
const SECRET_ENDINGS = ['token', 'secret', 'password', 'apikey'];

/** Whether an object key names a secret. */
function isSecretKey(k: string): boolean {
  const n = k.toLowerCase().replace(/[_-]/g, '');
  return SECRET_KEYS.has(n) || SECRET_ENDINGS.some((e) => n.endsWith(e));
}

/** Redact secrets inside one string (URLs, text, JSON text). */
export function redactString(s: string): string {
  if (typeof s !== 'string' || s.length < 6) {
    return s;
  }
  return s
    .replace(PARAM, `$1${REDACTED}`)
    .replace(USERINFO, `$1${REDACTED}@`)
    .replace(CREDENTIAL, `$1 ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(JSON_PAIR, (all, head: string, key: string) => (isSecretKey(key) ? `${head}"${REDACTED}"` : all));
}

/** Redact every string of a JSON value (keys kept; values of secret-named keys replaced whole), at any depth. */
export function redactValue(v: unknown): unknown {
  return mapJson(v, redactString, (k, x) =>
    isSecretKey(k) && (typeof x === 'string' || typeof x === 'number') ? REDACTED : undefined,
  );
}

export function redactRecord(r: CaptureRecord): CaptureRecord {
  return redactValue(r) as CaptureRecord;
}

/**
 * Redact one REST call: `Authorization: Bearer [redacted]` (the scheme kept, so `rest.auth` still sees a bearer
 * token), cookies and credential headers whole, the URL, and the bodies (secrets in their text; in a JSON body, the
 * values of secret-named keys too; in a form body, secret-named parameters).
 */
export function redactRestCall(c: RestCall): RestCall {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.requestHeaders ?? {})) {
    if (/^authorization$/i.test(k)) {
      const scheme = /^\s*(\S+)\s+\S/.exec(v)?.[1];
      put(headers, k, v.trim() === '' ? v : scheme ? `${scheme} ${REDACTED}` : REDACTED);
    } else {
      put(headers, k, SECRET_HEADERS.test(k) ? REDACTED : redactString(v));
    }
  }
  return {
    ...c,
    url: redactString(c.url),
    requestHeaders: headers,
    requestBody: redactBody(c.requestBody),
    responseBody: redactBody(c.responseBody),
  };
}

/** A body's text redacted; a JSON body whose secret-named keys have values is rewritten without them. */
function redactBody(text: string | null): string | null {
  if (text === null || text === undefined) {
    return text;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return redactString(text);
  }
  const redacted = redactValue(json);
  return JSON.stringify(redacted) === JSON.stringify(json) ? redactString(text) : JSON.stringify(redacted);
}

/** A capture file redacted: its records, REST calls and meta, and any other field a stranger's file holds. */
export function redactCapture(file: CaptureFile): CaptureFile {
  const { messages, rest, meta, ...others } = file;
  return {
    ...(redactValue(others) as Omit<CaptureFile, 'messages'>),
    messages: messages.map(redactRecord),
    ...(rest ? { rest: rest.map(redactRestCall) } : {}),
    meta: { ...(redactValue(meta ?? {}) as CaptureFile['meta']), redacted: true },
  };
}
