// @ts-check
// Chromium traces and CPU profiles for the suites' diagnostic options: `page-load --cpu-trace` (what our scripts cost
// each frame of a load, by script) and `panel --profile` (where the panel's first render goes). Thread time (a trace
// event's `tdur`) holds on a busy machine where wall time and a profile's samples do not.

/** @typedef {{ name: string, ph: string, pid: number, tid: number, ts: number, dur?: number, tdur?: number, id?: string, args?: any }} TraceEvent */
/** @typedef {{ nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }[], samples?: number[], timeDeltas?: number[] }} CpuProfile */

const LOAD_CATEGORIES = ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline', '__metadata'];
/** The V8 sampling profiler in the trace, a sample every ~100 µs (`profileByFrame`). */
const PROFILE_CATEGORIES = ['disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.cpu_profiler.hires'];

/**
 * The events of the trace `cdp` is recording (started with `transferMode: 'ReturnAsStream'`), once it is stopped.
 * @param {import('puppeteer-core').CDPSession} cdp
 * @returns {Promise<TraceEvent[]>}
 */
export async function endTrace(cdp) {
  /** @type {Promise<any>} */
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let text = '';
  for (;;) {
    const c = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += c.base64Encoded ? Buffer.from(c.data, 'base64').toString() : c.data;
    if (c.eof) {
      break;
    }
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/**
 * A trace of every process of `browser` while `fn` runs: its events (`profile`: with V8's sampling profiles).
 * @param {import('puppeteer-core').Browser} browser
 * @param {() => Promise<unknown>} fn
 */
export async function traceBrowser(browser, fn, profile = false) {
  const cdp = await browser.target().createCDPSession();
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: profile ? [...LOAD_CATEGORIES, ...PROFILE_CATEGORIES] : LOAD_CATEGORIES },
    transferMode: 'ReturnAsStream',
  });
  let events = /** @type {TraceEvent[]} */ ([]);
  try {
    await fn();
  } finally {
    events = await endTrace(cdp);
    await cdp.detach();
  }
  return events;
}

/** @param {TraceEvent} e */
const urlOf = (e) => e.args?.data?.url ?? e.args?.data?.scriptName ?? e.args?.fileName ?? e.args?.data?.fileName ?? '';
/** @param {unknown} u */
const ours = (u) => typeof u === 'string' && u.startsWith('chrome-extension://');

/**
 * The frame each renderer process shows, from the page URLs its events name: host or embed, by origin.
 * @param {TraceEvent[]} events
 * @param {{ host: string, embed: string }} origins
 */
function frameOf(events, origins) {
  /** @type {Map<number, string>} */
  const of = new Map();
  for (const e of events) {
    const u = e.args?.data?.url ?? e.args?.beginData?.url;
    if (typeof u === 'string' && !of.has(e.pid)) {
      if (u.startsWith(origins.host)) {
        of.set(e.pid, 'host');
      } else if (u.startsWith(origins.embed)) {
        of.set(e.pid, 'embed');
      }
    }
  }
  return of;
}

/**
 * Thread ms per frame (host, embed) of a page load's trace: each of our scripts' compile and run at document_start
 * (`v8.compile` / `EvaluateScript` with a chrome-extension: URL), their calls later (`FunctionCall`: listeners,
 * timers), all of ours once (nested events not counted twice), and the frame's main thread in all.
 * @param {TraceEvent[]} events
 * @param {{ host: string, embed: string }} origins
 * @returns {Record<string, number>}
 */
export function scriptCostByFrame(events, origins) {
  const frame = frameOf(events, origins);
  /** @type {Map<string, string>} */
  const threadName = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') {
      threadName.set(`${e.pid}:${e.tid}`, e.args.name);
    }
  }
  /** @type {Record<string, number>} */
  const out = {};
  /** @type {(key: string, ms: number) => void} */
  const add = (key, ms) => {
    out[key] = (out[key] ?? 0) + ms;
  };
  const lastEnd = new Map(); // thread → end of the last of our events counted in "ours, all" (nested ones are in it)
  const sorted = events.filter((e) => e.ph === 'X' && typeof e.tdur === 'number').sort((a, b) => a.ts - b.ts);
  for (const e of sorted) {
    const ms = (e.tdur ?? 0) / 1000;
    const f = frame.get(e.pid);
    const thread = `${e.pid}:${e.tid}`;
    const outer = () => {
      if (e.ts < (lastEnd.get(thread) ?? 0)) {
        return false;
      }
      lastEnd.set(thread, e.ts + (e.dur ?? 0));
      return true;
    };
    const u = urlOf(e);
    if (f && ours(u)) {
      const file = u.slice(u.lastIndexOf('/') + 1);
      if (e.name === 'EvaluateScript') {
        add(`${f} ${file} at document_start`, ms);
        if (outer()) {
          add(`${f} ours, all`, ms);
        }
      } else if (e.name === 'v8.compile') {
        add(`${f} ${file} at document_start: compile`, ms);
      } else if (e.name === 'FunctionCall') {
        add(`${f} ${file} later calls`, ms);
        if (outer()) {
          add(`${f} ours, all`, ms);
        }
      }
    } else if (threadName.get(thread) === 'CrRendererMain' && e.name === 'RunTask') {
      add(`${f ?? 'other renderer'} main thread, all`, ms);
    }
  }
  return out;
}

/** Self and total time (µs) by name, summed over the traces or profiles added. */
export class TimeByName {
  self = new Map();
  total = new Map();
  /** µs of the top-level events or JS samples added */
  sampled = 0;

  /** @param {Map<string, number>} m @param {string} k @param {number} us */
  static #bump(m, k, us) {
    m.set(k, (m.get(k) ?? 0) + us);
  }

  /**
   * A trace's main thread (the thread with most script events) by event: each event's thread time less its
   * nested events' (self), and with them (total).
   * @param {TraceEvent[]} events
   */
  addTrace(events) {
    /** @type {Map<string, TraceEvent[]>} */
    const byThread = new Map();
    for (const e of events) {
      if (e.ph === 'X' && e.tdur !== undefined) {
        const k = `${e.pid}:${e.tid}`;
        const list = byThread.get(k) ?? [];
        list.push(e);
        byThread.set(k, list);
      }
    }
    /** @param {TraceEvent[]} es */
    const scripts = (es) => es.filter((e) => e.name === 'FunctionCall' || e.name === 'EvaluateScript').length;
    const main = [...byThread.values()].sort((a, b) => scripts(b) - scripts(a))[0] ?? [];
    main.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    /** @param {TraceEvent} e */
    const nameOf = (e) => (e.name === 'FunctionCall' || e.name === 'EvaluateScript' ? `${e.name} (script)` : e.name);
    /** @type {TraceEvent[]} */
    const stack = [];
    for (const e of main) {
      while (stack.length && stack[stack.length - 1].ts + (stack[stack.length - 1].dur ?? 0) <= e.ts) {
        stack.pop();
      }
      const parent = stack[stack.length - 1];
      const us = e.tdur ?? 0;
      TimeByName.#bump(this.self, nameOf(e), us);
      if (parent) {
        TimeByName.#bump(this.self, nameOf(parent), -us);
      } else {
        this.sampled += us;
      }
      TimeByName.#bump(this.total, nameOf(e), parent?.name === e.name ? 0 : us);
      stack.push(e);
    }
  }

  /**
   * A CDP CPU profile's samples by function (`name file:line`): self time, and total time (each function once per
   * sample, however deep it recurs).
   * @param {CpuProfile} p
   */
  addProfile(p) {
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of p.nodes) {
      for (const c of n.children ?? []) {
        parent.set(c, n.id);
      }
    }
    /** @param {CpuProfile['nodes'][number]} n */
    const key = (n) => {
      const c = n.callFrame;
      const u = c.url.replace(/^.*\//, '');
      return `${c.functionName || '(anonymous)'}${u ? ` ${u}:${c.lineNumber + 1}` : ''}`;
    };
    const samples = p.samples ?? [];
    for (let i = 0; i < samples.length; i++) {
      const us = p.timeDeltas?.[i + 1] ?? 0;
      const leaf = byId.get(samples[i]);
      if (!leaf || leaf.callFrame.functionName === '(idle)') {
        continue;
      }
      this.sampled += us;
      TimeByName.#bump(this.self, key(leaf), us);
      const seen = new Set();
      for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
        const node = byId.get(id);
        const k = node ? key(node) : '';
        if (node && !seen.has(k)) {
          seen.add(k);
          TimeByName.#bump(this.total, k, us);
        }
      }
    }
  }

  /**
   * The `top` names by self time and the `2 × top` by total time, ms per run, as lines.
   * @param {{ runs: number, top: number, totalTitle: string }} o
   */
  lines({ runs, top, totalTitle }) {
    /** @param {number} us */
    const ms = (us) => (us / 1000 / runs).toFixed(1).padStart(7);
    /** @param {Map<string, number>} m @param {number} n */
    const list = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
    return [
      'self time, ms a run:',
      ...list(this.self, top).map(([k, us]) => `${ms(us)}  ${k}`),
      `\n${totalTitle}, ms a run:`,
      ...list(this.total, top * 2).map(([k, us]) => `${ms(us)}  ${k}`),
    ];
  }
}

/**
 * `page-load --cpu-profile`: the V8 sampling profiles a trace holds (category disabled-by-default-v8.cpu_profiler,
 * hires: a sample every ~100 µs), the samples whose stack holds our code, by frame (host, embed). Per frame: µs by
 * phase (`document_start`: under the top level of one of our scripts; `later`: under a listener or timer of ours),
 * by our file (the innermost of our frames on the stack), and by function: self (the leaf, a builtin or API called
 * from our code included, named with the file of ours that called it) and total (each of our functions once a
 * sample; `stacks`: each whole stack). Samples outside our code ((program), (garbage collector), the page's own) are not counted.
 * @param {TraceEvent[]} events
 * @param {{ host: string, embed: string }} origins
 * @returns {Record<string, Record<'phase' | 'file' | 'self' | 'total' | 'stacks', Record<string, number>>>}
 */
export function profileByFrame(events, origins) {
  const frame = frameOf(events, origins);
  /** @typedef {{ pid: number, nodes: Map<number, any>, samples: number[], deltas: number[] }} Chunks */
  /** @type {Map<string, Chunks>} */
  const profiles = new Map();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || !frame.has(e.pid)) {
      continue;
    }
    const k = `${e.pid}:${e.id}`;
    /** @type {Chunks} */
    const p = profiles.get(k) ?? { pid: e.pid, nodes: new Map(), samples: [], deltas: [] };
    profiles.set(k, p);
    const cp = e.args?.data?.cpuProfile ?? {};
    for (const n of cp.nodes ?? []) {
      p.nodes.set(n.id, n);
    }
    p.samples.push(...(cp.samples ?? []));
    p.deltas.push(...(e.args?.data?.timeDeltas ?? []));
  }
  /** @type {ReturnType<typeof profileByFrame>} */
  const out = {};
  /** @param {Record<string, number>} m @param {string} k @param {number} us */
  const bump = (m, k, us) => {
    m[k] = (m[k] ?? 0) + us;
  };
  for (const p of profiles.values()) {
    const f = /** @type {string} */ (frame.get(p.pid));
    const o = (out[f] ??= { phase: {}, file: {}, self: {}, total: {}, stacks: {} });
    for (let i = 0; i < p.samples.length; i++) {
      const us = p.deltas[i + 1] ?? 0;
      /** @type {any[]} */
      const stack = [];
      for (let n = p.nodes.get(p.samples[i]); n; n = n.parent === undefined ? undefined : p.nodes.get(n.parent)) {
        stack.push(n);
      }
      const mine = stack.filter((n) => ours(n.callFrame.url));
      if (!mine.length) {
        continue;
      }
      /** @param {any} n */
      const fileOf = (n) => n.callFrame.url.slice(n.callFrame.url.lastIndexOf('/') + 1);
      /** @param {any} n */
      const nameOf = (n) => `${n.callFrame.functionName || '(anonymous)'} ${fileOf(n)}:${n.callFrame.lineNumber + 1}`;
      const outer = mine[mine.length - 1];
      const top = outer.callFrame.functionName === '' && outer.callFrame.lineNumber === 0;
      bump(o.phase, top ? 'document_start' : 'later', us);
      bump(o.file, `${fileOf(mine[0])}${top ? ' at document_start' : ' later'}`, us);
      const leaf = stack[0];
      const self = ours(leaf.callFrame.url)
        ? nameOf(leaf)
        : `${leaf.callFrame.functionName || '(native)'} [from ${nameOf(mine[0])}]`;
      bump(o.self, `${top ? 'start' : 'later'}: ${self}`, us);
      bump(
        o.stacks,
        [...stack]
          .reverse()
          .map((n) => (ours(n.callFrame.url) ? nameOf(n) : n.callFrame.functionName || '(native)'))
          .join(' > '),
        us,
      );
      for (const k of new Set(mine.map(nameOf))) {
        bump(o.total, k, us);
      }
    }
  }
  return out;
}
