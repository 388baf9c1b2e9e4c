/**
 * HAR with the built command line, the system Chromium and the sandbox:
 * (a) a recorded session written as HAR (`embed-inspector har`) is checked with the same verdicts as the capture;
 * (b) a HAR that Playwright's `recordHar` wrote of the sandbox host page, whose Platform API panel calls the REST
 *     operations, is checked with the rest.* rules: a good call passes, a wrong request body fails the run.
 */
import { afterAll } from 'vitest';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../helpers/panel.ts';
import { cliIn } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'ei-har-e2e-'));
let sb: Sandbox;

/** The built command line, run as a child (the sandbox serves from this process). */
const cli = cliIn(dir);
const json = async (...args: string[]) => {
  const r = await cli('check', ...args, '--format', 'json');
  expect(r.err).toBe('');
  return { code: r.code, out: JSON.parse(r.out) };
};

test.beforeAll(async ({ sandbox }) => {
  sb = sandbox;
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a recorded session as HAR', () => {
  it('check of the .har gives the capture’s verdicts, figures and checks', async () => {
    writeFileSync(
      join(dir, 'loaded.mjs'),
      "export default async ({ embed }) => { await embed.waitFor('svc:event:dashboard-loaded', { timeout: 15000 }); };\n",
    );
    // a host that sends its actions to "*" and an embed with a wrongly typed payload: findings to compare
    const url = `${sb.hostUrl}?faults=action-star,wrong-payload-types`;
    const rec = await cli('record', url, '--script', 'loaded.mjs', '--duration', '500', '--out', 'run.json');
    expect(rec.code, rec.out + rec.err).toBe(1);
    const har = await cli('har', 'run.json', '--out', 'run.har');
    expect(har.code, har.err).toBe(0);
    expect(har.out).toMatch(
      /^wrote run\.har: 0 REST calls as entries, \d+ records in _embedMessages, secrets redacted\n$/,
    );
    const log = JSON.parse(readFileSync(join(dir, 'run.har'), 'utf8')).log;
    expect(log.version).toBe('1.2');
    expect(log._embedMessages.length).toBeGreaterThan(5);
    expect(log._embedInspector.tenantOrigin).toBe(sb.tenantOrigin);

    const a = await json('run.json');
    const b = await json('run.har');
    expect(b.code).toBe(a.code);
    expect(b.out.messages.map((m: any) => ({ ...m, file: null }))).toEqual(
      a.out.messages.map((m: any) => ({ ...m, file: null })),
    );
    const { perFile: pa, ...sa } = a.out.summary;
    const { perFile: pb, ...sb2 } = b.out.summary;
    expect(sb2).toEqual(sa);
    expect(pb[0].exitCode).toBe(pa[0].exitCode);
    expect(b.out.checks.map((c: any) => [c.name, c.passed])).toEqual(a.out.checks.map((c: any) => [c.name, c.passed]));
    expect(a.out.messages.some((m: any) => m.verdict === 'invalid')).toBe(true);
    expect(a.out.summary.rules).toHaveProperty(['origin.action-wildcard']);
  });
});

describe('a HAR recorded by Playwright', () => {
  it('its REST calls are checked: a good call passes, a wrong request body fails the run', async ({ launch }) => {
    const path = join(dir, 'playwright.har');
    const browser = await launch.playwrightChromium();
    const context = await browser.newContext({ recordHar: { path } });
    const page = await context.newPage();
    await page.goto(sb.hostUrl);
    await page.waitForFunction(() => (window as any).__sandboxHost?.received?.length > 0, null, { timeout: 15_000 });
    const send = async (operation: string, body?: string) => {
      await page.selectOption('[data-testid="api-operation"]', operation);
      await page.selectOption('[data-testid="api-token"]', 'tok-admin');
      if (body !== undefined) {
        await page.fill('[data-testid="api-body"]', body);
      }
      await page.click('[data-testid="api-send"]');
      await page.waitForFunction(
        () => /^HTTP \d+$/.test(document.querySelector('[data-testid="api-status"]')?.textContent ?? ''),
        null,
        { timeout: 10_000 },
      );
      const status = await page.textContent('[data-testid="api-status"]');
      await page.evaluate(() => {
        document.querySelector('[data-testid="api-status"]')!.textContent = '…';
      });
      return status;
    };
    expect(await send('0')).toBe('HTTP 200'); // get workbook: as documented
    expect(await send('2', '{"externalWorkbookId": "x", "sheetId": "7", "anchorCell": "A1"}')).toBe('HTTP 200'); // matches nothing
    expect(await send('3', '{"hour": "8"}')).toBe('HTTP 400'); // hour is not an integer
    await context.close(); // writes the HAR
    const har = JSON.parse(readFileSync(path, 'utf8'));
    expect(har.log.creator.name).toBe('Playwright');
    expect(har.log._embedMessages).toBeUndefined();

    const { code, out } = await json('playwright.har');
    expect(code).toBe(1);
    expect(out.messages).toEqual([]);
    const byOp = (op: string, method: string) =>
      out.rest.filter((r: any) => r.operation === op && r.method === method && r.url.startsWith(sb.tenantOrigin));
    // the host's get-workbook call (and the embed's own, with its session token): valid
    const gets = byOp('getWorkbook', 'GET');
    expect(gets.length).toBeGreaterThanOrEqual(1);
    expect(gets.every((r: any) => r.verdict === 'valid' && r.status === 200)).toBe(true);
    const [disconnect] = byOp('disconnectReportFromWorkbook', 'DELETE');
    expect(disconnect.status).toBe(200);
    expect(disconnect.issues.map((i: any) => i.rule)).toContain('rest.disconnect-address');
    const [update] = byOp('updateNotification', 'PUT');
    expect(update).toMatchObject({ status: 400, verdict: 'invalid' });
    expect(update.issues).toContainEqual(
      expect.objectContaining({ rule: 'rest.request-shape', path: 'request.body.hour', severity: 'error' }),
    );
    expect(update.issues.map((i: any) => i.rule)).not.toContain('rest.auth'); // Playwright keeps the bearer token
    expect(out.summary).toMatchObject({ messages: 0, restCalls: out.rest.length, restInvalid: 1 });
    expect(out.summary.perFile[0].restSkipped).toBeGreaterThan(0); // the page, its scripts, the preflights…
    const checks = Object.fromEntries(out.checks.map((c: any) => [c.name, c.passed]));
    expect(checks).toMatchObject({
      'rest.request-shape · updateNotification': false,
      'rest.disconnect-address · disconnectReportFromWorkbook': true, // a warning
      'getWorkbook (GET)': true,
    });
    expect(checks).not.toHaveProperty(['embed traffic seen']);
    expect(out.summary.reasons).toEqual([
      expect.stringMatching(/^1 error \(--fail-on error\) in 1 check: rest\.request-shape · updateNotification$/),
    ]);
    // the warning fails at --fail-on warning; the text says what it read
    expect((await cli('check', 'playwright.har', '--fail-on', 'warning')).out).toMatch(
      /✗ 1 error and 1 warning \(--fail-on warning\) in 2 checks: .*rest\.disconnect-address · disconnectReportFromWorkbook/,
    );
    const text = await cli('check', 'playwright.har');
    expect(text.out).toContain('integration: no window messages in this file (a HAR of another tool has none)');
    expect(text.out).toMatch(/rest\[\d+\]\s+✗ invalid\s+PUT .*\/notifications\/\d+ → 400/);
    // and as JUnit
    const junit = await cli('check', 'playwright.har', '--format', 'junit');
    expect(junit.out).toMatch(
      /<testcase classname="embed-inspector.rest" name="rest.request-shape · updateNotification"[^>]*><failure/,
    );
  });

  it('a file that is neither a capture nor a usable HAR: exit 2, one line', async () => {
    writeFileSync(join(dir, 'broken.har'), JSON.stringify({ log: { entries: [{ request: {} }] } }));
    const r = await cli('check', 'broken.har');
    expect(r).toMatchObject({
      code: 2,
      out: '',
      err: 'embed-inspector: broken.har: not a usable HAR: log.entries[0].request.method must be a string\n',
    });
    const h = await cli('har', 'broken.har', '--out', 'x.har');
    expect(h.code).toBe(2);
    expect(h.err.trim().split('\n')).toHaveLength(1);
  });
});
