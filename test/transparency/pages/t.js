// The transparency suite's page helper, loaded first by every page (test/transparency/pages).
// It keeps what this document observed in `window.__t` for the test to read (posting nothing itself but the test's
// markers, after the scenario: `__t.mark`):
//   entries: what the page's scenario logged, in order (library results, acknowledgements, errors);
//   got:     what library handlers delivered, in order per sender (`T.got(sender, …)`): deliveries from
//            different senders interleave as the scheduler pleases, so only each sender's order is compared;
//   raw:     every `message` event this window got, counted by a normalised description of its data
//            (a page may set `T.rawKey(data)` to normalise a protocol's own nondeterministic fields; a key
//            it returns starting with `~` is compared by presence only, for messages a protocol repeats on a
//            timer or whose number depends on the scheduler; null leaves out a message whose coming at all
//            depends on timing, with the page saying why).
// and gives the window-check table (window-checks.ts) a few helpers (`T.thrown`, `T.msg`, `T.blank`...).
(function () {
  'use strict';
  var params = new URLSearchParams(location.search);
  var t = (window.__t = { label: params.get('label') || '', entries: [], got: {}, raw: {}, done: false });

  // Nondeterministic values in what libraries deliver or send: random ids and times. They differ between
  // two runs of the same browser without any extension, so they are replaced by placeholders before
  // comparing; everything else (structure, order, counts, origins, payloads) is compared as is.
  var ID_PATTERNS = [
    [/uid_[0-9a-z_]+/gi, 'uid_*'], // post-robot, zoid: uid_<random hex>_<base36 time>
    [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'], // framebus, comlink
    [/\b(?=[0-9a-z]*\d)(?=[0-9a-z]*[a-z])[0-9a-z]{10,}\b/gi, '<id>'], // other random tokens (digits and letters)
  ];
  function normString(s) {
    for (var i = 0; i < ID_PATTERNS.length; i++) {
      s = s.replace(ID_PATTERNS[i][0], ID_PATTERNS[i][1]);
    }
    return s;
  }
  // Epoch milliseconds (timestamps carried by some protocols) are nondeterministic too.
  function normNumber(n) {
    return n > 1e12 && n < 1e14 ? '<time>' : n;
  }
  function norm(v, depth) {
    depth = depth || 0;
    if (v === undefined) {
      return '<undefined>';
    }
    if (v === null || typeof v === 'boolean') {
      return v;
    }
    if (typeof v === 'number') {
      return normNumber(v);
    }
    if (typeof v === 'string') {
      // Some protocols send JSON text: normalise inside it.
      if (/^[[{]/.test(v)) {
        try {
          return 'json:' + JSON.stringify(norm(JSON.parse(v), depth + 1));
        } catch (e) {
          /* plain */
        }
      }
      return normString(v);
    }
    if (typeof v === 'bigint') {
      return v + 'n';
    }
    if (typeof v === 'function') {
      return '<function>';
    }
    if (typeof v === 'symbol') {
      return String(v);
    }
    if (depth > 6) {
      return '<deep>';
    }
    try {
      if (v === window) {
        return '<this window>';
      }
      if (v instanceof ArrayBuffer) {
        return '<ArrayBuffer ' + v.byteLength + '>';
      }
      if (ArrayBuffer.isView(v)) {
        return '<' + v.constructor.name + ' ' + Array.prototype.join.call(v, ',') + '>';
      }
      if (typeof MessagePort !== 'undefined' && v instanceof MessagePort) {
        return '<MessagePort>';
      }
      if (v instanceof Error) {
        return '<' + v.name + ': ' + normString(v.message) + '>';
      }
    } catch (e) {
      /* a cross-origin window: below */
    }
    try {
      if (v.window === v) {
        return '<window>';
      }
    } catch (e) {
      return '<cross-origin object>';
    }
    if (Array.isArray(v)) {
      return v.map(function (x) {
        return norm(x, depth + 1);
      });
    }
    var out = {};
    Object.keys(v)
      .sort()
      .forEach(function (k) {
        out[normString(k)] = norm(v[k], depth + 1);
      });
    return out;
  }
  function show(v) {
    var n = norm(v);
    return typeof n === 'string' ? n : JSON.stringify(n);
  }

  function text(args, from) {
    var parts = [];
    for (var i = from; i < args.length; i++) {
      parts.push(typeof args[i] === 'string' ? args[i] : show(args[i]));
    }
    return parts.join(' ');
  }
  function log() {
    t.entries.push(text(arguments, 0));
  }
  function got(sender) {
    (t.got[sender] = t.got[sender] || []).push(text(arguments, 1));
  }

  // Markers, for the test to know when the exchange is over (libraries.ts), once every document is done: `T.mark(n)`
  // posts marker n to every window this document can reach that could have posted to it or been posted to by it
  // (the windows that posted to it, its parent, its opener); each document counts the markers it got. A window's
  // messages to another arrive in the order posted, so once every marker of a round has arrived, so has everything
  // posted before it. Markers are taken here, before any other listener of the page (this script runs first and
  // listens in the capture phase), and never counted: the page and its libraries do not see them.
  var sources = [];
  var marks = { sent: {}, got: {} };
  window.addEventListener(
    'message',
    function (e) {
      var d = e.data;
      var mark = d !== null && typeof d === 'object' ? d.__tMark : undefined;
      if (typeof mark === 'number') {
        e.stopImmediatePropagation();
        marks.got[mark] = (marks.got[mark] || 0) + 1;
        return;
      }
      if (e.source && sources.indexOf(e.source) < 0) {
        sources.push(e.source);
      }
    },
    true,
  );
  t.mark = function (n) {
    var to = sources.slice();
    [window.parent, window.opener].forEach(function (w) {
      if (w && w !== window && to.indexOf(w) < 0) {
        to.push(w);
      }
    });
    var sent = 0;
    to.forEach(function (w) {
      if (w !== window && !w.closed) {
        w.postMessage({ __tMark: n }, '*');
        sent++;
      }
    });
    marks.sent[n] = sent;
    return sent;
  };
  t.marks = marks;

  // Every message event, counted by its description (order across several senders is up to the scheduler).
  // A message that arrives before the page's script set `T.rawKey` (a peer's handshake can come first, as the
  // scheduler pleases) is described once `rawCounts()` is read, so that every message gets the same key function.
  var early = [];
  function keyOf(origin, data, ports) {
    var d;
    try {
      d = window.T && T.rawKey ? T.rawKey(data) : show(data);
    } catch (err) {
      d = '<unreadable>';
    }
    if (d === null) {
      return null;
    }
    if (d.length > 400) {
      d = d.slice(0, 400) + '…';
    }
    return origin + ' ' + d + (d.charAt(0) !== '~' && ports ? ' ports=' + ports : '');
  }
  function count(key) {
    t.raw[key] = (t.raw[key] || 0) + 1;
  }
  // (a key of null: a message the page's T.rawKey leaves out, as one whose coming at all is up to timing)
  function countKey(key) {
    if (key !== null) {
      count(key);
    }
  }
  window.addEventListener('message', function (e) {
    var ports = e.ports ? e.ports.length : 0;
    if (window.T && T.rawKey) {
      countKey(keyOf(e.origin, e.data, ports));
    } else {
      early.push([e.origin, e.data, ports]);
    }
  });
  t.rawCounts = function () {
    early.splice(0).forEach(function (m) {
      countKey(keyOf(m[0], m[1], m[2]));
    });
    return t.raw;
  };
  window.addEventListener('error', function (e) {
    log('uncaught error:', String(e.message));
  });
  // Loaded: read by a same-origin window through frames[i] (no message) to know the document is ready.
  window.addEventListener('load', function () {
    t.loaded = true;
  });
  window.addEventListener('unhandledrejection', function (e) {
    log('unhandled rejection:', errText(e.reason));
  });

  function errText(e) {
    try {
      if (e && typeof e === 'object') {
        return String(e.name) + ': ' + normString(String(e.message));
      }
      return String(e);
    } catch (x) {
      return '<unreadable error>';
    }
  }

  // Every deadline a page sets is a "something is stuck" bound, never an expected outcome: a passing scenario
  // never waits for one. Under CI load (other browsers on the same 2 cores) a document can take seconds to
  // load, so deadlines are stretched by SLACK rather than tuned per page (`T.ms` for libraries' own timeouts).
  var SLACK = 3;
  function slack(ms) {
    return (ms || 3000) * SLACK;
  }

  function sleep(ms) {
    return new Promise(function (r) {
      setTimeout(r, ms);
    });
  }
  function withTimeout(p, ms) {
    ms = slack(ms);
    return Promise.race([
      p,
      sleep(ms).then(function () {
        throw { name: 'Timeout', message: 'no answer in ' + ms + ' ms' };
      }),
    ]);
  }

  // One step of a library scenario: its result, error or timeout goes into the transcript, in order.
  async function step(name, fn, ms) {
    try {
      var v = await withTimeout(Promise.resolve().then(fn), ms || 3000);
      log(name, '→ ok', v);
      return v;
    } catch (e) {
      log(name, '→ error', errText(e));
      return undefined;
    }
  }

  // Realms this document can name, reached through paths no hook can change (`window`, `top`, `frames[i]`),
  // and popups the page registered in T.realmWindows (as open() returned them), labelled by __t.label.
  var realmWindows = [];
  function realms() {
    var out = [];
    var seen = [];
    function add(w) {
      try {
        if (seen.indexOf(w) >= 0) {
          return;
        }
        seen.push(w);
        var label = w.__t && w.__t.label;
        if (label && w.DOMException) {
          out.push([label, w]);
        }
      } catch (e) {
        /* cross-origin */
      }
      try {
        for (var i = 0; i < w.length; i++) {
          add(w[i]);
        }
      } catch (e) {
        /* cross-origin */
      }
    }
    add(window);
    add(window.top);
    for (var i = 0; i < realmWindows.length; i++) {
      add(realmWindows[i]);
    }
    return out;
  }
  function realmOf(x) {
    var rs = realms();
    for (var i = 0; i < rs.length; i++) {
      try {
        if (x instanceof rs[i][1].Object) {
          return rs[i][0];
        }
      } catch (e) {
        /* ignore */
      }
    }
    return 'unknown realm';
  }
  /** An exception as the page sees it: constructor, name, message, realm, and whether this realm's DOMException. */
  function describeError(e) {
    if (e === null || typeof e !== 'object') {
      return 'threw ' + typeof e + ' ' + String(e);
    }
    var ctor;
    try {
      ctor = e.constructor && e.constructor.name;
    } catch (x) {
      ctor = '?';
    }
    return (
      'threw ' +
      ctor +
      ' ' +
      errText(e) +
      ' | realm ' +
      realmOf(e) +
      ' | instanceof DOMException ' +
      (e instanceof DOMException) +
      ' | constructor === DOMException ' +
      (e.constructor === DOMException) +
      ' | instanceof TypeError ' +
      (e instanceof TypeError) +
      ' | stack names chrome-extension ' +
      /chrome-extension:|moz-extension:/.test(String(e.stack))
    );
  }
  function thrown(fn) {
    try {
      return 'returned ' + show(fn());
    } catch (e) {
      return describeError(e);
    }
  }
  function stackOf(fn) {
    try {
      fn();
      return 'no exception';
    } catch (e) {
      return String(e && e.stack);
    }
  }

  /** The next message event whose data satisfies `pred` (listening from now on). */
  function msg(pred, ms) {
    return withTimeout(
      new Promise(function (resolve) {
        window.addEventListener('message', function on(e) {
          var ok = false;
          try {
            ok = pred(e.data, e);
          } catch (x) {
            /* no */
          }
          if (ok) {
            window.removeEventListener('message', on);
            resolve(e);
          }
        });
      }),
      ms || 3000,
    );
  }
  var nextId = 1;
  /** Ask `w` (one of the suite's pages) to do `cmd`; resolves with its reply event. */
  function ask(w, cmd, extra, transfer) {
    var id = 'q' + nextId++;
    var m = Object.assign({ cmd: cmd, id: id }, extra || {});
    var reply = msg(function (d) {
      return d && d.re === id;
    });
    w.postMessage(m, '*', transfer || []);
    return reply;
  }
  /** A fresh script-created about:blank iframe (in this document), already in the document. */
  function blank(name) {
    var f = document.createElement('iframe');
    if (name) {
      f.name = name;
    }
    document.body.appendChild(f);
    return f;
  }
  /** A fresh iframe navigating to `src`, already in the document (not loaded yet). */
  function frame(src, name) {
    var f = document.createElement('iframe');
    if (name) {
      f.name = name;
    }
    f.src = src;
    document.body.appendChild(f);
    return f;
  }
  function loaded(f, ms) {
    return withTimeout(
      new Promise(function (r) {
        f.addEventListener(
          'load',
          function () {
            r(f);
          },
          { once: true },
        );
      }),
      ms || 5000,
    );
  }
  async function until(pred, ms) {
    var end = Date.now() + slack(ms || 3000);
    while (Date.now() < end) {
      if (pred()) {
        return true;
      }
      await sleep(10);
    }
    return false;
  }

  // Rendezvous inside one document: a scenario waits (`T.when`) for what a library handler delivered (`T.arrive`).
  var waits = {};
  function slot(name) {
    if (!waits[name]) {
      var r;
      var p = new Promise(function (res) {
        r = res;
      });
      waits[name] = { p: p, r: r };
    }
    return waits[name];
  }
  function arrive(name, v) {
    slot(name).r(v === undefined ? true : v);
  }
  function when(name, ms) {
    return withTimeout(slot(name).p, ms || 3000);
  }

  // The suite's pages answer a few commands from any window (used by window checks and some scenarios).
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (!d || typeof d !== 'object' || typeof d.cmd !== 'string' || d.re) {
      return;
    }
    var src = e.source;
    var reply = function (m, transfer) {
      src.postMessage(Object.assign({ re: d.id }, m), '*', transfer || []);
    };
    if (d.cmd === 'echo') {
      reply({ label: t.label, from: e.origin });
    } else if (d.cmd === 'bytes') {
      reply({ label: t.label, bytes: d.b instanceof ArrayBuffer ? Array.from(new Uint8Array(d.b)) : String(d.b) });
    } else if (d.cmd === 'port') {
      e.ports[0].postMessage({ re: d.id, label: t.label, ports: e.ports.length });
    } else if (d.cmd === 'post-to') {
      // Post a reply through a named path (`parent`, `top`, `opener`) instead of event.source.
      var target = d.path === 'parent' ? window.parent : d.path === 'top' ? window.top : window.opener;
      target.postMessage({ re: d.id, label: t.label, via: d.path }, '*');
    }
  });

  window.T = {
    log: log,
    got: got,
    step: step,
    show: show,
    norm: norm,
    sleep: sleep,
    withTimeout: withTimeout,
    ms: slack,
    errText: errText,
    thrown: thrown,
    stackOf: stackOf,
    describeError: describeError,
    realmOf: realmOf,
    msg: msg,
    ask: ask,
    realmWindows: realmWindows,
    blank: blank,
    frame: frame,
    loaded: loaded,
    until: until,
    arrive: arrive,
    when: when,
    label: function (l) {
      t.label = l;
    },
    done: function () {
      t.done = true;
    },
  };
})();
