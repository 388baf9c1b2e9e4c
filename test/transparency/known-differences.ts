/**
 * What capture in `full` mode may change for a page, because the platform gives no way to keep it: the
 * machine-readable mirror of docs/capture-modes.md's list of what cannot be kept ("What full mode cannot keep").
 * The transparency suite (test/e2e/transparency-*.test.ts) fails on every other difference between a page without the extension and the same page with capture on.
 *
 * Rules for an entry:
 * - only a difference the platform imposes (no hook exists that would keep it), never one a fix could remove, but
 *   where the only fix changes more than it keeps (its sentence says why);
 * - `readme` is a sentence that appears verbatim in docs/capture-modes.md (a test checks it), naming the expression and
 *   the library behaviours it affects;
 * - `without` and `full` pin what exactly differs: the lines of the observed text (the entries of a transcript)
 *   found only without the extension, and only with capture in full mode, the test servers' ports written
 *   `<port>` (harness.ts, `pinnedDifference`). A difference that changes fails, and so does an entry whose
 *   difference is no longer found (it is stale: remove it, and its sentence in the docs if it was the last).
 * Receive-only mode has no entries: with it the page must see no difference at all (issue 13).
 *
 * Each sentence below is one bullet of docs/capture-modes.md's "What full mode cannot keep"; each entry names the
 * observation it allows.
 */
import { DATA_READS } from './window-checks.ts';

export interface KnownDifference {
  /** `windows` (window-checks.ts) or `libraries` (libraries.ts). */
  suite: 'windows' | 'libraries';
  /** The browser it is found in: absent for Chromium; Firefox's entries say `firefox` (its own messages, its own hooks). */
  browser?: 'firefox';
  /** The observation's exact name as the suite reports it (`host: frames[0] === xoF.contentWindow`, `post-robot › host`). */
  name: string;
  /** The lines (transcript entries) the page observes only without the extension. */
  without: string[];
  /** The lines (transcript entries) the page observes only with capture in full mode. */
  full: string[];
  /** Its sentence in docs/capture-modes.md, verbatim (the field keeps its name from when the list was in the README). */
  readme: string;
}

const FRAMES =
  'Frames by index or name: `frames[i]`, `window[i]` and `window[name]` give the real window of a child frame while `iframe.contentWindow` and `event.source` give its proxy, so `frames[0] === iframe.contentWindow` and `event.source === frames[0]` are false for a cross-origin child; a post-robot host that checks `event.source === frames[0]` sees a mismatch.';
const TOP =
  "The top window: `window.top` gives the real top window while `window.parent` and `event.source` give a proxy of a cross-origin parent, so in a frame one level down `window.parent === window.top` and `event.source === window.top` are false; iframe-resizer's child then sends its `Ready` message twice, and a post-robot child does not see its parent's messages as coming from `top`.";
const BLANK =
  "Initial about:blank: `contentDocument.defaultView`, the frame's index and the frame's own globals give the real window of a child or popup still on its initial about:blank, while `contentWindow` and `open()` give its proxy, so `iframe.contentDocument.defaultView === iframe.contentWindow` and `popup.document.defaultView === popup` are false for such a window.";
const BRAND =
  'Brand checks: a native function called with a proxy as `this` fails its brand check, so `EventTarget.prototype.addEventListener.call(iframe.contentWindow, …)` throws TypeError "Illegal invocation" (for a cross-origin window, instead of the SecurityError it throws natively).';
const OWN =
  "Cross-origin own properties: a Proxy has one trap for both `Object.getOwnPropertyDescriptor` and `hasOwnProperty`, which Chromium answers differently on a cross-origin window, so `Object.prototype.hasOwnProperty.call(crossOriginWindow, 'then')` returns true instead of throwing a SecurityError, `'document'` throws with another message, and `for…in` over a cross-origin window lists its frame indexes.";
const STACK =
  "Native stack frames: a stack trace cannot be given back a native function's own frame, so the TypeError of `Function.prototype.toString.call({})` lacks its `at Object.toString (<anonymous>)` line, and the SecurityError of `crossOriginWindow.document` read through a proxy names the frame that read it.";

const READS =
  "Reads of posted data: the hook records a post by reading its data at the end of the posting task (in Chromium, at the latest when a same-document navigation, such as `pushState`, is about to change the frame's address, so that the post is recorded at the address it was made at; in Firefox, where reading the Navigation API from the extension would define the page's `Navigation` global early, a post the hook still holds when the address changes carries the later address), after the browser read it for the post, so a getter on posted data runs twice, and a Proxy posted as data has its traps run after the post threw DataCloneError; the sending frame cannot read the browser's own copy, and reading the data before the post instead (a structured clone, posted in its place) would run the page's getters before the target origin is checked and change a failing post's error.";

/** Full mode reads a post's data once more than the browser does (window-checks.ts `DATA_READS`), in both browsers. */
function dataReads(browser?: 'firefox'): KnownDifference[] {
  const [getter, proxy] = DATA_READS.map(([frame, expr]) => `${frame}: ${expr}`);
  return [
    { suite: 'windows', ...(browser ? { browser } : {}), name: getter, readme: READS, without: ['1'], full: ['2'] },
    {
      suite: 'windows',
      ...(browser ? { browser } : {}),
      name: `${proxy} → traps`,
      readme: READS,
      without: ['0'],
      full: ['2'],
    },
  ];
}

/**
 * The libraries' differences, the same in both browsers (the same lines, the same limits): a post-robot host
 * checks `event.source === frames[0]`, a post-robot child checks whether its host's messages come from `top`, and
 * iframe-resizer's child, seeing `window.parent !== window.top`, sends its `Ready` twice.
 */
function libraryProxies(browser?: 'firefox'): KnownDifference[] {
  const entries: KnownDifference[] = [
    {
      suite: 'libraries',
      name: 'post-robot › host got from child',
      readme: FRAMES,
      without: [
        'ping {"from":"child"} http://localhost:<port> {"opener":false,"parent":false,"self":false,"top":false} is child true is frames[0] true',
      ],
      full: [
        'ping {"from":"child"} http://localhost:<port> {"opener":false,"parent":false,"self":false,"top":false} is child true is frames[0] false',
      ],
    },
    {
      suite: 'libraries',
      name: 'post-robot › child got from host',
      readme: TOP,
      without: [
        'hello {"from":"host","n":1} http://127.0.0.1:<port> {"opener":false,"parent":true,"self":false,"top":true}',
        'event {"e":1,"from":"host"} http://127.0.0.1:<port> {"opener":false,"parent":true,"self":false,"top":true}',
      ],
      full: [
        'hello {"from":"host","n":1} http://127.0.0.1:<port> {"opener":false,"parent":true,"self":false,"top":false}',
        'event {"e":1,"from":"host"} http://127.0.0.1:<port> {"opener":false,"parent":true,"self":false,"top":false}',
      ],
    },
    {
      suite: 'libraries',
      name: 'iframe-resizer › host messages received',
      readme: TOP,
      without: ['1× http://localhost:<port> [iFrameResizerChild]Ready'],
      full: ['2× http://localhost:<port> [iFrameResizerChild]Ready'],
    },
  ];
  return browser ? entries.map((k) => ({ ...k, browser })) : entries;
}

const FIREFOX_BRAND =
  'Brand checks in Firefox: the same call throws TypeError "\'addEventListener\' called on an object that does not implement interface EventTarget." (for a cross-origin window, instead of the SecurityError "Permission to call \'addEventListener\' denied." it throws natively).';

/**
 * Firefox's brand-check difference, seen from `realm`: natively the call returns (a same-origin window) or throws
 * the SecurityError of a cross-origin one; through the proxy it throws the TypeError of a failed brand check.
 */
const firefoxBrand = (name: string, realm: 'host' | 'xo', crossOrigin: boolean): KnownDifference => ({
  suite: 'windows',
  browser: 'firefox',
  name,
  readme: FIREFOX_BRAND,
  without: [
    crossOrigin
      ? `threw DOMException SecurityError: Permission to call 'addEventListener' denied. | realm ${realm} | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false`
      : '<undefined>',
  ],
  full: [
    `threw TypeError TypeError: 'addEventListener' called on an object that does not implement interface EventTarget. | realm ${realm} | instanceof DOMException false | constructor === DOMException false | instanceof TypeError true | stack names chrome-extension false`,
  ],
});

const FIREFOX_FALSE =
  'Refused changes in Firefox: a cross-origin window refuses a new prototype and `preventExtensions`; through a proxy the refusal comes back as the trap\'s `false`, so `Object.setPrototypeOf(crossOriginWindow, {})` throws TypeError "proxy setPrototypeOf handler returned false" instead of "can\'t set prototype of this object" (and `Object.preventExtensions` likewise); throwing the native error from the trap would make `Reflect.setPrototypeOf` throw where it returns false.';

/** Firefox's refused-change TypeErrors, through the proxy and natively. */
const refused = (name: string, verb: 'setPrototypeOf' | 'preventExtensions', native: string): KnownDifference => ({
  suite: 'windows',
  browser: 'firefox',
  name,
  readme: FIREFOX_FALSE,
  without: [
    `threw TypeError TypeError: ${native} | realm host | instanceof DOMException false | constructor === DOMException false | instanceof TypeError true | stack names chrome-extension false`,
  ],
  full: [
    `threw TypeError TypeError: proxy ${verb} handler returned false | realm host | instanceof DOMException false | constructor === DOMException false | instanceof TypeError true | stack names chrome-extension false`,
  ],
});

/**
 * Firefox defines most of a window's built-in globals (`JSON`, `Array`, `MessageEvent`…) as its own properties the
 * first time a script reads them, so `Object.getOwnPropertyNames(window)` lists them in the order they were first
 * read. Some are read at document_start, before the page does: full mode's script in the page's world cannot run
 * without (`Proxy`, `WeakMap`…); in both modes Firefox's own injection of a content script defines `JSON` and
 * `Location` (a relay script that returns at once shows it too), and the relay keeps the page realm's
 * `MessageEvent` prototype before a page script could replace its getters (making any MessageEvent defines the
 * name as reading it does). The relay reaches the page's other objects without naming them (deliveries.ts,
 * `pageRealm`). The same names, in another order.
 */
export interface KnownReorder {
  suite: 'windows';
  browser: 'firefox';
  mode: 'full' | 'receive-only';
  /** The observation's exact name; its value is a list, with the same items as without the extension. */
  name: string;
  /**
   * The names the capture may place elsewhere: left out of both lists, the rest is in the same order (a name that
   * moves and is not here fails the suite, which prints the names out of place).
   */
  moved: readonly string[];
  /**
   * Also any built-in interface or class (a capitalised name that is not one of the test pages' own globals) may
   * move: a popup's listing, whose order of first reads races with its opening (`POPUP_ORDER`).
   */
  builtInsMove?: true;
  readme: string;
}
/** The test pages' own capitalised globals (pages/*.html, t.js): they keep their order in every listing. */
const PAGE_GLOBALS: ReadonlySet<string> = new Set(['EMBED', 'HOST', 'T']);
/** Whether a listed name is a built-in interface or class of the platform, not one of the test pages' globals. */
export const isBuiltInName = (name: string): boolean => /^[A-Z]/.test(name) && !PAGE_GLOBALS.has(name);
const FIREFOX_ORDER =
  "Order of a window's own names in Firefox: Firefox defines most built-in globals on a window when a script first reads them, and some are read at document_start, so `Object.getOwnPropertyNames(window)` lists the same names in another order: full mode's script needs `Proxy`, `WeakMap` and others; Firefox's injection of any content script defines `JSON` and `Location`; the relay keeps the page's `MessageEvent` prototype before a page script could change it.";
/**
 * A popup's own names (`pop`, `spop`, both opened by `open()` as the host's setup runs): the order in which its
 * built-ins were first read is not fixed from one run to the next, in any mode. The page's first script, Firefox and
 * the driver's first contact with the new window race with the popup's load, and names nothing of ours reads
 * (`DOMRectList`, `RegExp`) move. So in a popup only the items and the order of the page's own globals are
 * compared; the frames' listings, loaded through the same content script, still pin every name the capture moves.
 */
const POPUP_ORDER =
  "Order of a popup's own names in Firefox: which built-ins a popup opened by `open()` defines first races with its load, with or without the extension, so its listing keeps the same names and the same order of the page's own globals, and built-in interfaces may appear elsewhere.";
const POPUPS = ['pop: Object.getOwnPropertyNames(window)', 'spop: Object.getOwnPropertyNames(window)'];
const OWN_NAMES = [
  'host: Object.getOwnPropertyNames(window)',
  'xo: Object.getOwnPropertyNames(window)',
  'gc: Object.getOwnPropertyNames(window)',
  'so: Object.getOwnPropertyNames(window)',
  'pop: Object.getOwnPropertyNames(window)',
  'spop: Object.getOwnPropertyNames(window)',
  'host: (f => Object.getOwnPropertyNames(f.contentWindow))(T.blank())',
];
/**
 * The names out of place in each mode, over the seven listings (the suite's report prints them, per listing).
 * Receive-only: what Firefox's injection and the relay read. Full: also what the page-world script reads as it
 * starts; a page's own names (`HOST`, `T`…) are among them where a run of built-ins moved past them.
 */
const MOVED = {
  'receive-only': ['JSON', 'Location', 'MessageEvent'],
  full: [
    ...['Array', 'CharacterData', 'CustomEvent', 'Element', 'Error', 'FocusEvent', 'HTMLCollection', 'HTMLElement'],
    ...['HTMLFrameElement', 'HTMLIFrameElement', 'HTMLObjectElement', 'Infinity', 'Iterator', 'JSON', 'Location'],
    ...['Math', 'MessageEvent', 'NaN', 'Number', 'PageTransitionEvent', 'Promise', 'Proxy', 'Reflect', 'RegExp'],
    ...['Set', 'String', 'Text', 'UIEvent', 'URLSearchParams', 'WeakMap', 'WeakSet', 'decodeURI'],
    ...['decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'isFinite', 'isNaN', 'parseFloat'],
    ...['parseInt', 'unescape'],
    // the test pages' own globals
    ...['EMBED', 'HOST', 'T', '__t', 'gcF'],
  ],
} as const;
export const KNOWN_REORDERS: KnownReorder[] = (['full', 'receive-only'] as const).flatMap((mode) =>
  OWN_NAMES.map((name) => ({
    suite: 'windows' as const,
    browser: 'firefox' as const,
    mode,
    name,
    moved: MOVED[mode],
    ...(POPUPS.includes(name) ? { builtInsMove: true as const, readme: POPUP_ORDER } : { readme: FIREFOX_ORDER }),
  })),
);

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  ...dataReads(),
  ...dataReads('firefox'),
  refused('host: Object.setPrototypeOf(xoF.contentWindow, {})', 'setPrototypeOf', "can't set prototype of this object"),
  refused('host: Object.setPrototypeOf(pop, {})', 'setPrototypeOf', "can't set prototype of this object"),
  refused(
    'host: Object.preventExtensions(xoF.contentWindow)',
    'preventExtensions',
    "can't prevent extensions on this object",
  ),
  refused('host: Object.preventExtensions(pop)', 'preventExtensions', "can't prevent extensions on this object"),
  {
    suite: 'windows',
    name: "gc: top.document.getElementById('xo').contentWindow === parent",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'gc: top.frames[0] === parent',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'gc: top.xo === parent',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "gc: { const e = await T.ask(parent, 'echo'); return { '=== parent': e.source === parent, '=== top[0]': e.source === top[0] } } → === top[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: (f => EventTarget.prototype.addEventListener.call(f.contentWindow, 'x', () => {}))(T.blank())",
    readme: BRAND,
    without: ['<undefined>'],
    full: [
      'threw TypeError TypeError: Illegal invocation | realm host | instanceof DOMException false | constructor === DOMException false | instanceof TypeError true | stack names chrome-extension false',
    ],
  },
  {
    suite: 'windows',
    name: 'host: (f => f.contentDocument.defaultView === f.contentWindow)(T.blank())',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'host: (f => f.contentWindow === frames[frames.length - 1])(T.blank())',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: EventTarget.prototype.addEventListener.call(spop, 'x', () => {})",
    readme: BRAND,
    without: ['<undefined>'],
    full: [
      'threw TypeError TypeError: Illegal invocation | realm host | instanceof DOMException false | constructor === DOMException false | instanceof TypeError true | stack names chrome-extension false',
    ],
  },
  {
    suite: 'windows',
    name: "host: EventTarget.prototype.addEventListener.call(xoF.contentWindow, 'x', () => {})",
    readme: BRAND,
    without: [
      'threw DOMException SecurityError: Blocked a frame with origin "http://127.0.0.1:<port>" from accessing a cross-origin frame. | realm host | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false',
    ],
    full: [
      'threw TypeError TypeError: Illegal invocation | realm host | instanceof DOMException false | constructor === DOMException false | instanceof TypeError true | stack names chrome-extension false',
    ],
  },
  {
    suite: 'windows',
    name: "host: Object.prototype.hasOwnProperty.call(pop, 'document')",
    readme: OWN,
    without: [
      'threw DOMException SecurityError: Blocked a frame with origin "http://127.0.0.1:<port>" from accessing a cross-origin frame. | realm host | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false',
    ],
    full: [
      "threw DOMException SecurityError: Failed to read a named property 'document' from 'Window': Blocked a frame with origin \"http://127.0.0.1:<port>\" from accessing a cross-origin frame. | realm host | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false",
    ],
  },
  {
    suite: 'windows',
    name: "host: Object.prototype.hasOwnProperty.call(pop, 'then')",
    readme: OWN,
    without: [
      'threw DOMException SecurityError: Blocked a frame with origin "http://127.0.0.1:<port>" from accessing a cross-origin frame. | realm host | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false',
    ],
    full: ['true'],
  },
  {
    suite: 'windows',
    name: "host: Object.prototype.hasOwnProperty.call(xoF.contentWindow, 'document')",
    readme: OWN,
    without: [
      'threw DOMException SecurityError: Blocked a frame with origin "http://127.0.0.1:<port>" from accessing a cross-origin frame. | realm host | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false',
    ],
    full: [
      "threw DOMException SecurityError: Failed to read a named property 'document' from 'Window': Blocked a frame with origin \"http://127.0.0.1:<port>\" from accessing a cross-origin frame. | realm host | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false",
    ],
  },
  {
    suite: 'windows',
    name: "host: Object.prototype.hasOwnProperty.call(xoF.contentWindow, 'then')",
    readme: OWN,
    without: [
      'threw DOMException SecurityError: Blocked a frame with origin "http://127.0.0.1:<port>" from accessing a cross-origin frame. | realm host | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false',
    ],
    full: ['true'],
  },
  {
    suite: 'windows',
    name: 'host: T.stackOf(() => Function.prototype.toString.call({}))',
    readme: STACK,
    without: ['    at Object.toString (<anonymous>)'],
    full: [],
  },
  {
    suite: 'windows',
    name: 'host: T.stackOf(() => xoF.contentWindow.document)',
    readme: STACK,
    without: [],
    full: ['    at eval (eval at <anonymous> (:7:29), <anonymous>:1:49)'],
  },
  {
    suite: 'windows',
    name: 'host: blF.contentDocument.defaultView === blF.contentWindow',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'host: blF.contentWindow === frames[2]',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: blF.contentWindow === window['bl']",
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'host: frames[0] === xoF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: frames[0][0].eval('parent') === frames[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'host: frames[0][0].parent === frames[0]',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'host: frames[0][0].parent === xoF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'host: spop.document.defaultView === spop',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: window['xo'] === xoF.contentWindow",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'host: window[0] === xoF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: { const e = await T.ask(frames[0][0], 'post-to', { path: 'top' }); return { '=== frames[0][0]': e.source === frames[0][0], '=== contentWindow[0]': e.source === xoF.contentWindow[0], '.parent === contentWindow': e.source.parent === xoF.contentWindow } } → .parent === contentWindow",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: { const e = await T.ask(xoF.contentWindow, 'echo'); return { '=== contentWindow': e.source === xoF.contentWindow, '=== frames[0]': e.source === frames[0], '=== window.xo': e.source === window.xo, 'origin': e.origin } } → === frames[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: { const e = await T.ask(xoF.contentWindow, 'echo'); return { '=== contentWindow': e.source === xoF.contentWindow, '=== frames[0]': e.source === frames[0], '=== window.xo': e.source === window.xo, 'origin': e.origin } } → === window.xo",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: { const e = await T.ask(xoF.contentWindow, 'post-to', { path: 'parent' }); return { '=== contentWindow': e.source === xoF.contentWindow, '=== frames[0]': e.source === frames[0] } } → === frames[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "host: { const f = T.frame(EMBED + '/p/win-leaf.html?label=late3'); const before = f.contentWindow; await T.loaded(f); return { 'before === after load': before === f.contentWindow, 'parent after load': f.contentWindow.parent === window, 'before.parent after load': before.parent === window, 'frames[last] after load': frames[frames.length - 1] === f.contentWindow } } → frames[last] after load",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'host: { const ks = []; for (const k in xoF.contentWindow) ks.push(k); return ks }',
    readme: OWN,
    without: [],
    full: ['0'],
  },
  {
    suite: 'windows',
    name: 'so: parent.xoF.contentWindow === parent.frames[0]',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "spop: opener.eval('spop') === window",
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'spop: opener.spop === window',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "xo: EventTarget.prototype.addEventListener.call(parent, 'x', () => {})",
    readme: BRAND,
    without: [
      'threw DOMException SecurityError: Blocked a frame with origin "http://localhost:<port>" from accessing a cross-origin frame. | realm xo | instanceof DOMException true | constructor === DOMException true | instanceof TypeError false | stack names chrome-extension false',
    ],
    full: [
      'threw TypeError TypeError: Illegal invocation | realm xo | instanceof DOMException false | constructor === DOMException false | instanceof TypeError true | stack names chrome-extension false',
    ],
  },
  {
    suite: 'windows',
    name: 'xo: frames[0] === gcF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'xo: gcF.contentWindow.top === parent',
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'xo: parent === top',
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'xo: parent.top === top',
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'xo: window.parent === window.top',
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "xo: window['gc'] === gcF.contentWindow",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: 'xo: window[0] === gcF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "xo: { const e = await T.ask(frames[0], 'post-to', { path: 'parent' }); return { '=== frames[0]': e.source === frames[0], '=== gcF.contentWindow': e.source === gcF.contentWindow } } → === frames[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    name: "xo: { const e = await T.ask(parent, 'echo'); return { '=== parent': e.source === parent, '=== top': e.source === top, '=== parent.window': e.source === parent.window } } → === top",
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  ...libraryProxies(),
  // Firefox ESR, each site in its own process (Fission), as test/e2e/transparency-firefox-*.test.ts run it.
  {
    suite: 'windows',
    browser: 'firefox',
    name: "gc: top.document.getElementById('xo').contentWindow === parent",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'gc: top.frames[0] === parent',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'gc: top.xo === parent',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "gc: { const e = await T.ask(parent, 'echo'); return { '=== parent': e.source === parent, '=== top[0]': e.source === top[0] } } → === top[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  firefoxBrand(
    "host: (f => EventTarget.prototype.addEventListener.call(f.contentWindow, 'x', () => {}))(T.blank())",
    'host',
    false,
  ),
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: (f => f.contentDocument.defaultView === f.contentWindow)(T.blank())',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: (f => f.contentWindow === frames[frames.length - 1])(T.blank())',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  firefoxBrand("host: EventTarget.prototype.addEventListener.call(spop, 'x', () => {})", 'host', false),
  firefoxBrand("host: EventTarget.prototype.addEventListener.call(xoF.contentWindow, 'x', () => {})", 'host', true),
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: blF.contentDocument.defaultView === blF.contentWindow',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: blF.contentWindow === frames[2]',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "host: blF.contentWindow === window['bl']",
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: frames[0] === xoF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "host: frames[0][0].eval('parent') === frames[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: frames[0][0].parent === frames[0]',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: frames[0][0].parent === xoF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: spop.document.defaultView === spop',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "host: window['xo'] === xoF.contentWindow",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'host: window[0] === xoF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "host: { const e = await T.ask(frames[0][0], 'post-to', { path: 'top' }); return { '=== frames[0][0]': e.source === frames[0][0], '=== contentWindow[0]': e.source === xoF.contentWindow[0], '.parent === contentWindow': e.source.parent === xoF.contentWindow } } → .parent === contentWindow",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "host: { const e = await T.ask(xoF.contentWindow, 'echo'); return { '=== contentWindow': e.source === xoF.contentWindow, '=== frames[0]': e.source === frames[0], '=== window.xo': e.source === window.xo, 'origin': e.origin } } → === frames[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "host: { const e = await T.ask(xoF.contentWindow, 'echo'); return { '=== contentWindow': e.source === xoF.contentWindow, '=== frames[0]': e.source === frames[0], '=== window.xo': e.source === window.xo, 'origin': e.origin } } → === window.xo",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "host: { const e = await T.ask(xoF.contentWindow, 'post-to', { path: 'parent' }); return { '=== contentWindow': e.source === xoF.contentWindow, '=== frames[0]': e.source === frames[0] } } → === frames[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "host: { const f = T.frame(EMBED + '/p/win-leaf.html?label=late3'); const before = f.contentWindow; await T.loaded(f); return { 'before === after load': before === f.contentWindow, 'parent after load': f.contentWindow.parent === window, 'before.parent after load': before.parent === window, 'frames[last] after load': frames[frames.length - 1] === f.contentWindow } } → frames[last] after load",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'so: parent.xoF.contentWindow === parent.frames[0]',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "spop: opener.eval('spop') === window",
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'spop: opener.spop === window',
    readme: BLANK,
    without: ['true'],
    full: ['false'],
  },
  firefoxBrand("xo: EventTarget.prototype.addEventListener.call(parent, 'x', () => {})", 'xo', true),
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'xo: frames[0] === gcF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'xo: gcF.contentWindow.top === parent',
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'xo: parent === top',
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'xo: parent.top === top',
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'xo: window.parent === window.top',
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "xo: window['gc'] === gcF.contentWindow",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: 'xo: window[0] === gcF.contentWindow',
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "xo: { const e = await T.ask(frames[0], 'post-to', { path: 'parent' }); return { '=== frames[0]': e.source === frames[0], '=== gcF.contentWindow': e.source === gcF.contentWindow } } → === frames[0]",
    readme: FRAMES,
    without: ['true'],
    full: ['false'],
  },
  {
    suite: 'windows',
    browser: 'firefox',
    name: "xo: { const e = await T.ask(parent, 'echo'); return { '=== parent': e.source === parent, '=== top': e.source === top, '=== parent.window': e.source === parent.window } } → === top",
    readme: TOP,
    without: ['true'],
    full: ['false'],
  },
  ...libraryProxies('firefox'),
];
