// A staging host with a self-signed certificate (made at test time with openssl): `record --ignore-https-errors`,
// `launchWithInspector({ ignoreHttpsErrors: true })` and the Playwright fixture under `use: { ignoreHTTPSErrors }`
// open it and capture its embed; without the option the page does not open, and says why.
import { afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWithInspector } from '../../src/node/puppeteer.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { cliIn } from '../helpers/cli.ts';
import { msg } from '../fixtures/messages.ts';
import { runPlaywright } from '../helpers/playwright-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'ei-https-'));
const cli = cliIn(dir);
let server: Server;
let hostUrl: string;

/** The embed's ready, as the catalog's valid example has it. */
const READY = JSON.stringify({ ...msg('svc:event:ready'), timestamp: Date.now() });

test.beforeAll(async () => {
  // A certificate for 127.0.0.1 and localhost that no authority signed.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  let port = 0;
  // One server, two origins: the host page at https://127.0.0.1, its embed at https://localhost.
  server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      const page = req.url?.startsWith('/embed/')
        ? `<!doctype html><script>parent.postMessage(${READY}, 'https://127.0.0.1:${port}');</script>`
        : `<!doctype html><title>Staging</title><iframe src="https://localhost:${port}/embed/dashboard/dash01?session=s-1"></iframe>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    },
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  port = (server.address() as AddressInfo).port;
  hostUrl = `https://127.0.0.1:${port}/`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('a host with a self-signed certificate', () => {
  it('record: refuses it with the reason, and records it with --ignore-https-errors', async () => {
    const refused = await cli('record', hostUrl, '--duration', '0', '--out', 'refused.json');
    expect(refused.code, refused.out + refused.err).toBe(2);
    expect(refused.err).toMatch(/cannot open https:\/\/127\.0\.0\.1:\d+\/: net::ERR_CERT_AUTHORITY_INVALID/);
    const ok = await cli('record', hostUrl, '--ignore-https-errors', '--duration', '0', '--out', 'ok.json');
    expect(ok.code, ok.out + ok.err).toBe(0);
    const capture = JSON.parse(readFileSync(join(dir, 'ok.json'), 'utf8'));
    const ready = capture.messages.filter((m: { data?: { type?: string } }) => m.data?.type === 'svc:event:ready');
    expect(ready.map((m: { kind: string }) => m.kind).sort()).toEqual(['post', 'receive']);
  });

  it('embed-inspector/puppeteer: launchWithInspector({ ignoreHttpsErrors: true }) opens and captures it', async () => {
    const inspector = await launchWithInspector({ ignoreHttpsErrors: true });
    try {
      const page = await inspector.browser.newPage();
      await page.goto(hostUrl);
      const ready = await inspector.embedOf(page).waitFor('svc:event:ready', { timeout: 15_000 });
      expect(ready.origin).toBe(`https://localhost:${(server.address() as AddressInfo).port}`);
    } finally {
      await inspector.close();
    }
    const strict = await launchWithInspector();
    try {
      const page = await strict.browser.newPage();
      await expect(page.goto(hostUrl)).rejects.toThrow(/ERR_CERT_AUTHORITY_INVALID/);
    } finally {
      await strict.close();
    }
  });

  it('embed-inspector/playwright: the project’s use.ignoreHTTPSErrors opens and captures it', async () => {
    const run = await runPlaywright(['-c', 'test/playwright/https.config.ts'], { env: { EI_PW_HTTPS_URL: hostUrl } });
    const errors = run.tests.flatMap((t) => t.results.flatMap((r) => r.errors.map((e) => e.message))).join('\n');
    expect(run.code, `${run.stderr}\n${errors}`).toBe(0);
    expect(run.report.stats).toMatchObject({ expected: 1, unexpected: 0 });
  });
});
