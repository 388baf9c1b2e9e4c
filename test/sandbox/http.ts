// A tiny HTTP client for the sandbox tests (node:http, so headers such as Origin and chunked bodies are under our control).
import { request as httpRequest } from 'node:http';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: any;
}

export interface Req {
  method: string;
  path: string;
  /** Bearer token; null sends no Authorization header. */
  token?: string | null;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (wins over body). */
  raw?: string;
  headers?: Record<string, string>;
  /** Send the body in chunks without a Content-Length. */
  chunked?: boolean;
}

export function send(origin: string, req: Req): Promise<Res> {
  const url = new URL(req.path, origin);
  const headers: Record<string, string> = { ...req.headers };
  if (req.token !== null && req.token !== undefined) {
    headers.Authorization = `Bearer ${req.token}`;
  }
  const payload = req.raw ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      { host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method: req.method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    // The server may answer 413 and close before the whole body is written.
    r.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    if (payload !== undefined && req.chunked) {
      const step = 64 * 1024;
      for (let i = 0; i < payload.length; i += step) {
        r.write(payload.slice(i, i + step));
      }
    } else if (payload !== undefined) {
      r.setHeader('Content-Length', Buffer.byteLength(payload));
      r.write(payload);
    }
    r.end();
  });
}
