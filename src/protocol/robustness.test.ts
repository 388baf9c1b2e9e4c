import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classify } from './classify.ts';
import { SessionChecker } from './session.ts';
import { checkRecords } from './capture.ts';
import { encode } from './encoding.ts';
import { EVENT_TYPES, ACTION_TYPES } from './catalog.ts';

// Arbitrary structured-clone values, plus the odd things a page can post.
const cloneable = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withSparseArray: true,
      withNullPrototype: true,
      withBoxedValues: true,
      withObjectString: true,
    }),
    fc.constantFrom(NaN, -0, Infinity, undefined, null, new ArrayBuffer(8), /re/g, new Error('e'), Object.create(null)),
    tie('envelope'),
  ),
  envelope: fc.record(
    {
      source: fc.oneof(fc.constant('svc-embed'), fc.string()),
      direction: fc.oneof(fc.constantFrom('event', 'action'), fc.anything()),
      type: fc.oneof(fc.constantFrom(...EVENT_TYPES, ...ACTION_TYPES), fc.anything()),
      payload: fc.oneof(
        fc.object(),
        fc.anything(),
        fc.dictionary(
          fc.constantFrom(
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
          ),
          fc.anything(),
        ),
      ),
      timestamp: fc.oneof(fc.double(), fc.anything()),
      surface: fc.oneof(fc.constantFrom('dashboard', 'app', 'chat'), fc.anything()),
    },
    { requiredKeys: ['source'] },
  ),
}));

const record = fc.record({
  seq: fc.oneof(fc.nat(), fc.anything()),
  kind: fc.oneof(fc.constantFrom('receive', 'post'), fc.anything()),
  origin: fc.oneof(fc.constantFrom('https://a.example', 'null', '*', ''), fc.string(), fc.anything()),
  targetOrigin: fc.oneof(fc.constantFrom('*', '/', 'https://a.example', 'not a url'), fc.anything()),
  frameUrl: fc.oneof(fc.webUrl(), fc.anything()),
  dropped: fc.anything(),
  pairedWith: fc.anything(),
  data: cloneable.value,
});

describe('never throws, whatever it is given', () => {
  it('classify, the session checker and checkRecords on arbitrary records', () => {
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 20 }),
        fc.oneof(fc.constant(null), fc.constant('https://a.example'), fc.string()),
        (records, tenant) => {
          const session = new SessionChecker({ tenantOrigin: tenant });
          for (const r of records) {
            const c = classify(r as any, { tenantOrigin: tenant });
            expect(['valid', 'invalid', 'foreign']).toContain(c.verdict);
            session.check(r as any);
          }
          checkRecords(records as any, { tenantOrigin: tenant });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('classify and encode on hostile values', () => {
    const cyclic: any = {
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
    const proxyThrows = new Proxy(
      { source: 'svc-embed' },
      {
        get(_t, k) {
          if (k === 'source') {
            return 'svc-embed';
          }
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('keys');
        },
      },
    );
    let deep: any = { source: 'svc-embed', direction: 'event', type: 'svc:event:view', payload: {} };
    for (let i = 0; i < 50_000; i++) {
      deep = { source: 'svc-embed', payload: deep };
    }
    const odd = Object.create({ source: 'svc-embed', direction: 'event' });
    const huge = {
      source: 'svc-embed',
      direction: 'event',
      type: 'x'.repeat(10_000_000),
      payload: { s: 'y'.repeat(10_000_000) },
    };
    for (const v of [cyclic, throwing, revoked.proxy, proxyThrows, deep, odd, huge]) {
      expect(() => classify({ data: v }, { tenantOrigin: 'https://a.example' })).not.toThrow();
      expect(() => new SessionChecker().check({ data: v, kind: 'receive' })).not.toThrow();
      expect(() => encode(v)).not.toThrow();
      expect(() => JSON.stringify(encode(v).value)).not.toThrow();
    }
  });

  it('is pure: the input is not changed and the same input gives the same output', () => {
    fc.assert(
      fc.property(record, (r) => {
        const snapshot = encode(r).value;
        const a = classify(r as any, { tenantOrigin: 'https://a.example' });
        const b = classify(r as any, { tenantOrigin: 'https://a.example' });
        expect(b).toEqual(a);
        expect(encode(r).value).toEqual(snapshot);
      }),
      { numRuns: 300 },
    );
  });
});
