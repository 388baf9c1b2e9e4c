import { describe, expect, it } from 'vitest';
import { MetaCache } from './meta.ts';
import { syntheticSession } from '../app/synthetic.ts';
import type { ClassifiedRecord } from '../../shared/messages.ts';

const records = syntheticSession(200);
const metas = new MetaCache();
const metaOf = (r: ClassifiedRecord) => metas.of(r);

describe('MetaCache', () => {
  it('gives the facts of a record; records with the same facts may share one (read-only) meta', () => {
    const post = records.find(
      (r) => r.kind === 'post' && r.pairedWith !== undefined && !r.navigation && r.verdict !== 'foreign',
    )!;
    const delivery = records.find((r) => r.seq === post.pairedWith)!;
    const m = metaOf(post);
    expect(m).toEqual({
      type: (post.data as { type: string }).type,
      direction: (post.data as { direction: string }).direction,
      surface: expect.any(String),
      sev: expect.any(Number),
      verdict: post.verdict,
      kind: 'post',
      nav: false,
      svc: true,
    });
    expect(metaOf(delivery)).toEqual({ ...m, kind: 'receive' });
    const nav = records.find((r) => r.navigation)!;
    expect(metaOf(nav)).toEqual({
      type: '',
      direction: '',
      surface: '',
      sev: 0,
      verdict: nav.verdict,
      kind: nav.kind,
      nav: true,
      svc: false,
    });
    expect(
      metaOf({
        ...post,
        issues: [
          { rule: 'x', severity: 'warning', path: '', message: '' },
          { rule: 'y', severity: 'info', path: '', message: '' },
        ],
      }).sev,
    ).toBe(2 | 4);
    expect(
      metaOf({ ...post, data: { $ei: 'Object', v: { type: 'svc:event:ready', direction: 'event', surface: 'app' } } }),
    ).toMatchObject({ type: 'svc:event:ready', direction: 'event', surface: 'app' });
    expect(metaOf({ ...post, data: { $ei: 'Map', v: [] } }).type).toBe('');
    // svc: the message itself is an svc-embed envelope, as `isSvcEmbed` of the record's data says
    const { source: _, ...sourceless } = post.data as Record<string, unknown>;
    expect(metaOf({ ...post, data: sourceless }).svc).toBe(false);
    expect(metaOf({ ...post, data: { ...sourceless, source: 'other' } }).svc).toBe(false);
    expect(metaOf({ ...post, data: { $ei: 'Object', v: post.data } }).svc).toBe(false);
  });

  it('shares one meta per distinct combination of facts, not only between neighbours', () => {
    const many = syntheticSession(5_000);
    const metas = many.map(metaOf);
    const byFacts = new Map<string, unknown>();
    for (let k = 0; k < many.length; k++) {
      const m = metas[k];
      const key = JSON.stringify([m.type, m.direction, m.surface, m.sev, m.verdict, m.kind, m.nav, m.svc]);
      if (!byFacts.has(key)) {
        byFacts.set(key, m);
      }
      expect(m, key).toBe(byFacts.get(key)); // the same object for the same facts
      expect(m).toEqual(metaOf(structuredClone(many[k]))); // and the facts of the record
    }
    expect(new Set(metas).size).toBe(byFacts.size);
    expect(byFacts.size).toBeLessThan(100);
    // every combination of facts tells apart
    const post = many.find((r) => r.kind === 'post' && !r.navigation && r.verdict !== 'foreign')!;
    const variants = [
      { sev: 0, issues: [] },
      { sev: 1, issues: [{ rule: 'x', severity: 'error', path: '', message: '' }] },
    ].flatMap(({ sev, issues }) =>
      ['app', 'panel'].flatMap((surface) =>
        (['event', 'action'] as const).map((direction) => ({
          sev,
          direction,
          surface,
          r: {
            ...post,
            issues,
            data: { ...(post.data as object), type: 'svc:t:x', direction, surface },
          } as ClassifiedRecord,
        })),
      ),
    );
    for (const v of [...variants, ...variants.reverse()]) {
      expect(metaOf(v.r)).toEqual({
        type: 'svc:t:x',
        direction: v.direction,
        surface: v.surface,
        sev: v.sev,
        verdict: post.verdict,
        kind: 'post',
        nav: false,
        svc: true,
      });
    }
    // and so do the record's own verdict and kind
    expect(metaOf({ ...post, verdict: 'invalid' }).verdict).toBe('invalid');
    expect(metaOf({ ...post, kind: 'receive' }).kind).toBe('receive');
  });

  it('starts anew on reset (a new log shares no meta with the old one)', () => {
    const cache = new MetaCache();
    const before = cache.of(records[0]);
    expect(cache.of(structuredClone(records[0]))).toBe(before);
    cache.reset();
    const after = cache.of(records[0]);
    expect(after).not.toBe(before);
    expect(after).toEqual(before);
  });
});
