/**
 * What the web-platform-tests check about windows and messaging, as a table of expressions evaluated in the
 * page (pages/win-*.html). Each check is `[frame, expression]`; its name is `frame: expression`, so a
 * difference between modes names the exact expression and the document it ran in. An expression is run as
 * the body of an async arrow function in that frame's global scope (`{…}` for a block with `return`); its
 * value is shown normalised by pages/t.js (`T.show`), an exception by `T.describeError` (constructor, name,
 * message, realm, `instanceof DOMException`, whether the stack names an extension). A plain-object value is
 * split into one result per key (`frame: expression → key`).
 *
 * Frames (labels of pages/t.js):
 *   host  http://127.0.0.1 (win-host.html): globals xoF, soF, blF (iframe elements), pop, spop (popups from open())
 *   xo    http://localhost, cross-origin child of host (win-child.html), global gcF (its iframe)
 *   gc    http://127.0.0.1, child of xo: same origin as top, cross-origin with its parent
 *   so    http://127.0.0.1, same-origin child of host
 *   pop   http://localhost popup of host (window.open);  spop  http://127.0.0.1 popup of host
 * The order matters: checks that close windows or set `opener` come last.
 */
type FrameLabel = 'host' | 'xo' | 'gc' | 'so' | 'pop' | 'spop';
export type Check = [FrameLabel, string];

const xw = 'xoF.contentWindow';
const sw = 'soF.contentWindow';

/** Every path to a window, from the frame that can take it. */
const POST_PATHS: Array<[FrameLabel, string]> = [
  ['host', xw],
  ['host', 'frames[0]'],
  ['host', 'window[0]'],
  ['host', "window['xo']"],
  ['host', sw],
  ['host', 'soF.contentDocument.defaultView'],
  ['host', 'blF.contentWindow'],
  ['host', 'T.blank().contentWindow'],
  ['host', 'window'],
  ['host', 'pop'],
  ['host', "open('', 'pop')"],
  ['host', 'spop'],
  ['host', "(await T.ask(xoF.contentWindow, 'echo')).source"],
  ['host', "(await T.ask(xoF.contentWindow, 'post-to', { path: 'parent' })).source"],
  ['xo', 'parent'],
  ['xo', 'top'],
  ['xo', 'frames[0]'],
  ['xo', 'gcF.contentWindow'],
  ['xo', "(await T.ask(parent, 'echo')).source"],
  ['gc', 'parent'],
  ['gc', 'top'],
  ['gc', 'parent.parent'],
  ['so', 'parent'],
  ['pop', 'opener'],
  ['spop', 'opener'],
];

/** postMessage's exceptions: DataCloneError (a function, a Document, duplicate or detached transfer), SyntaxError. */
const POST_ERRORS: string[] = [
  `postMessage(function f() {}, '*')`,
  `postMessage(document, '*')`,
  `postMessage(0, '*', [T.buf = new ArrayBuffer(1), T.buf])`,
  `postMessage(0, { targetOrigin: '*', transfer: [T.buf = new ArrayBuffer(1), T.buf] })`,
  `postMessage(0, '*', [T.buf = new ArrayBuffer(1), structuredClone(T.buf, { transfer: [T.buf] }) && T.buf][0] && [T.buf])`,
  `postMessage(0, 'not an origin')`,
  `postMessage(0, 'http://[bad')`,
  `postMessage()`,
];

const identities: Check[] = [
  // Access paths to the cross-origin child, from the host.
  ['host', `${xw} === ${xw}`],
  ['host', `frames[0] === ${xw}`],
  ['host', `window[0] === ${xw}`],
  ['host', `window['xo'] === ${xw}`],
  ['host', `frames.xo === frames[0]`],
  ['host', `${xw}.window === ${xw}`],
  ['host', `${xw}.self === ${xw}`],
  ['host', `${xw}.frames === ${xw}`],
  ['host', `${xw}.parent === window`],
  ['host', `${xw}.top === window`],
  ['host', `${xw}.top === top`],
  ['host', `${xw}.opener`],
  ['host', `${xw}.length`],
  ['host', `${xw}[0] === ${xw}.frames[0]`],
  ['host', `${xw}[0] === frames[0][0]`],
  ['host', `${xw}.gc === ${xw}[0]`],
  ['host', `frames[0][0].parent === ${xw}`],
  ['host', `frames[0][0].parent === frames[0]`],
  ['host', `frames[0][0].top === window`],
  ['host', `frames[0][0].document.defaultView === frames[0][0]`],
  ['host', `frames[0][0].frameElement`],
  ['host', `frames[0][0].eval('parent') === frames[0]`],
  ['host', `frames[0][0].eval('top') === window`],
  // The same-origin child.
  ['host', `${sw} === ${sw}`],
  ['host', `frames[1] === ${sw}`],
  ['host', `window[1] === ${sw}`],
  ['host', `window['so'] === ${sw}`],
  ['host', `soF.contentDocument.defaultView === ${sw}`],
  ['host', `${sw}.document.defaultView === ${sw}`],
  ['host', `${sw}.window === ${sw}`],
  ['host', `${sw}.self === ${sw}`],
  ['host', `${sw}.parent === window`],
  ['host', `${sw}.top === window`],
  ['host', `${sw}.frameElement === soF`],
  ['host', `${sw}.opener`],
  ['host', `${sw}.eval('parent') === window`],
  ['host', `${sw}.eval('window') === ${sw}`],
  // The about:blank child created by script at setup, and fresh ones read right after creating them.
  ['host', `blF.contentWindow === frames[2]`],
  ['host', `blF.contentWindow === window['bl']`],
  ['host', `blF.contentWindow.parent === window`],
  ['host', `blF.contentWindow.top === window`],
  ['host', `blF.contentDocument.defaultView === blF.contentWindow`],
  ['host', `(f => f.contentWindow.parent === window)(T.blank())`],
  ['host', `(f => f.contentWindow.top === window)(T.blank())`],
  ['host', `(f => f.contentWindow.frameElement === f)(T.blank())`],
  ['host', `(f => f.contentWindow === frames[frames.length - 1])(T.blank())`],
  ['host', `(f => f.contentDocument.defaultView === f.contentWindow)(T.blank())`],
  ['host', `(f => f.contentWindow.eval('parent') === window)(T.blank())`],
  ['host', `(f => f.contentWindow.Function('return parent')() === window)(T.blank())`],
  ['host', `(f => f.contentWindow.parent.document === document)(T.blank())`],
  // A cross-origin iframe read right after creating it (its initial about:blank), then after its load.
  ['host', `(f => f.contentWindow.parent === window)(T.frame(EMBED + '/p/win-leaf.html?label=late1'))`],
  ['host', `(f => f.contentWindow.top === window)(T.frame(EMBED + '/p/win-leaf.html?label=late2'))`],
  [
    'host',
    `{ const f = T.frame(EMBED + '/p/win-leaf.html?label=late3'); const before = f.contentWindow; await T.loaded(f);
     return { 'before === after load': before === f.contentWindow, 'parent after load': f.contentWindow.parent === window,
       'before.parent after load': before.parent === window, 'frames[last] after load': frames[frames.length - 1] === f.contentWindow } }`,
  ],
  // event.source of replies through each path, from the host's side.
  [
    'host',
    `{ const e = await T.ask(${xw}, 'echo'); return { '=== contentWindow': e.source === ${xw}, '=== frames[0]': e.source === frames[0], '=== window.xo': e.source === window.xo, 'origin': e.origin } }`,
  ],
  [
    'host',
    `{ const e = await T.ask(${xw}, 'post-to', { path: 'parent' }); return { '=== contentWindow': e.source === ${xw}, '=== frames[0]': e.source === frames[0] } }`,
  ],
  [
    'host',
    `{ const e = await T.ask(frames[0][0], 'post-to', { path: 'top' }); return { '=== frames[0][0]': e.source === frames[0][0], '=== contentWindow[0]': e.source === ${xw}[0], '.parent === contentWindow': e.source.parent === ${xw} } }`,
  ],
  [
    'host',
    `{ const e = await T.ask(${sw}, 'post-to', { path: 'parent' }); return { '=== contentWindow': e.source === ${sw}, '=== frames[1]': e.source === frames[1], '=== defaultView': e.source === soF.contentDocument.defaultView } }`,
  ],
  [
    'host',
    `{ const e = await T.ask(window, 'echo'); return { '=== window': e.source === window, '=== self': e.source === self } }`,
  ],
  [
    'host',
    `{ const e = await T.ask(pop, 'post-to', { path: 'opener' }); return { '=== pop': e.source === pop, '=== open()': e.source === open('', 'pop') } }`,
  ],
  [
    'host',
    `{ const e = await T.ask(spop, 'post-to', { path: 'opener' }); return { '=== spop': e.source === spop, '=== spop.window': e.source === spop.window } }`,
  ],
  // Popups, from the host.
  ['host', `pop === open('', 'pop')`],
  ['host', `pop.opener === window`],
  ['host', `pop.top === pop`],
  ['host', `pop.parent === pop`],
  ['host', `pop.window === pop`],
  ['host', `pop.frames === pop`],
  ['host', `pop.closed`],
  ['host', `spop === open('', 'spop')`],
  ['host', `spop.opener === window`],
  ['host', `spop.opener.top === window.top`],
  ['host', `spop.document.defaultView === spop`],
  ['host', `spop.eval('window') === spop`],
  ['host', `spop.eval('opener') === window`],
  // From the cross-origin child.
  ['xo', `parent === top`],
  ['xo', `window.parent === window.top`],
  ['xo', `parent === parent`],
  ['xo', `parent.window === parent`],
  ['xo', `parent.self === parent`],
  ['xo', `parent.frames === parent`],
  ['xo', `parent.parent === parent`],
  ['xo', `parent.top === top`],
  ['xo', `top.top === top`],
  ['xo', `parent[0] === window`],
  ['xo', `top.xo === window`],
  ['xo', `frames[0] === gcF.contentWindow`],
  ['xo', `window[0] === gcF.contentWindow`],
  ['xo', `window['gc'] === gcF.contentWindow`],
  ['xo', `gcF.contentWindow.parent === window`],
  ['xo', `gcF.contentWindow.top === top`],
  ['xo', `gcF.contentWindow.top === parent`],
  ['xo', `gcF.contentWindow.frames === gcF.contentWindow`],
  [
    'xo',
    `{ const e = await T.ask(parent, 'echo'); return { '=== parent': e.source === parent, '=== top': e.source === top, '=== parent.window': e.source === parent.window } }`,
  ],
  [
    'xo',
    `{ const e = await T.ask(frames[0], 'post-to', { path: 'parent' }); return { '=== frames[0]': e.source === frames[0], '=== gcF.contentWindow': e.source === gcF.contentWindow } }`,
  ],
  // From the grandchild (same origin as top, cross-origin with its parent).
  ['gc', `parent === top`],
  ['gc', `parent.parent === top`],
  ['gc', `top === parent.top`],
  ['gc', `top.frames[0] === parent`],
  ['gc', `top.xo === parent`],
  ['gc', `top.document.getElementById('xo').contentWindow === parent`],
  ['gc', `top.document.defaultView === top`],
  ['gc', `top.eval('frames[0][0]') === window`],
  ['gc', `top.eval('window') === top`],
  [
    'gc',
    `{ const e = await T.ask(top, 'echo'); return { '=== top': e.source === top, '=== parent.parent': e.source === parent.parent } }`,
  ],
  [
    'gc',
    `{ const e = await T.ask(parent, 'echo'); return { '=== parent': e.source === parent, '=== top[0]': e.source === top[0] } }`,
  ],
  // From the same-origin child.
  ['so', `parent === top`],
  ['so', `parent.document.getElementById('so').contentWindow === window`],
  ['so', `parent.frames[1] === window`],
  ['so', `frameElement.contentWindow === window`],
  ['so', `frameElement.ownerDocument.defaultView === parent`],
  ['so', `parent.eval('soF.contentWindow') === window`],
  ['so', `parent.xoF.contentWindow === parent.frames[0]`],
  // From the popups.
  ['pop', `opener === opener`],
  ['pop', `opener.top === opener`],
  ['pop', `opener.window === opener`],
  ['pop', `opener.opener`],
  ['pop', `opener.frames[0] === opener.xo`],
  ['pop', `opener.closed`],
  ['pop', `top === window && parent === window`],
  [
    'pop',
    `{ const e = await T.ask(opener, 'echo'); return { '=== opener': e.source === opener, '.top === opener.top': e.source.top === opener.top } }`,
  ],
  ['spop', `opener.document.defaultView === opener`],
  ['spop', `opener.top === opener`],
  ['spop', `opener.top === opener.window`],
  ['spop', `opener.eval('window') === opener`],
  ['spop', `opener.frames[1].parent === opener`],
  ['spop', `opener.spop === window`],
  ['spop', `opener.eval('spop') === window`],
  [
    'spop',
    `{ const e = await T.ask(opener, 'echo'); return { '=== opener': e.source === opener, '.top === opener.top': e.source.top === opener.top } }`,
  ],
];

const exceptions: Check[] = [
  ...POST_PATHS.flatMap(([frame, path]) =>
    POST_ERRORS.map((call): Check => [frame, `T.thrown(() => (${path}).${call})`]),
  ),
  // The realm of the exception, spelled out, where the target is same-origin (its globals are readable).
  ...(
    [
      ['host', sw],
      ['host', 'blF.contentWindow'],
      ['host', 'spop'],
      ['host', 'frames[0][0]'],
      ['gc', 'top'],
      ['so', 'parent'],
      ['spop', 'opener'],
    ] as Array<[FrameLabel, string]>
  ).flatMap(([frame, w]) =>
    [`postMessage(function f() {}, '*')`, `postMessage(0, 'not an origin')`].map(
      (call): Check => [
        frame,
        `{ const w = ${w}; try { w.${call}; return 'no exception' } catch (e) { return { 'e instanceof DOMException': e instanceof DOMException, ` +
          `'e instanceof w.DOMException': e instanceof w.DOMException, 'e.constructor === DOMException': e.constructor === DOMException, ` +
          `'e.constructor === w.DOMException': e.constructor === w.DOMException, 'Object.getPrototypeOf(e) === w.DOMException.prototype': Object.getPrototypeOf(e) === w.DOMException.prototype } } }`,
      ],
    ),
  ),
];
// The whole stack of an exception thrown through a hooked path (a hook's frame would show here).
const stacks: Check[] = [
  ['host', `T.stackOf(() => ${xw}.postMessage(function f() {}, '*'))`],
  ['host', `T.stackOf(() => ${sw}.postMessage(0, 'not an origin'))`],
  ['host', `T.stackOf(() => pop.postMessage(document, '*'))`],
  ['host', `T.stackOf(() => window.postMessage(function f() {}, '*'))`],
  ['xo', `T.stackOf(() => parent.postMessage(function f() {}, '*'))`],
  ['host', `T.stackOf(() => Function.prototype.toString.call({}))`],
  ['host', `T.stackOf(() => ${xw}.document)`],
  ['host', `T.stackOf(() => document.implementation.createDocument(null, 'x').open())`],
  ['host', `T.stackOf(() => Document.prototype.write.call({}, 'x'))`],
];

/** Functions and accessors read from a window. */
const functions: Check[] = [
  ['host', `${sw}.Function === ${sw}.Function`],
  ['host', `${sw}.Function !== Function`],
  ['host', `${sw}.DOMException === ${sw}.DOMException`],
  ['host', `${sw}.Array === ${sw}.Array`],
  ['host', `${sw}.Symbol === ${sw}.Symbol`],
  ['host', `${sw}.setTimeout === ${sw}.setTimeout`],
  ['host', `${sw}.addEventListener === ${sw}.addEventListener`],
  ['host', `${sw}.addEventListener === ${sw}.EventTarget.prototype.addEventListener`],
  ['host', `${sw}.postMessage === ${sw}.postMessage`],
  ['host', `${sw}.close === ${sw}.close`],
  ['host', `${sw}.eval === ${sw}.eval`],
  ['host', `${sw}.eval('window') === ${sw}`],
  ['host', `${sw}.eval('this') === ${sw}`],
  ['host', `${sw}.Function('return this')() === ${sw}`],
  ['host', `${sw}.eval('Function') === ${sw}.Function`],
  ['host', `Object.getOwnPropertyDescriptor(${sw}, 'Function').value === ${sw}.Function`],
  ['host', `Object.getOwnPropertyDescriptor(${sw}, 'parent').get.call(${sw}) === window`],
  ['host', `Object.getOwnPropertyDescriptor(${sw}, 'postMessage').value === ${sw}.postMessage`],
  ['host', `new ${sw}.Array() instanceof ${sw}.Array`],
  ['host', `[] instanceof ${sw}.Array`],
  ['host', `${sw}.Array.isArray([])`],
  ['host', `${sw}.Object.getPrototypeOf(${sw}.Array.prototype) === ${sw}.Object.prototype`],
  ['host', `new ${sw}.DOMException('m', 'DataCloneError') instanceof ${sw}.DOMException`],
  ['host', `Object.getPrototypeOf(new ${sw}.DOMException('m')) === ${sw}.DOMException.prototype`],
  ['host', `${sw}.Function.prototype.toString === ${sw}.Function.prototype.toString`],
  ['host', `Object.getPrototypeOf(${sw}) === ${sw}.Window.prototype`],
  ['host', `${sw} instanceof ${sw}.Window`],
  ['host', `${sw} instanceof Window`],
  ['host', `Window.prototype.isPrototypeOf(${sw})`],
  ['host', `typeof ${sw}.Function.prototype`],
  ['host', `${sw}.Function.name + ' ' + ${sw}.Function.length`],
  ['host', `${sw}.postMessage.call(${sw}, 'x', '*')`],
  ['host', `EventTarget.prototype.addEventListener.call(${sw}, 'x', () => {})`],
  ['host', `EventTarget.prototype.dispatchEvent.call(${sw}, new Event('x'))`],
  ['host', `Object.getOwnPropertyDescriptor(${sw}, 'document').get.call(${sw}) === soF.contentDocument`],
  ['host', `Reflect.get(${sw}, 'location', {})`],
  ['host', `Object.create(${sw}).location`],
  ['host', `Object.create(${sw}).document`],
  ['host', `Object.create(${sw}).parent`],
  ['host', `Reflect.set(${sw}, 'zz', 1, {})`],
  ['host', `${sw}.location === ${sw}.location`],
  ['host', `${sw}.document === soF.contentDocument`],
  ['host', `{ const f = function named() {}; ${sw}.assigned = f; return ${sw}.assigned === f }`],
  ['host', `{ const f = function named() {}; ${sw}.eval('window').assigned2 = f; return ${sw}.assigned2 === f }`],
  ['host', `(f => f.contentWindow.Function === f.contentWindow.Function)(T.blank())`],
  ['host', `(f => f.contentWindow.eval('window') === f.contentWindow)(T.blank())`],
  ['host', `(f => EventTarget.prototype.addEventListener.call(f.contentWindow, 'x', () => {}))(T.blank())`],
  ['host', `spop.Function === spop.Function`],
  ['host', `spop.DOMException === spop.DOMException`],
  ['host', `spop.eval('this') === spop`],
  ['host', `EventTarget.prototype.addEventListener.call(spop, 'x', () => {})`],
  ['host', `Object.create(spop).location`],
  ['host', `frames[0][0].Function === frames[0][0].Function`],
  // Cross-origin functions: the same object from one realm, different ones from another.
  ['host', `${xw}.postMessage === ${xw}.postMessage`],
  ['host', `${xw}.close === ${xw}.close`],
  ['host', `${xw}.focus === ${xw}.focus`],
  ['host', `${xw}.postMessage === ${sw}.eval('parent.frames[0].postMessage')`],
  ['host', `${xw}.close === ${sw}.eval('parent.frames[0].close')`],
  ['host', `${xw}.postMessage.name + ' ' + ${xw}.postMessage.length`],
  ['host', `Object.getPrototypeOf(${xw}.postMessage) === Function.prototype`],
  ['host', `'prototype' in ${xw}.postMessage`],
  ['host', `Object.getOwnPropertyDescriptor(${xw}, 'close').value === ${xw}.close`],
  [
    'host',
    `Object.getOwnPropertyDescriptor(${xw}, 'location').get === Object.getOwnPropertyDescriptor(${xw}, 'location').get`,
  ],
  ['host', `typeof ${xw}.location.replace`],
  ['host', `${xw}.location.replace === ${xw}.location.replace`],
  ['host', `EventTarget.prototype.addEventListener.call(${xw}, 'x', () => {})`],
  ['host', `Object.create(${xw}).location`],
  ['host', `Object.create(${xw}).postMessage`],
  ['host', `Reflect.get(${xw}, 'closed', {})`],
  ['xo', `parent.postMessage === parent.postMessage`],
  ['xo', `Object.create(parent).location`],
  ['xo', `EventTarget.prototype.addEventListener.call(parent, 'x', () => {})`],
  ['gc', `parent.close === parent.close`],
  ['gc', `top.Function === top.Function`],
  ['gc', `top.eval('window') === top`],
  ['gc', `EventTarget.prototype.addEventListener.call(top, 'x', () => {})`],
];

/** Cross-origin property rules (HTML's CrossOriginGetOwnProperty and friends), on a child and on a popup. */
const crossOrigin: Check[] = ['xoF.contentWindow', 'pop'].flatMap((w): Check[] => [
  ['host', `Object.prototype.hasOwnProperty.call(${w}, 'then')`],
  ['host', `Object.prototype.hasOwnProperty.call(${w}, 'postMessage')`],
  ['host', `Object.prototype.hasOwnProperty.call(${w}, 'document')`],
  ['host', `Object.prototype.hasOwnProperty.call(${w}, Symbol.toStringTag)`],
  ['host', `${w}.then`],
  ['host', `${w}[Symbol.toStringTag]`],
  ['host', `${w}[Symbol.hasInstance]`],
  ['host', `${w}[Symbol.isConcatSpreadable]`],
  ['host', `Object.getOwnPropertyDescriptor(${w}, 'then')`],
  ['host', `Object.getOwnPropertyDescriptor(${w}, 'postMessage')`],
  ['host', `Object.getOwnPropertyDescriptor(${w}, 'location')`],
  ['host', `Object.getOwnPropertyDescriptor(${w}, 'parent')`],
  ['host', `Object.getOwnPropertyDescriptor(${w}, 'opener')`],
  ['host', `Object.getOwnPropertyDescriptor(${w}, '0')`],
  ['host', `Object.getOwnPropertyDescriptor(${w}, 'gc')`],
  ['host', `Object.getOwnPropertyDescriptor(${w}, 'document')`],
  ['host', `{ const ks = []; for (const k in ${w}) ks.push(k); return ks }`],
  ['host', `Object.keys(${w})`],
  ['host', `Object.getOwnPropertyNames(${w})`],
  ['host', `Object.getOwnPropertySymbols(${w}).map(String)`],
  ['host', `Reflect.ownKeys(${w}).map(String)`],
  ['host', `Object.getPrototypeOf(${w})`],
  ['host', `Reflect.setPrototypeOf(${w}, null)`],
  ['host', `Object.setPrototypeOf(${w}, {})`],
  ['host', `Object.isExtensible(${w})`],
  ['host', `Object.preventExtensions(${w})`],
  ['host', `Object.defineProperty(${w}, 'zz', { value: 1 })`],
  ['host', `Object.defineProperty(${w}, 'postMessage', { value: 1 })`],
  ['host', `delete ${w}.postMessage`],
  ['host', `delete ${w}.zz`],
  ['host', `${w}.zz = 1`],
  ['host', `${w}.document`],
  ['host', `${w}.zz`],
  ['host', `${w}.location.href`],
  ['host', `'document' in ${w}`],
  ['host', `'postMessage' in ${w}`],
  ['host', `'then' in ${w}`],
  ['host', `Object.prototype.toString.call(${w})`],
  ['host', `${w} instanceof Window`],
  ['host', `${w} == ${w}.window`],
  ['host', `typeof ${w}`],
  ['host', `JSON.stringify(${w})`],
  ['host', `String(${w})`],
]);

/** Own property names and symbols of each window, the descriptors the hook replaces, Function.prototype.toString. */
const reflection: Check[] = [
  ...(['host', 'xo', 'gc', 'so', 'pop', 'spop'] as FrameLabel[]).flatMap((f): Check[] => [
    [f, `Object.getOwnPropertyNames(window)`],
    [f, `Object.getOwnPropertySymbols(window).map(String)`],
    [f, `Object.getOwnPropertyNames(Object.getPrototypeOf(window))`],
    [f, `Object.getOwnPropertyNames(Function.prototype)`],
    [f, `Object.getOwnPropertyNames(MessageEvent.prototype)`],
  ]),
  ['host', `(f => Object.getOwnPropertyNames(f.contentWindow))(T.blank())`],
  ['host', `(f => Object.getOwnPropertySymbols(f.contentWindow).map(String))(T.blank())`],
  ...['parent', 'opener', 'top', 'postMessage', 'open', 'frames', 'length', 'closed', 'close'].flatMap((p): Check[] => [
    [
      'host',
      `{ const d = Object.getOwnPropertyDescriptor(window, '${p}'); const f = d.get || d.value; return { descriptor: d, 'String(fn)': String(f), name: f.name, length: f.length, keys: Reflect.ownKeys(f).map(String), 'has prototype': 'prototype' in f, 'set': String(d.set) } }`,
    ],
  ]),
  ...(
    [
      ['HTMLIFrameElement.prototype', 'contentWindow'],
      ['HTMLIFrameElement.prototype', 'contentDocument'],
      ['HTMLFrameElement.prototype', 'contentWindow'],
      ['HTMLObjectElement.prototype', 'contentWindow'],
      ['MessageEvent.prototype', 'source'],
      ['MessageEvent.prototype', 'data'],
      ['Function.prototype', 'toString'],
      ['EventTarget.prototype', 'addEventListener'],
      ['Document.prototype', 'open'],
      ['Document.prototype', 'write'],
      ['Document.prototype', 'writeln'],
    ] as const
  ).map(
    ([o, p]): Check => [
      'host',
      `{ const d = Object.getOwnPropertyDescriptor(${o}, '${p}'); const f = d.get || d.value; return { descriptor: d, 'String(fn)': String(f), name: f.name, length: f.length, keys: Reflect.ownKeys(f).map(String) } }`,
    ],
  ),
  ['host', `String(window.postMessage)`],
  ['host', `Function.prototype.toString.call(window.postMessage)`],
  ['host', `Function.prototype.toString.call(${xw}.postMessage)`],
  ['host', `Function.prototype.toString.call(${sw}.postMessage)`],
  ['host', `Function.prototype.toString.call(pop.postMessage)`],
  ['host', `Function.prototype.toString.call(Function.prototype.toString)`],
  ['host', `Function.prototype.toString.call(Object.getOwnPropertyDescriptor(window, 'parent').get)`],
  ['host', `Function.prototype.toString.call(new Proxy(function () {}, {}))`],
  ['host', `Function.prototype.toString.call(class A {})`],
  ['host', `Function.prototype.toString.call({})`],
  ['host', `Function.prototype.toString.call(Symbol())`],
  ['host', `new Function.prototype.toString()`],
  ['host', `Function.prototype.toString.name + ' ' + Function.prototype.toString.length`],
  ['host', `Object.getPrototypeOf(Function.prototype.toString) === Function.prototype`],
  ['host', `window.postMessage.toString === Function.prototype.toString`],
  ['host', `${sw}.Function.prototype.toString.call(window.postMessage)`],
  ['host', `${sw}.Function.prototype.toString.call(${sw}.postMessage)`],
  ['xo', `Function.prototype.toString.call(parent.postMessage)`],
  ['xo', `String(Object.getOwnPropertyDescriptor(window, 'parent').get)`],
];

/** A transfer list: the ArrayBuffer is detached after the post, the receiving side gets the bytes. */
const transfer: Check[] = [
  [
    'host',
    `{ const b = new Uint8Array([1, 2, 3, 4]).buffer; const r = T.ask(${xw}, 'bytes', { b }, [b]); return { detached: b.detached, byteLength: b.byteLength, received: (await r).data.bytes } }`,
  ],
  [
    'host',
    `{ const b = new Uint8Array([5, 6]).buffer; const id = 'opt'; const r = T.msg(d => d && d.re === id); ${xw}.postMessage({ cmd: 'bytes', id, b }, { targetOrigin: '*', transfer: [b] }); return { detached: b.detached, received: (await r).data.bytes } }`,
  ],
  [
    'host',
    `{ const b = new Uint8Array([7]).buffer; const r = T.ask(frames[0], 'bytes', { b }, [b]); return { detached: b.detached, received: (await r).data.bytes } }`,
  ],
  [
    'host',
    `{ const b = new Uint8Array([8]).buffer; const r = T.ask(${sw}, 'bytes', { b }, [b]); return { detached: b.detached, received: (await r).data.bytes } }`,
  ],
  [
    'host',
    `{ const b = new Uint8Array([9]).buffer; const r = T.ask(window, 'bytes', { b }, [b]); return { detached: b.detached, received: (await r).data.bytes } }`,
  ],
  [
    'host',
    `{ const b = new Uint8Array([10]).buffer; const r = T.ask(pop, 'bytes', { b }, [b]); return { detached: b.detached, received: (await r).data.bytes } }`,
  ],
  [
    'host',
    `{ const ch = new MessageChannel(); const r = new Promise(res => { ch.port1.onmessage = e => res(e.data); }); ${xw}.postMessage({ cmd: 'port', id: 'p1' }, '*', [ch.port2]); return { port2Usable: (() => { try { ch.port2.postMessage(1); return 'no throw' } catch (e) { return e.name } })(), reply: await T.withTimeout(r, 3000) } }`,
  ],
  [
    'xo',
    `{ const b = new Uint8Array([11, 12]).buffer; const r = T.ask(parent, 'bytes', { b }, [b]); return { detached: b.detached, received: (await r).data.bytes } }`,
  ],
  [
    'gc',
    `{ const b = new Uint8Array([13]).buffer; const r = T.ask(top, 'bytes', { b }, [b]); return { detached: b.detached, received: (await r).data.bytes } }`,
  ],
  [
    'pop',
    `{ const b = new Uint8Array([14]).buffer; const r = T.ask(opener, 'bytes', { b }, [b]); return { detached: b.detached, received: (await r).data.bytes } }`,
  ],
];

/**
 * How often a post reads its data: the browser once; full mode once more, at the end of the posting task (a
 * getter's second call), and after a post that threw (a Proxy's traps).
 */
export const DATA_READS: Check[] = [
  ['host', `{ let n = 0; ${xw}.postMessage({ get x() { n++; return 1; } }, '*'); await T.sleep(0); return n }`],
  [
    'host',
    `{ let n = 0; const p = new Proxy({}, { ownKeys: (t) => { n++; return Reflect.ownKeys(t); }, get: (t, k) => { n++; return Reflect.get(t, k); }, getOwnPropertyDescriptor: (t, k) => { n++; return Reflect.getOwnPropertyDescriptor(t, k); } }); let threw = false; try { ${xw}.postMessage(p, '*'); } catch { threw = true; } await T.sleep(0); return { threw, traps: n } }`,
  ],
];

/** Last: closing popups and setting `opener` (they change the windows other checks use). */
const closing: Check[] = [
  [
    'host',
    `{ const p = open(EMBED + '/p/win-leaf.html?label=tmp1', 'tmp1'); const r = { 'closed at first': p.closed }; p.close(); r['closed right after close()'] = p.closed; r['closed later'] = await T.until(() => p.closed); r['still same'] = p === p; return r }`,
  ],
  [
    'host',
    `{ const p = open(HOST + '/p/win-leaf.html?label=tmp2', 'tmp2'); await T.until(() => p.document.readyState === 'complete' && p.__t); p.close(); return { 'closed right after close()': p.closed, 'closed later': await T.until(() => p.closed) } }`,
  ],
  [
    'host',
    `{ const p = open(HOST + '/p/win-leaf.html?label=tmp3', 'tmp3'); await T.until(() => p.document.readyState === 'complete' && p.__t); p.eval('window.close()'); return { 'closed after self close': await T.until(() => p.closed), 'opener read from host': (() => { try { return p.opener === window } catch (e) { return e.name } })() } }`,
  ],
  [
    'host',
    `{ const p = open(HOST + '/p/win-leaf.html?label=tmp4', 'tmp4'); await T.until(() => p.document.readyState === 'complete' && p.__t); const f = function named() {}; p.opener = f; return { 'opener === f': p.opener === f, 'eval opener === f': p.eval('opener') === f, 'typeof': typeof p.opener, 'descriptor has value': 'value' in Object.getOwnPropertyDescriptor(p, 'opener') } }`,
  ],
  [
    'host',
    `{ const p = open(HOST + '/p/win-leaf.html?label=tmp5', 'tmp5'); await T.until(() => p.document.readyState === 'complete' && p.__t); p.opener = null; return { 'opener null': p.opener === null, 'eval opener': p.eval('opener') === null } }`,
  ],
  [
    'spop',
    `{ const f = function named() {}; opener = f; return { 'opener === f': opener === f, 'window.opener === f': window.opener === f, descriptor: Object.getOwnPropertyDescriptor(window, 'opener') } }`,
  ],
  [
    'pop',
    `{ opener = 5; return { value: opener, 'window.opener === 5': window.opener === 5, descriptor: Object.getOwnPropertyDescriptor(window, 'opener') } }`,
  ],
  [
    'pop',
    `{ opener = null; return { 'opener === null': opener === null, descriptor: Object.getOwnPropertyDescriptor(window, 'opener') } }`,
  ],
  ['host', `pop.opener === null`],
  [
    'host',
    `{ pop.close(); return { 'closed right after close()': pop.closed, 'closed later': await T.until(() => pop.closed), 'still === open() result': pop === pop.window } }`,
  ],
  [
    'host',
    `{ spop.close(); return { 'closed right after close()': spop.closed, 'closed later': await T.until(() => spop.closed) } }`,
  ],
];

export const WINDOW_CHECKS: Check[] = [
  ...identities,
  ...exceptions,
  ...stacks,
  ...functions,
  ...crossOrigin,
  ...reflection,
  ...transfer,
  ...DATA_READS,
  ...closing,
];
