// Fixed costs of the service worker's own work, by process (CPU from /proc: every thread of each process of the
// browser; medians over the rounds), in the built extension's worker:
// - an IndexedDB transaction of the shape the log's storage writes (src/background/db.ts, write-queue.ts: a batch of
//   8 small records and the tab's meta), one batch per transaction or several in one;
// - the navigation listener widened and narrowed again, as when a tab's log opens and closes
//   (src/background/nav-listener.ts).
//
// Usage (after npm run build): node bench/worker-costs.mjs [--rounds 3] [--n 100]
import { launchChromium } from './launcher.mjs';
import { treeCpu } from './page-overhead.mjs';
import { median } from './stats.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const rounds = arg('--rounds', 3);
const n = arg('--n', 100);
const EXT = new URL('../dist/chrome', import.meta.url).pathname;

/** CPU ms by process kind. @param {Record<string, { kind: string, ms: number }>} o */
const byKind = (o) => {
  /** @type {Record<string, number>} */
  const r = {};
  for (const v of Object.values(o)) {
    r[v.kind] = (r[v.kind] ?? 0) + v.ms;
  }
  return r;
};

/**
 * The navigation listener widened (unfiltered) and narrowed (the captured sites' filter) `n` times, as nav-listener.ts
 * does when a tab's log opens and closes: CPU ms per time by process kind.
 */
async function listenerFlips(w, pid, n) {
  const before = byKind(treeCpu(pid));
  const idleMs = 5;
  await w.evaluate(
    async (n, idleMs) => {
      const ev = chrome.webNavigation.onCommitted;
      const filter = {
        url: [
          { schemes: ['http'], hostEquals: '127.0.0.1' },
          { schemes: ['http'], hostEquals: 'localhost' },
        ],
      };
      let narrow = () => undefined;
      ev.addListener(narrow, filter);
      for (let i = 0; i < n; i++) {
        const wide = () => undefined;
        ev.addListener(wide);
        ev.removeListener(narrow);
        narrow = () => undefined;
        ev.addListener(narrow, filter);
        ev.removeListener(wide);
        await new Promise((r) => setTimeout(r, idleMs));
      }
      ev.removeListener(narrow);
    },
    n,
    idleMs,
  );
  const after = byKind(treeCpu(pid));
  return Object.fromEntries(Object.keys(after).map((p) => [p, (after[p] - (before[p] ?? 0)) / n]));
}

const l = await launchChromium({ extensionDir: EXT, headless: true, capture: null });
try {
  const w = await l.worker();
  const pid = /** @type {number} */ (l.browser.process()?.pid);
  /** Transactions of `k` batches each: CPU ms per transaction by process kind. */
  const run = async (k) => {
    const before = byKind(treeCpu(pid));
    await w.evaluate(
      async (n, k) => {
        const db = await new Promise((res, rej) => {
          const r = indexedDB.open('bench-idb-commit', 1);
          r.onupgradeneeded = () => {
            r.result.createObjectStore('batches');
            r.result.createObjectStore('tabs');
          };
          r.onsuccess = () => res(r.result);
          r.onerror = () => rej(r.error);
        });
        const record = (i) => ({ kind: 'receive', time: Date.now(), data: { source: 'svc-embed', type: `t${i}` } });
        const json = JSON.stringify(Array.from({ length: 8 }, (_, i) => record(i)));
        for (let i = 0; i < n; i++) {
          const tx = db.transaction(['batches', 'tabs'], 'readwrite');
          for (let j = 0; j < k; j++) {
            tx.objectStore('batches').put({ kind: 'raw', frameId: 0, json }, [1, i * 100 + j]);
          }
          tx.objectStore('tabs').put({ tabId: 1, docBatches: { d: i }, frames: [] }, 1);
          await new Promise((res, rej) => {
            tx.oncomplete = res;
            tx.onerror = rej;
          });
        }
        db.close();
      },
      n,
      k,
    );
    const after = byKind(treeCpu(pid));
    return Object.fromEntries(Object.keys(after).map((p) => [p, (after[p] - (before[p] ?? 0)) / n]));
  };
  /** @type {Record<number, Array<Record<string, number>>>} */
  const got = { 1: [], 4: [], 16: [] };
  for (let r = 0; r < rounds; r++) {
    for (const k of [1, 4, 16]) {
      got[k].push(await run(k));
    }
  }
  console.log(`CPU ms per transaction (${n} transactions, ${rounds} rounds, medians): batches in one transaction`);
  for (const k of [1, 4, 16]) {
    const m = (part) => median(got[k].map((g) => g[part] ?? 0)).toFixed(2);
    console.log(`  ${String(k).padStart(2)}: browser process ${m('browser')}, service worker ${m('renderer+ext')}`);
  }
  const flips = [];
  for (let r = 0; r < rounds; r++) {
    flips.push(await listenerFlips(w, pid, Math.min(n, 50)));
  }
  const m = (part) => median(flips.map((g) => g[part] ?? 0)).toFixed(2);
  console.log(`CPU ms per tab's log opened and closed (navigation listener widened, then narrowed): browser process \
${m('browser')}, service worker ${m('renderer+ext')}`);
} finally {
  await l.browser.close();
}
