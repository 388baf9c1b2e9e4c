/**
 * Capture scope (issue 13), real Chromium with the built extension and the sandbox:
 * (a) a fresh profile captures nothing: the sandbox runs with no script of ours in any frame and nothing is stored;
 * (b) the real DevTools panel lists the tab's sites when capture is off, turns them on, reloads the tab, and the
 *     session is captured from `ready`;
 * (c) receive-only from a fresh load hooks nothing, and deliveries are recorded.
 * Fails (never skips) without Chromium or a build.
 */
import { vi } from 'vitest';
import type { Frame, Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server.mjs';
import type { Launched } from '../../src/node/chromium.ts';
import { openRealDevtoolsPanel } from '../../src/node/devtools-panel.ts';
import { CHANNEL_PAGE_RECORDS, CHANNEL_RELAY_TO_PAGE } from '../../src/shared/messages.ts';
import { messagesOnly, records, settled, tabIdOf, typeOf, waitForRecords } from '../helpers/capture.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { waitInPanel } from '../helpers/panel.ts';

// Each test has the browsers it compares launched (the `launch` fixture), with the scope it is about.
let sb: Sandbox;
test.beforeAll(({ sandbox }) => {
  sb = sandbox;
});

/** Counts, in every frame from its first script on, the private DOM events of our two worlds the page could hear. */
const PROBE = `(() => {
  const seen = { n: 0 };
  Object.defineProperty(globalThis, '__probeEvents', { value: seen, enumerable: false });
  for (const type of ${JSON.stringify([CHANNEL_PAGE_RECORDS, CHANNEL_RELAY_TO_PAGE])}) document.addEventListener(type, () => { seen.n++; }, true);
})()`;

async function sandboxPage(l: Launched, query = ''): Promise<Page> {
  const page = await l.browser.newPage();
  await page.evaluateOnNewDocument(PROBE);
  await page.goto(`${sb.hostOrigin}/${query}`);
  await page.waitForFunction(() => (window as any).__sandboxHost?.isReady(), { timeout: 20_000 });
  await embedFrame(page);
  return page;
}
async function embedFrame(page: Page): Promise<Frame> {
  const f = await vi
    .waitUntil(() => page.frames().find((x) => x.url().startsWith(sb.tenantOrigin)), { timeout: 10_000, interval: 100 })
    .catch(() => {
      throw new Error('no embed frame');
    });
  await f.waitForFunction(() => document.readyState !== 'loading');
  return f;
}

/** What a page can see of a script of ours in one frame. */
function frameFacts(frame: Frame) {
  return frame.evaluate(() => {
    const w = window as any;
    const iframe = document.querySelector('iframe');
    return {
      names: Object.getOwnPropertyNames(window)
        .filter((n) => n !== '__probeEvents')
        .sort(),
      symbols: Object.getOwnPropertySymbols(window).map(String).sort(),
      childIdentity: iframe ? iframe.contentWindow === window.frames[0] : null,
      parentIsTop: window.parent === window.top,
      events: w.__probeEvents?.n ?? -1,
    };
  });
}

/**
 * Whether a function (or a getter) is the browser's own: DevTools' protocol gives a function written in JavaScript a
 * [[FunctionLocation]] (a script and line), a bound function a [[TargetFunction]], a Proxy a [[Handler]]; a native
 * function has none of these, whatever its toString says.
 */
async function isNative(frame: Frame, expr: string): Promise<boolean> {
  const handle = await frame.evaluateHandle(expr);
  const objectId = handle.remoteObject().objectId;
  if (!objectId) {
    throw new Error(`${expr}: not an object`);
  }
  const client = (frame as any).client ?? (frame as any)._client();
  const props = await client.send('Runtime.getProperties', { objectId, ownProperties: true });
  await handle.dispose();
  const internal = (props.internalProperties ?? []).map((p: { name: string }) => p.name);
  return (
    handle.remoteObject().subtype !== 'proxy' &&
    !internal.some((n: string) => ['[[FunctionLocation]]', '[[TargetFunction]]', '[[Handler]]'].includes(n))
  );
}
const getter = (where: string, name: string) =>
  `(() => { for (let o = ${where}; o; o = Object.getPrototypeOf(o)) { const d = Object.getOwnPropertyDescriptor(o, '${name}'); if (d) return d.get ?? d.value; } })()`;
const HOOKABLE = [
  ['window.postMessage', 'window.postMessage'],
  ['HTMLIFrameElement.prototype.contentWindow getter', getter('HTMLIFrameElement.prototype', 'contentWindow')],
  ['parent getter', getter('window', 'parent')],
  ['MessageEvent.prototype.source getter', getter('MessageEvent.prototype', 'source')],
] as const;
async function hooked(frame: Frame): Promise<string[]> {
  const out: string[] = [];
  for (const [name, expr] of HOOKABLE) {
    if (!(await isNative(frame, expr))) {
      out.push(name);
    }
  }
  return out;
}

describe('capture scope', () => {
  it('(a) a fresh profile captures nothing: no script of ours in any frame, nothing stored', async ({ launch }) => {
    const without = await launch.plainChromium();
    const fresh = await launch.chromium({ capture: null });
    const base = await sandboxPage(without);
    const page = await sandboxPage(fresh);
    const baseFacts = [await frameFacts(base.mainFrame()), await frameFacts(await embedFrame(base))];
    const facts = [await frameFacts(page.mainFrame()), await frameFacts(await embedFrame(page))];
    expect(facts).toEqual(baseFacts); // same own names and symbols on window, same identities
    expect(facts[0].childIdentity).toBe(true);
    expect(facts.map((f) => f.events)).toEqual([0, 0]);
    for (const f of [page.mainFrame(), await embedFrame(page)]) {
      expect(await hooked(f)).toEqual([]);
    }

    const worker = await fresh.worker();
    const tabId = await tabIdOf(fresh, page);
    expect(await worker.evaluate(() => (globalThis as any).embedInspector.getCapture())).toEqual({
      sites: [],
      mode: 'full',
    });
    expect(await worker.evaluate(() => chrome.scripting.getRegisteredContentScripts())).toEqual([]);
    expect(await worker.evaluate(() => (globalThis as any).embedInspector.tabIds())).toEqual([]);
    expect(await records(fresh, tabId)).toEqual([]);

    // Once capture is on, our scripts are there (so the zeros above mean something): the hooks, and still no
    // private event on the page's document (the two worlds talk on a node the page never holds).
    await worker.evaluate(
      (s) => (globalThis as any).embedInspector.setCapture({ sites: s }),
      [sb.hostOrigin, sb.tenantOrigin],
    );
    await page.reload();
    await page.waitForFunction(() => (window as any).__sandboxHost?.isReady(), { timeout: 20_000 });
    await waitForRecords(fresh, tabId, (rs) => rs.some((r) => typeOf(r) === 'svc:event:ready'));
    expect(await hooked(page.mainFrame())).not.toEqual([]);
    expect((await frameFacts(page.mainFrame())).events).toBe(0);
    expect(await worker.evaluate(() => (globalThis as any).embedInspector.tabIds())).toEqual([tabId]);
  });

  it('setCapture refuses what is not a scope, with a clear error; the scope outlives the worker', async ({
    launch,
  }) => {
    const l = await launch.chromium({ capture: null });
    const worker = await l.worker();
    const err = (arg: unknown) =>
      worker.evaluate(
        (a) =>
          (globalThis as any).embedInspector.setCapture(a).then(
            () => 'resolved',
            (e: Error) => e.message,
          ),
        arg as any,
      );
    expect(await err({ sites: ['http://127.0.0.1:4100/page'] })).toMatch(
      /^embedInspector\.setCapture: not an origin: "http:\/\/127\.0\.0\.1:4100\/page"/,
    );
    expect(await err({ sites: 'everything' })).toMatch(/sites must be 'all' or an array of origins/);
    expect(await err({ sites: [], mode: 'partial' })).toMatch(/mode must be 'full' or 'receive-only'/);
    expect(await worker.evaluate(() => (globalThis as any).embedInspector.getCapture())).toEqual({
      sites: [],
      mode: 'full',
    });
    expect(
      await worker.evaluate(() =>
        (globalThis as any).embedInspector.setCapture({ sites: ['http://LOCALHOST:4101/'], mode: 'receive-only' }),
      ),
    ).toEqual({ sites: ['http://localhost:4101'], mode: 'receive-only' });
    // Kept in storage, not in the worker's memory: a new worker has it (and the scripts stay registered).
    await worker.evaluate(() => {
      (globalThis as any).__marker = 'old worker';
    });
    await worker.close(); // stops the extension's service worker
    const wake = await l.browser.newPage(); // an extension page connecting to the background starts a new worker
    await wake.goto(`chrome-extension://${l.extensionId}/src/panel/index.html?tabId=1`);
    const next = await vi.waitUntil(
      async () => {
        const w = await l.worker();
        return (await w.evaluate(() => (globalThis as any).__marker).catch(() => 'gone')) === undefined && w;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(await next.evaluate(() => (globalThis as any).__marker)).toBeUndefined();
    expect(await next.evaluate(() => (globalThis as any).embedInspector.getCapture())).toEqual({
      sites: ['http://localhost:4101'],
      mode: 'receive-only',
    });
    expect(
      await next.evaluate(async () =>
        (await chrome.scripting.getRegisteredContentScripts()).map((r) => [r.id, r.matches]),
      ),
    ).toEqual([['ei-0-relay', ['http://localhost:4101/*']]]);
  });

  it("(b) the real DevTools panel lists the tab's sites, turns them on, reloads, and captures ready", async ({
    launch,
  }) => {
    const l = await launch.chromium({ capture: null });
    const { page, frame } = await openRealDevtoolsPanel(() => sandboxPage(l));
    expect(frame, 'the Embed panel frame').toBeTruthy();
    await frame!.waitForSelector('.capture-off .cap-site', { timeout: 15_000 });
    const listed = await frame!.$$eval('.capture-off .cap-sites li', (lis) =>
      lis.map((li) => li.textContent!.replace(/\s+/g, ' ').trim()),
    );
    expect(listed).toEqual([`${sb.hostOrigin} this page`, `${sb.tenantOrigin} a frame`]);
    expect(await frame!.$eval('.capture-off', (e) => e.textContent)).toContain('Capture is off for this tab');
    const tabId = await tabIdOf(l, page);
    expect(await records(l, tabId)).toEqual([]);

    await frame!.click('.capture-off .cap-on'); // a real click: the browser's user gesture
    await waitInPanel(frame!, (h) => h.ready() !== null, {
      timeout: 20_000,
    });
    expect(await frame!.$('.capture-off')).toBeNull();
    expect(await (await l.worker()).evaluate(() => (globalThis as any).embedInspector.getCapture())).toEqual({
      sites: [sb.hostOrigin, sb.tenantOrigin].sort(),
      mode: 'full',
    });
    // From the first byte: the log starts with the reload's navigation, then the embed's ready, posted and delivered.
    // (each frame hands its records over when it is idle: the embed's post may come after the host's delivery)
    const both = (rs: Array<{ kind: string; data: unknown }>) =>
      ['post', 'receive'].every((k) => rs.some((r) => r.kind === k && typeOf(r) === 'svc:event:ready'));
    const recs = messagesOnly(await waitForRecords(l, tabId, both));
    const firstEvent = recs.find((r) => typeOf(r)?.startsWith('svc:event:'));
    expect(firstEvent && typeOf(firstEvent)).toBe('svc:event:ready');
    expect(
      recs
        .filter((r) => typeOf(r) === 'svc:event:ready')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['post', 'receive']);
  });

  it('⚙ Settings lists the captured sites: change a mode, remove a site (its open page stops recording), every site', async ({
    launch,
  }) => {
    const l = await launch.chromium({ capture: { sites: [sb.hostOrigin, sb.tenantOrigin], mode: 'full' } });
    const page = await sandboxPage(l);
    const tabId = await tabIdOf(l, page);
    const panel = await l.browser.newPage();
    await panel.goto(`chrome-extension://${l.extensionId}/src/panel/index.html?tabId=${tabId}&theme=light`);
    await waitInPanel(panel, (h) => h.store.capture, { timeout: 10_000 });
    await panel.click('.limits-button');
    const listed = () =>
      panel.$$eval('.cap-list li', (lis) =>
        lis.map((li) => [
          li.querySelector('.cap-origin')!.textContent,
          (li.querySelector('select') as HTMLSelectElement).value,
        ]),
      );
    expect(await listed()).toEqual(
      [
        [sb.hostOrigin, 'full'],
        [sb.tenantOrigin, 'full'],
      ].sort(),
    );
    const scope = () => l.worker().then((w) => w.evaluate(() => (globalThis as any).embedInspector.getCapture()));

    await panel.select(`.cap-site-mode[aria-label="Mode of ${sb.tenantOrigin}"]`, 'receive-only');
    await waitInPanel(
      panel,
      (h, o) => h.store.capture?.scope.sites.some((s) => s.origin === o && s.mode === 'receive-only'),
      {},
      sb.tenantOrigin,
    );
    expect(await scope()).toMatchObject({
      sites: [sb.hostOrigin, sb.tenantOrigin].sort(),
      modes: { [sb.hostOrigin]: 'full', [sb.tenantOrigin]: 'receive-only' },
    });

    // The host page stays open with its scripts loaded: its posts are recorded until its site is removed, then not.
    const hostPosts = async () =>
      (await records(l, tabId)).filter(
        (r) => r.kind === 'post' && r.origin === sb.hostOrigin && typeOf(r) === 'svc:action:refresh',
      ).length;
    await page.evaluate(() => (window as any).__sandboxHost.sendAction('svc:action:refresh', {}));
    await waitForRecords(l, tabId, (rs) =>
      rs.some((r) => r.kind === 'post' && r.origin === sb.hostOrigin && typeOf(r) === 'svc:action:refresh'),
    );
    await panel.click(`.cap-remove[aria-label="Stop capturing ${sb.hostOrigin}"]`);
    await waitInPanel(panel, (h) => h.store.capture?.scope.sites.length === 1);
    expect(await listed()).toEqual([[sb.tenantOrigin, 'receive-only']]);
    expect(await scope()).toEqual({ sites: [sb.tenantOrigin], mode: 'receive-only' });
    await page.evaluate(() => (window as any).__sandboxHost.sendAction('svc:action:refresh', {}));
    await settled(l, tabId);
    expect(await hostPosts()).toBe(1);

    await panel.click('.cap-all');
    await waitInPanel(panel, (h) => h.store.capture?.scope.all === 'full');
    expect(await scope()).toEqual({ sites: 'all', mode: 'full', modes: { [sb.tenantOrigin]: 'receive-only' } });
    await panel.click('.cap-all');
    await waitInPanel(panel, (h) => h.store.capture?.scope.all === null);
    expect(await scope()).toEqual({ sites: [sb.tenantOrigin], mode: 'receive-only' });
  });

  it('(c) receive-only from a fresh load hooks nothing; deliveries are recorded', async ({ launch }) => {
    const ro = await launch.chromium({
      capture: { sites: [sb.hostOrigin, sb.tenantOrigin], mode: 'receive-only' },
    });
    const full = await launch.chromium({ capture: { sites: [sb.hostOrigin, sb.tenantOrigin], mode: 'full' } });
    const page = await sandboxPage(ro);
    const frames = [page.mainFrame(), await embedFrame(page)];
    for (const f of frames) {
      expect(await hooked(f), f.url()).toEqual([]);
    }
    // Nothing of ours in the page's world: no script, and no private event between two worlds.
    await settled(ro, await tabIdOf(ro, page));
    for (const f of frames) {
      expect((await frameFacts(f)).events, f.url()).toBe(0);
    }
    expect((await frameFacts(frames[0])).childIdentity).toBe(true);
    expect((await frameFacts(frames[1])).parentIsTop).toBe(true);
    const tabId = await tabIdOf(ro, page);
    const recs = messagesOnly(
      await waitForRecords(ro, tabId, (rs) => rs.some((r) => r.kind === 'receive' && typeOf(r) === 'svc:event:ready')),
    );
    expect(recs.filter((r) => r.kind === 'post')).toEqual([]);
    expect(
      recs.some((r) => r.kind === 'receive' && typeOf(r) === 'svc:event:ready' && r.origin === sb.tenantOrigin),
    ).toBe(true);

    // The same check sees the full mode's hook (so the empty lists above mean something).
    const fp = await sandboxPage(full);
    expect(await hooked(fp.mainFrame())).toContain('HTMLIFrameElement.prototype.contentWindow getter');
  });
});
