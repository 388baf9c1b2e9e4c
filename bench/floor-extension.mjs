// @ts-check
// The floor of a page load's cost (issue 47): the least any faithful capture of the svc-embed messages makes a page
// pay, written as a separate extension that page-load.mjs loads beside ours. In every frame, at document_start:
//   - the page's world: window.postMessage wrapped (a post's data copied as JSON) and a message listener on the
//     window (every delivery's data copied as JSON), each record handed to the extension's world by a DOM event;
//   - the extension's world: a listener for those events, the extension's API and a runtime port to the service
//     worker, records sent in batches every 30 ms;
//   - the service worker counts what it gets.
// It checks nothing, keeps no order, stores nothing and has no panel: what a page load costs beyond it is what our
// capture's design adds. Declared in the manifest (no registration at run time, no setting).
// `empty`: the same two scripts doing nothing (an empty statement) and a worker that listens for nothing: what
// injecting a script into both worlds of a frame costs before any code of it runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MAIN = `(() => {
  const send = (json) => document.dispatchEvent(new CustomEvent('__floor_record', { detail: json }));
  const post = window.postMessage;
  window.postMessage = function (data, ...rest) {
    if (data && data.source === 'svc-embed') send(JSON.stringify({ kind: 'post', data }));
    return post.call(this, data, ...rest);
  };
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
 * Write the floor extension into `dir` (made if missing); returns `dir`.
 * @param {string} dir
 * @param {{ empty?: boolean }} [options]
 */
export function writeFloorExtension(dir, { empty = false } = {}) {
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
    background: { service_worker: 'worker.js' },
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
