/**
 * The transparency suite's two origins: `http://127.0.0.1:<port>` (the host) and `http://localhost:<port>`
 * (the embed), both serving the same routes, so that any page can be loaded on either origin:
 *
 * - `/p/<file>`: the pages and scripts of test/transparency/pages, with `{{HOST}}` and `{{EMBED}}` replaced;
 * - `/lib/<name>.js`: the browser bundle of an installed messaging library, read from node_modules.
 *
 * One server for the three browsers of a run, so URLs (and hence stack traces, origins in messages) are the
 * same in every mode.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const PAGES = new URL('./pages/', import.meta.url).pathname;
const require = createRequire(import.meta.url);

/**
 * Each library's browser file, as the package ships it (UMD, or an IIFE setting a global). framebus ships
 * CommonJS only: it is packed into one script by `packCommonJs` (no transformation, no dependency).
 */
const LIBS: Record<string, () => string> = {
  'post-robot': () => file('post-robot', 'dist/post-robot.js'),
  zoid: () => file('zoid', 'dist/zoid.js'),
  'iframe-resizer-parent': () => file('@iframe-resizer/parent', 'index.umd.js'),
  'iframe-resizer-child': () => file('@iframe-resizer/child', 'index.umd.js'),
  penpal: () => file('penpal', 'dist/penpal.js'), // IIFE setting window.Penpal
  postmate: () => file('postmate', 'build/postmate.min.js'), // the UMD build for browsers (postmate.js reads process.env)
  comlink: () => file('comlink', 'dist/umd/comlink.js'),
  jschannel: () => file('jschannel', 'src/jschannel.js'),
  framebus: () => packCommonJs(require.resolve('framebus'), 'Framebus'),
};

/** A file of an installed package, found from its entry point (some packages' `exports` hide their other files). */
function file(pkg: string, rel: string): string {
  let dir = dirname(require.resolve(pkg));
  while (
    !existsSync(join(dir, 'package.json')) ||
    JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== pkg
  ) {
    const up = dirname(dir);
    if (up === dir) {
      throw new Error(`no package directory for ${pkg}`);
    }
    dir = up;
  }
  return readFileSync(join(dir, rel), 'utf8');
}

/**
 * One script from a CommonJS package: every module reached by `require` from `entry`, each wrapped in a
 * function, resolved with Node's own resolution; the entry's exports become `window[global]`.
 */
function packCommonJs(entry: string, global: string): string {
  const ids = new Map<string, number>();
  const sources: string[] = [];
  const visit = (path: string): number => {
    const known = ids.get(path);
    if (known !== undefined) {
      return known;
    }
    const id = ids.size;
    ids.set(path, id);
    const code = readFileSync(path, 'utf8');
    const req = createRequire(path);
    const deps: Record<string, number> = {};
    for (const m of code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
      deps[m[1]!] = visit(req.resolve(m[1]!));
    }
    sources[id] = `[function (module, exports, require) {\n${code}\n}, ${JSON.stringify(deps)}]`;
    return id;
  };
  visit(entry);
  return `(function () {
  var defs = [${sources.join(',\n')}], cache = [];
  function load(id) {
    if (cache[id]) return cache[id].exports;
    var module = cache[id] = { exports: {} };
    defs[id][0].call(module.exports, module, module.exports, function (name) { return load(defs[id][1][name]); });
    return module.exports;
  }
  window[${JSON.stringify(global)}] = load(0);
})();\n`;
}

export interface Origins {
  host: string;
  embed: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8' };

export async function serveOrigins(): Promise<Origins> {
  const libCache = new Map<string, string>();
  let host = '';
  let embed = '';
  const handle = (path: string): { type: string; body: string } | undefined => {
    const lib = /^\/lib\/([\w-]+)\.js$/.exec(path);
    if (lib) {
      const make = LIBS[lib[1]!];
      if (!make) {
        return undefined;
      }
      if (!libCache.has(lib[1]!)) {
        libCache.set(lib[1]!, make());
      }
      return { type: TYPES.js!, body: libCache.get(lib[1]!)! };
    }
    const page = /^\/p\/([\w.-]+)$/.exec(path);
    if (page) {
      const ext = page[1]!.split('.').pop()!;
      let body: string;
      try {
        body = readFileSync(join(PAGES, page[1]!), 'utf8');
      } catch {
        return undefined;
      }
      return {
        type: TYPES[ext] ?? 'text/plain',
        body: body.replaceAll('{{HOST}}', host).replaceAll('{{EMBED}}', embed),
      };
    }
    return undefined;
  };
  const serve = (hostname: string) =>
    new Promise<{ server: Server; origin: string }>((resolve) => {
      const server = createServer((req, res) => {
        let r: { type: string; body: string } | undefined;
        try {
          r = handle(new URL(req.url ?? '/', 'http://x').pathname);
        } catch (e) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e));
          return;
        }
        if (!r) {
          res.writeHead(404).end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': r.type, 'cache-control': 'no-store' }).end(r.body);
      });
      server.listen(0, hostname, () =>
        resolve({ server, origin: `http://${hostname}:${(server.address() as AddressInfo).port}` }),
      );
    });
  const a = await serve('127.0.0.1');
  const b = await serve('localhost');
  host = a.origin;
  embed = b.origin;
  return {
    host,
    embed,
    close: async () => {
      for (const s of [a.server, b.server]) {
        s.closeAllConnections();
      }
      await Promise.all([a, b].map((s) => new Promise((r) => s.server.close(r))));
    },
  };
}
