// classify() throughput against Ajv compiled from the generated JSON Schema, side by side in one process.
// Goal (issue 2): our full classification at least as fast as Ajv's structural check on valid messages.
import Ajv2020 from 'ajv/dist/2020.js';
import { classify, toJsonSchema, EVENTS, ACTIONS } from '../dist/node/protocol.js';

const TENANT = 'http://localhost:4101';
const HOST = 'http://127.0.0.1:4100';
// The same valid payloads the unit tests start from.
const { default: examples } = await import('../test/fixtures/valid-payloads.json', { with: { type: 'json' } });

function record(type, payload, i, extra = {}) {
  const isEvent = type.startsWith('svc:event:');
  const data = {
    source: 'svc-embed',
    direction: isEvent ? 'event' : 'action',
    type,
    payload,
    timestamp: 1795000000000 + i,
    ...(isEvent ? { surface: 'dashboard' } : {}),
    ...extra,
  };
  return isEvent
    ? { seq: i, time: data.timestamp, kind: 'receive', frameUrl: `${HOST}/`, origin: TENANT, data }
    : { seq: i, time: data.timestamp, kind: 'post', frameUrl: `${HOST}/`, origin: HOST, targetOrigin: TENANT, data };
}

export function buildCorpus(n = 30_000) {
  const types = [...EVENTS, ...ACTIONS].map((m) => m.type);
  const valid = [],
    invalid = [],
    foreign = [];
  for (let i = 0; i < n; i++) {
    const type = types[i % types.length];
    // Fresh objects with varied strings, as real traffic has.
    const payload = JSON.parse(JSON.stringify(examples[type]));
    if (typeof payload.path === 'string') {
      payload.path += `/${i % 97}`;
    }
    valid.push(record(type, payload, i));
    const bad = JSON.parse(JSON.stringify(examples[type]));
    const k = Object.keys(bad)[0];
    if (k) {
      bad[k] = i % 2 ? 12345 : null;
    } else {
      bad.unexpected = true;
    }
    invalid.push(record(type, bad, i, i % 3 === 0 ? { surface: 'nowhere' } : {}));
    foreign.push({
      seq: i,
      time: 0,
      kind: 'receive',
      frameUrl: `${HOST}/`,
      origin: HOST,
      data: i % 2 ? { source: 'react-devtools-bridge', payload: { event: 'x', i } } : `wappalyzer:${i}`,
    });
  }
  const mixed = [];
  for (let i = 0; i < n; i++) {
    mixed.push(i % 3 === 0 ? valid[i] : i % 3 === 1 ? invalid[i] : foreign[i]);
  }
  return { valid, invalid, foreign, mixed };
}

function time(fn, records, rounds) {
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    fn(records);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

export async function benchClassify({ n = 30_000, rounds = 15, log = console.log } = {}) {
  const ajv = new Ajv2020({ strict: true, allErrors: false });
  const validate = ajv.compile(toJsonSchema());
  const corpus = buildCorpus(n);
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
  // Warm up both (JIT) before measuring; then alternate them round by round.
  for (let i = 0; i < 3; i++) {
    ours(corpus.mixed);
    theirs(corpus.mixed);
  }
  const rows = [];
  for (const name of ['valid', 'mixed', 'invalid', 'foreign']) {
    const records = corpus[name];
    let a = [],
      b = [];
    for (let i = 0; i < 3; i++) {
      a.push(time(ours, records, rounds));
      b.push(time(theirs, records, rounds));
    }
    const oursMs = Math.min(...a),
      ajvMs = Math.min(...b);
    rows.push({
      corpus: name,
      messages: records.length,
      oursPerSec: (records.length / oursMs) * 1000,
      ajvPerSec: (records.length / ajvMs) * 1000,
      ratio: ajvMs / oursMs,
    });
  }
  log('classify() vs Ajv (structural check, JSON Schema 2020-12 from the catalog), messages per second:');
  log('  corpus    messages   classify/s    ajv/s        classify speed ÷ ajv speed');
  for (const r of rows) {
    log(
      `  ${r.corpus.padEnd(8)}  ${String(r.messages).padEnd(9)}  ${fmt(r.oursPerSec).padEnd(12)}  ${fmt(r.ajvPerSec).padEnd(12)} ${r.ratio.toFixed(2)}×`,
    );
  }
  if (sink === -1) {
    log('');
  }
  return rows;
}
const fmt = (n) => `${(n / 1e6).toFixed(2)} M`;

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchClassify();
}
