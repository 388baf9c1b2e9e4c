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

const WORKER = `let records = 0;
chrome.runtime.onConnect.addListener((port) => port.onMessage.addListener((batch) => { records += batch.length; }));`;

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
 * background script, an add-on id).
 * @param {string} dir
 * @param {{ empty?: boolean, firefox?: boolean }} [options]
 */
export function writeFloorExtension(dir, { empty = false, firefox = false } = {}) {
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
  writeFileSync(join(dir, 'main.js'), empty ? ';' : MAIN);
  writeFileSync(join(dir, 'relay.js'), empty ? ';' : RELAY);
  writeFileSync(join(dir, 'worker.js'), empty ? ';' : WORKER);
  return dir;
}

/**
 * A browser that `launchWith` starts with the floor extension, written to a temporary folder that its `close` removes
 * (as does a launch that fails). `options` as `writeFloorExtension`'s.
 * @template {{ close: () => Promise<void> }} B
 * @param {(dir: string) => Promise<B>} launchWith
 * @param {{ empty?: boolean, firefox?: boolean }} [options]
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
