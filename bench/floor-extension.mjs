// @ts-check
// The floor of what a capture costs a page (issue 47): the least any faithful capture of the svc-embed messages makes
// a page pay, written as a separate extension that page-load.mjs and page-overhead.mjs load beside ours. In every
// frame, at document_start:
//   - the page's world: every post seen where a capture must see it (this window's postMessage, and a Proxy per
//     window handed out by an iframe's contentWindow or by parent, whose postMessage records the call: a post to
//     another origin is seen nowhere else), each post's data copied as JSON when it is posted; a message listener
//     on the window copies every delivery's data as JSON; each record handed to the extension's world by a DOM event;
//   - the extension's world: a listener for those events, the extension's API and a runtime port to the service
//     worker, records sent in batches every 30 ms;
//   - the service worker counts what it gets.
// It checks nothing, keeps no order, stores nothing and has no panel, and its Proxy keeps no identity or error
// faithful (enough for the bench's pages and the sandbox's): what a page pays beyond it is what our capture's design
// adds. Declared in the manifest (no registration at run time, no setting).
// `empty`: the same two scripts doing nothing (an empty statement) and a worker that listens for nothing: what
// injecting a script into both worlds of a frame costs before any code of it runs.
// `trust`: the floor doing, at document_start, the platform's part of what our capture does to keep the page out
// (docs/security.md): the worlds' private channel (a detached Text node handed over by a FocusEvent, whichever world
// runs second, before any page script; records as events on the node, never on the document), every path a window
// comes from hooked as ours are (contentWindow of iframe, frame and object, parent, opener, a message's source,
// window.open) with Function.prototype.toString masking each wrapper, and a hello on the port. Still no order, no
// check, no storage: what ours costs beyond it is our code, not the platform's operations.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = `(() => {
  const send = (json) => document.dispatchEvent(new CustomEvent('__floor_record', { detail: json }));
  const copy = (kind, data) => {
    if (data && data.source === 'svc-embed') send(JSON.stringify({ kind, data }));
  };
  const post = window.postMessage;
  window.postMessage = function (data, ...rest) {
    copy('post', data);
    return post.call(this, data, ...rest);
  };
  const proxies = new WeakMap();
  const wrap = (w) => {
    if (!w || w === window) return w;
    let p = proxies.get(w);
    if (!p) {
      const postTo = (data, ...rest) => {
        copy('post', data);
        return w.postMessage(data, ...rest);
      };
      p = new Proxy(w, { get: (t, k) => (k === 'postMessage' ? postTo : Reflect.get(t, k)) });
      proxies.set(w, p);
    }
    return p;
  };
  const patch = (obj, name) => {
    const d = Object.getOwnPropertyDescriptor(obj, name);
    Object.defineProperty(obj, name, { ...d, get() { return wrap(d.get.call(this)); } });
  };
  patch(HTMLIFrameElement.prototype, 'contentWindow');
  patch(window, 'parent');
  addEventListener('message', (e) => {
    if (e.data && e.data.source === 'svc-embed') send(JSON.stringify({ kind: 'delivery', origin: e.origin, data: e.data }));
  }, true);
})();`;

const RELAY = `(() => {
  const port = chrome.runtime.connect({ name: 'floor' });
  let batch = [];
  let timer = 0;
  document.addEventListener('__floor_record', (e) => {
    batch.push(e.detail);
    timer ||= setTimeout(() => {
      port.postMessage(batch);
      batch = [];
      timer = 0;
    }, 30);
  });
})();`;

const TRUST_MAIN = `(() => {
  const apply = Reflect.apply, gd = Object.getOwnPropertyDescriptor, dp = Object.defineProperty;
  const { addEventListener: add, removeEventListener: remove, dispatchEvent: fire } = EventTarget.prototype;
  const CE = CustomEvent, TextNode = Text, stringify = JSON.stringify, perf = performance, now = perf.now.bind(perf);
  const relatedTarget = gd(FocusEvent.prototype, 'relatedTarget').get;
  let node = null;
  const onNode = (e) => {
    const n = apply(relatedTarget, e, []);
    if (node || !(n instanceof TextNode)) return;
    node = n;
    apply(remove, document, ['__trust_node', onNode]);
    apply(fire, node, [new CE('__trust_hello')]);
  };
  apply(add, document, ['__trust_node', onNode]);
  apply(fire, document, [new CE('__trust_hello')]);
  const copy = (data) => {
    if (node && data && data.source === 'svc-embed')
      apply(fire, node, [new CE('__trust_record', { __proto__: null, detail: stringify({ kind: 'post', time: now(), data }) })]);
  };
  const fts = Function.prototype.toString, masks = new WeakMap();
  const mark = (fn, like) => (masks.set(fn, apply(fts, like, [])), fn);
  const { toString } = { toString() { const m = masks.get(this); return m === undefined ? apply(fts, this, []) : m; } };
  dp(Function.prototype, 'toString', { ...gd(Function.prototype, 'toString'), value: mark(toString, fts) });
  const post = window.postMessage;
  dp(window, 'postMessage', { ...gd(window, 'postMessage'), value: mark({ postMessage(data, ...rest) { copy(data); return apply(post, this, [data, ...rest]); } }.postMessage, post) });
  const proxies = new WeakMap();
  const wrap = (w) => {
    if (!w || w === window) return w;
    let p = proxies.get(w);
    if (!p) {
      const postTo = mark({ postMessage(data, ...rest) { copy(data); return w.postMessage(data, ...rest); } }.postMessage, post);
      p = new Proxy(w, { get: (t, k) => (k === 'postMessage' ? postTo : Reflect.get(t, k)) });
      proxies.set(w, p);
    }
    return p;
  };
  const patch = (obj, name, fn) => {
    const d = obj && gd(obj, name);
    if (!d || !d.get) return;
    const get = d.get;
    dp(obj, name, { ...d, get: mark(gd({ get [name]() { return fn(apply(get, this, []), this); } }, name).get, get) });
  };
  for (const E of [HTMLIFrameElement, HTMLFrameElement, HTMLObjectElement]) patch(E.prototype, 'contentWindow', wrap);
  patch(window, 'parent', (w, self) => (self === window ? wrap(w) : w));
  patch(window, 'opener', (w, self) => (self === window ? wrap(w) : w));
  patch(MessageEvent.prototype, 'source', (s) => (s && s.window === s ? wrap(s) : s));
  const open = window.open;
  dp(window, 'open', { ...gd(window, 'open'), value: mark({ open(...args) { return wrap(apply(open, this, args)); } }.open, open) });
})();`;

const TRUST_RELAY = `(() => {
  const node = document.createTextNode('0');
  let handed = false;
  const offer = () => document.dispatchEvent(new FocusEvent('__trust_node', { relatedTarget: node }));
  const done = () => { handed = true; document.removeEventListener('__trust_hello', onHello); };
  function onHello() { if (!handed && document.scripts.length === 0) { done(); offer(); } }
  document.addEventListener('__trust_hello', onHello);
  node.addEventListener('__trust_hello', () => { if (!handed) done(); });
  offer();
  const port = chrome.runtime.connect({ name: 'floor' });
  port.postMessage({ type: 'hello', frameUrl: location.href, isTop: window === window.top, time: performance.now() });
  let batch = [];
  let timer = 0;
  const push = (json) => {
    batch.push(json);
    timer ||= setTimeout(() => { port.postMessage(batch); batch = []; timer = 0; }, 30);
  };
  node.addEventListener('__trust_record', (e) => push(e.detail));
  addEventListener('message', (e) => {
    if (e.data && e.data.source === 'svc-embed') push(JSON.stringify({ kind: 'delivery', time: performance.now(), origin: e.origin, data: e.data }));
  }, true);
})();`;

const WORKER = `let records = 0;
chrome.runtime.onConnect.addListener((port) => port.onMessage.addListener((batch) => { records += Array.isArray(batch) ? batch.length : 0; }));`;

/**
 * Stop unless the floor's scripts run in every frame of `url` in `browser` (its getter of an iframe's `contentWindow`
 * is in place in the page's world): a floor that did not run would measure nothing.
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} url
 */
export async function checkFloor(browser, url) {
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
    const ran = await Promise.all(
      page
        .frames()
        .map((f) =>
          f.evaluate(
            () =>
              !String(Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')?.get).includes(
                '[native code]',
              ),
          ),
        ),
    );
    if (ran.length < 2 || ran.some((x) => !x)) {
      throw new Error(`the floor's scripts did not run in every frame (${ran.join(', ')}): its figures would be void`);
    }
  } finally {
    await page.close();
  }
}

/**
 * Write the floor extension into `dir` (made if missing); returns `dir`. `firefox`: its manifest for Firefox (a
 * background script, an add-on id). `trust`: its scripts do what keeps the page out as ours do (above; Chromium).
 * @param {string} dir
 * @param {{ empty?: boolean, trust?: boolean, firefox?: boolean }} [options]
 */
export function writeFloorExtension(dir, { empty = false, trust = false, firefox = false } = {}) {
  mkdirSync(dir, { recursive: true });
  const scripts = {
    matches: ['<all_urls>'],
    all_frames: true,
    match_origin_as_fallback: true,
    run_at: 'document_start',
  };
  const manifest = {
    manifest_version: 3,
    name: 'Capture floor (bench)',
    version: '1.0',
    background: firefox ? { scripts: ['worker.js'] } : { service_worker: 'worker.js' },
    ...(firefox
      ? {
          browser_specific_settings: { gecko: { id: 'capture-floor@embed-inspector.dev' } },
          host_permissions: ['<all_urls>'],
        }
      : {}),
    content_scripts: [
      { ...scripts, world: 'MAIN', js: ['main.js'] },
      { ...scripts, js: ['relay.js'] },
    ],
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'main.js'), empty ? ';' : trust ? TRUST_MAIN : MAIN);
  writeFileSync(join(dir, 'relay.js'), empty ? ';' : trust ? TRUST_RELAY : RELAY);
  writeFileSync(join(dir, 'worker.js'), empty ? ';' : WORKER);
  return dir;
}

/**
 * A browser that `launchWith` starts with the floor extension, written to a temporary folder that its `close` removes
 * (as does a launch that fails). `options` as `writeFloorExtension`'s.
 * @template {{ close: () => Promise<void> }} B
 * @param {(dir: string) => Promise<B>} launchWith
 * @param {{ empty?: boolean, trust?: boolean, firefox?: boolean }} [options]
 * @returns {Promise<B>}
 */
export async function launchWithFloor(launchWith, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ei-floor-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  let b;
  try {
    b = await launchWith(writeFloorExtension(dir, options));
  } catch (e) {
    remove();
    throw e;
  }
  const opened = b;
  return {
    ...opened,
    close: async () => {
      await opened.close();
      remove();
    },
  };
}
