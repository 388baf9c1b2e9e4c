// Small HTTP helpers shared by the three origins of the sandbox. Node built-ins only.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

/** Largest request body the mock API reads; larger bodies get 413. */
const MAX_BODY_BYTES = 1024 * 1024;

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** An error that carries an HTTP status; the API turns it into `{error:{status, message}}`. */
export class HttpError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function sendJson(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {string} message @param {Record<string,string>} [headers] */
export function sendError(res, status, message, headers) {
  sendJson(res, status, { error: { status, message } }, headers);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} type
 * @param {string | Buffer} body
 */
export function sendText(res, status, type, body) {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/**
 * Reads a JSON body. Resolves to `undefined` for an empty body.
 * Rejects with HttpError 413 past MAX_BODY_BYTES, 415 for a non-JSON content type, 400 for malformed JSON.
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<unknown>}
 */
export function readJsonBody(req) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
      req.resume();
      reject(new HttpError(413, `Request body too large: ${declared} bytes (limit ${MAX_BODY_BYTES})`));
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk) => {
      if (failed) {
        return;
      }
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        chunks.length = 0;
        reject(new HttpError(413, `Request body too large: more than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', (err) => {
      if (!failed) {
        reject(new HttpError(400, `Could not read request body: ${err.message}`));
      }
      failed = true;
    });
    req.on('end', () => {
      if (failed) {
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        return resolve(undefined);
      }
      const type = String(req.headers['content-type'] ?? '');
      if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
        return reject(new HttpError(415, `Content-Type must be application/json, got "${type}"`));
      }
      try {
        resolve(JSON.parse(text));
      } catch (err) {
        reject(new HttpError(400, `Malformed JSON body: ${/** @type {Error} */ (err).message}`));
      }
    });
  });
}

/**
 * Serves a file below `root`; returns false when there is no such file (caller answers 404).
 * @param {import('node:http').ServerResponse} res
 * @param {string} root
 * @param {string} urlPath
 */
export async function serveStatic(res, root, urlPath) {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  const file = join(root, rel);
  if (!file.startsWith(root + sep) && file !== root) {
    return false;
  }
  const type = TYPES[/** @type {keyof typeof TYPES} */ (extname(file))];
  if (!type) {
    return false;
  }
  try {
    const body = await readFile(file);
    sendText(res, 200, type, body);
    return true;
  } catch {
    return false;
  }
}

/** @param {number} ms */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
