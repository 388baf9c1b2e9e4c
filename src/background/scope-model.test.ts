import { describe, expect, it } from 'vitest';
import {
  EMPTY_SCOPE,
  modeOf,
  normalizeOrigin,
  registrationsOf,
  scopeFromSetting,
  settingOf,
  withChange,
} from './scope-model.ts';
import { sitePattern } from '../shared/site-pattern.ts';

describe('capture scope model', () => {
  it('takes origins only, and says what is wrong with anything else', () => {
    expect(normalizeOrigin('http://LOCALHOST:4101/')).toBe('http://localhost:4101');
    expect(normalizeOrigin('https://acme.example.com:443')).toBe('https://acme.example.com');
    expect(() => normalizeOrigin('http://127.0.0.1:4100/page')).toThrow(/more than scheme, host and port/);
    expect(() => normalizeOrigin('127.0.0.1:4100')).toThrow(/not an http or https origin|not an origin/);
    expect(() => normalizeOrigin('ftp://x.example')).toThrow(/not an http or https origin/);
    expect(() => normalizeOrigin('http://x.example/?q')).toThrow(/more than scheme/);
    expect(() => normalizeOrigin(42)).toThrow(/not an origin: 42/);
  });

  it('setCapture: sites, every site, nothing; mode defaults to full; a bad argument is refused', () => {
    expect(scopeFromSetting({ sites: ['http://127.0.0.1:4100', 'http://localhost:4101'] })).toEqual({
      all: null,
      sites: { 'http://127.0.0.1:4100': 'full', 'http://localhost:4101': 'full' },
    });
    expect(scopeFromSetting({ sites: 'all', mode: 'receive-only' })).toEqual({ all: 'receive-only', sites: {} });
    expect(scopeFromSetting({ sites: [] })).toEqual(EMPTY_SCOPE);
    expect(() => scopeFromSetting({ sites: 'everything' })).toThrow(/sites must be 'all' or an array of origins/);
    expect(() => scopeFromSetting({ sites: [], mode: 'partial' })).toThrow(/mode must be 'full' or 'receive-only'/);
    expect(() => scopeFromSetting({ sites: [], site: [] })).toThrow(/unknown option "site"/);
    expect(() => scopeFromSetting(null)).toThrow(/it takes/);
  });

  it("getCapture has setCapture's shape, with per-site modes only when they are mixed", () => {
    const mixed = scopeFromSetting({
      sites: ['http://a.test', 'http://b.test'],
      modes: { 'http://b.test': 'receive-only' },
    });
    expect(settingOf(mixed)).toEqual({
      sites: ['http://a.test', 'http://b.test'],
      mode: 'full',
      modes: { 'http://a.test': 'full', 'http://b.test': 'receive-only' },
    });
    expect(scopeFromSetting(settingOf(mixed))).toEqual(mixed);
    expect(settingOf(scopeFromSetting({ sites: ['http://a.test'], mode: 'receive-only' }))).toEqual({
      sites: ['http://a.test'],
      mode: 'receive-only',
    });
    expect(settingOf(EMPTY_SCOPE)).toEqual({ sites: [], mode: 'full' });
    expect(settingOf({ all: 'full', sites: {} })).toEqual({ sites: 'all', mode: 'full' });
  });

  it('a frame is in scope by its exact origin (port included); an opaque origin counts as in scope', () => {
    const s = scopeFromSetting({ sites: ['http://127.0.0.1:4100'] });
    expect(modeOf(s, 'http://127.0.0.1:4100')).toBe('full');
    expect(modeOf(s, 'http://127.0.0.1:4102')).toBeNull();
    expect(modeOf(s, null)).toBe('full');
    expect(modeOf(EMPTY_SCOPE, 'http://127.0.0.1:4100')).toBeNull();
    expect(modeOf({ all: 'receive-only', sites: { 'http://a.test': 'full' } }, 'http://b.test')).toBe('receive-only');
  });

  it('panel changes: add, mode, remove, every site', () => {
    let s = withChange(EMPTY_SCOPE, { op: 'add', sites: ['http://a.test', 'http://b.test'], mode: 'full' });
    s = withChange(s, { op: 'mode', sites: ['http://b.test'], mode: 'receive-only' });
    s = withChange(s, { op: 'remove', sites: ['http://a.test'] });
    expect(s).toEqual({ all: null, sites: { 'http://b.test': 'receive-only' } });
    expect(withChange(s, { op: 'all', mode: 'full' })).toEqual({
      all: 'full',
      sites: { 'http://b.test': 'receive-only' },
    });
  });

  it('patterns: the port for Chromium, the host alone for Firefox', () => {
    expect(sitePattern('http://127.0.0.1:4100', false)).toBe('http://127.0.0.1:4100/*');
    expect(sitePattern('http://127.0.0.1:4100', true)).toBe('http://127.0.0.1/*');
    expect(sitePattern('https://[::1]:8443', true)).toBe('https://[::1]/*');
  });

  it('registrations: nothing for an empty scope; the relay, or the full relay and the MAIN-world hook', () => {
    expect(registrationsOf(EMPTY_SCOPE, false)).toEqual([]);
    const rs = registrationsOf(
      scopeFromSetting({
        sites: ['http://127.0.0.1:4100', 'http://localhost:4101'],
        modes: { 'http://localhost:4101': 'receive-only' },
      }),
      false,
    );
    expect(rs.map((r) => [r.id, r.js[0], r.world ?? 'ISOLATED', r.matches])).toEqual([
      ['ei-0-relay', 'src/capture/relay.js', 'ISOLATED', ['http://localhost:4101/*']],
      ['ei-0-relay-full', 'src/capture/relay-full.js', 'ISOLATED', ['http://127.0.0.1:4100/*']],
      ['ei-1-main-full', 'src/capture/main-world.js', 'MAIN', ['http://127.0.0.1:4100/*']],
    ]);
    for (const r of rs) {
      expect(r).toMatchObject({
        runAt: 'document_start',
        allFrames: true,
        matchOriginAsFallback: true,
        persistAcrossSessions: true,
      });
    }
  });

  it('every site: <all_urls> in its mode, the sites of the other mode excluded and given their own scripts', () => {
    const sites = { 'http://a.test': 'receive-only', 'http://b.test': 'full' } as const;
    expect(registrationsOf({ all: 'full', sites }, false).map((r) => [r.id, r.matches, r.excludeMatches])).toEqual([
      ['ei-0-relay', ['http://a.test/*'], undefined],
      ['ei-0-relay-full', ['<all_urls>'], ['http://a.test/*']],
      ['ei-1-main-full', ['<all_urls>'], ['http://a.test/*']],
    ]);
    expect(
      registrationsOf({ all: 'receive-only', sites }, false).map((r) => [r.id, r.matches, r.excludeMatches]),
    ).toEqual([
      ['ei-0-relay', ['<all_urls>'], ['http://b.test/*']],
      ['ei-0-relay-full', ['http://b.test/*'], undefined],
      ['ei-1-main-full', ['http://b.test/*'], undefined],
    ]);
    expect(registrationsOf({ all: 'receive-only', sites: {} }, false).map((r) => r.id)).toEqual(['ei-0-relay']);
  });

  it('Firefox: two ports of one host in different modes share a pattern, and get receive-only', () => {
    const rs = registrationsOf(
      scopeFromSetting({ sites: ['http://h.test:1', 'http://h.test:2'], modes: { 'http://h.test:2': 'receive-only' } }),
      true,
    );
    expect(rs.map((r) => [r.id, r.matches])).toEqual([['ei-0-relay', ['http://h.test/*']]]);
  });
});
