/**
 * A service worker of its own for the libraries' reads (src/node): a vm context with the globals a worker has
 * beside the fake automation API, and an `evaluate` that runs each function from its source text there, with a
 * JSON copy of its argument, as the browser does.
 */
import { createContext, runInContext, type Context } from 'node:vm';

export function workerContext(api: Record<string, unknown>): Context {
  return createContext({
    embedInspector: api,
    setTimeout,
    Blob,
    Response,
    CompressionStream,
    btoa,
    Date,
    Math,
    JSON,
    Map,
    Uint8Array,
    String,
  });
}

export const evaluateIn =
  (ctx: Context) =>
  async <A, R>(f: (arg: A) => R | Promise<R>, arg: A): Promise<R> =>
    (runInContext(`(${f.toString()})`, ctx) as (a: A) => Promise<R>)(JSON.parse(JSON.stringify(arg)) as A);
