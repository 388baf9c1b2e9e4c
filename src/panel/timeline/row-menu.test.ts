import { describe, expect, it } from 'vitest';
import { filterPatch, plainJson, rowMenuItems } from './row-menu.ts';
import { compileFilter, defaultFilters } from './filters.ts';
import { MetaCache } from '../log/meta.ts';
import { searchTextOf } from '../log/searchtext.ts';
import { syntheticSession } from '../app/synthetic.ts';
import { encode } from '../../protocol/encoding.ts';
import type { ClassifiedRecord } from '../../shared/messages.ts';

const records = syntheticSession(200);
const metas = new MetaCache();
const post = records.find((r) => r.kind === 'post' && !r.navigation && r.verdict !== 'foreign')!;
const foreign = records.find((r) => r.verdict === 'foreign' && !r.navigation)!;

describe('row menu model', () => {
  it('offers every action, in order, with the features the panel has', () => {
    const ids = rowMenuItems(post, metas.of(post), {
      copyCode: { label: 'Copy as code' },
      replay: { label: 'Re-send as captured' },
    }).map((i) => i.id);
    expect(ids).toEqual([
      'copy-json',
      'copy-code',
      'filter-type',
      'filter-frame',
      'filter-origin',
      'replay',
      'related',
    ]);
    // without the act feature: the shared actions only
    expect(rowMenuItems(post, metas.of(post)).map((i) => i.id)).toEqual([
      'copy-json',
      'filter-type',
      'filter-frame',
      'filter-origin',
      'related',
    ]);
  });

  it('disables "this type" on a message without a type, and says why', () => {
    const item = rowMenuItems(foreign, metas.of(foreign)).find((i) => i.id === 'filter-type')!;
    expect(item.disabled).toMatch(/no type/);
    expect(rowMenuItems(post, metas.of(post)).find((i) => i.id === 'filter-type')!.disabled).toBeUndefined();
  });

  // Each "filter by" action keeps exactly the records that share the row's type, frame or origin.
  it.each([
    ['filter-type', (r: ClassifiedRecord) => metas.of(r).type === metas.of(post).type],
    ['filter-frame', (r: ClassifiedRecord) => r.frameUrl === post.frameUrl],
    ['filter-origin', (r: ClassifiedRecord) => r.origin === post.origin],
  ] as const)('%s keeps the records like the row', (id, like) => {
    const p = compileFilter({ ...defaultFilters(), showForeign: true, ...filterPatch(id, post, metas.of(post)) });
    const kept = records.filter((r) => p(r, metas.of(r), () => searchTextOf(r)));
    expect(kept).toContain(post);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every(like)).toBe(true);
    expect(kept).toEqual(records.filter(like));
  });

  it('copies plain JSON of the message, not the capture encoding', () => {
    const value = {
      source: 'svc-embed',
      when: new Date('2026-01-01T09:30:00.000Z'),
      tags: new Map<string, unknown>([['region', 'EMEA']]),
      set: new Set([1, 2]),
      big: 9007199254740993n,
      nothing: undefined,
    };
    const text = plainJson(encode(value).value);
    expect(text).not.toContain('$ei');
    expect(JSON.parse(text)).toEqual({
      source: 'svc-embed',
      when: '2026-01-01T09:30:00.000Z',
      tags: { region: 'EMEA' },
      set: [1, 2],
      big: '9007199254740993',
    });
  });

  it('copies a message with a cycle without failing', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const text = plainJson(encode(a).value);
    expect(JSON.parse(text)).toEqual({ name: 'a', self: '[Circular]' });
  });
});
