/**
 * The one way to reach the extension API, in every context of the extension (background, capture relay,
 * devtools page, panel). Typed with webextension-polyfill's `Browser`, the promise-based surface both browsers
 * share.
 *
 * It returns the browser's own namespace, not the polyfill's wrapper: Firefox's `browser` (which is what the
 * polyfill itself returns there) and Chrome's `chrome`. The relay imports this module and runs in every frame of
 * a captured page; the polyfill would be bundled into it (more than its own size again, parsed in each frame) and
 * in Chrome would build its wrapper in each frame. The polyfill adds nothing this code needs:
 * - every call made through this module (storage, tabs, scripting, webNavigation, permissions, runtime.connect)
 *   returns a promise in Chrome's Manifest V3 as in Firefox;
 * - message listeners answer with `sendResponse`, never by returning a promise (the one listener feature Chrome
 *   lacks);
 * - ports are the browser's own objects either way, so Chrome's `message_serialization: structured_clone` applies.
 * Two DevTools calls differ and their callers take both forms: `devtools.panels.create` (a promise in Firefox,
 * a callback in Chrome: devtools.ts does not depend on either) and `devtools.network`'s `getHAR` and `getContent`
 * (callbacks in both: rest/network.ts).
 *
 * `setBrowserApi` injects a fake (unit tests); `null` goes back to the browser's.
 */
import type { Browser } from 'webextension-polyfill';

export type BrowserApi = Browser;
export type { Runtime, Scripting } from 'webextension-polyfill';

let injected: BrowserApi | null = null;

/** The browser's extension API, or undefined where there is none (a page outside the extension, Node). */
export function findBrowserApi(): BrowserApi | undefined {
  if (injected) {
    return injected;
  }
  // A page's elements are named properties of its window, in a content script's world too (`<form id="browser">`
  // with an `<input name="runtime">`): only a namespace whose runtime has real functions counts.
  const g = globalThis as {
    browser?: { runtime?: { connect?: unknown } };
    chrome?: { runtime?: { connect?: unknown } };
  };
  try {
    if (typeof g.browser?.runtime?.connect === 'function') {
      return g.browser as unknown as BrowserApi;
    }
    if (typeof g.chrome?.runtime?.connect === 'function') {
      return g.chrome as unknown as BrowserApi;
    }
  } catch {
    /* a getter that throws: no API here */
  }
  return undefined;
}

/** The browser's extension API; throws where there is none. */
export function browserApi(): BrowserApi {
  const api = findBrowserApi();
  if (!api) {
    throw new Error('embed-inspector: no extension API in this context');
  }
  return api;
}

/** Use `api` instead of the browser's (tests); `null`: the browser's again. */
export function setBrowserApi(api: BrowserApi | null): void {
  injected = api;
}
