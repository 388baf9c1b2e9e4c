import { describe, expect, it } from 'vitest';
import {
  compileFilter,
  defaultFilters,
  parseFilters,
  parseSearch,
  serializeFilters,
  type FilterState,
} from './filters.ts';
import { MetaCache } from '../log/meta.ts';
import { searchTextOf } from '../log/searchtext.ts';
import { syntheticSession, TENANT, HOST, XSS_TITLE } from '../app/synthetic.ts';
import type { ClassifiedRecord } from '../../shared/messages.ts';

const records = syntheticSession(200);
const metas = new MetaCache();
const metaOf = (r: ClassifiedRecord) => metas.of(r);
const run = (patch: Partial<FilterState>) => {
  const p = compileFilter({ ...defaultFilters(), ...patch });
  return records.filter((r) => p(r, metaOf(r), () => searchTextOf(r)));
};
const env = (r: ClassifiedRecord) => r.data as Record<string, any>;

describe('filters', () => {
  it('hides foreign traffic by default and shows it on demand', () => {
    expect(records.some((r) => r.verdict === 'foreign' && !r.navigation)).toBe(true);
    expect(run({}).some((r) => r.verdict === 'foreign' && !r.navigation)).toBe(false);
    expect(run({ showForeign: true }).length).toBe(records.length);
  });

  // Each filter narrows the list to exactly the records with the property.
  const cases: Array<[string, Partial<FilterState>, (r: ClassifiedRecord) => boolean]> = [
    ['direction event', { directions: ['event'] }, (r) => env(r)?.direction === 'event'],
    ['direction action', { directions: ['action'] }, (r) => env(r)?.direction === 'action'],
    ['kind post', { kinds: ['post'] }, (r) => r.kind === 'post' && r.verdict !== 'foreign'],
    [
      'kind receive',
      { kinds: ['receive'] },
      (r) => r.kind === 'receive' && (r.verdict !== 'foreign' || !!r.navigation),
    ],
    ['type ready', { types: ['svc:event:ready'] }, (r) => env(r)?.type === 'svc:event:ready'],
    [
      'types view+navigate',
      { types: ['svc:event:view', 'svc:action:navigate'] },
      (r) => ['svc:event:view', 'svc:action:navigate'].includes(env(r)?.type),
    ],
    ['surface app', { surfaces: ['app'] }, (r) => env(r)?.surface === 'app'],
    ['verdict invalid', { verdicts: ['invalid'] }, (r) => r.verdict === 'invalid'],
    ['verdict valid', { verdicts: ['valid'] }, (r) => r.verdict === 'valid'],
    ['severity warning', { severities: ['warning'] }, (r) => r.issues.some((i) => i.severity === 'warning')],
    ['severity error', { severities: ['error'] }, (r) => r.issues.some((i) => i.severity === 'error')],
    [
      'frame host',
      { frames: [`${HOST}/analytics`] },
      (r) => r.frameUrl === `${HOST}/analytics` && r.verdict !== 'foreign',
    ],
    ['origin tenant', { origins: [TENANT] }, (r) => r.origin === TENANT && (r.verdict !== 'foreign' || !!r.navigation)],
    ['search plain text', { search: 'timeout' }, (r) => JSON.stringify(r.data).includes('timeout')],
    ['search type:', { search: 'type:ready' }, (r) => env(r)?.type === 'svc:event:ready'],
    ['search payload field', { search: 'loadDurationMs:>1500' }, (r) => env(r)?.payload?.loadDurationMs > 1500],
    [
      'search payload.path',
      { search: 'payload.path:folder' },
      (r) => String(env(r)?.payload?.path ?? '').includes('folder'),
    ],
    ['search bare payload field presence', { search: 'fatal:' }, (r) => env(r)?.payload?.fatal !== undefined],
    ['search target wildcard', { search: 'target:*' }, (r) => r.targetOrigin === '*'],
    ['search rule', { search: 'rule:origin.' }, (r) => r.issues.some((i) => i.rule.startsWith('origin.'))],
    [
      'search negation',
      { search: '-kind:receive type:view' },
      (r) => r.kind === 'post' && env(r)?.type === 'svc:event:view',
    ],
    ['search quoted', { search: '"top customers #5"' }, (r) => JSON.stringify(r.data).includes('top customers #5"')],
    [
      'search url is text',
      { search: 'https://acme' },
      (r) => (JSON.stringify(r.data) + r.frameUrl + r.origin + (r.targetOrigin ?? '')).includes('https://acme'),
    ],
    ['search xss text', { search: '<img' }, (r) => r.verdict !== 'foreign' && JSON.stringify(r.data).includes('<img')],
  ];
  it.each(cases)('%s narrows to exactly the matching records', (_name, patch, expected) => {
    const got = run(patch).map((r) => r.seq);
    const want = records
      .filter((r) => (r.verdict !== 'foreign' || (r.navigation && !patch.verdicts && !patch.severities)) && expected(r))
      .map((r) => r.seq);
    expect(want.length).toBeGreaterThan(0);
    expect(got).toEqual(want);
  });

  it('combines filters with AND', () => {
    const got = run({ directions: ['event'], kinds: ['post'], search: 'type:view' });
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((r) => r.kind === 'post' && env(r).type === 'svc:event:view')).toBe(true);
  });

  it('finds the XSS payload as text', () => {
    expect(run({ search: XSS_TITLE.slice(0, 12) }).length).toBe(2);
  });
});

describe('search parsing', () => {
  it.each([
    ['hello', [{ negate: false, value: 'hello' }]],
    ['type:Ready', [{ negate: false, field: 'type', value: 'ready' }]],
    [
      '-origin:x "a b"',
      [
        { negate: true, field: 'origin', value: 'x' },
        { negate: false, value: 'a b' },
      ],
    ],
    ['title:"a b"', [{ negate: false, field: 'title', value: 'a b' }]],
    ['n:>=5', [{ negate: false, field: 'n', value: '>=5', cmp: { op: '>=', n: 5 } }]],
    ['http://x', [{ negate: false, value: 'http://x' }]],
    ['  ', []],
  ])('%j', (q, want) => {
    expect(parseSearch(q)).toEqual(want);
  });
});

describe('persistence', () => {
  it('round-trips and rejects junk field by field', () => {
    const f = { ...defaultFilters(), types: ['svc:event:ready'], showForeign: true, search: 'x' };
    expect(parseFilters(serializeFilters(f))).toEqual(f);
    expect(parseFilters('not json')).toEqual(defaultFilters());
    expect(
      parseFilters(JSON.stringify({ verdicts: ['valid', 'bogus', 3], showForeign: 'yes', kinds: 'post' })),
    ).toEqual({ ...defaultFilters(), verdicts: ['valid'] });
  });
});

describe('a message kept truncated', () => {
  it('is found by its type and envelope fields like any message', () => {
    const post = records.find((r) => r.kind === 'post' && !r.navigation && r.verdict !== 'foreign')!;
    const type = env(post).type as string;
    const truncated: ClassifiedRecord = {
      ...post,
      seq: 99_999,
      originalSize: 5_000_000,
      data: {
        $ei: 'Truncated',
        originalSize: 5_000_000,
        preview: '{"source":"svc-embed"…',
        source: 'svc-embed',
        direction: env(post).direction,
        type,
        timestamp: 1,
      },
    };
    const short = type.split(':').pop()!;
    const p = compileFilter({ ...defaultFilters(), showForeign: true, search: `type:${short}` });
    expect(p(truncated, metaOf(truncated), () => searchTextOf(truncated))).toBe(true);
    expect(metaOf(truncated).type).toBe(type);
  });
});
