import { describe, expect, it } from 'vitest';
import { encodedLength } from './size.ts';
import { syntheticSession } from '../app/synthetic.ts';

/** What the grid showed before: the length of the JSON text, 0 when it cannot be encoded. */
const stringified = (v: unknown) => {
  try {
    return (JSON.stringify(v) ?? '').length;
  } catch {
    return 0;
  }
};

describe('encodedLength is the length of JSON.stringify, without building the text', () => {
  const cyc: Record<string, unknown> = { a: 1 };
  cyc.self = cyc;
  const sparse = [1, undefined, 3]; // eslint-disable-line no-sparse-arrays
  const noProto = Object.assign(Object.create(null), { a: 1, b: 'x' });
  it.each([
    ['undefined (nothing)', undefined],
    ['null', null],
    ['true', true],
    ['false', false],
    ['zero and minus zero', [0, -0]],
    ['integers', [1, -1, 9, 10, 99, 100, 123456789, -987654321, 2 ** 53, -(2 ** 53)]],
    ['fractions and exponents', [0.5, -1.25, 1e-7, 1e21, 1.5e300, 123.456, Number.MIN_VALUE, Number.MAX_VALUE]],
    ['NaN and infinities', [NaN, Infinity, -Infinity]],
    ['plain strings', ['', 'a', 'svc:event:ready', 'héllo wörld ✓']],
    ['quotes and backslashes', ['"', '\\', 'a"b\\c']],
    ['short escapes', ['\b\f\n\r\t']],
    ['control characters', ['\u0000\u0001\u001f\u007f']],
    ['a surrogate pair', ['😀 x']],
    ['lone surrogates', ['\ud800', 'a\udc00b', '\udbff\ud800']],
    ['nested objects and arrays', { source: 'svc-embed', payload: { a: [1, { b: null }], c: {} }, e: [] }],
    [
      'undefined, functions and symbols: skipped in objects, null in arrays',
      { a: undefined, b: () => 1, c: Symbol('x'), d: 1, arr: [undefined, () => 1, Symbol('y')] },
    ],
    ['array holes', sparse],
    ['keys that need escapes', { 'a"b': 1, 'line\nbreak': 2, '': 3 }],
    ['an object without a prototype', noProto],
    ['a Date (toJSON)', { when: new Date(0) }],
    ['a Map, a Set, a typed array', { m: new Map([[1, 2]]), s: new Set([1]), t: new Uint8Array([1, 2]) }],
    ['a boxed string', { s: new String('abc') }],
    ['a BigInt (cannot be encoded: 0)', { n: 10n }],
    ['a cycle (cannot be encoded: 0)', cyc],
    ['very deep', JSON.parse('['.repeat(500) + ']'.repeat(500))],
    ['an array with its own toJSON', Object.assign([1, 2], { toJSON: () => 'x' })],
    [
      'a huge sparse array (cannot be encoded: 0, without walking it)',
      (() => {
        const a: unknown[] = [];
        a.length = 2 ** 29;
        return a;
      })(),
    ],
  ])('%s', (_name, v) => {
    expect(encodedLength(v)).toBe(stringified(v));
  });

  it('agrees on every message of a synthetic session', () => {
    const recs = syntheticSession(3_000);
    for (const r of recs) {
      expect(encodedLength(r.data)).toBe(stringified(r.data));
    }
  });
});
