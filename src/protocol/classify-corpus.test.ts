import { describe, expect, it } from 'vitest';
import { classify, type Severity } from './classify.ts';
import { ACTION_PREFIX, ACTIONS, ACTION_TYPES, EVENT_PREFIX, EVENTS, EVENT_TYPES } from './catalog.ts';
import { validPayloads } from '../../test/fixtures/messages.ts';
import { buildCorpus, TENANT, type CorpusRecord } from '../../bench/corpus.mjs';

// The classify benchmark's corpora (bench/corpus.mjs) get the verdicts their construction implies, record by record:
// the benchmark compares classify with Ajv only as long as classify still judges these messages as the spec does.
const types = [...EVENT_TYPES, ...ACTION_TYPES];
const corpus = buildCorpus(types, validPayloads, 3_000);
const ctx = { tenantOrigin: TENANT };
const judged = (r: CorpusRecord) => {
  const c = classify(r, ctx);
  return { verdict: c.verdict, issues: c.issues.map((i) => `${i.rule} ${i.path}`).sort() };
};

// Read from the catalog's payload tables by hand: what the invalid corpus's change to each type's first field
// (a number on odd records, null on even ones; refresh has no field and gets an unexpected one) trips.
const PAYLOAD_ISSUES: Record<string, { number: string[]; null: string[] }> = {
  // embedTenant: string or null, required
  'svc:event:ready': { number: ['payload.type payload.embedTenant'], null: [] },
  // surface: string, required (payload.surface differs from the envelope's only when it is a string)
  'svc:event:view': { number: ['payload.type payload.surface'], null: ['payload.type payload.surface'] },
  // path: string, required
  'svc:event:navigate': { number: ['payload.type payload.path'], null: ['payload.type payload.path'] },
  // publicId: string, optional, not nullable
  'svc:event:dashboard-loaded': { number: ['payload.type payload.publicId'], null: ['payload.null payload.publicId'] },
  // format: string, required; the example's rowCount then belongs to no csv/xlsx export
  'svc:event:download': {
    number: ['download.row-count payload.rowCount', 'payload.type payload.format'],
    null: ['download.row-count payload.rowCount', 'payload.type payload.format'],
  },
  // member: string, required
  'svc:event:drilldown': { number: ['payload.type payload.member'], null: ['payload.type payload.member'] },
  // query: string, required
  'svc:event:ai-query': { number: ['payload.type payload.query'], null: ['payload.type payload.query'] },
  // message: string, required
  'svc:event:error': { number: ['payload.type payload.message'], null: ['payload.type payload.message'] },
  // scheme: string, required
  'svc:action:set-color-scheme': { number: ['payload.type payload.scheme'], null: ['payload.type payload.scheme'] },
  // primaryColor: any value, optional, not nullable
  'svc:action:set-theme': { number: [], null: ['payload.null payload.primaryColor'] },
  // locale, timezone, filterUrlParameter, path: string, required (their semantic checks read strings only)
  'svc:action:set-locale': { number: ['payload.type payload.locale'], null: ['payload.type payload.locale'] },
  'svc:action:set-timezone': { number: ['payload.type payload.timezone'], null: ['payload.type payload.timezone'] },
  'svc:action:set-filter': {
    number: ['payload.type payload.filterUrlParameter'],
    null: ['payload.type payload.filterUrlParameter'],
  },
  'svc:action:navigate': { number: ['payload.type payload.path'], null: ['payload.type payload.path'] },
  // an empty payload
  'svc:action:refresh': {
    number: ['action.refresh-payload payload.unexpected'],
    null: ['action.refresh-payload payload.unexpected'],
  },
};
// docs/rules.md: the severity of each rule the corpus trips.
const SEVERITY: Record<string, Severity> = {
  'payload.type': 'error',
  'payload.null': 'warning',
  'download.row-count': 'warning',
  'action.refresh-payload': 'warning',
  'envelope.surface': 'error',
  'envelope.surface-on-action': 'error',
};

function expectedOfInvalid(i: number) {
  const type = types[i % types.length];
  const issues = [...PAYLOAD_ISSUES[type][i % 2 ? 'number' : 'null']];
  if (i % 3 === 0) {
    // surface "nowhere": not a surface on an event, and no surface belongs on an action at all
    issues.push(type.startsWith('svc:event:') ? 'envelope.surface surface' : 'envelope.surface-on-action surface');
  }
  const verdict = issues.some((s) => SEVERITY[s.split(' ')[0]] === 'error') ? 'invalid' : 'valid';
  return { verdict, issues: issues.sort() };
}

describe('the classify benchmark corpora', () => {
  it('the table covers every catalogued type', () => {
    expect(Object.keys(PAYLOAD_ISSUES).sort()).toEqual([...types].sort());
  });

  it('every valid record is valid with no issue', () => {
    expect(corpus.valid.map(judged).filter((j) => j.verdict !== 'valid' || j.issues.length > 0)).toEqual([]);
  });

  it('every invalid record has exactly the issues its change trips', () => {
    const wrong = corpus.invalid
      .map((r, i) => ({ i, type: types[i % types.length], got: judged(r), want: expectedOfInvalid(i) }))
      .filter((x) => JSON.stringify(x.got) !== JSON.stringify(x.want));
    expect(wrong).toEqual([]);
    // Most of them are invalid; some changes only warn (null for an optional field; any value for set-theme).
    const invalid = corpus.invalid.filter((r) => classify(r, ctx).verdict === 'invalid').length;
    expect(invalid).toBeGreaterThan(corpus.invalid.length / 2);
    expect(invalid).toBeLessThan(corpus.invalid.length);
  });

  it('every foreign record is foreign', () => {
    expect(corpus.foreign.filter((r) => classify(r, ctx).verdict !== 'foreign')).toEqual([]);
  });

  it('the mixed corpus: each record judged as in the corpus it comes from, whatever came before it', () => {
    const want = (i: number) =>
      i % 3 === 0
        ? { verdict: 'valid', issues: [] }
        : i % 3 === 1
          ? expectedOfInvalid(i)
          : { verdict: 'foreign', issues: [] };
    const wrong = corpus.mixed
      .map((r, i) => ({ i, got: judged(r), want: want(i) }))
      .filter((x) => JSON.stringify(x.got) !== JSON.stringify(x.want));
    expect(wrong).toEqual([]);
  });
});

describe('the catalog as classify reads it', () => {
  it.each([...EVENTS, ...ACTIONS].map((m) => [m.type, m.direction] as const))(
    "%s has the prefix of its direction, %s (classify reads a known type's direction from the catalog)",
    (type, direction) => {
      expect(type.startsWith(direction === 'event' ? EVENT_PREFIX : ACTION_PREFIX)).toBe(true);
      expect(type.startsWith(direction === 'event' ? ACTION_PREFIX : EVENT_PREFIX)).toBe(false);
    },
  );
});
