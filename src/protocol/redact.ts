/**
 * Redaction of secrets before a capture leaves the machine (export): the `session` URL parameter, bearer
 * tokens and anything shaped like a JWT, wherever they appear (URLs, message data, meta). Pure.
 */
import type { CaptureFile, CaptureRecord } from './record.ts';

export const REDACTED = '[redacted]';
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+\/=-]{4,}/gi;
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

export function redactCapture(file: CaptureFile): CaptureFile {
  return {
    ...file,
    messages: file.messages.map(redactRecord),
    meta: { ...(redactValue(file.meta ?? {}) as CaptureFile['meta']), redacted: true },
  };
}
