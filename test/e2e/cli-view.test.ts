/**
 * `embed-inspector view` as a QA engineer uses it on a CI artifact: no extension installed, the built panel served
 * on loopback, a real browser renders the capture with the same verdicts as `check`, several files switch in one
 * list, Ctrl+C stops it; unusable files stop it before anything is served.
 */
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { ROOT } from '../helpers/paths.ts';
import { msg, numbered, navigation, eventPair, actionPair, TENANT } from '../fixtures/messages.ts';
import { inPanel, waitInPanel } from '../helpers/panel.ts';

const CLI = join(ROOT, 'bin/embed-inspector.js');
const CLEAN = join(ROOT, 'test/fixtures/captures/clean-session.json');
const dir = mkdtempSync(join(tmpdir(), 'ei-view-'));
const bad = join(dir, 'wildcard.json');
const badHar = join(dir, 'wildcard.har');
let browser: Browser;

test.beforeAll(async ({ plainChromium }) => {
  writeFileSync(
    bad,
    JSON.stringify({
      format: 'embed-inspector-capture',
      version: 1,
      tenantOrigin: TENANT,
      messages: numbered([
        navigation(`${TENANT}/embed/dashboard/dash01?session=s-1`),
        ...eventPair('svc:event:ready'),
        ...actionPair('svc:action:set-color-scheme', { scheme: 'dark' }, '*'),
        ...eventPair('svc:event:view', msg('svc:event:view').payload as Record<string, unknown>),
      ]),
    }),
  );
  // The same session as a HAR: view reads it as it reads a capture.
  const har = spawnSync(process.execPath, [CLI, 'har', bad, '--out', badHar], { encoding: 'utf8' });
  expect(har.status, har.stderr).toBe(0);
  browser = plainChromium.browser;
});

/** `view` as a child; resolves with the URL it prints. */
function startView(...files: string[]): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [CLI, 'view', ...files, '--no-open', '--theme', 'light'], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  const exited = new Promise<number | null>((r) => child.on('close', r));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(out);
      if (m) {
        resolve({ child, url: m[1], exited });
      }
    });
    child.stderr!.on('data', (d) => {
      out += d;
    });
    void exited.then((code) => reject(new Error(`view exited ${code}: ${out}`)));
  });
}

/** Verdicts by seq as `check --format json` gives them. */
function checkVerdicts(file: string): Record<number, string> {
  const r = spawnSync(process.execPath, [CLI, 'check', file, '--format', 'json', '--allow-empty'], {
    encoding: 'utf8',
  });
  const navs = new Set(
    (JSON.parse(readFileSync(file, 'utf8')).messages as Array<{ seq: number; navigation?: boolean }>)
      .filter((m) => m.navigation)
      .map((m) => m.seq),
  );
  const out: Record<number, string> = {};
  for (const m of JSON.parse(r.stdout).messages as Array<{ seq: number; verdict: string }>) {
    if (!navs.has(m.seq)) {
      out[m.seq] = m.verdict;
    }
  }
  return out;
}

describe('embed-inspector view', () => {
  it('serves the panel with the files; a real browser shows the verdicts check gives; Ctrl+C stops it', async () => {
    const { child, url, exited } = await startView(CLEAN, bad, badHar);
    const page = await browser.newPage();
    try {
      // Every state the integration line shows, from the first render on.
      await page.evaluateOnNewDocument(() => {
        const states: string[] = ((window as any).__integrationStates = []);
        new MutationObserver(() => {
          const s = document.querySelector('[data-testid="integration"]')?.getAttribute('data-state');
          if (s && states[states.length - 1] !== s) {
            states.push(s);
          }
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
      });
      await page.goto(url);
      const lineState = () => page.$eval('[data-testid="integration"]', (e) => e.getAttribute('data-state') ?? '');
      const verdictsOf = () =>
        inPanel(page, (h) =>
          Object.fromEntries(
            h.log
              .all()
              .filter((r) => !r.navigation)
              .map((r) => [r.seq, r.verdict]),
          ),
        );
      await waitInPanel(page, (h) => h.log.count > 0, {
        timeout: 15_000,
        polling: 100,
      });
      expect(await verdictsOf()).toEqual(checkVerdicts(CLEAN));
      const cleanState = await lineState();
      expect(cleanState).not.toBe('no-embed');
      expect(await page.$eval('.status', (e) => e.textContent)).toContain('clean-session.json');
      // The second file, from the list.
      await page.select('[data-testid="view-file"]', '1');
      await waitInPanel(page, (h) => h.log.all().some((r) => r.verdict === 'invalid'), {
        timeout: 10_000,
        polling: 100,
      });
      expect(await verdictsOf()).toEqual(checkVerdicts(bad));
      // Judged as soon as the file's records are in, not up to 300 ms later.
      expect(await lineState()).toBe('actions-wrong-origin');
      const line = await page.$eval('[data-testid="integration"]', (e) => e.textContent ?? '');
      expect(line).toMatch(/the host sends actions to "\*"/);
      expect(await page.$$eval('.grid-body [role="row"]', (rows) => rows.length)).toBeGreaterThan(3);
      // The HAR of the same session: the same verdicts.
      await page.select('[data-testid="view-file"]', '2');
      await page.waitForFunction(() => document.querySelector('.status')?.textContent?.includes('wildcard.har'), {
        timeout: 10_000,
        polling: 100,
      });
      expect(await verdictsOf()).toEqual(checkVerdicts(bad));
      // Before the first file was read the line judged nothing; no file was ever called a page without an embed,
      // and each file's verdict followed the previous one with nothing in between.
      const states = await page.evaluate(() => (window as any).__integrationStates as string[]);
      expect(states).not.toContain('no-embed');
      expect(states.slice(states.indexOf(cleanState))).toEqual([cleanState, 'actions-wrong-origin']);
    } finally {
      await page.close();
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('compares what is shown with another file (⇆ Compare): the same report as embed-inspector diff', async () => {
    const { child, url, exited } = await startView(CLEAN);
    const page = await browser.newPage();
    try {
      await page.goto(url);
      await waitInPanel(page, (h) => h.log.count > 0, {
        timeout: 15_000,
        polling: 100,
      });
      const input = await page.$('.compare-input');
      await (input as any).uploadFile(bad);
      await page.waitForSelector('[data-testid="compare"]', { timeout: 10_000 });
      const head = await page.$eval('.compare-head', (e) => e.textContent ?? '');
      expect(head).toMatch(/B has 1 new error: origin\.action-wildcard/);
      const shown = await page.$eval('.compare-text', (e) => e.textContent ?? '');
      const cli = spawnSync(process.execPath, [CLI, 'diff', CLEAN, bad], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(cli.status).toBe(1);
      // The same sections, line for line, but the first (the panel names A by what it shows).
      expect(shown.split('\n').slice(3)).toEqual(cli.stdout.trimEnd().split('\n').slice(3));
    } finally {
      await page.close();
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });

  it('stops before serving anything when a file is unusable, with one line', () => {
    const missing = spawnSync(process.execPath, [CLI, 'view', join(dir, 'nope.json'), '--no-open'], {
      encoding: 'utf8',
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('no such file');
    expect(spawnSync(process.execPath, [CLI, 'view'], { encoding: 'utf8' }).status).toBe(2);
  });
});
