import { describe, expect, it } from 'vitest';
import { checkOptions, checkTenantOrigin } from './input-checks.ts';

describe('checkOptions', () => {
  it.each([
    ['booleans are coerced', { preserveLog: 1, paused: '' }, { preserveLog: true, paused: false }],
    [
      'bounds are kept as given (the log clamps them)',
      { maxRecords: 12.7, maxBytes: 0 },
      { maxRecords: 12.7, maxBytes: 0 },
    ],
    [
      'what is not a setting is left out',
      { tabId: 99, tenantOrigin: 'https://x.example', paused: true },
      { paused: true },
    ],
    ['nothing given, nothing set', {}, {}],
  ])('%s', (_what, given, expected) => {
    expect(checkOptions(given)).toEqual(expected);
  });

  it.each([
    ['a bound that is not a number', { paused: true, maxRecords: 'many' }, /options\.maxRecords: a finite number/],
    ['a bound that is not finite', { maxBytes: Number.NaN }, /options\.maxBytes: a finite number/],
    ['an infinite ready limit', { readyTimeoutMs: Number.POSITIVE_INFINITY }, /options\.readyTimeoutMs/],
    ['not an object', null, /options: an object is expected/],
    ['a string', 'paused', /options: an object is expected/],
  ])('refuses %s whole', (_what, given, error) => {
    expect(() => checkOptions(given)).toThrow(TypeError);
    expect(() => checkOptions(given)).toThrow(error);
  });
});

describe('checkTenantOrigin', () => {
  it.each([
    ['an origin with a default port and a path', 'https://Acme.example.com:443/x', 'https://acme.example.com'],
    ['spaces around it', '  https://other.example/ ', 'https://other.example'],
    ['null: back to the inferred one', null, null],
    ['empty: back to the inferred one', '', null],
    ['undefined: back to the inferred one', undefined, null],
  ])('takes %s', (_what, given, expected) => {
    expect(checkTenantOrigin(given)).toBe(expected);
  });

  it.each([
    ['words', 'not an origin'],
    ['a number', 42],
    ['about:blank', 'about:blank'],
  ])('refuses %s', (_what, given) => {
    expect(() => checkTenantOrigin(given)).toThrow(/not an origin/);
  });
});
