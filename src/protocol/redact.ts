/**
 * Redaction of secrets before a capture leaves the machine (export): the `session` URL parameter, bearer
 * tokens and anything shaped like a JWT, wherever they appear (URLs, message data, meta, REST calls' headers and
 * bodies). Pure.
 */
import type { CaptureFile, CaptureRecord, RestCall } from './record.ts';

export const REDACTED = '[redacted]';
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
const SESSION_PARAM = /([?&#](?:session|session_id|sessionId|token|access_token|id_token)=)[^&#\s"']*/gi;
const SECRET_KEYS =
  /^(authorization|session|sessionId|session_id|token|accessToken|access_token|idToken|id_token|apiKey|api_key|jwt|password|secret)$/i;

/** Redact secrets inside one string. */
export function redactString(s: string): string {
  if (s.length < 8) {
    return s;
  }
  return s.replace(SESSION_PARAM, `$1${REDACTED}`).replace(BEARER, `$1 ${REDACTED}`).replace(JWT, REDACTED);
}

/** Redact every string of a JSON value (keys kept; values of secret-named keys replaced whole). */
export function redactValue(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') {
    return redactString(v);
  }
  if (v === null || typeof v !== 'object' || depth > 200) {
    return v;
  }
  if (Array.isArray(v)) {
    return v.map((x) => redactValue(x, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    out[k] =
      SECRET_KEYS.test(k) && (typeof x === 'string' || typeof x === 'number') ? REDACTED : redactValue(x, depth + 1);
  }
  return out;
}

export function redactRecord(r: CaptureRecord): CaptureRecord {
  return redactValue(r) as CaptureRecord;
}

/** Request headers whose whole value is a secret (besides Authorization, which keeps its scheme). */
const SECRET_HEADERS = /^(cookie|set-cookie|proxy-authorization|x-api-key|x-auth-token|x-csrf-token|x-xsrf-token)$/i;

/**
 * Redact one REST call: `Authorization: Bearer [redacted]` (the scheme kept, so `rest.auth` still sees a bearer
 * token), cookies and API-key headers whole, the URL, and the bodies (secrets in their text; in a JSON body, the
 * values of secret-named keys too).
 */
export function redactRestCall(c: RestCall): RestCall {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(c.requestHeaders ?? {})) {
    if (/^authorization$/i.test(k)) {
      const scheme = /^\s*(\S+)\s+\S/.exec(v)?.[1];
      headers[k] = v.trim() === '' ? v : scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else {
      headers[k] = SECRET_HEADERS.test(k) ? REDACTED : redactString(v);
    }
  }
  const out: RestCall = {
    ...c,
    url: redactString(c.url),
    requestHeaders: headers,
    requestBody: redactBody(c.requestBody),
    responseBody: redactBody(c.responseBody),
  };
  return out;
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
  return JSON.stringify(redacted) === JSON.stringify(json) ? text : JSON.stringify(redacted);
}

export function redactCapture(file: CaptureFile): CaptureFile {
  return {
    ...file,
    messages: file.messages.map(redactRecord),
    ...(file.rest ? { rest: file.rest.map(redactRestCall) } : {}),
    meta: { ...(redactValue(file.meta ?? {}) as CaptureFile['meta']), redacted: true },
  };
}
