import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { encode } from '../protocol/encoding.ts';
import { copyJson, dataJson, LONG_DATA, ownCopy, plainCopy, plainJson } from './serialize.ts';

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

  it("writes the encoder's text whatever toJSON the page gave the prototypes (Prototype.js's Array#toJSON)", () => {
    const value = { a: [1, 'x', { b: null }], d: new Date(0), n: Number.NaN };
    const expected = dataJson(value, 1_000_000).json;
    expect(JSON.parse(expected).a).toEqual([1, 'x', { b: null }]);
    for (const proto of [Object.prototype, Array.prototype]) {
      Object.defineProperty(proto, 'toJSON', {
        value: () => 'theirs',
        configurable: true,
        writable: true,
      });
      try {
        expect(dataJson(value, 1_000_000).json).toBe(expected);
        expect(dataJson({ a: [1] }, 1_000_000).json).toBe('{"a":[1]}');
        expect(copyJson(ownCopy({ a: [1] }, 1_000_000)?.data)).toBe('{"a":[1]}');
      } finally {
        delete (proto as { toJSON?: unknown }).toJSON;
      }
    }
  });

  it('keeps a message over the cap truncated, with its encoded size', () => {
    const value = { s: 'x'.repeat(5000) };
    const got = dataJson(value, 100);
    expect(got.originalSize).toBe(encode(value, { maxBytes: 100 }).size);
    expect(got.json).toBe(JSON.stringify(encode(value, { maxBytes: 100 }).value));
    expect(got.json.length).toBeLessThan(JSON.stringify(value).length);
  });
});

// Another realm's data (Firefox: the page's, read through a transparent wrapper): the fast path with that realm's
// prototypes writes what the encoder writes of plain data, and declines (null: the caller takes the careful path)
// anything else, a `toJSON` on that realm's prototypes included.
describe('plainJson: the fast path over another realm', () => {
  const realm = () => {
    const g = runInNewContext('({ Object, Array, make: (src) => eval("(" + src + ")") })') as {
      Object: ObjectConstructor;
      Array: ArrayConstructor;
      make: (src: string) => unknown;
    };
    return { g, protos: { obj: g.Object.prototype, arr: g.Array.prototype } };
  };
  const rows: Array<[string, string, boolean]> = [
    ['an envelope', '{ source: "svc-embed", type: "svc:event:ready", payload: { a: [1, "x", null, true] } }', true],
    ['a string', '"hello"', true],
    ['a Date', '{ at: new Date(0) }', false],
    ['a Map', '{ m: new Map() }', false],
    ['a hole in an array', '[1, , 3]', false],
    ['-0', '{ n: -0 }', false],
    ['a repeated object', '(() => { const s = {}; return { a: s, b: s }; })()', false],
    ['a key of the encoding', '{ $ei: "Date" }', false],
  ];
  it.each(rows)('%s', (_, src, fast) => {
    const { g, protos } = realm();
    const value = g.make(src);
    const got = plainJson(value, 1_000_000, protos);
    expect(got).toBe(fast ? JSON.stringify(encode(value, { maxBytes: 1_000_000 }).value) : null);
    // (with this realm's prototypes, the other realm's objects are not plain)
    expect(plainJson(value, 1_000_000)).toBe(typeof value === 'object' ? null : JSON.stringify(value));
  });

  it("declines while that realm's prototypes have a toJSON, and over the cap", () => {
    const { g, protos } = realm();
    const value = g.make('{ a: [1] }');
    expect(plainJson(value, 1_000_000, protos)).toBe('{"a":[1]}');
    expect(plainJson(value, 5, protos)).toBeNull();
    for (const proto of [protos.obj, protos.arr]) {
      Object.defineProperty(proto, 'toJSON', { value: () => 'theirs', configurable: true });
      expect(plainJson(value, 1_000_000, protos)).toBeNull();
      delete (proto as { toJSON?: unknown }).toJSON;
    }
    expect(plainJson(value, 1_000_000, protos)).toBe('{"a":[1]}');
  });

  it('looks at the array prototype, and what it inherits, only for data that holds an array', () => {
    const { g, protos } = realm();
    const withArray = g.make('{ a: [1] }');
    const noArray = g.make('{ a: { b: 1 } }');
    const theirs = g.make('({ toJSON: () => "theirs" })') as object;
    const arrProto = protos.arr as object;
    Object.setPrototypeOf(arrProto, theirs);
    expect(plainJson(withArray, 1_000_000, protos)).toBeNull();
    expect(plainJson(noArray, 1_000_000, protos)).toBe(JSON.stringify(noArray));
    Object.setPrototypeOf(arrProto, protos.obj);
    Object.defineProperty(arrProto, 'toJSON', { value: () => 'theirs', configurable: true });
    expect(plainJson(withArray, 1_000_000, protos)).toBeNull();
    expect(plainJson(noArray, 1_000_000, protos)).toBe(JSON.stringify(noArray));
    delete (arrProto as { toJSON?: unknown }).toJSON;
    expect(plainJson(withArray, 1_000_000, protos)).toBe('{"a":[1]}');
  });

  it("learns the array prototype from the first array when it is not known (never naming the realm's Array)", () => {
    const { g, protos } = realm();
    const learning = { obj: protos.obj, arr: null as object | null };
    expect(plainJson(g.make('{ a: { b: 1 } }'), 1_000_000, learning)).toBe('{"a":{"b":1}}');
    expect(learning.arr).toBeNull(); // no array met yet
    expect(plainJson(g.make('{ a: [1, [2]] }'), 1_000_000, learning)).toBe('{"a":[1,[2]]}');
    expect(learning.arr).toBe(protos.arr);
    // learnt once: an array of another prototype is not plain, and a toJSON on the learnt one is still looked at
    expect(plainJson({ a: [1] }, 1_000_000, learning)).toBeNull();
    Object.defineProperty(protos.arr, 'toJSON', { value: () => 'theirs', configurable: true });
    expect(plainJson(g.make('[1]'), 1_000_000, learning)).toBeNull();
    delete (protos.arr as { toJSON?: unknown }).toJSON;
    // the copy at delivery learns it the same way
    const copying = { obj: protos.obj, arr: null as object | null };
    expect(plainCopy(g.make('{ a: [1] }'), copying, 1_000_000)?.data).toEqual({ a: [1] });
    expect(copying.arr).toBe(protos.arr);
  });
});

// A post's data in the MAIN world (page.ts): copied at the end of its task, written at the hand-over. The copy's text
// must be the text the data had when copied, whatever the page does to the data or its prototypes afterwards.
describe('ownCopy: a post held as a copy and written later', () => {
  const long = 'x'.repeat(10_000);
  // Each row: a message, and whether it is copied (else null: written at once by dataJson, as before).
  const copyRows: Array<[string, unknown, boolean]> = [
    ...rows.map(([name, value, fast]): [string, unknown, boolean] => [
      name,
      value,
      fast && name !== 'deeper than the fast path walks (the encoder keeps it as it is)',
    ]),
    ['a 10 KB envelope', { source: 'svc-embed', type: 'svc:event:data', payload: { text: long, list: [1, 2] } }, true],
    ['an array at the top', [1, 'two', [3], { four: 4 }], true],
    ['keys the prototype has', { toString: 1, constructor: 2, hasOwnProperty: [3] }, true],
    ['an own __proto__ key', JSON.parse('{"__proto__": {"a": 1}, "b": 2}'), true],
    ['integer-like keys', { 2: 'b', 1: 'a', x: 'c' }, true],
    ['NaN', { n: Number.NaN }, false],
    // biome-ignore lint/suspicious/noSparseArray: a hole is what the case is about
    ['a hole', [1, , 3], false],
    ['a function', { f() {} }, false],
  ];
  it.each(copyRows)('%s', (_, value, copied) => {
    const now = dataJson(value, 1_000_000);
    const copy = ownCopy(value, 1_000_000);
    expect(copy !== null).toBe(copied);
    if (copy) {
      expect(copyJson(copy.data)).toBe(now.json);
      expect(copy.chars).toBeGreaterThan(0);
    }
  });

  it('shares the strings and keeps the text the data had when copied', () => {
    const data = { type: 'svc:event:data', payload: { text: long, list: [1, 2] } };
    const before = JSON.stringify(data);
    const copy = ownCopy(data, 1_000_000)!;
    // what it counts for in the frame's bounds: about its text's length
    expect(Math.abs(copy.chars - before.length)).toBeLessThan(before.length / 100);
    data.payload.text = 'changed';
    data.payload.list.push(3);
    (data as Record<string, unknown>).added = true;
    expect(copyJson(copy.data)).toBe(before);
  });

  it('runs no setter of the prototypes while it copies, and reads a page getter in the data once', () => {
    let setters = 0;
    const keys = ['type', '0'];
    for (const [proto, key] of [
      [Object.prototype, keys[0]],
      [Array.prototype, keys[1]],
    ] as const) {
      Object.defineProperty(proto, key, {
        configurable: true,
        set() {
          setters++;
        },
        get() {
          return undefined;
        },
      });
    }
    let reads = 0;
    const data = {
      get type() {
        reads++;
        return 'svc:event:ready';
      },
      list: ['a', 'b'],
    };
    let copy: ReturnType<typeof ownCopy>;
    try {
      copy = ownCopy(data, 1_000_000);
    } finally {
      delete (Object.prototype as Record<string, unknown>).type;
      delete (Array.prototype as unknown as Record<string, unknown>)['0'];
    }
    expect(setters).toBe(0);
    expect(reads).toBe(1);
    expect(copyJson(copy!.data)).toBe('{"type":"svc:event:ready","list":["a","b"]}');
    expect(reads).toBe(1);
  });

  it('runs none of a page’s later setters on array indices nor its replaced Set methods, in a first walk too', () => {
    // A page that, after our scripts loaded, watches every array index and the Set methods (a script that looks for
    // an extension's footprints, or a library that patches built-ins): walking and copying its post runs none.
    const ran: string[] = [];
    const indexes = Array.from({ length: 40 }, (_, i) => String(i));
    for (const key of indexes) {
      Object.defineProperty(Array.prototype, key, {
        configurable: true,
        set() {
          ran.push(`set [${key}]`);
        },
        get() {
          return undefined;
        },
      });
    }
    const setProto = Set.prototype as unknown as Record<string, unknown>;
    const own = { has: setProto.has, add: setProto.add, clear: setProto.clear };
    for (const name of ['has', 'add', 'clear'] as const) {
      setProto[name] = function (this: unknown, ...args: unknown[]) {
        ran.push(`Set#${name}`);
        return Reflect.apply(own[name] as (...a: unknown[]) => unknown, this, args);
      };
    }
    // More objects than the walk compares one by one (16), so that it notes the rest in its Set.
    const data = { type: 'svc:event:view', payload: { rows: Array.from({ length: 30 }, (_, i) => ({ i })) } };
    let json: string | null;
    let copy: ReturnType<typeof ownCopy>;
    try {
      json = plainJson(data, 1_000_000);
      copy = ownCopy(data, 1_000_000);
    } finally {
      for (const key of indexes) {
        delete (Array.prototype as unknown as Record<string, unknown>)[key];
      }
      Object.assign(setProto, own);
    }
    expect(ran).toEqual([]);
    expect(json).toBe(JSON.stringify(data));
    expect(copyJson(copy!.data)).toBe(JSON.stringify(data));
  });

  it("plainJson's `long`: plain data with that many characters of strings and keys is not written", () => {
    const data = { type: 'abc', payload: { text: 'x'.repeat(100) } };
    expect(plainJson(data, 1_000_000, undefined, 115)).toBe(LONG_DATA); // 4 + 3 + 7 + 4 + 100 characters
    expect(plainJson(data, 1_000_000, undefined, 119)).toBe(JSON.stringify(data));
    expect(plainJson({ d: new Date(0), s: 'x'.repeat(100) }, 1_000_000, undefined, 10)).toBeNull();
  });

  it('declines data whose text could reach the cap (every character escaped), which dataJson truncates', () => {
    const data = { s: 'x'.repeat(1000) };
    expect(ownCopy(data, 6100)).not.toBeNull();
    expect(ownCopy(data, 5000)).toBeNull();
  });
});
