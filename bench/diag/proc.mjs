// CPU time (ms, user + system, from /proc) of a Chromium browser process and all its descendants, by process id,
// with each process's kind: 'browser', 'renderer', 'renderer+ext' (the extension process), 'gpu-process', 'utility'.
// Zygote children rewrite their command line into one space-separated string: split on spaces too.
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_S = 100;

export function processCpu(rootPid) {
  const info = {};
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      info[p] = {
        ppid: +f[1],
        cpu: ((+f[11] + +f[12]) / TICKS_PER_S) * 1000,
        cmd: readFileSync(`/proc/${p}/cmdline`, 'utf8').split(/[\0 ]/),
      };
    } catch {
      /* the process ended meanwhile */
    }
  }
  const tree = new Set([String(rootPid)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, i] of Object.entries(info)) {
      if (!tree.has(p) && tree.has(String(i.ppid))) {
        tree.add(p);
        grew = true;
      }
    }
  }
  const out = {};
  for (const p of tree) {
    if (!info[p]) {
      continue;
    }
    const c = info[p].cmd;
    const type = c.find((x) => x.startsWith('--type='))?.slice(7) ?? 'browser';
    out[p] = { kind: type + (c.includes('--extension-process') ? '+ext' : ''), cpu: info[p].cpu };
  }
  return out;
}

/** CPU (ms) spent between two `processCpu` readings, summed by kind, and per renderer process. */
export function cpuDelta(before, after) {
  const byKind = {};
  const renderers = {};
  for (const [p, a] of Object.entries(after)) {
    const d = a.cpu - (before[p]?.cpu ?? 0);
    byKind[a.kind] = (byKind[a.kind] ?? 0) + d;
    if (a.kind === 'renderer') {
      renderers[p] = d;
    }
  }
  return { byKind, renderers };
}

/**
 * CPU time (ms) of every thread of a Chromium browser and its descendants, keyed `pid/tid`, with the process's
 * kind (as `processCpu`) and the thread's name: 'chromium' (a process's main thread), 'ThreadPoolForeg' (the
 * task pool, where V8's concurrent GC runs), 'Chrome_ChildIOT', 'Compositor'...
 */
export function threadCpu(rootPid) {
  const out = {};
  for (const [p, { kind }] of Object.entries(processCpu(rootPid))) {
    let tids = [];
    try {
      tids = readdirSync(`/proc/${p}/task`);
    } catch {
      continue; // the process ended meanwhile
    }
    for (const t of tids) {
      try {
        const stat = readFileSync(`/proc/${p}/task/${t}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out[`${p}/${t}`] = {
          pid: p,
          kind,
          name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
          cpu: ((+f[11] + +f[12]) / TICKS_PER_S) * 1000,
        };
      } catch {
        /* the thread ended meanwhile */
      }
    }
  }
  return out;
}
