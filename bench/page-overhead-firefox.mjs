// @ts-check
// Page overhead of capture in Firefox (issue 31): the cases of bench/page-overhead.mjs (the same host and embed
// pages, served from the two loopback sites 127.0.0.1 and localhost, so that the iframe is cross-origin and, with
// Fission as Firefox ships it, out of process), in Firefox ESR driven by puppeteer-core over WebDriver BiDi.
// Four browsers, alternated in rounds, a fresh page per case:
//   without: no extension;
//   off: the extension, capture off (a fresh profile's scope: nothing of ours may run in the page, checked);
//   receive-only / full: the extension capturing both sites in that mode (set through the background page's
//     `embedInspector.setCapture`, from an extension page, as test/helpers/firefox.ts does);
//   and a fifth, the floor: a bare capture (floor-extension.mjs), what any capture of the burst costs the page;
//     each mode is also stated against it, round by round (`--no-floor`: none).
// per message: time from the first post to the last delivery / n; each ratio is the median of the rounds' paired
// ratios (with/without), and in brackets the interval that holds 90% of the medians of resampled rounds.
// Goals (issue 47, after issue 31 showed the copy Firefox requires costs more than 1.10× leaves): off 1.00×,
// receive-only ≤ 1.20×, full ≤ 1.30×; the added µs per message in receive-only mode (the copy of the page's data,
// most of it) is stated beside them.
// Usage: node bench/page-overhead-firefox.mjs [--n 5000] [--reps 9] [--quick] [--each] [--sizes 200,10000]
//          [--dirs h2e,e2h] [--modes off,receive-only,full] [--no-floor]
//   (--quick: 5 rounds; --each: each round's figures before its row; FIREFOX_PATH overrides the binary;
//    EI_EXTENSION_DIR another build; EI_EXTENSION_DIR_B=<build> adds a fifth browser, that build in full mode,
//    alternated with the rest, its row under each case's; npm run bench runs it, after a build)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import { FirefoxLauncher } from 'puppeteer-core/internal/node/FirefoxLauncher.js';
import { EMBED, HOST, serve } from './page-overhead.mjs';
import { checkFloor, launchWithFloor } from './floor-extension.mjs';
import { medianInterval } from './stats.mjs';
import { goal, row } from './summary.mjs';

const root = new URL('..', import.meta.url).pathname;
const EXT = process.env.EI_EXTENSION_DIR ?? join(root, 'dist/firefox');
const EXT_B = process.env.EI_EXTENSION_DIR_B;
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const UUID = '11111111-2222-3333-4444-555555555555';

// The private DOM events our two worlds exchange (src/shared/messages.ts: every `CHANNEL_*`, named from its `NAME`):
// the page counts every one it sees.
const messagesTs = readFileSync(join(root, 'src/shared/messages.ts'), 'utf8');
const version = messagesTs.match(/export const MESSAGES_VERSION = (\d+)/)?.[1];
const CHANNELS = [...messagesTs.matchAll(/export const CHANNEL_\w+ = `\$\{NAME\}([^`]+)`/g)].map(
  (m) => `embed-inspector:v${version}:${m[1]}`,
);
if (!version || !/const NAME = `embed-inspector:v\$\{MESSAGES_VERSION\}:`/.test(messagesTs) || CHANNELS.length < 4) {
  throw new Error('page-overhead-firefox: the private event names in src/shared/messages.ts changed; update the probe');
}
const PROBE = `<script>(() => { const seen = { n: 0 }; window.__probe = seen;
  for (const t of ${JSON.stringify(CHANNELS)}) document.addEventListener(t, () => { seen.n++; }, true); })()</script>`;
const withProbe = (html) => html.replace('<!doctype html>', `<!doctype html>${PROBE}`);

// Puppeteer keeps every page in one content process (its `fission.webContentIsolationStrategy` 0, for mouse input
// it does not need here); Firefox as users run it isolates each site (1), which this bench measures.
const puppeteerPrefs = FirefoxLauncher.getPreferences;
FirefoxLauncher.getPreferences = (extra) => ({ ...puppeteerPrefs.call(FirefoxLauncher, extra), ...extra });
const PREFS = {
  'extensions.webextensions.uuids': JSON.stringify({ 'embed-inspector@embed-inspector.dev': UUID }),
  'fission.webContentIsolationStrategy': 1,
  // performance.now() to the microsecond (Firefox rounds it to 1 ms for pages that are not cross-origin isolated)
  'privacy.reduceTimerPrecision': false,
};

/** Source run in an extension page: the background page's automation API. */
const BG = 'await browser.runtime.getBackgroundPage()';

/**
 * Firefox without the extension, or with it and `capture` (the argument of `embedInspector.setCapture`) set from an
 * extension page kept open to ask the background for counts.
 */
/**
 * @param {boolean} withExtension
 * @param {{ sites: string[] | 'all', mode: string } | null} [capture]
 * @param {{ fission?: boolean, ext?: string, ours?: boolean }} [options] (`ours`: false for another extension, which
 *   has no panel page to drive)
 */
export async function launchFirefox(
  withExtension,
  capture = null,
  { fission = true, ext: dir = EXT, ours = true } = {},
) {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: { ...PREFS, 'fission.webContentIsolationStrategy': fission ? 1 : 0 },
  });
  /** @type {import('puppeteer-core').Page | null} */
  let ext = null;
  if (withExtension) {
    await browser.installExtension(resolve(dir)); // Firefox installs from an absolute path only
  }
  if (withExtension && ours) {
    const page = await extensionPage(browser);
    ext = page;
    if (capture) {
      await page.evaluate(
        `(async () => JSON.stringify(await (${BG}).embedInspector.setCapture(${JSON.stringify(capture)})))()`,
      );
    }
  }
  /** @param {string} body */
  const inBackground = (body) => {
    if (!ext) {
      throw new Error('Firefox was launched without the extension');
    }
    return ext.evaluate(`(async () => { const bg = ${BG}; ${body} })()`);
  };
  return {
    browser,
    inBackground,
    captures: !!capture && (capture.sites === 'all' || capture.sites.length > 0),
    mode: capture?.mode ?? null,
    pids: () => processTree(browser.process()?.pid),
    /** CPU time of the browser's processes so far, in ticks (10 ms). */
    cpu: () => ticks(processTree(browser.process()?.pid)),
    close: () => browser.close(),
  };
}

/** The panel page of the build, not attached to a tab (idle): an extension page that reaches the background page. */
async function extensionPage(browser) {
  const page = await browser.newPage();
  void page.goto(`moz-extension://${UUID}/src/panel/index.html?theme=light`).catch(() => {});
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await page.waitForFunction(() => !!window.__embedInspectorPanel, { timeout: Math.max(1, deadline - Date.now()) });
      return page;
    } catch (e) {
      // (WebDriver BiDi can fail an evaluation outright while the page is being created: poll again then)
      if (Date.now() >= deadline || !/Protocol error/.test(String(/** @type {Error} */ (e)?.cause ?? e))) {
        throw e;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The process ids of `pid` and its descendants (Firefox's content, extension and utility processes). */
function processTree(pid) {
  if (!pid) {
    return [];
  }
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) {
      continue;
    }
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    for (const [p, pp] of parent) {
      if (pp === out[i]) {
        out.push(p);
      }
    }
  }
  return out;
}
const ticks = (pids) => {
  let t = 0;
  for (const p of pids) {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8');
      const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
      t += Number(x[11]) + Number(x[12]); // utime + stime
    } catch {
      /* gone */
    }
  }
  return t;
};

/**
 * Wait until none of the four browsers works (under 2 ticks, 20 ms of CPU, in 100 ms; at most 5 s): what one of
 * them still does after its burst (the background storing records, a closed tab going away) must not run during the
 * next one's. The browsers' own CPU, not the machine's: other work on a shared machine is beside the point here, and
 * would make every wait the longest. `maxMs`: how long to wait at most.
 */
export async function settle(browsers, maxMs = 5_000) {
  const pids = browsers.flatMap((b) => b.pids());
  const give_up = Date.now() + maxMs;
  for (let a = ticks(pids); Date.now() < give_up; ) {
    await new Promise((r) => setTimeout(r, 100));
    const b = ticks(pids);
    if (b - a < 2) {
      return;
    }
    a = b;
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function once(b, all, url, dir, n, size, log) {
  const page = await b.browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const frame = await embedFrame(page);
  let tabId = null;
  let base = 0;
  if (b.captures) {
    tabId = await b.inBackground(
      `return (await browser.tabs.query({})).find((t) => t.url === ${JSON.stringify(page.url())})?.id ?? null;`,
    );
    await new Promise((r) => setTimeout(r, 200));
    base = await b.inBackground(`return bg.embedInspector.count(${tabId});`);
  }
  await settle(all);
  const r = await page.evaluate((d, n, s) => /** @type {any} */ (window)[d](n, s), dir, n, size);
  /** @type {Record<string, any>} */
  const out = { perMsgUs: ((r.last - r.t0) / n) * 1000, lagMs: null, probe: 0 };
  if (b.captures) {
    // full: a post and a delivery per message; receive-only: the delivery (+ the few control messages)
    const target = base + (b.mode === 'full' ? 2 : 1) * n;
    const give_up = Date.now() + 60_000;
    let c = 0;
    for (;;) {
      c = await b.inBackground(`return bg.embedInspector.count(${tabId});`);
      if (c >= target || Date.now() > give_up) {
        break;
      }
      await new Promise((res) => setTimeout(res, 5));
    }
    out.lagMs = c >= target ? Date.now() - Math.round(r.last) : NaN;
    if (c < target) {
      log(`  (capture incomplete: ${c - base} of ${target - base} records after 60 s)`);
    }
  }
  for (const f of [page.mainFrame(), frame]) {
    out.probe += await f.evaluate(() => window.__probe?.n ?? -1e9);
  }
  await page.close();
  return out;
}

async function embedFrame(page) {
  for (let i = 0; i < 100; i++) {
    const f = page.frames().find((x) => x !== page.mainFrame() && x.url().includes('/embed/'));
    if (f) {
      await f.waitForFunction(() => document.readyState === 'complete' && !!window.__probe);
      return f;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('page-overhead-firefox: no embed frame');
}

/**
 * Whether the iframe runs in another process than its host: a 300 ms busy loop in the iframe leaves the host's
 * 10 ms timers on time only then.
 */
async function outOfProcess(b, url) {
  const page = await b.browser.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const frame = await embedFrame(page);
  const late = page.evaluate(
    () =>
      new Promise((resolve) => {
        let worst = 0;
        let last = performance.now();
        const t = setInterval(() => {
          const now = performance.now();
          worst = Math.max(worst, now - last);
          last = now;
        }, 10);
        setTimeout(() => {
          clearInterval(t);
          resolve(worst);
        }, 600);
      }),
  );
  await new Promise((r) => setTimeout(r, 100));
  await frame.evaluate(() => {
    const end = performance.now() + 300;
    while (performance.now() < end) {
      /* busy */
    }
  });
  const worst = await late;
  await page.close();
  return worst < 200;
}

const GOALS = { off: () => 1.0, 'receive-only': () => 1.2, full: () => 1.3 };
const interval = ([lo, hi]) => `${lo.toFixed(2)}–${hi.toFixed(2)}`;

/** A case's row: the median µs per message without the extension, and each mode's, ratio, interval and goal. */
function roundsRow(rounds, modes, dir, size) {
  const row = {
    direction: dir === 'h2e' ? 'host→iframe' : 'iframe→host',
    size,
    rounds: rounds.length,
    without: 0,
    modes: {},
  };
  row.without = median(rounds.map((r) => r.without.perMsgUs));
  for (const m of modes) {
    const ratios = rounds.map((r) => r[m].perMsgUs / r.without.perMsgUs);
    const ratio = median(ratios);
    const goal = GOALS[m](size);
    const [, hi] = medianInterval(ratios);
    row.modes[m] = {
      us: median(rounds.map((r) => r[m].perMsgUs)),
      added: median(rounds.map((r) => r[m].perMsgUs - r.without.perMsgUs)),
      ratio,
      interval: medianInterval(ratios),
      goal,
      // off: nothing of ours runs, so the goal is that the interval holds 1.00
      met: m === 'off' ? medianInterval(ratios)[0] <= 1 && rounds.every((r) => r.off.probe === 0) : ratio <= goal,
      within: hi <= goal,
      probe: rounds.map((r) => r[m].probe),
      lag: m === 'full' || m === 'receive-only' ? median(rounds.map((r) => r[m].lagMs)) : null,
    };
    if (rounds[0].floor && m !== 'off') {
      // Against a bare capture of the same burst, round by round: what our design adds to the least any capture costs.
      const over = rounds.map((r) => r[m].perMsgUs / r.floor.perMsgUs);
      row.modes[m].overFloor = { ratio: median(over), interval: medianInterval(over) };
    }
  }
  if (rounds[0].floor) {
    const ratios = rounds.map((r) => r.floor.perMsgUs / r.without.perMsgUs);
    row.floor = {
      us: median(rounds.map((r) => r.floor.perMsgUs)),
      ratio: median(ratios),
      interval: medianInterval(ratios),
    };
  }
  return row;
}

/** Our extension in each mode, build B in full mode (EI_EXTENSION_DIR_B) and the floor, into `browsers`. */
async function launchCapturing(browsers, modes, sites, floor) {
  for (const m of modes) {
    browsers[m] = await launchFirefox(true, m === 'off' ? null : { sites, mode: m });
  }
  if (EXT_B) {
    browsers['full B'] = await launchFirefox(true, { sites, mode: 'full' }, { ext: EXT_B });
  }
  if (floor) {
    browsers.floor = await launchWithFloor((dir) => launchFirefox(true, null, { ext: dir, ours: false }), {
      firefox: true,
    });
  }
}

/** A case's table row, and the floor's and build B's lines under it. */
function logCase(row, rounds, modes, log) {
  const cells = modes
    .map((m) => {
      const x = row.modes[m];
      const g =
        m === 'off' ? `1.00×${x.met ? ' ✓ nothing ran' : ' ✗'}` : `≤ ${x.goal.toFixed(2)}× ${x.met ? '✓' : '✗'}`;
      return `| ${x.us.toFixed(1)} | ${x.ratio.toFixed(2)}× (${interval(x.interval)}) | ${g} `;
    })
    .join('');
  const lags = modes
    .filter((m) => row.modes[m].lag !== null)
    .map((m) => `${m} ${Math.round(row.modes[m].lag)}`)
    .join(', ');
  log(`| ${row.direction} | ${row.size} B | ${row.without.toFixed(1)} ${cells}| ${lags} |`);
  if (row.floor) {
    const over = modes
      .filter((m) => row.modes[m].overFloor)
      .map((m) => `${m} ${row.modes[m].overFloor.ratio.toFixed(2)}× (${interval(row.modes[m].overFloor.interval)})`);
    log(
      `|   floor (a bare capture) | | | ${row.floor.us.toFixed(1)} | ${row.floor.ratio.toFixed(2)}× (${interval(row.floor.interval)}) | ÷ the floor: ${over.join(', ')} |`,
    );
  }
  if (EXT_B) {
    const ratios = rounds.map((r) => r['full B'].perMsgUs / r.without.perMsgUs);
    const us = median(rounds.map((r) => r['full B'].perMsgUs));
    const lag = Math.round(median(rounds.map((r) => r['full B'].lagMs)));
    row.b = { us, ratio: median(ratios), interval: medianInterval(ratios), lag };
    log(
      `|   full B (${EXT_B}) | | | ${us.toFixed(1)} | ${row.b.ratio.toFixed(2)}× (${interval(row.b.interval)}) | | full ${lag} |`,
    );
  }
}

/** Run the benchmark; prints a table and returns the figures. */
export async function benchPageOverheadFirefox({
  n = 5_000,
  reps = 9,
  sizes = [200, 10_000],
  dirs = ['h2e', 'e2h'],
  modes = ['off', 'receive-only', 'full'],
  each = false,
  floor = true,
  log = console.log,
} = {}) {
  if (!existsSync(FIREFOX)) {
    throw new Error(`no Firefox at ${FIREFOX}; install firefox-esr or set FIREFOX_PATH`);
  }
  if (!existsSync(join(EXT, 'manifest.json'))) {
    throw new Error(`${EXT} missing: run npm run build`);
  }
  const h = await serve('127.0.0.1');
  const e = await serve('localhost');
  h.set(withProbe(HOST(e.origin, true)));
  e.set(withProbe(EMBED(h.origin, true)));
  const url = `${h.origin}/`;
  const sites = [h.origin, e.origin];
  const browsers = { without: await launchFirefox(false) };
  const results = [];
  try {
    await launchCapturing(browsers, modes, sites, floor);
    const all = Object.values(browsers);
    const version = await browsers.without.browser.version();
    // Nothing of ours where capture is off: no content script registered and no tab known to the background (the
    // probe in every frame, below, sees none of our private events either).
    if (browsers.off) {
      const left = await browsers.off.inBackground(
        'return JSON.stringify([await browser.scripting.getRegisteredContentScripts(), await bg.embedInspector.tabIds()]);',
      );
      if (left !== '[[],[]]') {
        throw new Error(`capture off, yet registered scripts or tabs: ${left}`);
      }
    }
    if (browsers.floor) {
      await checkFloor(browsers.floor.browser, url);
    }
    const oop = await outOfProcess(browsers.without, url);
    log(
      `${version}; ${n} messages per burst, ${reps} alternated rounds per case (median shown); iframe cross-origin, ${oop ? 'out of process (Fission)' : 'IN THE HOST PROCESS (Fission off?)'}; a fresh page per case`,
    );
    const head = modes.map((m) => `| ${m} µs | ratio (90%) | goal `).join('');
    log(`| direction | size | without µs ${head}| capture lag ms |`);
    log(`|---|---|---${modes.map(() => '|---|---|---').join('')}|---|`);
    for (const dir of dirs) {
      for (const size of sizes) {
        const names = ['without', ...modes, ...(EXT_B ? ['full B'] : []), ...(floor ? ['floor'] : [])];
        for (const name of names) {
          await once(browsers[name], all, url, dir, 500, size, log); // warm-up
        }
        const rounds = [];
        for (let i = 0; i < reps; i++) {
          // The order turns with each round, so that none always follows the same one.
          const order = names.map((_, k) => names[(k + i) % names.length]);
          const got = {};
          for (const name of order) {
            got[name] = await once(browsers[name], all, url, dir, n, size, log);
          }
          rounds.push(got);
        }
        const row = roundsRow(rounds, modes, dir, size);
        if (rounds.some((r) => r.without.probe !== 0 || (r.off && r.off.probe !== 0))) {
          log('  (the probe saw private events of ours in a page without capture)');
        }
        results.push(row);
        if (each) {
          for (const name of names) {
            log(`  rounds, µs/msg, ${name}: ${rounds.map((r) => r[name].perMsgUs.toFixed(1)).join(' ')}`);
          }
        }
        logCase(row, rounds, modes, log);
      }
    }
    const missed = results.flatMap((r) =>
      modes.filter((m) => !r.modes[m].met).map((m) => `${m} ${r.direction} ${r.size} B`),
    );
    log(missed.length ? `Goals missed: ${missed.join('; ')}` : 'Every goal met.');
  } finally {
    for (const b of Object.values(browsers)) {
      await b.close().catch(() => {});
    }
    h.server.close();
    e.server.close();
  }
  return results;
}

/**
 * The summary table's rows of a run of `benchPageOverheadFirefox` (summary.mjs): per case, each mode's time per
 * message ÷ no extension's; capture off without a goal of its own (nothing of ours may run: said in the measure).
 */
export function summaryRows(results) {
  const rows = [];
  for (const r of results) {
    const name = `${r.direction} ${r.size >= 1000 ? `${r.size / 1000} KB` : `${r.size} B`}`;
    for (const [m, x] of Object.entries(r.modes)) {
      const ran = m === 'off' ? `, ${x.probe.every((p) => p === 0) ? 'nothing of ours ran' : 'ours ran'}` : '';
      rows.push(
        row(`${name}, ${m}: time per message ÷ no extension${ran}`, {
          goal: m === 'off' ? null : goal('≤', x.goal, '×', { issue: 47 }),
          value: x.ratio,
          interval: x.interval,
          unit: '×',
        }),
      );
      if (m === 'receive-only') {
        // What Firefox's required copy of the page's data costs, most of what this mode adds (issue 47).
        rows.push(row(`${name}, receive-only: added per message, most of it the copy`, { value: x.added, unit: 'µs' }));
      }
    }
    if (r.floor) {
      rows.push(
        row(`${name}, a bare capture (the floor): time per message ÷ no extension`, {
          value: r.floor.ratio,
          interval: r.floor.interval,
          unit: '×',
        }),
      );
    }
  }
  return { runs: `${results[0]?.rounds ?? '?'} rounds`, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (k, d) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? Number(process.argv[i + 1]) : d;
  };
  const list = (k, d) => {
    const i = process.argv.indexOf(k);
    return i > 0 ? String(process.argv[i + 1] ?? '').split(',') : d;
  };
  const sizes = list('--sizes', ['200', '10000']).map(Number);
  const dirs = list('--dirs', ['h2e', 'e2h']);
  const modes = list('--modes', ['off', 'receive-only', 'full']);
  const n = arg('--n', 5_000);
  const reps = arg('--reps', process.argv.includes('--quick') ? 5 : 9);
  const bad =
    !sizes.length || sizes.some((x) => !Number.isInteger(x) || x < 100)
      ? '--sizes takes envelope sizes in bytes, e.g. 200,10000 (at least 100)'
      : dirs.some((x) => x !== 'h2e' && x !== 'e2h')
        ? '--dirs takes h2e (host to iframe) and/or e2h (iframe to host), comma-separated'
        : modes.some((x) => !(x in GOALS))
          ? '--modes takes off, receive-only and/or full, comma-separated'
          : !Number.isInteger(n) || n < 1 || !Number.isInteger(reps) || reps < 1
            ? '--n and --reps take positive integers'
            : null;
  if (bad) {
    console.error(`page-overhead-firefox: ${bad}`);
    process.exit(2);
  }
  await benchPageOverheadFirefox({
    n,
    reps,
    each: process.argv.includes('--each'),
    sizes,
    dirs,
    modes,
    floor: !process.argv.includes('--no-floor'),
  });
}
