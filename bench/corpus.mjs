// @ts-check
// The corpora of the classify benchmark (bench/classify.mjs), also read by src/protocol/classify-corpus.test.ts,
// which checks every verdict of them. 30,000 records each by default:
//   valid    the example payload of each catalogued type in turn, with varied strings
//   invalid  the same, with the payload's first field replaced (12345 on odd records, null on even ones; refresh
//            gets an unexpected field), and every third record's envelope surface set to "nowhere"
//   foreign  other tools' messages (another source, or a string)
//   mixed    valid, invalid and foreign records in turn
export const TENANT = 'http://localhost:4101';
export const HOST = 'http://127.0.0.1:4100';

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

/** `types`: the catalogued message types; `examples`: a valid payload of each (test/fixtures/valid-payloads.json). */
export function buildCorpus(types, examples, n = 30_000) {
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
