// @ts-check
// The benchmark's browser ahead of other work on the machine: every thread of the browser's processes gets the
// nice value `EI_BENCH_NICE` (default -10; 0 leaves them alone). On a machine shared with builds and tests (2 cores,
// load 5–20), a renderer's main thread otherwise runs for about half of the wall time it is measured over; ahead of
// them it runs as on a quiet machine, and each side of an A/B gets the same. Chromium's zygote starts renderers at
// nice 0 whatever the browser's own nice value, so the threads are set one by one (Linux sets a nice value per
// thread), after the page is open. Needs the privilege to raise priority (root); without it, nothing changes.
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

export const BENCH_NICE = Number(process.env.EI_BENCH_NICE ?? -10);

/** Every process under `rootPid` (itself included), from /proc. */
function tree(rootPid) {
  const parent = new Map();
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      parent.set(p, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      /* ended meanwhile */
    }
  }
  const out = new Set([String(rootPid)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, pp] of parent) {
      if (!out.has(p) && out.has(pp)) {
        out.add(p);
        grew = true;
      }
    }
  }
  return out;
}

/** Give every thread of `browser` (puppeteer) and its child processes the bench's nice value; returns how many. */
export function raisePriority(browser, nice = BENCH_NICE) {
  const pid = browser.process()?.pid;
  if (!nice || !pid) {
    return 0;
  }
  let n = 0;
  try {
    for (const p of tree(pid)) {
      for (const t of readdirSync(`/proc/${p}/task`)) {
        try {
          setPriority(Number(t), nice);
          n++;
        } catch {
          /* no privilege, or the thread ended */
        }
      }
    }
  } catch {
    /* no /proc */
  }
  return n;
}
