import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { toJsonSchema } from './schema.ts';
import { rulesMarkdown } from './docs.ts';
import { classify } from './classify.ts';
import { EVENT_TYPES, ACTION_TYPES } from './catalog.ts';
import { msg, rec } from '../../test/fixtures/messages.ts';

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

describe('generated files are current (run `npm run schema` when this fails)', () => {
  it('schema/svc-embed.schema.json', () => {
    expect(JSON.parse(read('schema/svc-embed.schema.json'))).toEqual(toJsonSchema());
  });
  it('docs/rules.md', () => {
    expect(read('docs/rules.md')).toBe(rulesMarkdown());
  });
});

describe('the JSON Schema agrees with the classifier on structure', () => {
  const ajv = new (Ajv2020 as any)({ strict: true, allErrors: false });
  const validate = ajv.compile(toJsonSchema());
  it.each([...EVENT_TYPES, ...ACTION_TYPES])('%s: valid example passes both', (type) => {
    const m = msg(type);
    expect(validate(m)).toBe(true);
    expect(classify(rec(m)).verdict).toBe('valid');
  });
  it.each([
    [
      'missing surface on an event',
      (() => {
        const m = msg('svc:event:view');
        delete m.surface;
        return m;
      })(),
    ],
    ['surface on an action', msg('svc:action:refresh', {}, { surface: 'app' })],
    [
      'wrong enum',
      msg('svc:event:ready', { embedTenant: null, deploymentId: null, mode: 'public', surface: 'dashboard' }),
    ],
    ['drilldown from chat', msg('svc:event:drilldown', { member: 'm' }, { surface: 'chat' })],
    ['unknown type', msg('svc:event:nope', {})],
  ])('%s fails both', (_name, m) => {
    expect(validate(m)).toBe(false);
    expect(classify(rec(m)).verdict).toBe('invalid');
  });
});
