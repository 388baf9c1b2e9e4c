// Diagnostic (not part of npm run bench): do two builds of classify() answer the same? Runs both over the four
// corpora of bench/corpus.mjs, hostile values (cyclic, huge, throwing getters, revoked and throwing proxies, null
// prototypes, inherited and `__proto__` keys), proxies that log every trap and throw at the k-th one, and arbitrary
// records (fast-check, fixed seed), and compares the outputs as JSON (verdicts, issues, messages, paths, order) and,
// for the logging proxies, the order of the traps. Prints the first differences; exits 1 if there is one.
//   node bench/diag/classify-compare.mjs <A protocol.js> <B protocol.js> [arbitrary records]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { buildCorpus, TENANT } from '../corpus.mjs';

const [fileA, fileB, nArb = '20000'] = process.argv.slice(2);
const A = await import(pathToFileURL(resolve(fileA)).href);
const B = await import(pathToFileURL(resolve(fileB)).href);
const { default: examples } = await import('../../test/fixtures/valid-payloads.json', { with: { type: 'json' } });
const types = [...A.EVENTS, ...A.ACTIONS].map((m) => m.type);
const safe = (v) => {
  try {
    return JSON.stringify(v)?.slice(0, 80);
  } catch {
    return String(typeof v);
  }
};
let compared = 0;
let differences = 0;
const same = (label, input, ctx = { tenantOrigin: TENANT }, make) => {
  // `make`: builds a fresh input for each build (for inputs with state, such as logging proxies).
  const a = make ? make() : { input, log: null };
  const b = make ? make() : { input, log: null };
  const ja = JSON.stringify(A.classify(a.input, ctx));
  const jb = JSON.stringify(B.classify(b.input, ctx));
  const la = a.log ? a.log.join(' ') : '';
  const lb = b.log ? b.log.join(' ') : '';
  compared++;
  if (ja !== jb || la !== lb) {
    differences++;
    if (differences <= 10) {
      console.log(
        `DIFFERENT ${typeof label === 'function' ? label() : label}\n  A ${ja}\n  B ${jb}${la !== lb ? `\n  A traps ${la}\n  B traps ${lb}` : ''}`,
      );
    }
  }
};

const corpus = buildCorpus(types, examples);
for (const name of ['valid', 'mixed', 'invalid', 'foreign']) {
  for (const [i, r] of corpus[name].entries()) {
    same(`${name}[${i}]`, r);
  }
}
// Every catalogued example under each context, as an event and an action record, received and posted.
const contexts = [{}, { tenantOrigin: TENANT }, { tenantOrigin: 'https://Acme.example.com:443/x', hostOrigin: TENANT }];
const envelopeOf = (type, payload, extra = {}) => ({
  source: 'svc-embed',
  direction: type.startsWith('svc:event:') ? 'event' : 'action',
  type,
  payload,
  timestamp: 1795000000000,
  ...(type.startsWith('svc:event:') ? { surface: 'dashboard' } : {}),
  ...extra,
});
const records = (data) => [
  { data },
  { kind: 'receive', origin: TENANT, data },
  { kind: 'receive', origin: 'https://evil.example', data },
  { kind: 'post', origin: 'http://127.0.0.1:4100', targetOrigin: TENANT, data },
  { kind: 'post', origin: 'http://127.0.0.1:4100', targetOrigin: '*', data },
  { kind: 'post', origin: 'http://127.0.0.1:4100', targetOrigin: '/', data },
  { kind: 'post', origin: TENANT, targetOrigin: 'https://x.example', dropped: true, target: 'parent', data },
  { kind: 'post', origin: TENANT, targetOrigin: 'nope', error: 'SyntaxError', data },
];
const oddValues = [
  undefined,
  null,
  0,
  -0,
  1.5,
  NaN,
  Infinity,
  1e9,
  '',
  'x',
  'y'.repeat(100),
  'a"b',
  'a\\b',
  'tab\there',
  '\u2028',
  '\ud800',
  'x\udc00',
  '😀',
  'é\u007f',
  `${'z'.repeat(59)}"`,
  `${'z'.repeat(60)}"`,
  true,
  [],
  [1],
  {},
  new Date(0),
  Object.create(null),
  { $ei: 'Number', v: 'NaN' },
  { $ei: 'Object', v: {} },
  { $ei: 'Truncated' },
  () => 1,
  Symbol('s'),
  10n,
];
for (const type of [...types, 'svc:event:nope', 'svc:action:nope', 'other', 42, undefined]) {
  const example = examples[type] ?? {};
  const payloads = [
    example,
    undefined,
    null,
    'p',
    [],
    JSON.parse(`{"__proto__": {"a": 1}, ${JSON.stringify(example).slice(1)}`.replace(/, }$/, '}')),
    Object.assign(Object.create({ inherited: 1 }), example),
    Object.assign(Object.create(null), example),
  ];
  for (const k of Object.keys(example)) {
    for (const v of oddValues) {
      payloads.push({ ...example, [k]: v });
    }
    const { [k]: _, ...rest } = example;
    payloads.push(rest);
  }
  payloads.push({ ...example, extra: 1, another: null });
  for (const p of payloads) {
    for (const extra of [
      {},
      { surface: 'app' },
      { surface: 'nowhere' },
      { surface: 'q"uote\\' },
      { surface: '\ud83d' },
      { type: 'svc:event:"x"' },
      { direction: 'action' },
      { direction: 'event' },
      { direction: 7 },
      { timestamp: 1795000000 },
      { timestamp: 'x' },
      { other: 1 },
      { $ei: 'Truncated', originalSize: 9 },
    ]) {
      for (const r of records(
        envelopeOf(typeof type === 'string' ? type : 'x', p, typeof type === 'string' ? extra : { ...extra, type }),
      )) {
        for (const ctx of contexts) {
          same(() => `${String(type)} ${safe(p)} ${safe(extra)}`, r, ctx);
        }
      }
    }
  }
}
// Hostile values (as in src/protocol/robustness.test.ts).
const cyclic = {
  source: 'svc-embed',
  direction: 'event',
  type: 'svc:event:view',
  timestamp: Date.now(),
  surface: 'app',
};
cyclic.payload = cyclic;
const throwing = {
  source: 'svc-embed',
  get direction() {
    throw new Error('getter');
  },
};
const revoked = Proxy.revocable({}, {});
revoked.revoke();
let deep = { source: 'svc-embed', direction: 'event', type: 'svc:event:view', payload: {} };
for (let i = 0; i < 50_000; i++) {
  deep = { source: 'svc-embed', payload: deep };
}
const huge = {
  source: 'svc-embed',
  direction: 'event',
  type: 'x'.repeat(10_000_000),
  payload: { s: 'y'.repeat(10_000_000) },
};
const hugeValue = envelopeOf('svc:action:set-locale', { locale: 'z'.repeat(1_000_000) });
const hostile = [
  cyclic,
  throwing,
  revoked.proxy,
  deep,
  Object.create({ source: 'svc-embed', direction: 'event' }),
  huge,
  hugeValue,
];
for (const [i, v] of hostile.entries()) {
  for (const ctx of contexts) {
    same(`hostile ${i}`, { data: v }, ctx);
  }
}
// Proxies that log every trap, and throw at the k-th one: the same traps in the same order, the same answer.
const logging = (target, log, throwAt) => {
  const wrap = (t, path) =>
    new Proxy(t, {
      get(o, k) {
        log.push(`get ${path}.${String(k)}`);
        if (log.length === throwAt) {
          throw new Error(`trap ${log.length}`);
        }
        const v = Reflect.get(o, k);
        return v && typeof v === 'object' ? wrap(v, `${path}.${String(k)}`) : v;
      },
      has(o, k) {
        log.push(`has ${path}.${String(k)}`);
        if (log.length === throwAt) {
          throw new Error(`trap ${log.length}`);
        }
        return Reflect.has(o, k);
      },
      ownKeys(o) {
        log.push(`ownKeys ${path}`);
        if (log.length === throwAt) {
          throw new Error(`trap ${log.length}`);
        }
        return Reflect.ownKeys(o);
      },
      getOwnPropertyDescriptor(o, k) {
        log.push(`gopd ${path}.${String(k)}`);
        return Reflect.getOwnPropertyDescriptor(o, k);
      },
      getPrototypeOf(o) {
        log.push(`proto ${path}`);
        return Reflect.getPrototypeOf(o);
      },
    });
  return wrap(target, '$');
};
for (const type of types) {
  for (const p of [examples[type], { ...examples[type], [Object.keys(examples[type])[0] ?? 'x']: 12345, extra: 1 }]) {
    for (const extra of [{}, { surface: 'nowhere' }]) {
      const data = envelopeOf(type, p, extra);
      for (let k = 0; k <= 40; k++) {
        same(`proxy ${type} throw at ${k}`, null, { tenantOrigin: TENANT }, () => {
          const log = [];
          return { input: { kind: 'receive', origin: TENANT, data: logging(data, log, k) }, log };
        });
      }
    }
  }
}
// Arbitrary records (the generator of src/protocol/robustness.test.ts), a fixed seed.
const envelope = fc.record(
  {
    source: fc.oneof(fc.constant('svc-embed'), fc.string()),
    direction: fc.oneof(fc.constantFrom('event', 'action'), fc.anything()),
    type: fc.oneof(fc.constantFrom(...types), fc.anything()),
    payload: fc.oneof(
      fc.object(),
      fc.anything({ withNullPrototype: true, withDate: true, withMap: true }),
      fc.dictionary(
        fc.constantFrom(
          '__proto__',
          'surface',
          'path',
          'timezone',
          'filterUrlParameter',
          'locale',
          'query',
          'status',
          'chatId',
          'format',
          'target',
          'widgetId',
          'rowCount',
          'previousPath',
          'mode',
          'publicId',
          'embedTenant',
          'deploymentId',
        ),
        fc.anything(),
      ),
    ),
    timestamp: fc.oneof(fc.double(), fc.anything()),
    surface: fc.oneof(fc.constantFrom('dashboard', 'app', 'chat'), fc.anything()),
  },
  { requiredKeys: ['source'] },
);
const record = fc.record({
  kind: fc.oneof(fc.constantFrom('receive', 'post'), fc.anything()),
  origin: fc.oneof(fc.constantFrom(TENANT, 'https://a.example', 'null', '*', ''), fc.string(), fc.anything()),
  targetOrigin: fc.oneof(fc.constantFrom('*', '/', TENANT, 'not a url'), fc.anything()),
  dropped: fc.oneof(fc.constant(true), fc.anything()),
  target: fc.constantFrom('parent', 'frame'),
  error: fc.oneof(fc.constant(undefined), fc.string()),
  data: fc.oneof(envelope, fc.anything()),
});
for (const [i, r] of fc.sample(record, { numRuns: Number(nArb), seed: 42 }).entries()) {
  for (const ctx of contexts) {
    same(`arbitrary ${i}`, r, ctx);
  }
}
console.log(`${compared} classifications compared, ${differences} different`);
process.exit(differences ? 1 : 0);
