// Transparency: the page behaves the same with the extension as without it, and the capture is exact.
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { tabIdOf, waitForRecords, messagesOnly } from '../helpers/capture.ts';

const HOST = `<!doctype html><script>
  // A page listener that hides a message from every later listener must not hide it from the capture.
  addEventListener('message', (e) => { if (e.data === 'hidden') e.stopImmediatePropagation(); }, true);
  const inbox = [];
  addEventListener('message', (e) => inbox.push(e));
  const next = (pred) => new Promise((resolve) => {
    const t = setInterval(() => { const e = inbox.find(pred); if (e) { clearInterval(t); resolve(e); } }, 5);
  });
  const err = (f) => { try { const v = f(); return 'returned ' + String(v); } catch (e) { return e.name + ': ' + e.message + ' / ' + (e instanceof DOMException) + ' ' + (e instanceof TypeError); } };
  window.runChecks = async () => {
    const EMBED = '{{EMBED}}';
    const f = document.querySelector('iframe');
    const w = f.contentWindow;
    const R = {};
    R.identity = w === f.contentWindow && w.window === w && w.self === w;
    R.postToString = String(w.postMessage);
    R.getterToString = String(Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow').get);
    R.toStringToString = String(Function.prototype.toString);
    R.selfPostToString = String(window.postMessage);
    R.parentInTop = window.parent === window && window.top === window;
    R.returned = err(() => w.postMessage({ source: 'svc-embed', direction: 'action', type: 'svc:action:refresh', payload: {}, timestamp: 1 }, EMBED));
    R.badOrigin = err(() => w.postMessage('x', 'not an origin'));
    R.uncloneable = err(() => w.postMessage({ f() {} }, '*'));
    R.noArgs = err(() => w.postMessage());
    const rich = { d: new Date(5), m: new Map([[1, 'a']]), s: new Set([2]), u: undefined, n: NaN, b: 10n, buf: new Uint8Array([1, 2, 3]), r: /x/g };
    w.postMessage({ kind: 'echo', rich }, EMBED);
    const echo = await next((e) => e.data && e.data.kind === 'echo-reply');
    R.echo = echo.data.desc;
    R.childSawParent = echo.data.sourceIsParent;
    R.sourceIsContentWindow = echo.source === f.contentWindow;
    R.originOfEcho = echo.origin === EMBED;
    const ch = new MessageChannel();
    w.postMessage({ kind: 'port' }, { targetOrigin: EMBED, transfer: [ch.port2] });
    R.portOptionsForm = await new Promise((r) => { ch.port1.onmessage = (e) => r(e.data); });
    const ch2 = new MessageChannel();
    w.postMessage({ kind: 'port' }, EMBED, [ch2.port2]);
    R.portListForm = await new Promise((r) => { ch2.port1.onmessage = (e) => r(e.data); });
    w.postMessage({ source: 'svc-embed', direction: 'action', type: 'svc:action:refresh', payload: {}, timestamp: 2 }, 'http://wrong.example');
    window.postMessage('hidden', '*');
    // Messages are delivered in order: once a later one has arrived, 'hidden' has been dispatched too.
    window.postMessage('after hidden', '*');
    await next((e) => e.data === 'after hidden');
    R.hiddenReachedLaterListeners = inbox.some((e) => e.data === 'hidden');
    // Reflection through the window proxies: cross-origin (the embed) and same-origin (about:blank).
    const desc = (d) => d ? [d.configurable, d.enumerable, d.writable, typeof d.value, typeof d.get].join(' ') : 'none';
    R.xPostDesc = err(() => desc(Object.getOwnPropertyDescriptor(w, 'postMessage')));
    R.xProto = err(() => Object.getPrototypeOf(w) === null);
    R.xExtensible = err(() => Object.isExtensible(w));
    R.xPrevent = err(() => Object.preventExtensions(w));
    R.xDocument = err(() => w.document);
    R.xDefine = err(() => Object.defineProperty(w, 'x', { value: 1 }));
    R.xIn = err(() => 'postMessage' in w);
    R.xKeys = err(() => Reflect.ownKeys(w).map(String).sort().join(','));
    R.xTag = err(() => Object.prototype.toString.call(w));
    const s = document.getElementById('same').contentWindow;
    R.sIdentity = s === document.getElementById('same').contentWindow && s.window === s && s.self === s && s.frames === s;
    R.sLocation = err(() => desc(Object.getOwnPropertyDescriptor(s, 'location')) + ' / ' + desc(Object.getOwnPropertyDescriptor(s, 'location')));
    R.sNaN = err(() => desc(Object.getOwnPropertyDescriptor(s, 'NaN')));
    R.sDefineFixed = err(() => Object.defineProperty(s, 'fixed', { value: 7, configurable: false }) === s);
    R.sFixed = err(() => [s.fixed, Object.getOwnPropertyDescriptor(s, 'fixed').value, delete s.fixed, s.fixed].join(' '));
    const fn = function named() {};
    R.sDefineFn = err(() => Object.defineProperty(s, 'fn', { value: fn, configurable: false, writable: false }) === s);
    R.sFn = err(() => s.fn === fn && Object.getOwnPropertyDescriptor(s, 'fn').value === fn);
    R.sKeysHaveFixed = err(() => Reflect.ownKeys(s).includes('fixed') && Reflect.ownKeys(s).includes('location'));
    R.sDom = err(() => s.document.body !== null && s instanceof s.Window && Object.getPrototypeOf(s) === s.Window.prototype);
    R.sExtensible = err(() => Object.isExtensible(s));
    return R;
  };
</script><iframe src="{{EMBED}}/embed/dashboard/t1"></iframe><iframe id="same"></iframe>`;

const EMBED = `<!doctype html><script>
  const describe = (r) => [r.d instanceof Date && r.d.getTime(), r.m instanceof Map && r.m.get(1), r.s instanceof Set && r.s.has(2),
    'u' in r && r.u === undefined, Number.isNaN(r.n), r.b === 10n, Array.from(r.buf).join(','), r.r.source + r.r.flags].join('|');
  addEventListener('message', (e) => {
    if (e.data && e.data.kind === 'echo') parent.postMessage({ kind: 'echo-reply', desc: describe(e.data.rich), sourceIsParent: e.source === parent }, '*');
    if (e.data && e.data.kind === 'port') e.ports[0].postMessage('pong ' + (e.source === parent) + ' ' + e.ports.length);
  });
</script>`;

describe('capture is transparent to the page', () => {
  let srv: TwoOrigins;
  let withExt: Launched;
  let without: Launched;
  test.beforeAll(async ({ chromium, plainChromium, launchForFile }) => {
    srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/t1': EMBED });
    withExt = chromium;
    without = plainChromium;
  });

  const run = async (l: Launched) => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const result = await page.evaluate(() => (window as any).runChecks());
    return { page, result };
  };

  it('gives the page the same results with and without the extension', async () => {
    const a = await run(without);
    const b = await run(withExt);
    expect(a.result.identity).toBe(true);
    expect(a.result.sourceIsContentWindow).toBe(true);
    expect(a.result.badOrigin).toMatch(/^SyntaxError/);
    expect(a.result.uncloneable).toMatch(/^DataCloneError/);
    expect(a.result.portOptionsForm).toBe('pong true 1');
    expect(a.result.hiddenReachedLaterListeners).toBe(false);
    expect(a.result.xDocument).toMatch(/^SecurityError/);
    expect(a.result.sFixed).toBe('returned 7 7 false 7');
    expect(a.result.sFn).toBe('returned true');
    expect(b.result).toEqual(a.result);

    // …and the capture saw all of it, exactly.
    const tabId = await tabIdOf(withExt, b.page);
    const recs = messagesOnly(
      await waitForRecords(
        withExt,
        tabId,
        (rs) =>
          rs.some((r) => r.data === 'hidden' && r.kind === 'receive') &&
          rs.some((r) => (r.data as any)?.kind === 'echo-reply' && r.kind === 'post') &&
          rs.some((r) => (r.data as any)?.kind === 'echo' && r.kind === 'post' && r.pairedWith !== undefined),
      ),
    );
    const posts = recs.filter((r) => r.kind === 'post');
    const bad = posts.find((r) => r.targetOrigin === 'not an origin');
    expect(bad?.error).toMatch(/^SyntaxError/);
    expect(posts.find((r) => r.error?.startsWith('DataCloneError'))).toBeTruthy();
    const dropped = posts.find((r) => r.targetOrigin === 'http://wrong.example');
    expect(dropped?.dropped).toBe(true);
    expect(dropped?.pairedWith).toBeUndefined();
    const echo = posts.find((r) => (r.data as any)?.kind === 'echo')!;
    expect(echo.target).toBe('child');
    expect(echo.targetOrigin).toBe(srv.embedOrigin);
    expect((echo.data as any).rich.d).toEqual({ $ei: 'Date', v: new Date(5).toISOString() });
    expect((echo.data as any).rich.b).toEqual({ $ei: 'BigInt', v: '10' });
    const delivery = recs.find((r) => r.seq === echo.pairedWith)!;
    expect(delivery.kind).toBe('receive');
    expect(delivery.origin).toBe(srv.hostOrigin);
    expect(delivery.frameUrl).toBe(`${srv.embedOrigin}/embed/dashboard/t1`);
    expect(delivery.data).toEqual(echo.data);
    expect(posts.filter((r) => (r.data as any)?.kind === 'port').map((r) => r.transfer)).toEqual([1, 1]);
    const reply = posts.find((r) => (r.data as any)?.kind === 'echo-reply')!;
    expect(reply.target).toBe('parent');
    expect(reply.frameUrl).toBe(`${srv.embedOrigin}/embed/dashboard/t1`);
    // A frame's post to itself goes through its own postMessage, which the capture leaves as it is: a delivery.
    expect(recs.filter((r) => r.data === 'hidden').map((r) => [r.kind, r.from])).toEqual([['receive', 'self']]);
    // No message event of the extension's own: every receive from another window has a matching post by the page.
    for (const r of recs.filter((x) => x.kind === 'receive' && x.from !== 'self')) {
      expect(r.pairedWith, JSON.stringify(r.data)).toBeDefined();
    }
  });
});
