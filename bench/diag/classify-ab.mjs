// Diagnostic (not part of npm run bench): two builds of classify() and Ajv's structural check in one process, in
// turn over the same records (the order rotates each round), CPU time, a minor collection before each timing (as
// bench/classify.mjs). Prints, per corpus, each build's ratio to Ajv and the ratio of the two builds (B's speed ÷
// A's), medians of the rounds' ratios with the 90% interval of bench/stats.mjs.
//   node bench/diag/classify-ab.mjs <A protocol.js> <B protocol.js> [rounds] [corpus,…]
// e.g. node bench/diag/classify-ab.mjs /tmp/base/protocol.js dist/node/protocol.js 21 invalid,mixed
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import Ajv2020 from 'ajv/dist/2020.js';
import { buildCorpus, TENANT } from '../corpus.mjs';
import { median, medianInterval } from '../stats.mjs';

const [fileA, fileB, roundsArg = '21', corporaArg = 'valid,mixed,invalid,foreign'] = process.argv.slice(2);
const A = await import(pathToFileURL(resolve(fileA)).href);
const B = await import(pathToFileURL(resolve(fileB)).href);
const { default: examples } = await import('../../test/fixtures/valid-payloads.json', { with: { type: 'json' } });
const types = [...A.EVENTS, ...A.ACTIONS].map((m) => m.type);
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const cpuMs = (fn, records) => {
  gc({ type: 'minor' });
  const t0 = process.cpuUsage();
  fn(records);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
};
const validate = new Ajv2020({ strict: true, allErrors: false }).compile(A.toJsonSchema());
let sink = 0;
const ours = (classify) => (records) => {
  for (const r of records) {
    sink += classify(r, { tenantOrigin: TENANT }).issues.length;
  }
};
const sides = {
  A: ours(A.classify),
  B: ours(B.classify),
  ajv: (records) => {
    for (const r of records) {
      sink += validate(r.data) ? 0 : 1;
    }
  },
};
const corpus = buildCorpus(types, examples);
for (let i = 0; i < 3; i++) {
  for (const f of Object.values(sides)) {
    f(corpus.mixed);
  }
}
const names = Object.keys(sides);
const fmt = (xs) => {
  const [lo, hi] = medianInterval(xs);
  return `${median(xs).toFixed(2)}× (${lo.toFixed(2)}–${hi.toFixed(2)})`;
};
for (const name of corporaArg.split(',')) {
  const records = corpus[name];
  const ms = { A: [], B: [], ajv: [] };
  for (let i = 0; i < Number(roundsArg); i++) {
    for (let k = 0; k < names.length; k++) {
      const side = names[(i + k) % names.length];
      ms[side].push(cpuMs(sides[side], records));
    }
  }
  const ratio = (x, y) => x.map((v, i) => v / y[i]);
  console.log(
    `${name.padEnd(8)} A ${fmt(ratio(ms.ajv, ms.A))}  B ${fmt(ratio(ms.ajv, ms.B))}  B÷A speed ${fmt(ratio(ms.A, ms.B))}  (A ${median(ms.A).toFixed(1)} ms, B ${median(ms.B).toFixed(1)} ms, ajv ${median(ms.ajv).toFixed(1)} ms)`,
  );
}
if (sink === -1) {
  console.log('');
}
