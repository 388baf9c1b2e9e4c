// Diagnostic: the source lines of a .cpuprofile (node --cpu-prof) by self ticks (the profile's positionTicks), with
// the line's text, for the functions of one file (a substring of its URL, e.g. a chunk of dist/node).
// Usage: node bench/diag/cpuprofile-lines.mjs <file.cpuprofile> <url substring> [count]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [file, match, count = '40'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const ticks = new Map();
let total = 0;
let url = '';
for (const n of profile.nodes) {
  total += n.hitCount ?? 0;
  if (!n.callFrame.url.includes(match)) {
    continue;
  }
  url = n.callFrame.url;
  for (const t of n.positionTicks ?? []) {
    const key = `${n.callFrame.functionName || '(anonymous)'}:${t.line}`;
    ticks.set(key, (ticks.get(key) ?? 0) + t.ticks);
  }
}
const lines = url ? readFileSync(url.startsWith('file:') ? fileURLToPath(url) : url, 'utf8').split('\n') : [];
for (const [key, n] of [...ticks].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
  const line = Number(key.split(':').pop());
  const text = (lines[line - 1] ?? '').trim().slice(0, 90);
  console.log(`${((100 * n) / total).toFixed(1).padStart(5)}%  ${String(n).padStart(5)}  ${key.padEnd(22)} ${text}`);
}
