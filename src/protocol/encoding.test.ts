import { describe, expect, it } from 'vitest';
import { encode, typeName, TAG } from './encoding.ts';
import { decode } from './decode.ts';

describe('encode: values JSON cannot carry', () => {
  const cyclic: any = { name: 'root', list: [1] };
  cyclic.self = cyclic;
  cyclic.list.push(cyclic.list);
  it.each<[string, unknown, unknown]>([
    ['plain JSON is kept as is', { a: [1, 'x', true, null, { b: 2 }] }, { a: [1, 'x', true, null, { b: 2 }] }],
    ['undefined', { a: undefined }, { a: { [TAG]: 'undefined' } }],
    [
      'NaN, Infinity, -0',
      [NaN, -Infinity, -0],
      [
        { [TAG]: 'Number', v: 'NaN' },
        { [TAG]: 'Number', v: '-Infinity' },
        { [TAG]: 'Number', v: '-0' },
      ],
    ],
    ['BigInt', 10n ** 20n, { [TAG]: 'BigInt', v: '100000000000000000000' }],
    ['Date', new Date(Date.UTC(2026, 0, 2)), { [TAG]: 'Date', v: '2026-01-02T00:00:00.000Z' }],
    ['invalid Date', new Date(NaN), { [TAG]: 'Date', v: 'Invalid Date' }],
    ['RegExp', /a+b/gi, { [TAG]: 'RegExp', source: 'a+b', flags: 'gi' }],
    [
      'Map',
      new Map<unknown, unknown>([
        ['k', 1],
        [2, new Set(['s'])],
      ]),
      {
        [TAG]: 'Map',
        v: [
          ['k', 1],
          [2, { [TAG]: 'Set', v: ['s'] }],
        ],
      },
    ],
    ['ArrayBuffer', new Uint8Array([1, 2, 3, 250]).buffer, { [TAG]: 'ArrayBuffer', v: 'AQID+g==' }],
    ['typed array', new Uint16Array([1, 65535]), { [TAG]: 'TypedArray', kind: 'Uint16Array', v: 'AQD//w==' }],
    ['Error', new TypeError('bad'), { [TAG]: 'Error', name: 'TypeError', message: 'bad' }],
    [
      'object with its own $ei key is escaped',
      { [TAG]: 'Date', v: 1 },
      { [TAG]: 'Object', v: { [TAG]: 'Date', v: 1 } },
    ],
    [
      'class instance as its own properties',
      new (class Point {
        x = 1;
        y = 2;
      })(),
      { x: 1, y: 2 },
    ],
    [
      'cycles become references',
      cyclic,
      { name: 'root', list: [1, { [TAG]: 'Ref', path: '$.list' }], self: { [TAG]: 'Ref', path: '$' } },
    ],
  ])('%s', (_name, input, expected) => {
    const out = encode(input);
    expect(out.truncated).toBe(false);
    expect(out.value).toEqual(expected);
    expect(() => JSON.stringify(out.value)).not.toThrow();
  });

  it('round-trips through decode', () => {
    const input: any = {
      d: new Date(5),
      m: new Map([[1, 'a']]),
      s: new Set([1]),
      b: 5n,
      u: undefined,
      n: NaN,
      t: new Uint8Array([9, 8]),
      r: /x/g,
    };
    input.me = input;
    const back = decode(JSON.parse(JSON.stringify(encode(input).value))) as any;
    expect(back.d).toEqual(new Date(5));
    expect(back.m).toEqual(new Map([[1, 'a']]));
    expect(back.s).toEqual(new Set([1]));
    expect(back.b).toBe(5n);
    expect('u' in back && back.u === undefined).toBe(true);
    expect(back.n).toBeNaN();
    expect(Array.from(back.t)).toEqual([9, 8]);
    expect(back.r).toEqual(/x/g);
    expect(back.me).toBe(back);
  });

  it('decodes a key named __proto__ as an own key, leaving the prototype alone (a replay sends what was captured)', () => {
    for (const captured of [
      '{"__proto__":{"x":1},"y":2}',
      '{"$ei":"Object","v":{"__proto__":{"x":1},"y":2}}',
      '{"a":{"__proto__":{"$ei":"Ref","path":"$"}}}',
    ]) {
      const back = decode(JSON.parse(captured)) as any;
      const holder = 'a' in back ? back.a : back;
      expect(Object.hasOwn(holder, '__proto__'), captured).toBe(true);
      expect(Object.getPrototypeOf(holder), captured).toBe(Object.prototype);
    }
    expect(JSON.stringify(decode(JSON.parse('{"__proto__":{"x":1},"y":2}')))).toBe('{"__proto__":{"x":1},"y":2}');
  });

  it('names encoded and raw types alike', () => {
    for (const [raw, name] of [
      [new Date(), 'Date'],
      [new Map(), 'Map'],
      [NaN, 'NaN'],
      [undefined, 'undefined'],
      [[1], 'array'],
      [{}, 'object'],
      [null, 'null'],
    ] as const) {
      expect(typeName(raw)).toBe(name);
      expect(typeName(encode(raw).value)).toBe(name);
    }
  });
});

describe('encode: size cap', () => {
  it('truncates a message over the cap, keeping its size, envelope and a preview', () => {
    const big = {
      source: 'svc-embed',
      direction: 'event',
      type: 'svc:event:error',
      surface: 'dashboard',
      timestamp: 1,
      payload: { message: 'x'.repeat(5_000_000) },
    };
    const out = encode(big, { maxBytes: 1_000_000 });
    expect(out.truncated).toBe(true);
    expect(out.size).toBeGreaterThan(5_000_000);
    expect(out.value).toMatchObject({
      [TAG]: 'Truncated',
      source: 'svc-embed',
      type: 'svc:event:error',
      surface: 'dashboard',
    });
    expect(JSON.stringify(out.value).length).toBeLessThan(10_000);
  });
  it('keeps a message under the cap whole', () => {
    const out = encode({ s: 'x'.repeat(900_000) }, { maxBytes: 1_000_000 });
    expect(out.truncated).toBe(false);
    expect((out.value as any).s.length).toBe(900_000);
  });
  it('caps depth instead of overflowing the stack', () => {
    let deep: any = {};
    const root = deep;
    for (let i = 0; i < 100_000; i++) {
      deep.n = {};
      deep = deep.n;
    }
    const out = encode(root);
    expect(out.truncated).toBe(true);
  });
});
