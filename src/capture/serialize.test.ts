import { describe, expect, it } from 'vitest';
import { encode } from '../protocol/encoding.ts';
import { dataJson } from './serialize.ts';

const shared = { id: 1 };
const many = (n: number, extra: Record<string, unknown> = {}) => {
  const o: Record<string, unknown> = { ...extra };
  for (let i = 0; i < n; i++) {
    o[`k${i}`] = { i };
  }
  return o;
};
const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;
const lateCycle = many(20);
(lateCycle.k19 as Record<string, unknown>).back = lateCycle;
let deep: unknown = 'leaf';
for (let i = 0; i < 80; i++) {
  deep = { d: deep };
}

// Each row: a message, and whether its record's text is what JSON.stringify writes. Whatever the path, the text
// must be the capture encoding's (protocol/encoding.ts), so that a reader decodes one format.
const rows: Array<[string, unknown, boolean]> = [
  ['an envelope', { source: 'svc-embed', type: 'svc:event:ready', payload: { a: [1, 'x', null, true] } }, true],
  ['a string', 'hello', true],
  ['an object repeated among the first few', { a: shared, b: shared }, false],
  ['an object repeated after many others', { ...many(30), z: shared, y: { w: shared } }, false],
  ['a cycle', cyclic, false],
  ['a cycle after many objects', lateCycle, false],
  ['deeper than the fast path walks (the encoder keeps it as it is)', deep, true],
  ['a Date', { at: new Date(0) }, false],
  ['an undefined field', { a: undefined }, false],
  ['-0', { n: -0 }, false],
  ['a key of the encoding', { $ei: 'Date' }, false],
];

describe('dataJson: one message as the capture encoding, serialized once', () => {
  it.each(rows)('%s', (_, value, fast) => {
    const got = dataJson(value, 1_000_000);
    expect(got.json).toBe(JSON.stringify(encode(value, { maxBytes: 1_000_000 }).value));
    let plain: string | undefined;
    try {
      plain = JSON.stringify(value);
    } catch {
      /* a cycle */
    }
    expect(got.json === plain).toBe(fast);
    expect(got.originalSize).toBeUndefined();
  });

  it('forgets the objects of one message before the next (a shared object is no repeat across messages)', () => {
    const a = dataJson({ x: shared }, 1_000_000);
    const b = dataJson({ y: shared }, 1_000_000);
    expect([a.json, b.json]).toEqual(['{"x":{"id":1}}', '{"y":{"id":1}}']);
    const big = many(40, { s: shared });
    expect(dataJson(big, 1_000_000).json).toBe(JSON.stringify(big));
    expect(dataJson({ again: shared }, 1_000_000).json).toBe('{"again":{"id":1}}');
  });

  it('a getter that serializes another message during the walk leaves the outer walk whole', () => {
    const inner = { id: 2 };
    const outer = {
      a: shared,
      get g() {
        return dataJson({ inner, again: inner }, 1_000_000).json;
      },
      b: shared,
    };
    const got = dataJson(outer, 1_000_000).json;
    expect(got).toBe(JSON.stringify(encode(outer, { maxBytes: 1_000_000 }).value));
    expect(got).not.toBe(JSON.stringify(outer)); // b repeats a: a Ref, not a second copy
    const g = JSON.parse(got).g as string;
    expect(g).toBe(JSON.stringify(encode({ inner, again: inner }).value));
  });

  it('keeps a message over the cap truncated, with its encoded size', () => {
    const value = { s: 'x'.repeat(5000) };
    const got = dataJson(value, 100);
    expect(got.originalSize).toBe(encode(value, { maxBytes: 100 }).size);
    expect(got.json).toBe(JSON.stringify(encode(value, { maxBytes: 100 }).value));
    expect(got.json.length).toBeLessThan(JSON.stringify(value).length);
  });
});
