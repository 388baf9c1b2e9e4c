/**
 * HAR 1.2 in and out (http://www.softwareishard.com/blog/har-12-spec/): a capture file as a HAR that any HAR
 * viewer opens, and a HAR (ours, or one written by Chrome's Network panel or Playwright's `recordHar`) as a
 * capture file that `check`, `view` and the panel's Import read. Pure: no I/O; runs in Node and in a page.
 *
 * - `toHar(capture)`: `log.entries` are the capture's REST calls (`rest`), with request, response and timings;
 *   the window messages, which HAR has no place for, are `log._embedMessages` (HAR allows `_`-prefixed custom
 *   fields, as Chrome does with `_webSocketMessages`), and the capture's other top-level fields (format, version,
 *   tenantOrigin, meta) are `log._embedInspector`. Each entry carries `_embedCall` with what HAR's own fields
 *   cannot say exactly (the start time to the sub-millisecond, an unknown duration, truncated sizes). Secrets are
 *   redacted as in the capture export (redact.ts) unless `redact: false`.
 * - `fromHar(har)`: ours (it has `log._embedInspector`) gives back the capture exactly: messages, tenantOrigin,
 *   meta and rest. Another tool's HAR gives a capture with no messages whose `rest` holds the entries that are one
 *   of the four platform operations (method and path, rest.ts `matchOperation`); the other entries are left out
 *   and counted in `meta.restSkipped`.
 * - `readAnyCapture(json)`: a parsed capture file or HAR, told apart by content (a HAR is an object with `log`).
 *
 * Every error is a one-line CaptureFormatError naming the bad field.
 */
import { CaptureFormatError, readCapture } from './capture.ts';
import { CAPTURE_FORMAT, CAPTURE_VERSION, type CaptureFile, type CaptureRecord, type RestCall } from './record.ts';
import { redactCapture } from './redact.ts';
import { deeperThan, put } from './json-map.ts';
import { matchOperation } from './rest.ts';
import { base64ToBytes } from './base64.ts';

/** How deep a file read may nest: a capture's data is kept to 200 levels (encoding.ts), its fields a few more. */
const MAX_FILE_DEPTH = 1000;

interface HarNameValue {
  name: string;
  value: string;
}

/** A HAR 1.2 entry (the fields we write and read; readers ignore the others). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { blocked: number; dns: number; connect: number; ssl: number; send: number; wait: number; receive: number };
  /** Ours: what HAR's own fields cannot carry exactly. */
  _embedCall?: { time: number; durationMs?: number; originalSize?: RestCall['originalSize'] };
}

/** The capture's top-level fields other than its messages and REST calls (format, version, tenantOrigin, meta…). */
type HarCaptureFields = Omit<CaptureFile, 'messages' | 'rest'> & {
  /** Whether the capture had a `rest` array (its calls are `log.entries`). */
  hasRest: boolean;
};

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    comment?: string;
    entries: HarEntry[];
    /** The capture's window messages (records), as in a capture file. */
    _embedMessages: CaptureRecord[];
    _embedInspector: HarCaptureFields;
  };
}

export interface ToHarOptions {
  /** Remove secrets as the capture export does (default true). */
  redact?: boolean;
  /** `log.creator.version` (default: the capture format's version). */
  version?: string;
}

const utf8 = new TextEncoder();
const byteLength = (s: string) => utf8.encode(s).length;

const isObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.entries(headers).find(([k]) => k.toLowerCase() === lower)?.[1];
}

function isoOf(time: number): string {
  const d = new Date(time);
  return Number.isFinite(d.getTime()) ? d.toISOString() : new Date(0).toISOString();
}

function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function entryOf(c: RestCall): HarEntry {
  const duration = c.durationMs ?? 0;
  const mime = (text: string) => (isJson(text) ? 'application/json' : 'text/plain');
  const call: NonNullable<HarEntry['_embedCall']> = { time: c.time };
  if (c.durationMs !== undefined) {
    call.durationMs = c.durationMs;
  }
  if (c.originalSize !== undefined) {
    call.originalSize = c.originalSize;
  }
  const headers = c.requestHeaders ?? {};
  return {
    startedDateTime: isoOf(c.time),
    time: duration,
    request: {
      method: c.method,
      url: c.url,
      httpVersion: '',
      cookies: [],
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      queryString: queryOf(c.url),
      ...(c.requestBody === null || c.requestBody === undefined
        ? {}
        : {
            postData: {
              mimeType: headerValue(headers, 'content-type') ?? mime(c.requestBody),
              text: c.requestBody,
            },
          }),
      headersSize: -1,
      bodySize:
        c.requestBody === null || c.requestBody === undefined
          ? 0
          : (c.originalSize?.requestBody ?? byteLength(c.requestBody)),
    },
    response: {
      status: c.status,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content:
        c.responseBody === null || c.responseBody === undefined
          ? { size: 0, mimeType: '' }
          : {
              size: c.originalSize?.responseBody ?? byteLength(c.responseBody),
              mimeType: mime(c.responseBody),
              text: c.responseBody,
            },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: duration, receive: 0 },
    _embedCall: call,
  };
}

/** A capture file as a HAR 1.2 object (see the module comment). Redacted unless `redact: false`. */
export function toHar(capture: CaptureFile, opts: ToHarOptions = {}): Har {
  const file = opts.redact === false ? capture : redactCapture(capture);
  const { messages, rest, ...fields } = file;
  return {
    log: {
      version: '1.2',
      creator: { name: 'embed-inspector', version: opts.version ?? `capture format ${CAPTURE_VERSION}` },
      comment:
        'An Embed Inspector capture: the REST calls are the entries; the window messages are _embedMessages (capture format v1).',
      entries: (rest ?? []).map(entryOf),
      _embedMessages: messages,
      _embedInspector: { ...fields, hasRest: rest !== undefined },
    },
  };
}

/** Whether a parsed JSON value is a HAR (an object with a `log` object) rather than a capture file. */
export function isHar(json: unknown): boolean {
  return isObject(json) && isObject(json.log) && json.format === undefined;
}

const fail = (what: string): never => {
  throw new CaptureFormatError(`not a usable HAR: ${what}`);
};

/**
 * HAR headers (`[{name, value}]`) as an object: repeated names joined with ", " (as HTTP does), HTTP/2
 * pseudo-headers (`:authority`…) left out. Throws a one-line CaptureFormatError on a malformed list.
 */
export function headersOf(list: unknown, at = 'headers'): Record<string, string> {
  if (list === undefined) {
    return {};
  }
  if (!Array.isArray(list)) {
    return fail(`${at} must be an array`);
  }
  const out: Record<string, string> = {};
  list.forEach((h, i) => {
    if (!isObject(h) || typeof h.name !== 'string' || typeof h.value !== 'string') {
      fail(`${at}[${i}] must be {name, value} strings`);
    }
    const { name, value } = h as unknown as HarNameValue;
    if (name.startsWith(':')) {
      return; // HTTP/2 pseudo-headers (:authority, :path…) are not request headers
    }
    const same = Object.keys(out).find((k) => k.toLowerCase() === name.toLowerCase());
    if (same !== undefined) {
      put(out, same, `${out[same]}, ${value}`);
    } else {
      put(out, name, value);
    }
  });
  return out;
}

function textOf(content: unknown, at: string): string | null {
  if (content === undefined) {
    return null;
  }
  if (!isObject(content)) {
    return fail(`${at} must be an object`);
  }
  if (content.text === undefined || content.text === null) {
    return null;
  }
  if (typeof content.text !== 'string') {
    return fail(`${at}.text must be a string`);
  }
  if (content.encoding === 'base64') {
    try {
      return new TextDecoder('utf-8', { fatal: false }).decode(base64ToBytes(content.text));
    } catch {
      return fail(`${at}.text is not base64`);
    }
  }
  return content.text;
}

/** One HAR entry as a REST call; null for another tool's entry that is not one of the four operations. */
function callOf(e: unknown, i: number, ours: boolean): RestCall | null {
  const at = `log.entries[${i}]`;
  if (!isObject(e)) {
    return fail(`${at} is not an object`);
  }
  const req = e.request;
  const res = e.response;
  if (!isObject(req)) {
    return fail(`${at}.request must be an object`);
  }
  if (typeof req.method !== 'string' || !req.method) {
    return fail(`${at}.request.method must be a string`);
  }
  if (typeof req.url !== 'string') {
    return fail(`${at}.request.url must be a string`);
  }
  if (!isObject(res)) {
    return fail(`${at}.response must be an object`);
  }
  if (typeof res.status !== 'number' || !Number.isFinite(res.status)) {
    return fail(`${at}.response.status must be a number`);
  }
  const started = typeof e.startedDateTime === 'string' ? Date.parse(e.startedDateTime) : Number.NaN;
  const extra = ours && isObject(e._embedCall) ? e._embedCall : null;
  const time = typeof extra?.time === 'number' ? extra.time : started;
  if (!Number.isFinite(time)) {
    return fail(`${at}.startedDateTime must be an ISO date`);
  }
  if (!ours && !matchOperation(req.method, req.url)) {
    return null;
  }
  const postData = req.postData;
  if (postData !== undefined && !isObject(postData)) {
    return fail(`${at}.request.postData must be an object`);
  }
  const requestBody = postData && typeof postData.text === 'string' ? postData.text : null;
  const call: RestCall = {
    time,
    method: req.method,
    url: req.url,
    status: Math.max(0, Math.trunc(res.status)), // Playwright writes -1 for no response
    requestHeaders: headersOf(req.headers, `${at}.request.headers`),
    requestBody,
    responseBody: textOf(res.content, `${at}.response.content`),
  };
  if (extra) {
    if (typeof extra.durationMs === 'number') {
      call.durationMs = extra.durationMs;
    }
    if (isObject(extra.originalSize)) {
      call.originalSize = extra.originalSize as RestCall['originalSize'];
    }
  } else if (typeof e.time === 'number' && Number.isFinite(e.time) && e.time >= 0) {
    call.durationMs = e.time;
  }
  return call;
}

/**
 * A HAR as a capture file (see the module comment): ours exactly; another tool's as its REST calls of the four
 * operations, with no messages. Throws a one-line CaptureFormatError when it is not a usable HAR.
 */
export function fromHar(har: unknown): CaptureFile {
  if (!isObject(har)) {
    return fail('expected a JSON object');
  }
  const log = har.log;
  if (!isObject(log)) {
    return fail('"log" must be an object');
  }
  if (!Array.isArray(log.entries)) {
    return fail('log.entries must be an array');
  }
  const entries = log.entries as unknown[];
  const inspector = log._embedInspector;
  if (isObject(inspector) && inspector.format === CAPTURE_FORMAT) {
    const { hasRest, ...fields } = inspector;
    const value = {
      ...fields,
      messages: log._embedMessages,
      ...(hasRest === false ? {} : { rest: entries.map((e, i) => callOf(e, i, true)) }),
    };
    try {
      return readCapture(value);
    } catch (err) {
      const m = (err as Error).message
        .replace(/^"messages"/, 'log._embedMessages')
        .replace(/^messages\[/, 'log._embedMessages[');
      throw new CaptureFormatError(`not a usable HAR: ${m}`);
    }
  }
  const rest: RestCall[] = [];
  let skipped = 0;
  entries.forEach((e, i) => {
    const c = callOf(e, i, false);
    if (c) {
      rest.push(c);
    } else {
      skipped++;
    }
  });
  const creator = isObject(log.creator) ? log.creator : {};
  const by = [creator.name, creator.version].filter((x) => typeof x === 'string' && x).join(' ');
  const meta: NonNullable<CaptureFile['meta']> = { createdBy: `${by || 'unknown tool'} (HAR)`, restSkipped: skipped };
  const pages = Array.isArray(log.pages) ? log.pages : [];
  const title = isObject(pages[0]) ? pages[0].title : undefined;
  if (typeof title === 'string' && /^https?:\/\//i.test(title)) {
    meta.pageUrl = title;
  }
  return { format: CAPTURE_FORMAT, version: CAPTURE_VERSION, tenantOrigin: null, messages: [], rest, meta };
}

/**
 * A parsed capture file or HAR, by content: a HAR (an object with a `log` object) goes through `fromHar`, anything
 * else through `readCapture`. A HAR of another tool with no entry at all is refused (nothing to inspect). Throws a
 * one-line CaptureFormatError.
 */
export function readAnyCapture(json: unknown): CaptureFile {
  if (deeperThan(json, MAX_FILE_DEPTH)) {
    throw new CaptureFormatError(
      `nested too deeply: more than ${MAX_FILE_DEPTH} levels (a captured message's data is kept to 200)`,
    );
  }
  if (!isHar(json)) {
    return readCapture(json);
  }
  const file = fromHar(json);
  const log = (json as { log: Record<string, unknown> }).log;
  if (!isObject(log._embedInspector) && (log.entries as unknown[]).length === 0) {
    throw new CaptureFormatError('not a capture file: a HAR with no entries, nothing to inspect');
  }
  return file;
}
