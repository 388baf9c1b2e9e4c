import { describe, expect, it } from 'vitest';
import { syntheticSession } from '../app/synthetic.ts';
import type { ClassifiedRecord } from '../../shared/messages.ts';
import { MetaCache } from './meta.ts';
import { PageFacts } from './page-facts.ts';
import { diagnosisSieve } from './protocol.ts';

describe('PageFacts', () => {
  it("keeps the records the protocol's sieve keeps, from the metas' reading of each message", () => {
    const session = syntheticSession(3_000);
    // and messages the sieve must tell apart: no source, another source, an encoded object, not an object
    const odd = session.slice(0, 400).map((r, k): ClassifiedRecord => {
      const data = r.data as Record<string, unknown>;
      const variants: unknown[] = [
        { ...data, source: undefined },
        { ...data, source: 'x' },
        { $ei: 'Object', v: data },
        'text',
      ];
      return { ...r, seq: 10_000 + k, data: r.navigation ? r.data : variants[k % variants.length] };
    });
    const records = [...session, ...odd];
    const sieve = diagnosisSieve();
    const expected = records.flatMap((r, i) => (sieve.keep(r) ? [i] : []));
    const metas = new MetaCache();
    const facts = new PageFacts();
    for (const [i, r] of records.entries()) {
      facts.add(r, i, metas.of(r));
    }
    const view = facts.read(records, 0, { ids: records.map((r) => metas.idOf(r)), table: metas.table });
    expect(view.judged).toEqual(expected);
    expect(view.svcEmbedSeen).toBe(true);
    expect(view.withIssues).toEqual(records.flatMap((r, i) => (r.issues.length ? [i] : [])));
    expect(expected.length).toBeGreaterThan(5);
    // made again from the records when they were rewritten
    facts.invalidate();
    expect(facts.read(records, 0, { ids: records.map((r) => metas.idOf(r)), table: metas.table }).judged).toEqual(
      expected,
    );
  });
});
