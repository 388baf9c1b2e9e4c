import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sameJson } from './json-equal.ts';

const copy = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('sameJson', () => {
  it('is true for a value read twice from its JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(sameJson(copy(v), copy(v))).toBe(true);
      }),
    );
  });

  it('is true only where JSON writes both alike', () => {
    const value = fc.oneof(fc.jsonValue(), fc.anything({ withNullPrototype: true, withObjectString: true }));
    fc.assert(
      fc.property(value, value, (a, b) => {
        if (sameJson(a, b)) {
          expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        }
      }),
    );
  });

  it.each([
    ['the same keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }],
    ['a key more', { a: 1 }, { a: 1, b: 2 }],
    ['a value apart', { a: [1, 2, { c: 'x' }] }, { a: [1, 2, { c: 'y' }] }],
    ['an array and an object', [1], { 0: 1 }],
    ['NaN (it cannot tell: the caller compares texts)', { n: Number.NaN }, { n: Number.NaN }],
    ['a date (not what JSON reads)', { d: new Date(0) }, { d: new Date(0) }],
  ])('is false for %s', (_what, a, b) => {
    expect(sameJson(a, b)).toBe(false);
  });

  it('is false past its depth, and for one object twice (whose kind it does not check)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) {
      deep = [deep];
    }
    expect(sameJson(deep, copy(deep))).toBe(false);
    const o = { a: 1 };
    expect(sameJson(o, o)).toBe(false);
  });

  it('reads a "__proto__" key as the key it is', () => {
    expect(sameJson(JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":1}}'))).toBe(true);
    expect(sameJson(JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":2}}'))).toBe(false);
  });
});
