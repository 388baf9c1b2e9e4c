/**
 * `embed-inspector view FILE… [--port N] [--no-open] [--theme light|dark]`: the panel, with no extension
 * installed, showing capture files — the built panel page served on loopback, each file read and classified in the
 * page as the panel's Import does (the same verdicts as `check`). Several files open as one list to switch
 * between. Opens the system Chromium when there is a display (prints the URL otherwise); stops on Ctrl+C.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, extname, join, normalize, resolve, sep } from 'node:path';
import { chromiumPath, extensionPath } from '../node/browser-paths.ts';
import { oneOf, UsageError } from './args.ts';
import { commandHelp, parseCommand, VIEW } from './commands.ts';
import { loadCapture } from './check.ts';
import { redactCapture } from '../protocol/redact.ts';
import { warnUnredacted } from './shown.ts';

export const VIEW_HELP = commandHelp(VIEW);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/**
 * Sent with every response: nothing of another origin loads into the panel or reads from it, no other page frames
 * it, and no file is taken for another type than it is served as.
 */
const SAFE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
    "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; " +
    "form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export interface Viewer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serve the panel of the built extension `dir` with `files` (name and capture JSON text): the page at
 * `/src/panel/index.html?view=/captures.json`, the list at `/captures.json`, each file at `/captures/<i>`. Loopback
 * only; nothing else of the machine is served.
 */
export async function serveViewer(
  dir: string,
  files: Array<{ name: string; text: string }>,
  opts: { port?: number; theme?: 'light' | 'dark' } = {},
): Promise<Viewer> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    for (const [k, v] of Object.entries(SAFE_HEADERS)) {
      res.setHeader(k, v);
    }
    void (async () => {
      // Only a page of this server may read the files (a page elsewhere rebinding a name to 127.0.0.1 may not).
      const port = (server.address() as { port: number } | null)?.port;
      if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden');
        return;
      }
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405).end();
        return;
      }
      if (path === '/') {
        res.writeHead(302, { location: pageUrl('') }).end();
        return;
      }
      if (path === '/captures.json') {
        const list = files.map((f, i) => ({ name: f.name, url: `/captures/${i}` }));
        res.writeHead(200, { 'content-type': TYPES['.json'], 'cache-control': 'no-store' }).end(JSON.stringify(list));
        return;
      }
      const m = /^\/captures\/(\d+)$/.exec(path);
      if (m) {
        const f = files[Number(m[1])];
        if (!f) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': TYPES['.json'], 'cache-control': 'no-store' }).end(f.text);
        return;
      }
      // The built panel's own files, and nothing outside the folder.
      const file = normalize(join(root, path));
      if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const body = await readFile(file);
      res
        .writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        })
        .end(req.method === 'HEAD' ? undefined : body);
    })().catch(() => {
      res.writeHead(500).end();
    });
  });
  const pageUrl = (origin: string) =>
    `${origin}/src/panel/index.html?view=/captures.json${opts.theme ? `&theme=${opts.theme}` : ''}`;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as { port: number };
  return {
    url: pageUrl(`http://127.0.0.1:${port}`),
    server,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** The system Chromium showing `url` as an app window, in a throwaway profile; null when none can be started. */
function openBrowser(url: string): { child: ChildProcess; profile: string } | null {
  let exe: string;
  try {
    exe = chromiumPath();
  } catch {
    return null;
  }
  const profile = mkdtempSync(join(tmpdir(), 'ei-view-'));
  const child = spawn(
    exe,
    [`--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check', '--disable-sync', `--app=${url}`],
    { stdio: 'ignore' },
  );
  child.on('error', () => {});
  return { child, profile };
}

type Io = { out: (s: string) => void };

export async function runView(argv: string[], io: Io = { out: (s) => process.stdout.write(s) }): Promise<number> {
  const { values, positionals } = parseCommand(VIEW, argv);
  if (values.help) {
    io.out(`${VIEW_HELP}\n`);
    return 0;
  }
  if (!positionals.length) {
    throw new UsageError('view needs at least one capture file (see embed-inspector view --help)');
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a port number (got "${values.port}")`);
  }
  const theme =
    values.theme === undefined ? undefined : oneOf('theme', values.theme, VIEW.flags.theme.choices, 'light');
  // Every file is read and checked first: nothing is served when one is unusable. Served redacted unless
  // --no-redact (the panel judges what it is served: the session parameter's value is not needed to judge it).
  const redact = !values['no-redact'];
  if (!redact) {
    warnUnredacted('view', 'the panel it serves', (x) => process.stderr.write(x));
  }
  const files: Array<{ name: string; text: string }> = [];
  for (const file of positionals) {
    const capture = await loadCapture(file);
    files.push({ name: basename(file), text: JSON.stringify(redact ? redactCapture(capture) : capture) });
  }
  let dir: string;
  try {
    dir = extensionPath();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  let viewer: Viewer;
  try {
    viewer = await serveViewer(dir, files, { port, theme });
  } catch (e) {
    throw new UsageError(`cannot serve on port ${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  io.out(`embed-inspector view: ${files.length === 1 ? files[0].name : `${files.length} files`} at ${viewer.url}\n`);
  const display = process.platform === 'darwin' || process.platform === 'win32' || !!process.env.DISPLAY;
  const browser = !values['no-open'] && display ? openBrowser(viewer.url) : null;
  if (!browser) {
    io.out(
      values['no-open']
        ? 'open that URL in a browser; Ctrl+C stops.\n'
        : 'no display: open that URL in a browser; Ctrl+C stops.\n',
    );
  } else {
    io.out('opened in Chromium; Ctrl+C stops.\n');
  }
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    browser?.child.once('exit', stop);
  });
  browser?.child.kill();
  if (browser) {
    rmSync(browser.profile, { recursive: true, force: true });
  }
  await viewer.close();
  return 0;
}
