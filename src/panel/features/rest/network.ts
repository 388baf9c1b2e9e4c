/**
 * Network observation: the four platform REST operations in the inspected tab's traffic, checked against the
 * spec (protocol/rest.ts). Runs where `chrome.devtools.network` exists (the devtools page and the panel);
 * takes the API as a parameter so that it can be driven by recorded HAR entries in tests.
 */
import {
  checkRest,
  matchOperation,
  type RestExchange,
  type RestResult,
  checkRestCalls,
  headersOf,
  type RestCall,
} from '../../log/protocol.ts';
import { findBrowserApi } from '../../../shared/browser-api.ts';

/** The parts of a HAR 1.2 entry that we read (chrome.devtools.network.Request is a HAR entry). */
export interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request: {
    method: string;
    url: string;
    headers?: Array<{ name: string; value: string }>;
    postData?: { text?: string; mimeType?: string };
  };
  response: {
    status: number;
    headers?: Array<{ name: string; value: string }>;
    content?: { text?: string; mimeType?: string; encoding?: string };
  };
  getContent?(cb: (content: string | null, encoding?: string) => void): void;
}

export interface RestRecord extends RestResult {
  /** Epoch ms when the request started. */
  time: number;
  duration: number;
  method: string;
  url: string;
  status: number;
  /** The call as a capture file's `rest` holds it (a body over MAX_REST_BODY truncated), for the export. */
  call: RestCall;
}

/** A REST body longer than this (characters) is kept truncated, with its original size (the log holds 5,000 calls). */
export const MAX_REST_BODY = 1024 * 1024;

function capped(text: string | null): { text: string | null; size?: number } {
  if (text === null || text.length <= MAX_REST_BODY) {
    return { text };
  }
  return { text: text.slice(0, MAX_REST_BODY), size: new TextEncoder().encode(text).length };
}

/** A HAR entry and its response body as a capture file's REST call (bodies capped, see MAX_REST_BODY). */
export function restCallOf(entry: HarEntry, time: number, responseBody: string | null): RestCall {
  let requestHeaders: Record<string, string>;
  try {
    requestHeaders = headersOf(entry.request.headers ?? []);
  } catch {
    requestHeaders = {};
  }
  const req = capped(entry.request.postData?.text ?? null);
  const res = capped(responseBody);
  const call: RestCall = {
    time,
    method: entry.request.method,
    url: entry.request.url,
    status: Math.max(0, entry.response.status),
    requestHeaders,
    requestBody: req.text,
    responseBody: res.text,
  };
  if (typeof entry.time === 'number' && Number.isFinite(entry.time) && entry.time >= 0) {
    call.durationMs = entry.time;
  }
  if (req.size !== undefined || res.size !== undefined) {
    call.originalSize = {
      ...(req.size !== undefined ? { requestBody: req.size } : {}),
      ...(res.size !== undefined ? { responseBody: res.size } : {}),
    };
  }
  return call;
}

/** The REST calls of a capture file (an imported file or HAR), checked as `embed-inspector check` checks them. */
export function restRecordsOf(calls: readonly RestCall[]): RestRecord[] {
  return checkRestCalls(calls).results.map((r) => {
    const { index, ...result } = r;
    const call = calls[index];
    return { ...result, duration: call.durationMs ?? 0, call };
  });
}

export interface DevtoolsNetwork {
  getHAR(cb: (har: { entries: HarEntry[] }) => void): void;
  onRequestFinished: {
    addListener(fn: (entry: HarEntry) => void): void;
    removeListener?(fn: (entry: HarEntry) => void): void;
  };
  /** The inspected page navigated (top level). */
  onNavigated?: {
    addListener(fn: (url: string) => void): void;
  };
}

function contentOf(entry: HarEntry): Promise<string | null> {
  const inline = entry.response.content?.text;
  if (inline !== undefined) {
    return Promise.resolve(entry.response.content?.encoding === 'base64' ? safeAtob(inline) : inline);
  }
  if (!entry.getContent) {
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    try {
      entry.getContent!((c, enc) => resolve(c === null ? null : enc === 'base64' ? safeAtob(c) : c));
    } catch {
      resolve(null);
    }
  });
}
function safeAtob(s: string): string | null {
  try {
    return decodeURIComponent(escape(atob(s)));
  } catch {
    return null;
  }
}

/** Check one HAR entry; null when it is not one of the four documented operations. */
export async function checkHarEntry(entry: HarEntry): Promise<RestRecord | null> {
  if (!matchOperation(entry.request.method, entry.request.url)) {
    return null;
  }
  const body = await contentOf(entry);
  const x: RestExchange = {
    method: entry.request.method,
    url: entry.request.url,
    status: entry.response.status,
    requestHeaders: entry.request.headers ?? [],
    requestBody: entry.request.postData?.text ?? null,
    // a body DevTools cannot give (null) is unknown, not empty: not judged, as `check` does with the export
    responseBody: body ?? undefined,
  };
  const result = checkRest(x);
  if (!result) {
    return null;
  }
  const parsed = entry.startedDateTime ? Date.parse(entry.startedDateTime) : Number.NaN;
  const time = Number.isFinite(parsed) ? parsed : Date.now();
  return {
    ...result,
    time,
    duration: entry.time ?? 0,
    method: x.method,
    url: x.url,
    status: x.status,
    call: restCallOf(entry, time, body),
  };
}

/** The backlog (HAR since DevTools opened), then every finished request. Returns a stop function. */
export function observeNetwork(network: DevtoolsNetwork, onRecord: (r: RestRecord) => void): () => void {
  let stopped = false;
  const handle = (entry: HarEntry) => {
    void checkHarEntry(entry).then(
      (r) => {
        if (r && !stopped) {
          onRecord(r);
        }
      },
      () => {},
    );
  };
  try {
    network.getHAR((har) => {
      for (const e of har?.entries ?? []) {
        handle(e);
      }
    });
  } catch {
    /* no backlog */
  }
  network.onRequestFinished.addListener(handle);
  return () => {
    stopped = true;
    network.onRequestFinished.removeListener?.(handle);
  };
}

/** DevTools' Network traffic (`devtools.network`), where the panel runs inside DevTools (else undefined). */
export function devtoolsNetwork(): DevtoolsNetwork | undefined {
  try {
    return (findBrowserApi()?.devtools as { network?: DevtoolsNetwork } | undefined)?.network;
  } catch {
    return undefined;
  }
}
