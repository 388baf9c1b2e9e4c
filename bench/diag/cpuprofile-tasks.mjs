// Diagnostic: a CDP profile (burst-profile.mjs SAVE=) split by the task each sample ran in (the stack's outermost
// frame of ours: the delivery listener, a hand-over slice, the link's post...), with the self time of each
// function:line under it, and when the task's samples came (first..last, ms after the burst window's end, per
// profile); outside (or inside) the burst window saved next to the profile.
// Usage: node bench/diag/cpuprofile-tasks.mjs <dir> <process> <burst> [after|during] [count] [source.js for lines]
import { readFileSync, readdirSync } from 'node:fs';

const [dir, proc, burst, when = 'after', count = '12', source] = process.argv.slice(2);
const lines = source ? readFileSync(source, 'utf8').split('\n') : null;
const files = readdirSync(dir).filter((f) => f.startsWith(`${proc}-${burst}-`) && f.endsWith('.cpuprofile'));
const tasks = new Map(); // root -> { us, self: Map }
let messages = 0;
for (const f of files) {
  messages += Number(burst);
  const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
  const { from, to } = JSON.parse(readFileSync(`${dir}/${f.replace('.cpuprofile', '.window.json')}`, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) {
    for (const c of n.children ?? []) {
      parent.set(c, n.id);
    }
  }
  const name = (n) => {
    const c = n.callFrame;
    const u = c.url.replace(/^.*\//, '');
    return `${c.functionName || '(anon)'}${u ? ` ${u}:${c.lineNumber + 1}` : ''}`;
  };
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    const inside = t >= from && t <= to;
    if (inside !== (when === 'during')) {
      continue;
    }
    const dt = p.timeDeltas[i + 1] ?? 0;
    const leaf = byId.get(p.samples[i]);
    let root = null;
    for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
      const x = byId.get(id);
      if (x.callFrame.url) {
        root = x;
      }
    }
    const key = root ? name(root) : name(leaf);
    if (key === '(idle)' || key === '(program)') {
      continue;
    }
    const task = tasks.get(key) ?? { us: 0, self: new Map(), at: [] };
    tasks.set(key, task);
    task.us += dt;
    const ms = (t - to) / 1000;
    if (!task.at[files.indexOf(f)]) {
      task.at[files.indexOf(f)] = [ms, ms];
    }
    task.at[files.indexOf(f)][1] = ms;
    // the leaf's line (positionTicks are not per sample: use the leaf's function; for our code add its hottest line)
    let k = name(leaf);
    if (lines && leaf.callFrame.url && leaf.positionTicks?.length) {
      const best = [...leaf.positionTicks].sort((a, b) => b.ticks - a.ticks)[0];
      k += ` (hot line ${best.line}: ${lines[best.line - 1]?.trim().slice(0, 70)})`;
    }
    task.self.set(k, (task.self.get(k) ?? 0) + dt);
  }
}
for (const [k, v] of [...tasks].sort((a, b) => b[1].us - a[1].us).slice(0, 8)) {
  const at = v.at.filter(Boolean).map(([a, b]) => `${a.toFixed(0)}..${b.toFixed(0)}`);
  console.log(`${(v.us / messages).toFixed(2).padStart(6)} µs/msg  task ${k}  (ms after the window: ${at.join(', ')})`);
  for (const [s, us] of [...v.self].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
    console.log(`    ${(us / messages).toFixed(2).padStart(6)}  ${s}`);
  }
}
