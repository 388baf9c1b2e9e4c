/**
 * Smoke test of the real Firefox DevTools panel (the other Firefox tests open the panel page in a tab).
 *
 * Firefox ESR is driven over WebDriver BiDi with `--remote-allow-system-access`, which lets a script run in the
 * browser's own window (`moz:scope: chrome`): it opens the toolbox on the tab, selects the "Embed" panel that our
 * devtools page registered, and reads the panel document's state through a one-shot frame script of the panel's
 * <browser>. Like the Chrome smoke test, this relies on browser internals (the DevTools loader, the toolbox's
 * panel frames); if a Firefox update moves them, this test fails loudly rather than skipping.
 * Capture is turned on for the sandbox's two sites before the tests, as in capture-firefox.test.ts: an extension
 * page of the add-on calls the background page's `embedInspector.setCapture` (test/helpers/firefox.ts).
 * Fails (never skips) without Firefox; FIREFOX_PATH overrides the binary.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startSandbox } from '../../sandbox/server.mjs';
import { ACTION_TYPES, EVENT_TYPES } from '../../src/protocol/catalog.ts';
import { SET_CAPTURE_IN_EXTENSION_PAGE } from '../helpers/firefox.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
let sb: Awaited<ReturnType<typeof startSandbox>>;
let ff: ChildProcess;
let profile: string;
let ws: WebSocket;
let chromeContext: string;
let contentContext: string;

/** A minimal WebDriver BiDi client: commands time out, and fail at once if the connection or Firefox goes away. */
let nextId = 0;
const waiting = new Map<
  number,
  { resolve: (m: { type: string; result?: any; error?: string; message?: string }) => void; reject: (e: Error) => void }
>();
const failAll = (why: string) => {
  for (const w of waiting.values()) {
    w.reject(new Error(why));
  }
  waiting.clear();
};
function send(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<any> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    waiting.set(id, {
      resolve: (m) => {
        clearTimeout(timer);
        if (m.type === 'success') {
          resolve(m.result);
        } else {
          reject(new Error(`${method}: ${m.error} ${m.message ?? ''}`));
        }
      },
      reject: (e) => {
        clearTimeout(timer);
        reject(e);
      },
    });
    ws.send(JSON.stringify({ id, method, params }));
  });
}
/** Evaluate an async function body in the browser window (chrome privileges); returns its JSON result, parsed. */
async function inChrome<T>(body: string): Promise<T> {
  const r = await send('script.evaluate', {
    expression: `(async () => JSON.stringify(await (async () => { ${body} })()))()`,
    target: { context: chromeContext },
    awaitPromise: true,
  });
  if (r.type !== 'success') {
    throw new Error(`chrome script failed: ${JSON.stringify(r.exceptionDetails ?? r).slice(0, 500)}`);
  }
  return JSON.parse(r.result.value) as T;
}

/** The toolbox of the tab, opened if needed, with the Embed panel selected; resolves to the panel's <browser>. */
const PANEL_BROWSER = `
  const { require } = ChromeUtils.importESModule('resource://devtools/shared/loader/Loader.sys.mjs');
  const { gDevTools } = require('devtools/client/framework/devtools');
  const toolbox = gDevTools.getToolboxForTab(gBrowser.selectedTab) ?? await gDevTools.showToolboxForTab(gBrowser.selectedTab, { toolId: 'webconsole' });
  let tool;
  for (let k = 0; k < 200 && !(tool = toolbox.getAdditionalTools().find((t) => t.label === 'Embed')); k++) await new Promise((r) => setTimeout(r, 100));
  if (!tool) return { error: 'no Embed panel in the toolbox: ' + JSON.stringify(toolbox.getAdditionalTools().map((t) => t.label)) };
  if (toolbox.currentToolId !== tool.id) await toolbox.selectTool(tool.id);
  const browser = toolbox.doc.getElementById('toolbox-panel-iframe-' + tool.id)?.contentDocument?.querySelector('browser');
  if (!browser) return { error: 'the Embed panel has no browser element' };
`;

/** What the real panel's app shows (read in its own document by a frame script). */
interface PanelState {
  href: string;
  title: string;
  hooks: boolean;
  valid: number;
  records: Array<{ kind: string; type: string | undefined }>;
  rows: number;
}
async function panelState(): Promise<PanelState & { error?: string }> {
  return inChrome(`${PANEL_BROWSER}
    const mm = browser.messageManager;
    const name = 'ei-test-' + Math.random().toString(36).slice(2);
    const got = new Promise((res) => mm.addMessageListener(name, (m) => res(m.data)));
    const code = 'sendAsyncMessage(' + JSON.stringify(name) + ', (() => { const w = content.wrappedJSObject; const h = w.__embedInspectorPanel; '
      + 'return JSON.stringify({ href: content.location.href, title: content.document.title, hooks: !!h, valid: h ? h.store.counts.valid : 0, '
      + 'records: h ? Array.from(h.store.records).filter((r) => !r.navigation).map((r) => ({ kind: r.kind, type: r.data && r.data.type })) : [], '
      + 'rows: content.document.querySelectorAll(".grid-body [role=row]").length }); })())';
    mm.loadFrameScript('data:,' + encodeURIComponent(code), false);
    const data = await Promise.race([got, new Promise((r) => setTimeout(() => r(null), 10000))]);
    return data ? JSON.parse(data) : { error: 'the panel document did not answer' };
  `);
}

beforeAll(async () => {
  const executablePath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  if (!existsSync(executablePath)) {
    throw new Error(`no Firefox at ${executablePath}; install firefox-esr or set FIREFOX_PATH`);
  }
  if (!existsSync(`${ROOT}dist/firefox/manifest.json`)) {
    throw new Error('dist/firefox is missing: run npm run build first');
  }
  sb = await startSandbox({ hostPort: 0, tenantPort: 0, quiet: true });
  profile = mkdtempSync(join(tmpdir(), 'ei-ff-devtools-'));
  ff = spawn(
    executablePath,
    [
      '--headless',
      '--remote-debugging-port',
      '0',
      '--remote-allow-system-access',
      '--profile',
      profile,
      '--no-remote',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  ff.once('exit', (code, signal) => failAll(`Firefox exited (${code ?? signal})`));
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = ''; // the line may arrive split over chunks
    const timer = setTimeout(
      () => reject(new Error(`Firefox did not open its WebDriver BiDi port within 30 s: ${err.slice(-500)}`)),
      30_000,
    );
    ff.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Firefox exited (${code}) before opening its WebDriver BiDi port: ${err.slice(-500)}`));
    });
    ff.stderr!.on('data', (d) => {
      err += String(d);
      const m = err.match(/WebDriver BiDi listening on (ws:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  ws = new WebSocket(`${endpoint}/session`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.on('close', () => failAll('the WebDriver BiDi connection closed'));
  ws.on('error', (e) => failAll(`the WebDriver BiDi connection failed: ${e.message}`));
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    const w = m.id ? waiting.get(m.id) : undefined;
    if (w) {
      waiting.delete(m.id);
      w.resolve(m);
    }
  });
  await send('session.new', { capabilities: {} });
  await send('webExtension.install', { extensionData: { type: 'path', path: `${ROOT}dist/firefox` } });
  chromeContext = (await send('browsingContext.getTree', { 'moz:scope': 'chrome' })).contexts[0].context;
  contentContext = (await send('browsingContext.getTree', {})).contexts[0].context;
  // Capture the sandbox's two sites: from an extension page of the add-on, through the background page.
  const host = await inChrome<string>(
    `return WebExtensionPolicy.getByID('embed-inspector@embed-inspector.dev').mozExtensionHostname;`,
  );
  await send('browsingContext.navigate', {
    context: contentContext,
    url: `moz-extension://${host}/src/panel/index.html?theme=light`,
    wait: 'complete',
  });
  const set = await send('script.callFunction', {
    functionDeclaration: SET_CAPTURE_IN_EXTENSION_PAGE,
    awaitPromise: true,
    target: { context: contentContext },
    arguments: [
      {
        type: 'object',
        value: [
          [
            'sites',
            {
              type: 'array',
              value: [
                { type: 'string', value: sb.hostOrigin },
                { type: 'string', value: sb.tenantOrigin },
              ],
            },
          ],
        ],
      },
    ],
  });
  if (set.type !== 'success') {
    throw new Error(`setCapture failed: ${JSON.stringify(set.exceptionDetails ?? set).slice(0, 500)}`);
  }
  await send('browsingContext.navigate', { context: contentContext, url: 'about:blank', wait: 'complete' });
}, 60_000);

afterAll(async () => {
  // Close Firefox properly, then wait for it to exit before removing its profile (its processes write there).
  if (ff && ff.exitCode === null) {
    const exited = new Promise((r) => ff.once('exit', r));
    try {
      await send('browser.close', {}, 5_000);
    } catch {
      ff.kill('SIGTERM');
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (ff.exitCode === null) {
      ff.kill('SIGKILL');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    }
  }
  try {
    ws?.close();
  } catch {
    /* closed */
  }
  await sb?.close();
  if (profile) {
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}, 30_000);

it('the toolbox has the Embed panel, and it opens the panel app (not a missing page)', async () => {
  const opened = await inChrome<{ src?: string; title?: string; error?: string }>(`${PANEL_BROWSER}
    for (let k = 0; k < 100 && browser.contentTitle !== 'Embed Inspector'; k++) await new Promise((r) => setTimeout(r, 100));
    return { src: browser.currentURI.spec, title: browser.contentTitle };
  `);
  expect(opened.error).toBeUndefined();
  expect(opened.src).toMatch(/^moz-extension:\/\/[^/]+\/src\/panel\/index\.html$/);
  expect(opened.title).toBe('Embed Inspector');
  let state = await panelState();
  for (let k = 0; k < 40 && !state.hooks; k++) {
    await new Promise((r) => setTimeout(r, 250));
    state = await panelState();
  }
  expect(state.error).toBeUndefined();
  expect(state.hooks).toBe(true); // the app is running in the DevTools panel
}, 60_000);

it('shows a sandbox session live in the real panel: every event and action, posted and delivered', async () => {
  await send('browsingContext.navigate', {
    context: contentContext,
    url: `${sb.hostOrigin}/?script=full`,
    wait: 'complete',
  });
  const expected = EVENT_TYPES.length + ACTION_TYPES.length;
  // Every type posted and delivered (a post and its delivery are one message in the verdict counts).
  const complete = (s: PanelState) =>
    [...EVENT_TYPES, ...ACTION_TYPES].every(
      (t) =>
        s.records.some((r) => r.type === t && r.kind === 'post') &&
        s.records.some((r) => r.type === t && r.kind === 'receive'),
    );
  let state = await panelState();
  for (let k = 0; k < 80 && !(state.records && complete(state)); k++) {
    await new Promise((r) => setTimeout(r, 250));
    state = await panelState();
  }
  expect(state.error).toBeUndefined();
  expect(state.valid).toBeGreaterThanOrEqual(expected);
  for (const type of [...EVENT_TYPES, ...ACTION_TYPES]) {
    expect(
      state.records.filter((r) => r.type === type && r.kind === 'post'),
      `${type} posted`,
    ).toHaveLength(1);
    expect(
      state.records.filter((r) => r.type === type && r.kind === 'receive'),
      `${type} delivered`,
    ).toHaveLength(1);
  }
  expect(state.rows).toBeGreaterThan(0); // and the timeline renders them
}, 60_000);
