/**
 * Capture files in and out of the panel: export of the log (all of it or the filtered view, with the REST calls
 * seen; redacted by default) as a capture file or a HAR, and reading of an imported capture file or HAR with a
 * one-line reason when it is unusable. Pure.
 */
import type { ClassifiedRecord } from '../../../shared/messages.ts';
import {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  type CaptureFile,
  type CaptureRecord,
  type RestCall,
  readAnyCapture,
  redactCapture,
} from '../../log/protocol.ts';

export interface ExportOptions {
  tenantOrigin: string | null;
  pageUrl?: string | null;
  dropped?: number;
  /** Remove secrets (session URL parameter, bearer tokens, JWT-shaped strings). Default true. */
  redact?: boolean;
  now?: Date;
  /** The REST calls the panel saw (the REST log): the file's `rest`. Absent: the file has no `rest`. */
  rest?: readonly RestCall[];
}

/** A capture file (format v1) of these records: the panel's own fields (verdict, issues) left out; `check` recomputes them. */
export function captureOf(records: readonly ClassifiedRecord[], opts: ExportOptions): CaptureFile {
  const messages: CaptureRecord[] = records.map((r) => {
    const { verdict: _v, issues: _i, ...rest } = r;
    return rest;
  });
  const meta: NonNullable<CaptureFile['meta']> = {
    createdBy: 'embed-inspector panel',
    createdAt: (opts.now ?? new Date()).toISOString(),
  };
  if (opts.pageUrl) {
    meta.pageUrl = opts.pageUrl;
  }
  if (opts.dropped) {
    meta.dropped = opts.dropped;
  }
  const file: CaptureFile = {
    format: CAPTURE_FORMAT,
    version: CAPTURE_VERSION,
    tenantOrigin: opts.tenantOrigin,
    messages,
    ...(opts.rest ? { rest: [...opts.rest] } : {}),
    meta,
  };
  return opts.redact === false ? file : redactCapture(file);
}

/** `embed-capture-<host>-<yyyymmdd-hhmmss>.json` (or `.har`; no query string, so no secret in the name). */
export function exportFileName(
  pageUrl: string | null | undefined,
  now = new Date(),
  extension: 'json' | 'har' = 'json',
): string {
  let host = 'session';
  try {
    if (pageUrl) {
      host = new URL(pageUrl).host.replace(/[^A-Za-z0-9.-]+/g, '-') || host;
    }
  } catch {
    /* keep */
  }
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `embed-capture-${host}-${stamp}.${extension}`;
}

/** Files above this size are refused on import (the panel holds everything in memory). */
const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

/** Read an imported file's text (a capture file or a HAR, by content): the capture, or a one-line reason naming the file. */
export function readImported(text: string, name: string): { file: CaptureFile } | { error: string } {
  if (text.length > MAX_IMPORT_BYTES) {
    return { error: `${name}: too large to import (${Math.round(text.length / 1048576)} MB)` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { error: `${name}: not JSON (${(e as Error).message})` };
  }
  try {
    return { file: readAnyCapture(json) };
  } catch (e) {
    return { error: `${name}: ${(e as Error).message}` };
  }
}
