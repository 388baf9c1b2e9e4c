/**
 * Saying what did not happen, case by case, on the sandbox in Chromium with the built extension: each fault of
 * the embed's address or of its silence gives the panel's integration line its state and the record concerned
 * its issue; the same capture, exported and run through `embed-inspector check`, reports the same rule; the
 * healthy and the scripted sessions stay at zero issues. The ready limit is set to 2 s (extension-wide, as
 * ⚙ Settings does) so the silent cases are judged quickly.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { vi } from 'vitest';
import { records, settled, tabIdOf } from '../helpers/capture.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { Sandbox } from '../helpers/panel.ts';
import { ROOT } from '../helpers/paths.ts';
import type { Launched } from '../../src/node/chromium.ts';
import { inPanel, waitInPanel } from '../helpers/panel.ts';

const LIMIT = 2000;
const dir = mkdtempSync(join(tmpdir(), 'ei-diagnosis-'));
let sb: Sandbox;
let launched: Launched;

test.beforeAll(async ({ sandbox, chromium }) => {
  sb = sandbox;
  launched = chromium;
  const w = await launched.worker();
  await w.evaluate((ms: number) => (globalThis as any).embedInspector.setReadyTimeout(ms), LIMIT);
});

interface Rec {
  seq: number;
  kind: string;
  navigation?: boolean;
  frameId?: number;
  type?: string;
  status?: string;
  rules: string[];
  messages: string[];
}

/** The host page with `query`, and the panel page of its tab. */
async function open(query: string): Promise<{ page: Page; panel: Page; tabId: number }> {
  const page = await launched.browser.newPage();
  await page.goto(`${sb.hostOrigin}/${query ? `?${query}` : ''}`, { waitUntil: 'load' });
  const tabId = await tabIdOf(launched, page);
  const panel = await launched.browser.newPage();
  await panel.setViewport({ width: 1280, height: 800 });
  await panel.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?tabId=${tabId}&theme=light`);
  await waitInPanel(panel, (h) => h.store.status === 'connected', {
    timeout: 10_000,
  });
  return { page, panel, tabId };
}

/** Wait until the tab's diagnosis has no limit left to run out: whatever silence it would report, it has. */
async function noLimitLeft(tabId: number): Promise<void> {
  let next: number | null = null;
  await vi
    .waitUntil(
      async () =>
        (next = await (await launched.worker()).evaluate(
          (id: number) => (globalThis as any).embedInspector.nextLimit(id) as Promise<number | null>,
          tabId,
        )) === null,
      { timeout: LIMIT + 15_000, interval: 100 },
    )
    .catch(() => {
      throw new Error(`a limit of the diagnosis is still to run out (at ${next}, now ${Date.now()})`);
    });
}

const integration = (panel: Page) =>
  panel.$eval('[data-testid="integration"]', (el) => ({
    state: el.getAttribute('data-state'),
    text: el.textContent ?? '',
  }));

const panelRecords = (panel: Page): Promise<Rec[]> =>
  inPanel(panel, (h) =>
    h.records().map((r: any) => ({
      seq: r.seq,
      kind: r.kind,
      navigation: r.navigation,
      frameId: r.frameId,
      type: r.data?.type,
      status: r.data?.payload?.status,
      rules: r.issues.filter((i: any) => !i.sender).map((i: any) => i.rule),
      messages: r.issues.map((i: any) => i.message),
    })),
  );

/** `check --format json` of the tab's capture as the extension exports it: the rules of its findings. */
async function checkRules(tabId: number): Promise<{ rules: string[]; code: number | null; text: string }> {
  const file = join(dir, `tab-${tabId}.json`);
  const capture = await (await launched.worker()).evaluate(
    (id: number) => (globalThis as any).embedInspector.exportCapture(id, 'diagnosis test'),
    tabId,
  );
  writeFileSync(file, JSON.stringify(capture));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'bin/embed-inspector.js'), 'check', file, ...args], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
  const json = run('--format', 'json', '--ready-timeout', String(LIMIT));
  const text = run('--ready-timeout', String(LIMIT));
  const parsed = JSON.parse(json.stdout);
  const rules = [
    ...new Set(
      parsed.messages.flatMap((m: { issues: Array<{ rule: string; sender?: boolean }> }) =>
        m.issues.map((i) => i.rule),
      ),
    ),
  ] as string[];
  return { rules, code: json.status, text: text.stdout };
}

const embedNav = (rs: Rec[]) => rs.find((r) => r.navigation && r.frameId !== 0)!;

// Each row: the fault, the integration state the panel leads with, where the issue sits, the rule.
const CASES: Array<[string, string, (rs: Rec[]) => Rec | undefined, string]> = [
  ['never-ready', 'never-ready', embedNav, 'silence.never-ready'],
  ['session-missing', 'failed-to-start', embedNav, 'url.session'],
  ['bad-path', 'never-ready', embedNav, 'url.path'],
  ['allow-export-yes', 'address', embedNav, 'url.allow-export'],
  ['timezone-offset', 'healthy', embedNav, 'url.timezone-offset'],
  ['filter-not-json', 'address', embedNav, 'url.filter'],
  [
    'event-wrong-origin',
    'events-lost',
    (rs) => rs.find((r) => r.kind === 'post' && r.type === 'svc:event:ready'),
    'origin.event-target',
  ],
  [
    'ai-query-stuck',
    'warnings',
    (rs) => rs.find((r) => r.type === 'svc:event:ai-query' && r.status === 'submitted'),
    'silence.ai-query-unanswered',
  ],
  [
    'no-dashboard-loaded',
    'warnings',
    (rs) => rs.find((r) => r.kind === 'post' && r.type === 'svc:event:ready'),
    'silence.no-dashboard-loaded',
  ],
];

describe('the panel says what did not happen, and check agrees', () => {
  it.each(CASES)(
    'faults=%s: the integration line says %s; the record has the rule',
    async (fault, state, where, rule) => {
      const { page, panel, tabId } = await open(`faults=${fault}`);
      try {
        await panel.waitForFunction(
          (want: string) => document.querySelector('[data-testid="integration"]')?.getAttribute('data-state') === want,
          { timeout: 20_000, polling: 200 },
          state,
        );
        await waitInPanel(
          panel,
          (h, r: string) => h.records().some((x: any) => x.issues.some((i: any) => i.rule === r)),
          { timeout: 20_000, polling: 200 },
          rule,
        );
        const rs = await panelRecords(panel);
        const at = where(rs);
        expect(at, JSON.stringify(rs)).toBeTruthy();
        expect(at!.rules).toContain(rule);
        // No issue text shows the session id.
        expect(rs.flatMap((r) => r.messages).join('\n')).not.toContain('demo-signed');
        const line = await integration(panel);
        if (state !== 'healthy' && state !== 'warnings') {
          // The line links to the first record concerned.
          expect(line.text).toMatch(/#\d+/);
        }
        const check = await checkRules(tabId);
        expect(check.rules).toContain(rule);
        expect(check.text).toMatch(/integration: /);
      } finally {
        await panel.close();
        await page.close();
      }
    },
  );

  it('a never-ready embed shows what its frame said and the likely causes, and the link selects its record', async () => {
    const { page, panel } = await open('faults=never-ready');
    try {
      await panel.waitForSelector('[data-testid="integration-detail"]', { timeout: 20_000 });
      const detail = await panel.$eval('[data-testid="integration-detail"]', (el) => el.textContent ?? '');
      expect(detail).toMatch(/loaded \d+(\.\d)? s ago and never said ready/);
      expect(detail).toMatch(/Likely causes: 1\)/);
      expect(detail).not.toContain('demo-signed');
      expect((await integration(panel)).text).toMatch(/the embed never became ready/);
      await panel.click('[data-testid="integration"] .i-jump');
      await waitInPanel(
        panel,
        (h) => {
          const sel = h.selected();
          return sel !== null && sel !== undefined;
        },
        { timeout: 5000, polling: 100 },
      );
    } finally {
      await panel.close();
      await page.close();
    }
  });

  it.each(['', 'script=full'])(
    'the healthy session (%s) is "healthy" with zero issues on every record',
    async (query) => {
      const { page, panel, tabId } = await open(query);
      try {
        await page.waitForFunction(
          (scripted: boolean) =>
            scripted ? (window as any).__sandboxHost?.scriptDone() : (window as any).__sandboxHost?.isReady(),
          { timeout: 30_000, polling: 200 },
          !!query,
        );
        // Past the ready limit, so anything the diagnosis would say is said.
        await panel.waitForFunction(
          () => document.querySelector('[data-testid="integration"]')?.getAttribute('data-state') === 'healthy',
          { timeout: 20_000, polling: 200 },
        );
        // The silence rules are judged when their limit runs out: wait until no limit is left to run out (each that
        // ran out has been judged), then read what the background holds and what the panel shows of it.
        await noLimitLeft(tabId);
        expect(
          (await records(launched, tabId)).filter((r) => r.issues.some((i) => !i.sender)).map((r) => r.seq),
          'records with issues in the background',
        ).toEqual([]);
        await settled(launched, tabId, panel);
        const rs = await panelRecords(panel);
        expect(rs.length).toBeGreaterThan(3);
        expect(rs.filter((r) => r.rules.length)).toEqual([]);
        expect((await integration(panel)).state).toBe('healthy');
      } finally {
        await panel.close();
        await page.close();
      }
    },
  );
});

describe('record fails a never-ready embed with the diagnosis', () => {
  it('exit 1, the integration line and the silence.never-ready finding', async () => {
    // A child that runs while this process serves the sandbox.
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(ROOT, 'bin/embed-inspector.js'),
          'record',
          `${sb.hostOrigin}/?faults=never-ready`,
          '--out',
          join(dir, 'never.json'),
          '--duration',
          '500',
          '--ready-timeout',
          String(LIMIT),
        ],
        { env: { ...process.env, NO_COLOR: '1' } },
      );
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('integration: the embed never became ready');
    expect(r.out).toMatch(/silence\.never-ready/);
    expect(r.out).toMatch(/never said ready/);
  });
});
