/**
 * Smoke test of the real Firefox DevTools panel (the other Firefox tests open the panel page in a tab): the panel
 * app runs in the toolbox, shows a sandbox session live, Settings opens in it, and its Flow tab draws the session's
 * lanes and handshake arrows.
 *
 * Firefox ESR is driven over WebDriver BiDi with `--remote-allow-system-access`, which lets a script run in the
 * browser's own window (`moz:scope: chrome`): it opens the toolbox on the tab, selects the "Embed" panel that our
 * devtools page registered, and reads the panel document's state through a one-shot frame script of the panel's
 * <browser>. Like the Chrome smoke test, this relies on browser internals (the DevTools loader, the toolbox's
 * panel frames); if a Firefox update moves them, this test fails loudly rather than skipping.
 * Capture is turned on for the sandbox's two sites before the tests, as in capture-firefox.test.ts: an extension
 * page of the add-on calls the background page's `embedInspector.setCapture` (src/node/firefox.ts).
 * Fails (never skips) without Firefox; FIREFOX_PATH overrides the binary.
 */
import { vi } from 'vitest';
import type { Sandbox } from '../../sandbox/server.mjs';
import { SET_CAPTURE_IN_EXTENSION_PAGE } from '../../src/node/firefox.ts';
import { ACTION_TYPES, EVENT_TYPES } from '../../src/protocol/catalog.ts';
import { expect, it, test } from '../helpers/fixtures.ts';
import { expectHandshakeDrawn, type FlowDrawing, readFlowDrawing } from '../helpers/flow-drawing.ts';

let sb: Sandbox;
let connection: { send(method: string, params: object, timeout?: number): Promise<{ result: any }> };
let chromeContext: string;
let contentContext: string;

/** A WebDriver BiDi command on the connection puppeteer holds (it passes Firefox's own parameters, `moz:scope`, on). */
async function send(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<any> {
  return (await connection.send(method, params, timeoutMs)).result;
}
/**
 * Given to every script in the browser window: `waitFor(condition, ms)` resolves with what `condition()` returns once
 * it is truthy (checked every 100 ms), or null when `ms` pass first. The one wait of these scripts.
 */
const WAIT_FOR = `const waitFor = async (condition, ms) => {
  for (const end = Date.now() + ms; ; ) {
    const v = condition();
    if (v || Date.now() >= end) return v || null;
    await new Promise((r) => setTimeout(r, 100));
  }
};`;
/** Evaluate an async function body in the browser window (chrome privileges); returns its JSON result, parsed. */
async function inChrome<T>(body: string): Promise<T> {
  const r = await send('script.evaluate', {
    expression: `(async () => { ${WAIT_FOR} return JSON.stringify(await (async () => { ${body} })()); })()`,
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
  const tool = await waitFor(() => toolbox.getAdditionalTools().find((t) => t.label === 'Embed'), 20000);
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
  records: Array<{ kind: string; type: string | undefined; status: string | undefined }>;
  rows: number;
}
async function panelState(): Promise<PanelState & { error?: string }> {
  return inChrome(`${PANEL_BROWSER}
    const mm = browser.messageManager;
    const name = 'ei-test-' + Math.random().toString(36).slice(2);
    let data = null;
    mm.addMessageListener(name, (m) => { data = m.data; });
    const code = 'sendAsyncMessage(' + JSON.stringify(name) + ', (() => { const w = content.wrappedJSObject; const h = w.__embedInspectorPanel; '
      + 'return JSON.stringify({ href: content.location.href, title: content.document.title, hooks: !!h, valid: h ? h.counts().valid : 0, '
      + 'records: h ? Array.from(h.records()).filter((r) => !r.navigation).map((r) => ({ kind: r.kind, type: r.data && r.data.type, status: r.data && r.data.payload && r.data.payload.status })) : [], '
      + 'rows: content.document.querySelectorAll(".grid-body [role=row]").length }); })())';
    mm.loadFrameScript('data:,' + encodeURIComponent(code), false);
    return (await waitFor(() => data, 10000)) ? JSON.parse(data) : { error: 'the panel document did not answer' };
  `);
}

test.beforeAll(async ({ sandbox, firefox }) => {
  sb = sandbox;
  connection = (firefox.browser as unknown as { connection: typeof connection }).connection;
  chromeContext = (await send('browsingContext.getTree', { 'moz:scope': 'chrome' })).contexts[0].context;
  // The toolbox docked at the bottom, 600 px tall (Firefox's default, 250 px, leaves the panel's lists a row or two).
  await inChrome<boolean>(`Services.prefs.setIntPref('devtools.toolbox.footer.height', 600); return true;`);
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

it('the toolbox has the Embed panel, and it opens the panel app (not a missing page)', async () => {
  const opened = await inChrome<{ src?: string; title?: string; error?: string }>(`${PANEL_BROWSER}
    await waitFor(() => browser.contentTitle === 'Embed Inspector', 10000);
    return { src: browser.currentURI.spec, title: browser.contentTitle };
  `);
  expect(opened.error).toBeUndefined();
  expect(opened.src).toMatch(/^moz-extension:\/\/[^/]+\/src\/panel\/index\.html$/);
  expect(opened.title).toBe('Embed Inspector');
  let state = await panelState();
  await vi
    .waitUntil(async () => (state = await panelState()).hooks, { timeout: 10_000, interval: 250 })
    .catch(() => {});
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
  const AI_QUERY = 'svc:event:ai-query';
  const of = (s: PanelState, type: string, kind: 'post' | 'receive') =>
    s.records.filter((r) => r.type === type && r.kind === kind);
  // The session is over when every type is posted and delivered and the AI query's answer (400 ms after its question,
  // sandbox/README.md) is too: read before it, the panel holds one ai-query; after, two.
  const complete = (s: PanelState) =>
    [...EVENT_TYPES, ...ACTION_TYPES].every((t) => of(s, t, 'post').length > 0 && of(s, t, 'receive').length > 0) &&
    (['post', 'receive'] as const).every((k) => of(s, AI_QUERY, k).some((r) => r.status === 'completed'));
  let state = await panelState();
  await vi
    .waitUntil(async () => (state = await panelState()).records && complete(state), { timeout: 20_000, interval: 250 })
    .catch(() => {});
  expect(state.error).toBeUndefined();
  expect(state.valid).toBeGreaterThanOrEqual(expected);
  for (const type of [...EVENT_TYPES, ...ACTION_TYPES]) {
    // Each type once, posted and delivered; the AI query twice (submitted, then completed), in order.
    const statuses = type === AI_QUERY ? ['submitted', 'completed'] : [undefined];
    expect(
      of(state, type, 'post').map((r) => (type === AI_QUERY ? r.status : undefined)),
      `${type} posted`,
    ).toEqual(statuses);
    expect(
      of(state, type, 'receive').map((r) => (type === AI_QUERY ? r.status : undefined)),
      `${type} delivered`,
    ).toEqual(statuses);
  }
  expect(state.rows).toBeGreaterThan(0); // and the timeline renders them
}, 60_000);

/** Evaluates `expr` in the real panel's document (`d`; `w` its window) and returns its value, through JSON. */
async function inPanelDoc<T>(expr: string): Promise<T & { error?: string }> {
  return inChrome(`${PANEL_BROWSER}
    const mm = browser.messageManager;
    const name = 'ei-test-' + Math.random().toString(36).slice(2);
    let data = null;
    mm.addMessageListener(name, (m) => { data = m.data; });
    const code = 'sendAsyncMessage(' + JSON.stringify(name) + ', (() => { const w = content; const d = w.document; return JSON.stringify(' + ${JSON.stringify(expr)} + '); })())';
    mm.loadFrameScript('data:,' + encodeURIComponent(code), false);
    return (await waitFor(() => data, 10000)) ? JSON.parse(data) : { error: 'the panel document did not answer' };
  `);
}

// Firefox's toolbox reads Esc in its own window before the panel does and toggles the split console whatever the
// panel does with the key (preventDefault included): docs/panel.md says so. What the panel owns is checked here.
it('⚙ Settings opens inside the real panel and Esc closes it', async () => {
  await inChrome<boolean>(`${PANEL_BROWSER}
    if (toolbox.splitConsole) await toolbox.closeSplitConsole();
    return true;
  `);
  const opened = await inPanelDoc<{ open: boolean; left: number; right: number; width: number }>(`(() => {
    d.querySelector('.limits-button').click();
    const p = d.querySelector('.popover');
    const r = p ? p.getBoundingClientRect() : null;
    return { open: !!p, left: r ? r.left : -1, right: r ? r.right : -1, width: w.innerWidth };
  })()`);
  expect(opened.error).toBeUndefined();
  expect(opened.open).toBe(true);
  expect(opened.left).toBeGreaterThanOrEqual(0);
  expect(opened.right).toBeLessThanOrEqual(opened.width);
  // A key press as the user's comes: synthesized at the browser window (as Firefox's own tests do, through a text
  // input processor) and routed by the browser to what has the focus, the panel's popover.
  const pressed = await inChrome<boolean>(`${PANEL_BROWSER}
    browser.focus();
    const tip = Cc['@mozilla.org/text-input-processor;1'].createInstance(Ci.nsITextInputProcessor);
    if (!tip.beginInputTransactionForTests(window)) return false;
    const esc = new KeyboardEvent('', { key: 'Escape', code: 'Escape', keyCode: 27 });
    tip.keydown(esc);
    tip.keyup(esc);
    return true;
  `);
  expect(pressed).toBe(true);
  let closed = false;
  await vi
    .waitUntil(async () => (closed = (await inPanelDoc<boolean>(`!d.querySelector('.popover')`)) === true), {
      timeout: 5_000,
      interval: 100,
    })
    .catch(() => {});
  expect(closed, 'Esc closed Settings').toBe(true);
  expect(await inPanelDoc<boolean>(`d.activeElement === d.querySelector('.limits-button')`), 'focus back on ⚙').toBe(
    true,
  );
}, 60_000);

it('the Flow tab of the real panel draws the lanes of the host and the embed, and the handshake arrows', async () => {
  // (the Esc of the test before toggled the split console open: closed, the panel has the toolbox's height)
  await inChrome<boolean>(`${PANEL_BROWSER}
    if (toolbox.splitConsole) await toolbox.closeSplitConsole();
    return true;
  `);
  const clicked = await inPanelDoc<boolean>(
    `(() => { const t = d.querySelector('.vt-flow'); if (t) t.click(); return !!t; })()`,
  );
  expect(clicked).toBe(true);
  // the rows are laid out once the view has measured its viewport
  const read = () => inPanelDoc<FlowDrawing>(`(${readFlowDrawing.toString()})(d)`);
  const handshake = (x: FlowDrawing) =>
    ['ready', 'set-color-scheme'].every((l) => x.arrows?.some((a) => a.label === l));
  let drawing = await read();
  await vi
    .waitUntil(async () => handshake((drawing = await read())), { timeout: 10_000, interval: 100 })
    .catch(() => {});
  expect(drawing.error).toBeUndefined();
  expectHandshakeDrawn(drawing, { host: sb.hostOrigin, tenant: sb.tenantOrigin });
}, 60_000);
