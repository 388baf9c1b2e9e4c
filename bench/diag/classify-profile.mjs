// Diagnostic (not part of npm run bench): drives classify() (the built dist/node/protocol.js) over one corpus of
// bench/corpus.mjs, for a CPU profile of where it spends its time:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/diag/classify-profile.mjs [valid|mixed|invalid|foreign] [rounds]
// Open the .cpuprofile in Chrome DevTools (Performance), or print the self time per function with
//   node bench/diag/cpuprofile-top.mjs /tmp/prof/<file>.cpuprofile
import { pathToFileURL } from 'node:url';
import { buildCorpus, TENANT } from '../corpus.mjs';

// EI_PROTOCOL=<file> profiles another build (a copy of dist/node/protocol.js), as bench/classify.mjs measures one.
const { ACTIONS, classify, EVENTS } = await import(
  process.env.EI_PROTOCOL ? pathToFileURL(process.env.EI_PROTOCOL).href : '../../dist/node/protocol.js'
);

const { default: examples } = await import('../../test/fixtures/valid-payloads.json', { with: { type: 'json' } });

const name = process.argv[2] ?? 'valid';
const rounds = Number(process.argv[3] ?? 60);
const records = buildCorpus(
  [...EVENTS, ...ACTIONS].map((m) => m.type),
  examples,
)[name];
if (!records) {
  console.error(`unknown corpus ${name}; one of valid, mixed, invalid, foreign`);
  process.exit(2);
}
let sink = 0;
const t0 = process.hrtime.bigint();
for (let r = 0; r < rounds; r++) {
  for (const rec of records) {
    sink += classify(rec, { tenantOrigin: TENANT }).issues.length;
  }
}
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
console.log(`${name}: ${rounds} × ${records.length} records in ${ms.toFixed(0)} ms (${sink} issues)`);
