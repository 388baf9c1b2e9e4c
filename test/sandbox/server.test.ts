// The sandbox as a process: flags, free ports, what it prints, clean shutdown; and the programmatic API.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server.mjs';
import { send } from './http.ts';

const SERVER = fileURLToPath(new URL('../../sandbox/server.mjs', import.meta.url));
const DEFAULT_FIXTURE = fileURLToPath(new URL('../../sandbox/data/default.json', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) {
    if (c.exitCode === null && c.signalCode === null) {
      c.kill('SIGKILL');
    }
  }
});

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, [SERVER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Waits until the process has printed both origins; returns them. */
async function origins(r: Run, timeoutMs = 10_000) {
  const start = Date.now();
  for (;;) {
    const host = /host site:\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(r.stdout())?.[1];
    const tenant = /tenant:\s+(http:\/\/localhost:\d+)\//.exec(r.stdout())?.[1];
    if (host && tenant) {
      return { host, tenant };
    }
    if (r.child.exitCode !== null) {
      throw new Error(`exited early: ${r.stderr()}`);
    }
    if (Date.now() - start > timeoutMs) {
      throw new Error(`no origins printed: ${r.stdout()} ${r.stderr()}`);
    }
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('sandbox/server.mjs as a process', () => {
  it('picks free ports with 0, prints both origins, serves them, and stops with exit 0 on SIGTERM', async () => {
    const r = run(['--host-port', '0', '--tenant-port', '0']);
    const { host, tenant } = await origins(r);
    expect(host).not.toBe('http://127.0.0.1:0');
    expect(new URL(host).port).not.toBe(new URL(tenant).port);
    const page = await send(host, { method: 'GET', path: '/' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('sandbox host site');
    const config = await send(host, { method: 'GET', path: '/config.js' });
    expect(config.text).toContain(tenant);
    const embed = await send(tenant, { method: 'GET', path: '/embed/dashboard/dA7kQ2mXp9Lw?session=demo-signed' });
    expect(embed.status).toBe(200);
    const api = await send(tenant, { method: 'GET', path: '/api/v1/deployments/1/workbooks/100', token: 'tok-viewer' });
    expect(api.status).toBe(200);
    r.child.kill('SIGTERM');
    expect(await r.exit).toEqual({ code: 0, signal: null });
  });

  it('stops with exit 0 on SIGINT and frees its ports', async () => {
    const r = run(['--host-port=0', '--tenant-port=0']);
    const { host } = await origins(r);
    r.child.kill('SIGINT');
    expect(await r.exit).toEqual({ code: 0, signal: null });
    await expect(send(host, { method: 'GET', path: '/' })).rejects.toThrow();
  });

  it('an unknown flag is a one-line error and exit 2', async () => {
    const r = run(['--hots-port', '4100']);
    expect((await r.exit).code).toBe(2);
    expect(r.stderr().trim().split('\n')).toHaveLength(1);
    expect(r.stderr()).toContain('--hots-port');
    expect(r.stdout()).toBe('');
  });

  it('a port that is not a number is exit 2', async () => {
    const r = run(['--host-port', 'eighty']);
    expect((await r.exit).code).toBe(2);
    expect(r.stderr()).toContain('--host-port');
  });

  it('--help prints the usage and exits 0', async () => {
    const r = run(['--help']);
    expect((await r.exit).code).toBe(0);
    for (const flag of ['--host-port', '--tenant-port', '--data', '--help']) {
      expect(r.stdout()).toContain(flag);
    }
  });

  it('a port already in use is a clear error and exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = run(['--host-port', String(port), '--tenant-port', '0']);
      expect((await r.exit).code).toBe(1);
      expect(r.stderr()).toMatch(/in use/);
    } finally {
      blocker.close();
    }
  });

  it('--data loads another fixture', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-fixture-'));
    const file = join(dir, 'fixture.json');
    const data = JSON.parse(readFileSync(DEFAULT_FIXTURE, 'utf8'));
    data.workbooks[0].name = 'Renamed by a custom fixture';
    writeFileSync(file, JSON.stringify(data));
    const r = run(['--host-port', '0', '--tenant-port', '0', '--data', file]);
    const { tenant } = await origins(r);
    const wb = await send(tenant, {
      method: 'GET',
      path: `/api/v1/deployments/1/workbooks/${data.workbooks[0].id}`,
      token: 'tok-admin',
    });
    expect(wb.body.name).toBe('Renamed by a custom fixture');
    r.child.kill('SIGTERM');
    expect((await r.exit).code).toBe(0);
  });

  it('an unreadable fixture is a clear error and exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-fixture-'));
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"users": [');
    const r = run(['--host-port', '0', '--tenant-port', '0', '--data', file]);
    expect((await r.exit).code).toBe(1);
    expect(r.stderr()).toContain('broken.json');
  });
});

describe('startSandbox()', () => {
  it('runs two sandboxes side by side on free ports, each with its own data, and closes them', async () => {
    const a = await startSandbox({ hostPort: 0, tenantPort: 0 });
    const b = await startSandbox({ hostPort: 0, tenantPort: 0 });
    try {
      expect(
        new Set([a.hostOrigin, a.tenantOrigin, b.hostOrigin, b.tenantOrigin, a.thirdOrigin, b.thirdOrigin]).size,
      ).toBe(6);
      expect(new URL(a.hostOrigin).hostname).toBe('127.0.0.1');
      expect(new URL(a.tenantOrigin).hostname).toBe('localhost');
      const moved = await send(a.tenantOrigin, {
        method: 'POST',
        path: '/api/v1/deployments/1/workspace/move',
        token: 'tok-admin',
        body: { type: 'WORKBOOK', id: 100, folderId: null },
      });
      expect(moved.status).toBe(200);
      const inB = await send(b.tenantOrigin, {
        method: 'GET',
        path: '/api/v1/deployments/1/workbooks/100',
        token: 'tok-admin',
      });
      expect(inB.body.folderId).toBe(10);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    await expect(send(a.hostOrigin, { method: 'GET', path: '/' })).rejects.toThrow();
    await a.close(); // twice is fine
  });

  it('serves the static files of each origin and nothing outside them', async () => {
    const sb = await startSandbox();
    try {
      expect((await send(sb.hostOrigin, { method: 'GET', path: '/static/host/host.js' })).status).toBe(200);
      expect((await send(sb.tenantOrigin, { method: 'GET', path: '/static/embed/main.js' })).status).toBe(200);
      expect((await send(sb.thirdOrigin, { method: 'GET', path: '/rogue.html' })).status).toBe(200);
      expect((await send(sb.hostOrigin, { method: 'GET', path: '/static/host/../server.mjs' })).status).toBe(404);
      expect((await send(sb.hostOrigin, { method: 'GET', path: '/static/host/%2e%2e/data/default.json' })).status).toBe(
        404,
      );
      expect((await send(sb.hostOrigin, { method: 'GET', path: '/static/embed/main.js' })).status).toBe(404);
    } finally {
      await sb.close();
    }
  });
});
