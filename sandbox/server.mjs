#!/usr/bin/env node
// Embed Inspector sandbox: a host site, a tenant (embed emulator + mock platform API) and a third origin, on loopback.
// An independent reading of the spec: it imports nothing from src/. Usage: sandbox/README.md.
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_FIXTURE, Store, loadFixture } from './lib/store.mjs';
import { hostSite, tenantSite, thirdSite } from './lib/sites.mjs';

const HELP = `Usage: node sandbox/server.mjs [options]   (or: npm run sandbox -- [options])

Serves the sandbox on loopback:
  host site  http://127.0.0.1:<host-port>   a page that embeds the surfaces (open this one)
  tenant     http://localhost:<tenant-port> the embed emulator and the mock platform API
  third      http://127.0.0.1:<free port>   a third origin, used by the third-origin fault

Options:
  --host-port N    port of the host site (default 4100; 0 picks a free port)
  --tenant-port N  port of the tenant (default 4101; 0 picks a free port)
  --data FILE      fixture to load instead of sandbox/data/default.json
  --quiet          print only the origins, no request log
  --help           show this help

Stops cleanly on SIGINT (Ctrl+C) and SIGTERM. Details: sandbox/README.md`;

/**
 * @typedef {{hostPort?: number, tenantPort?: number, thirdPort?: number, data?: string, quiet?: boolean,
 *   log?: (line: string) => void}} SandboxOptions
 */

/** @param {import('node:http').Server} server @param {number} port */
function listen(server, port) {
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      ok(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
    });
  });
}

/** @param {import('node:http').Server} server @returns {Promise<void>} */
function shut(server) {
  return new Promise((ok) => {
    if (!server.listening) {
      return ok();
    }
    server.close(() => ok());
    server.closeAllConnections();
  });
}

/**
 * Starts the sandbox. Ports 0 pick free ports.
 * @param {SandboxOptions} [options]
 */
export async function startSandbox({ hostPort = 0, tenantPort = 0, thirdPort = 0, data, quiet = true, log } = {}) {
  const fixtureFile = data ? resolve(data) : DEFAULT_FIXTURE;
  const store = new Store(loadFixture(fixtureFile));
  const write = log ?? ((/** @type {string} */ line) => process.stderr.write(`${line}\n`));
  /** @type {import('./lib/sites.mjs').SiteContext} */
  const ctx = { store, hostOrigin: '', tenantOrigin: '', thirdOrigin: '', log: write };

  /** @param {import('./lib/sites.mjs').Handler} handler @param {string} name */
  const make = (handler, name) =>
    createServer((req, res) => {
      if (!quiet && name === 'tenant' && req.url?.startsWith('/api/')) {
        res.on('finish', () => write(`${req.method} ${req.url} -> ${res.statusCode}`));
      }
      handler(req, res);
    });
  const host = make(hostSite(ctx), 'host');
  const tenant = make(tenantSite(ctx), 'tenant');
  const third = make(thirdSite(ctx), 'third');
  const servers = [host, tenant, third];
  try {
    const hp = await listen(host, hostPort);
    const tp = await listen(tenant, tenantPort);
    const xp = await listen(third, thirdPort);
    ctx.hostOrigin = `http://127.0.0.1:${hp}`;
    ctx.tenantOrigin = `http://localhost:${tp}`;
    ctx.thirdOrigin = `http://127.0.0.1:${xp}`;
  } catch (err) {
    await Promise.all(servers.map(shut));
    throw err;
  }
  let closing;
  return {
    hostOrigin: ctx.hostOrigin,
    tenantOrigin: ctx.tenantOrigin,
    thirdOrigin: ctx.thirdOrigin,
    hostUrl: `${ctx.hostOrigin}/`,
    fixture: fixtureFile,
    /** The in-memory data; `reset()` goes back to the fixture, `snapshot()` copies the current state. */
    store,
    reset: () => store.reset(),
    snapshot: () => store.snapshot(),
    /** @returns {Promise<void>} */
    close: () => (closing ??= Promise.all(servers.map(shut)).then(() => undefined)),
  };
}

/** @param {string[]} argv @returns {SandboxOptions & {help?: boolean}} */
export function parseArgs(argv) {
  /** @type {SandboxOptions & {help?: boolean}} */
  const opts = { hostPort: 4100, tenantPort: 4101, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') {
        throw new Error(`${flag} needs a value`);
      }
      return v;
    };
    const port = () => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) > 65535) {
        throw new Error(`${flag} must be a port number 0-65535, got "${v}"`);
      }
      return Number(v);
    };
    if (flag === '--help' || flag === '-h') {
      opts.help = true;
    } else if (flag === '--host-port') {
      opts.hostPort = port();
    } else if (flag === '--tenant-port') {
      opts.tenantPort = port();
    } else if (flag === '--data') {
      opts.data = value();
    } else if (flag === '--quiet') {
      opts.quiet = true;
    } else {
      throw new Error(`unknown flag ${argv[i]} (try --help)`);
    }
  }
  return opts;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`sandbox: ${/** @type {Error} */ (err).message}\n`);
    process.exit(2);
  }
  if (opts.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  let sandbox;
  try {
    sandbox = await startSandbox({ ...opts, log: (line) => process.stdout.write(`${line}\n`) });
  } catch (err) {
    const e = /** @type {NodeJS.ErrnoException} */ (err);
    const why =
      e.code === 'EADDRINUSE'
        ? `port already in use (${e.message}); choose others with --host-port/--tenant-port, 0 picks free ones`
        : e.message;
    process.stderr.write(`sandbox: cannot start: ${why}\n`);
    process.exit(1);
  }
  // Handlers first, then the origins: whoever reads them may stop the sandbox at once (Ctrl+C, a test), and a
  // signal that came between the two would end the process with it, its ports still open.
  let stopping = false;
  const stop = (/** @type {string} */ signal) => {
    if (stopping) {
      return;
    }
    stopping = true;
    if (!opts.quiet) {
      process.stdout.write(`sandbox: ${signal}, stopping\n`);
    }
    sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const h = sandbox.hostOrigin;
  process.stdout.write(
    [
      'Embed Inspector sandbox is running.',
      `  host site:  ${h}/   <- open this`,
      `  tenant:     ${sandbox.tenantOrigin}/`,
      `  third:      ${sandbox.thirdOrigin}/`,
      `  surfaces:   ${h}/?surface=dashboard  ${h}/?surface=app  ${h}/?surface=chat`,
      `  a scripted session: ${h}/?script=full   a fault: ${h}/?faults=duplicate-ready`,
      `  fixture:    ${sandbox.fixture}`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
