/**
 * Network observation: the four platform REST operations in the inspected tab's traffic, checked against the
 * spec (protocol/rest.ts). Runs where `chrome.devtools.network` exists (the devtools page and the panel);
 * takes the API as a parameter so that it can be driven by recorded HAR entries in tests.
 */
import { checkRest, matchOperation, type RestExchange, type RestResult } from '../../protocol/rest.ts';

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
  const x: RestExchange = {
    method: entry.request.method,
    url: entry.request.url,
    status: entry.response.status,
    requestHeaders: entry.request.headers ?? [],
    requestBody: entry.request.postData?.text ?? null,
    responseBody: await contentOf(entry),
  };
  const result = checkRest(x);
  if (!result) {
    return null;
  }
  const started = entry.startedDateTime ? Date.parse(entry.startedDateTime) : Date.now();
  return {
    ...result,
    time: Number.isFinite(started) ? started : Date.now(),
    duration: entry.time ?? 0,
    method: x.method,
    url: x.url,
    status: x.status,
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
