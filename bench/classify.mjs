// @ts-check
// classify() throughput against Ajv compiled from the generated JSON Schema, side by side in one process.
// Goals: our full classification at least as fast as Ajv's structural check on valid messages (issue 2), and at
// least 3× as fast on every corpus (issue 30).
// Each round times both (CPU time) over the same records, one after the other (which goes first alternates); the ratio
// printed is the median of the rounds' ratios, and in brackets the interval that holds 90% of the medians of resampled
// rounds (medianInterval, stats.mjs).
// Usage: node bench/classify.mjs [--n 30000] [--rounds 45]   (npm run bench runs it; build first)
//   EI_PROTOCOL=<file> measures another build of the protocol module (A/B: a copy of dist/node/protocol.js).
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import Ajv2020 from 'ajv/dist/2020.js';
import { buildCorpus, TENANT } from './corpus.mjs';
import { median, medianInterval } from './stats.mjs';
import { goal, row } from './summary.mjs';

const { classify, toJsonSchema, EVENTS, ACTIONS } = await import(
  process.env.EI_PROTOCOL ? pathToFileURL(process.env.EI_PROTOCOL).href : '../dist/node/protocol.js'
);

// The same valid payloads the unit tests start from.
const { default: examples } = await import('../test/fixtures/valid-payloads.json', { with: { type: 'json' } });
const types = [...EVENTS, ...ACTIONS].map((m) => m.type);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

// The process's CPU time, not the clock's: on a shared machine, time spent waiting for a core is not either side's.
// Each timing starts with an empty young generation, so that each side pays for the collections of its own garbage
// (Ajv's error objects on every message, classify's issues), not for what the other left.
const cpuMs = (fn, records) => {
  gc({ type: 'minor' });
  const t0 = process.cpuUsage();
  fn(records);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
};

export async function benchClassify({ n = 30_000, rounds = 45, log = console.log } = {}) {
  const ajv = new Ajv2020({ strict: true, allErrors: false });
  const validate = ajv.compile(toJsonSchema());
  const corpus = buildCorpus(types, examples, n);
  let sink = 0;
  const ours = (records) => {
    for (const r of records) {
      sink += classify(r, { tenantOrigin: TENANT }).issues.length;
    }
  };
  const theirs = (records) => {
    for (const r of records) {
      sink += validate(r.data) ? 0 : 1;
    }
  };
  // Warm up both (JIT) before measuring.
  for (let i = 0; i < 3; i++) {
    ours(corpus.mixed);
    theirs(corpus.mixed);
  }
  const rows = [];
  for (const name of ['valid', 'mixed', 'invalid', 'foreign']) {
    const records = corpus[name];
    const oursMs = [],
      ajvMs = [],
      ratios = [];
    for (let i = 0; i < rounds; i++) {
      let a, b;
      if (i % 2) {
        b = cpuMs(theirs, records);
        a = cpuMs(ours, records);
      } else {
        a = cpuMs(ours, records);
        b = cpuMs(theirs, records);
      }
      oursMs.push(a);
      ajvMs.push(b);
      ratios.push(b / a);
    }
    rows.push({
      corpus: name,
      messages: records.length,
      oursPerSec: (records.length / median(oursMs)) * 1000,
      ajvPerSec: (records.length / median(ajvMs)) * 1000,
      ratio: median(ratios),
      interval: medianInterval(ratios),
    });
  }
  log('classify() vs Ajv (structural check, JSON Schema 2020-12 from the catalog), messages per CPU second:');
  log('  corpus    messages   classify/s    ajv/s        classify speed ÷ ajv speed (90%)');
  for (const r of rows) {
    log(
      `  ${r.corpus.padEnd(8)}  ${String(r.messages).padEnd(9)}  ${fmt(r.oursPerSec).padEnd(12)}  ${fmt(r.ajvPerSec).padEnd(12)} ${r.ratio.toFixed(2)}× (${r.interval[0].toFixed(2)}–${r.interval[1].toFixed(2)})`,
    );
  }
  if (sink === -1) {
    log('');
  }
  return rows;
}
const fmt = (n) => `${(n / 1e6).toFixed(2)} M`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { n: { type: 'string' }, rounds: { type: 'string' } } });
  await benchClassify({ n: Number(values.n ?? 30_000), rounds: Number(values.rounds ?? 45) });
}

/** The summary table's rows of a run of `benchClassify` (summary.mjs): classify's speed ÷ Ajv's, per corpus. */
export function summaryRows(rows) {
  return {
    runs: '45 rounds',
    rows: rows.map((r) =>
      row(`${r.corpus} corpus: classify's speed ÷ Ajv's`, {
        goal: goal('≥', 3, '×', { issue: 30 }),
        value: r.ratio,
        interval: r.interval,
        unit: '×',
      }),
    ),
  };
}
