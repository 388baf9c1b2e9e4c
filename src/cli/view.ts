/**
 * `embed-inspector view FILE… [--port N] [--no-open] [--theme light|dark]`: the panel, with no extension
 * installed, showing capture files — the built panel page served on loopback, each file read and classified in the
 * page as the panel's Import does (the same verdicts as `check`). Several files open as one list to switch
 * between. Opens the system Chromium when there is a display (prints the URL otherwise); stops on Ctrl+C.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { basename, extname, join, normalize, resolve, sep } from 'node:path';
import { extensionPath } from '../node/browser-paths.ts';
import { launchChromium, type Launched } from '../node/chromium.ts';
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
  /** Resolves when the file list was first served (a browser showed the panel with the files). */
  served: Promise<void>;
  /** Whether it was. */
  wasServed(): boolean;
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
  let served = false;
  let onServed = () => {};
  const servedOnce = new Promise<void>((ok) => {
    onServed = ok;
  });
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
        served = true;
        onServed();
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
    served: servedOnce,
    wasServed: () => served,
    // Every connection ends with the server: Node counts one on which nothing was sent yet (a browser's preconnect)
    // as busy, and `close` stops the timer that would end it, so `close` alone waited for the browser to drop it.
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

/**
 * The system Chromium showing `url` as an app window, in a throwaway profile, launched as `record` launches it
 * (src/node/chromium.ts: its flags, `--no-sandbox` included, which Chromium needs as root). Resolves once the page
 * read the files (`shown`), or with why it could not (`failed`: it did not start, or exited before showing them).
 */
async function openBrowser(
  viewer: Viewer,
  stopped: Promise<void>,
): Promise<{ shown: Launched; exited: Promise<void> } | { failed: string } | null> {
  let launched: Launched;
  try {
    launched = await launchChromium({ headless: false, app: viewer.url, handleSignals: false });
  } catch (e) {
    return { failed: `Chromium did not start: ${firstLine(e)}` };
  }
  const exited = new Promise<void>((done) => launched.browser.once('disconnected', () => done()));
  const first = await Promise.race([
    viewer.served.then(() => 'shown' as const),
    exited.then(() => 'exited' as const),
    stopped.then(() => 'stopped' as const),
  ]);
  if (first !== 'shown') {
    await launched.close();
    return first === 'exited' ? { failed: 'Chromium exited before it showed the files' } : null;
  }
  return { shown: launched, exited };
}

/** A launch error in one line: its first, and the browser's own error line when it printed one. */
function firstLine(e: unknown): string {
  const lines = String((e as Error)?.message ?? e)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const own = lines.slice(1).find((l) => /error|missing|cannot|can't|denied|not supported/i.test(l));
  return `${lines[0] ?? 'unknown error'}${own ? ` (${own})` : ''}`;
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
  let stop = () => {};
  const stopped = new Promise<void>((done) => {
    stop = done;
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let browser: Launched | null = null;
  if (values['no-open'] || !display) {
    io.out(`${values['no-open'] ? '' : 'no display: '}open that URL in a browser; Ctrl+C stops.\n`);
  } else {
    const opened = await openBrowser(viewer, stopped);
    if (opened && 'shown' in opened) {
      browser = opened.shown;
      io.out('opened in Chromium; closing its window or Ctrl+C stops.\n');
      void opened.exited.then(stop);
    } else if (opened) {
      // (the URL again, on the line that says what to do: the user opens it in a browser of their own)
      io.out(`${opened.failed}: open ${viewer.url} in a browser; Ctrl+C stops.\n`);
    }
  }
  await stopped;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  await browser?.close();
  await viewer.close();
  if (!viewer.wasServed()) {
    io.out('embed-inspector view: stopped; the files were not shown to anyone.\n');
    return 1;
  }
  return 0;
}
