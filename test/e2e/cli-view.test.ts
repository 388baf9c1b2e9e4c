/**
 * `embed-inspector view` as a QA engineer uses it on a CI artifact: no extension installed, the built panel served
 * on loopback, a real browser renders the capture with the same verdicts as `check`, several files switch in one
 * list, Ctrl+C stops it; unusable files stop it before anything is served.
 */
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
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
    setTimeout(() => reject(new Error(`view printed no URL in 20 s: ${out}`)), 20_000).unref();
  });
}

/** Ctrl+C to `view`; its exit code, or a named failure when it has not stopped 15 s later. */
async function interrupt(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  child.kill('SIGINT');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('view did not stop within 15 s of Ctrl+C'));
    }, 15_000);
  });
  try {
    return await Promise.race([exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `view` of `files` with a new page of the browser: `use` drives the page (given the URL view printed); then the page
 * closes and Ctrl+C must stop view with exit code 0.
 */
async function inView(files: string[], use: (page: Page, url: string) => Promise<void>): Promise<void> {
  const { child, url, exited } = await startView(...files);
  let stopped: Promise<number | null> | undefined;
  const page = await browser.newPage();
  try {
    await use(page, url);
  } finally {
    await page.close();
    stopped = interrupt(child, exited);
  }
  expect(await stopped).toBe(0);
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

/**
 * Every state the integration line takes from the first render on, however briefly: each change's old value is
 * kept (read from the mutation records, not from the line when the observer runs, which may be later).
 */
async function recordLineStates(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(() => {
    const states: string[] = ((window as any).__integrationStates = []);
    const push = (s: string | null | undefined) => {
      if (s && states[states.length - 1] !== s) {
        states.push(s);
      }
    };
    (window as any).__integrationNow = () => {
      push(document.querySelector('[data-testid="integration"]')?.getAttribute('data-state'));
      return states;
    };
    new MutationObserver((changes) => {
      for (const c of changes) {
        const line = c.type === 'attributes' && (c.target as Element).getAttribute('data-testid') === 'integration';
        if (line && c.oldValue) {
          push(c.oldValue);
        }
      }
      (window as any).__integrationNow();
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeOldValue: true,
      attributeFilter: ['data-state'],
    });
  });
}

/** The states recorded by recordLineStates, the line's current one last. */
const lineStates = (page: Page) => page.evaluate(() => (window as any).__integrationNow() as string[]);

describe('embed-inspector view', () => {
  it('serves the panel with the files; a real browser shows the verdicts check gives; Ctrl+C stops it', async () => {
    await inView([CLEAN, bad, badHar], async (page, url) => {
      await recordLineStates(page);
      await page.goto(url);
      const lineState = () => page.$eval('[data-testid="integration"]', (e) => e.getAttribute('data-state') ?? '');
      const verdictsOf = () =>
        inPanel(page, (h) =>
          Object.fromEntries(
            h
              .records()
              .filter((r) => !r.navigation)
              .map((r) => [r.seq, r.verdict]),
          ),
        );
      await waitInPanel(page, (h) => h.counts().records > 0, {
        timeout: 15_000,
        polling: 100,
      });
      expect(await verdictsOf()).toEqual(checkVerdicts(CLEAN));
      const cleanState = await lineState();
      expect(cleanState).not.toBe('no-embed');
      expect(await page.$eval('.status', (e) => e.textContent)).toContain('clean-session.json');
      // The second file, from the list.
      await page.select('[data-testid="view-file"]', '1');
      await waitInPanel(page, (h) => h.records().some((r) => r.verdict === 'invalid'), {
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
      // and each file's verdict followed the previous one with no other verdict in between (only "judging": the new
      // file is attached before its records are read, within one task, so that state is never painted).
      const states = await lineStates(page);
      expect(states).not.toContain('no-embed');
      const verdicts = states.filter((s) => s !== 'judging');
      expect(verdicts.slice(verdicts.indexOf(cleanState))).toEqual([
        cleanState,
        'actions-wrong-origin',
        'actions-wrong-origin', // (the HAR)
      ]);
    });
  });

  it('a file read late: the line says judging until it is in, never "no embed"', async () => {
    await inView([CLEAN], async (page, url) => {
      await recordLineStates(page);
      // The file comes 800 ms after the panel asked for it (a slow disk, a busy machine): the panel has been up,
      // with nothing to judge, for longer than its 300 ms between judgements.
      await page.setRequestInterception(true);
      page.on('request', (r) => {
        const late = new URL(r.url()).pathname === '/captures/0';
        setTimeout(() => void r.continue().catch(() => {}), late ? 800 : 0);
      });
      await page.goto(url);
      await waitInPanel(page, (h) => h.counts().records > 0, { timeout: 15_000, polling: 100 });
      await page.waitForFunction(
        () =>
          !['judging', 'detached'].includes(
            document.querySelector('[data-testid="integration"]')!.getAttribute('data-state')!,
          ),
        { timeout: 10_000, polling: 50 },
      );
      const states = await lineStates(page);
      expect(states[0]).toBe('detached');
      expect(states).not.toContain('no-embed');
      expect(states.at(-1)).toBe(await page.$eval('[data-testid="integration"]', (e) => e.getAttribute('data-state')));
      expect(states.filter((s) => !['detached', 'judging'].includes(s))).toHaveLength(1);
    });
  });

  it('compares what is shown with another file (⇆ Compare): the same report as embed-inspector diff', async () => {
    await inView([CLEAN], async (page, url) => {
      await page.goto(url);
      await waitInPanel(page, (h) => h.counts().records > 0, {
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
    });
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

/** `view FILE` as a user runs it (no --no-open), with `env` added; its output so far and its exit. */
function viewWith(env: NodeJS.ProcessEnv, ...files: string[]) {
  const child = spawn(process.execPath, [CLI, 'view', ...files], { env: { ...process.env, NO_COLOR: '1', ...env } });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((r) => child.on('close', r));
  /** Resolves with the output once it matches `re`; rejects when the command exits first. */
  const until = (re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (re.test(out)) {
          resolve(out);
          return true;
        }
        return false;
      };
      if (check()) {
        return;
      }
      child.stdout.on('data', check);
      void exited.then((code) => reject(new Error(`view exited ${code} before ${re}: ${out}`)));
    });
  return { child, exited, until, output: () => out };
}

/** Xvfb on a display of its own (it picks a free one); killed with the returned function. */
async function xvfb(): Promise<{ display: string; stop(): void }> {
  const x = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    x.on('error', (e) => reject(new Error(`Xvfb is needed for this test (apt-get install xvfb): ${e.message}`)));
    (x.stdio[3] as NodeJS.ReadableStream).on('data', (d) => resolve(`:${String(d).trim()}`));
  });
  return { display, stop: () => x.kill() };
}

/** The processes whose command line has `text` (pid and arguments). */
function processesWith(text: string): Array<{ pid: number; args: string[] }> {
  const out: Array<{ pid: number; args: string[] }> = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.some((a) => a.includes(text))) {
        out.push({ pid: Number(pid), args });
      }
    } catch {
      // (gone meanwhile)
    }
  }
  return out;
}

describe('embed-inspector view opens where record opens', () => {
  it('shows the files in a Chromium window, as root too (record’s launcher and flags); closing it stops view', async () => {
    const x = await xvfb();
    const view = viewWith({ DISPLAY: x.display }, CLEAN);
    try {
      const out = await view.until(/opened in Chromium/);
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(out)?.[1] as string;
      // Printed once the page in the window read the files; the browser is record's: --no-sandbox and the rest.
      const [browser] = processesWith(`--app=${url}`).filter((p) => !p.args.some((a) => a.startsWith('--type=')));
      expect(browser, out).toBeDefined();
      expect(browser.args).toEqual(expect.arrayContaining(['--no-sandbox', '--disable-gpu', '--no-first-run']));
      expect(view.child.exitCode).toBeNull();
      process.kill(browser.pid, 'SIGTERM'); // the user closes the window
      expect(await view.exited).toBe(0);
    } finally {
      view.child.kill('SIGINT');
      x.stop();
    }
  });

  it('says so with the URL when Chromium does not open; exits 1 when no one was shown the files, 0 once they were', async () => {
    // A browser that cannot start here, as Chromium without a usable display or sandbox.
    const fake = join(dir, 'no-chromium.sh');
    writeFileSync(fake, '#!/bin/sh\necho "ERROR: Missing X server or \\$DISPLAY" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const env = { DISPLAY: ':98', CHROMIUM_PATH: fake };

    const alone = viewWith(env, CLEAN);
    const said = await alone.until(
      /Chromium did not start.*: open http:\/\/127\.0\.0\.1:\d+\/\S+ in a browser; Ctrl\+C stops/,
    );
    expect(said).not.toContain('opened in Chromium');
    expect(said).toContain('Missing X server');
    alone.child.kill('SIGINT');
    expect(await alone.exited).toBe(1);
    expect(alone.output()).toContain('the files were not shown to anyone');

    const opened = viewWith(env, CLEAN);
    const line = await opened.until(/Chromium did not start.*: open (http:\/\/\S+) in a browser/);
    const url = /: open (http:\/\/\S+) in a browser/.exec(line)?.[1] as string;
    const page = await browser.newPage();
    try {
      await page.goto(url);
      await waitInPanel(page, (h) => h.counts().records > 0, { timeout: 15_000, polling: 100 });
    } finally {
      await page.close();
    }
    opened.child.kill('SIGINT');
    expect(await opened.exited).toBe(0);
  });
});
