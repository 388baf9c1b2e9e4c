import { describe, expect, it } from 'vitest';
import { describe as describeNode, preview, valueAt, copyText, highlightOf, isAncestorPath } from './jsontree-model.ts';
import { encode } from '../../protocol/encoding.ts';

const summaryOf = (v: unknown) => describeNode(encode(v).value).summary;

describe('JSON tree shows encoded values as what they were', () => {
  it.each([
    [new Date('2026-01-01T00:00:00Z'), 'Date 2026-01-01T00:00:00.000Z'],
    [
      new Map([
        [1, 2],
        [3, 4],
      ]),
      'Map(2)',
    ],
    [new Set([1]), 'Set(1)'],
    [undefined, 'undefined'],
    [NaN, 'NaN'],
    [-Infinity, '-Infinity'],
    [10n, '10n'],
    [/a+/gi, '/a+/gi'],
    [new Uint8Array([1, 2, 3]), 'Uint8Array(3 B)'],
    [new ArrayBuffer(4), 'ArrayBuffer(4 B)'],
    [new TypeError('bad'), 'TypeError: bad'],
    ['<img src=x onerror=alert(1)>', '"<img src=x onerror=alert(1)>"'],
  ])('%s', (v, want) => {
    expect(summaryOf(v)).toBe(want);
  });

  it('marks cycles and repeated references', () => {
    const a: Record<string, unknown> = { n: 1 };
    a.self = a;
    const shared = { x: 1 };
    const root = describeNode(encode({ a, b: shared, c: shared }).value);
    const kids = root.children!();
    const self = kids[0].children!().find((k) => k.key === 'self')!;
    expect(self.summary).toBe('[Circular → $.a]');
    expect(kids[2].summary).toBe('[Repeated → $.b]');
  });

  it('keeps an escaped $ei key as a plain object', () => {
    const n = describeNode(encode({ $ei: 'Date', v: 'nope' }).value);
    expect(n.kind).toBe('object');
    expect(n.children!().map((c) => c.key)).toEqual(['$ei', 'v']);
  });

  it('shows a truncated value with its size and preview', () => {
    const n = describeNode(encode({ source: 'svc-embed', big: 'x'.repeat(3000) }, { maxBytes: 1000 }).value);
    expect(n.kind).toBe('truncated');
    expect(n.summary).toMatch(/^Truncated \(.* over the size cap\)$/);
    expect(n.children!().some((c) => c.key === 'preview')).toBe(true);
  });

  it('previews containers and finds values by path for copying', () => {
    const enc = encode({ payload: { path: '/a', n: [1, 2], m: new Map([['k', 'v']]) } }).value;
    expect(preview(enc)).toBe('{payload: {…}}');
    expect(valueAt(enc, '$.payload.n[1]')).toBe(2);
    expect(valueAt(enc, '$.payload.m.<value 0>')).toBe('v');
    expect(copyText(valueAt(enc, '$.payload.path'))).toBe('/a');
    const m = describeNode(enc).children!()[0].children!().find((c) => c.key === 'm')!;
    expect(m.children!()[0]).toMatchObject({ key: '"k" =>', path: '$.payload.m.<value 0>', summary: '"v"' });
  });
});

describe("an issue's path marks its field in the tree", () => {
  const msg = encode({
    source: 'svc-embed',
    payload: { filters: [{ field: 'region', op: 'eq' }], 'odd key': 1, timezone: '+02:00' },
  }).value;
  it.each([
    ['payload.timezone', '$.payload.timezone', true, undefined],
    ['$.payload.timezone', '$.payload.timezone', true, undefined],
    ['payload.filters[0].field', '$.payload.filters[0].field', true, undefined],
    ['payload["odd key"]', '$.payload["odd key"]', true, undefined],
    ['payload.locale', '$.payload', false, 'locale'],
    ['payload.filters[3].op', '$.payload.filters', false, '3'],
    ['surface', '$', false, 'surface'],
    ['$', '$', true, undefined],
  ])('%s → %s', (issuePath, treePath, exact, missing) => {
    const h = highlightOf(msg, issuePath);
    expect(h).toEqual({ path: treePath, exact, ...(missing ? { missing } : {}) });
    // the marked node is one the tree shows: its value is there
    expect(valueAt(msg, h.path)).not.toBeUndefined();
  });
  it('opens the ancestors of a marked field, and only those', () => {
    expect(isAncestorPath('$.payload', '$.payload.filters[0].field')).toBe(true);
    expect(isAncestorPath('$.payload.filters', '$.payload.filters[0].field')).toBe(true);
    expect(isAncestorPath('$.pay', '$.payload.timezone')).toBe(false);
    expect(isAncestorPath('$.payload.timezone', '$.payload.timezone')).toBe(false);
  });
});
