/**
 * A captured message: one entry of a capture file (format v1, docs/capture-format.md).
 * Pure data, JSON-safe: `data` holds the message as encoded by `encoding.ts`.
 */
export type RecordKind = 'receive' | 'post';

export interface CaptureRecord {
  /** 1-based, increasing in capture order within one log. */
  seq: number;
  /** Epoch milliseconds when the extension observed it. */
  time: number;
  /** `receive`: a message event observed in a frame; `post`: a postMessage call observed in the posting frame. */
  kind: RecordKind;
  /** URL of the frame that received (receive) or posted (post). */
  frameUrl: string;
  /** receive: `event.origin`; post: the posting frame's origin. */
  origin: string;
  /** post only: the second argument of postMessage (`*`, `/` or an origin). */
  targetOrigin?: string;
  /** The message, encoded so that JSON can carry it (Date, Map, cycles… see encoding.ts). */
  data: unknown;

  // ---- optional fields (format v1 allows more fields; readers ignore unknown ones) ----
  /** Browser frame id (0 = top frame) when known. */
  frameId?: number;
  /** post only: where the post went: `parent`, `child`, `self`, `opener`, `other`. */
  target?: 'parent' | 'child' | 'self' | 'opener' | 'other';
  /** post only: URL/origin of the target window when the extension could tell. */
  targetUrl?: string;
  /** The seq of the paired record (a post and its delivery). */
  pairedWith?: number;
  /** post only: the browser dropped it (target origin did not match the target's origin). */
  dropped?: boolean;
  /** Sent by Embed Inspector itself (composer, replay, simulate). */
  injected?: boolean;
  /** The encoded data exceeded the size cap: `data` is a truncation marker, this is the full encoded size in bytes. */
  originalSize?: number;
  /** Number of transferred objects (MessagePorts…) that accompanied the message. */
  transfer?: number;
  /** A frame navigation (not a message): `data` is `{url}`. */
  navigation?: boolean;
}

export const CAPTURE_FORMAT = 'embed-inspector-capture';
export const CAPTURE_VERSION = 1;

/**
 * A call to one of the platform's REST operations, as the panel saw it in DevTools' Network log or as a HAR
 * entry held it: one entry of a capture file's optional `rest` array (format v1, docs/capture-format.md).
 */
export interface RestCall {
  /** Epoch milliseconds when the request started. */
  time: number;
  method: string;
  url: string;
  /** The response status; 0 when there was none (blocked, failed). */
  status: number;
  /** Request headers by name (redacted on export: `Authorization: Bearer [redacted]`). */
  requestHeaders: Record<string, string>;
  /** The request body as sent; null when there was none. */
  requestBody: string | null;
  /** The response body as received; null when it is not known (no response, or not available). */
  responseBody: string | null;
  /** How long the call took, when known. */
  durationMs?: number;
  /** A body over the size cap is truncated: its full size in bytes (UTF-8), by body. A truncated body is not checked. */
  originalSize?: { requestBody?: number; responseBody?: number };
}

export interface CaptureFile {
  format: typeof CAPTURE_FORMAT;
  version: typeof CAPTURE_VERSION;
  tenantOrigin: string | null;
  messages: CaptureRecord[];
  /** Optional: the REST calls of the four platform operations seen during the capture (older readers ignore it). */
  rest?: RestCall[];
  /** Optional metadata: what produced it, when, how many records were dropped by buffer bounds. */
  meta?: {
    createdBy?: string;
    createdAt?: string;
    dropped?: number;
    pageUrl?: string;
    redacted?: boolean;
    /** Read from a HAR written by another tool: its entries that are not one of the four operations, left out. */
    restSkipped?: number;
  };
}
