import { describe, expect, it } from 'vitest';
import { isSvcEmbed, postTargetOrigin, transferCount } from './observe.ts';
import { resolveTargetOrigin } from '../protocol/origin.ts';

describe('reading a postMessage call', () => {
  const port = {} as unknown;
  it('finds the target origin in both call forms, with the browser default "/"', () => {
    expect(postTargetOrigin(['m', 'https://a.example'])).toBe('https://a.example');
    expect(postTargetOrigin(['m', '*', [port]])).toBe('*');
    expect(postTargetOrigin(['m', { targetOrigin: 'https://b.example' }])).toBe('https://b.example');
    expect(postTargetOrigin(['m', {}])).toBe('/');
    expect(postTargetOrigin(['m'])).toBe('/');
    expect(postTargetOrigin(['m', undefined])).toBe('/');
  });
  it('counts transferred objects in both forms', () => {
    expect(transferCount(['m', '*', [port, port]])).toBe(2);
    expect(transferCount(['m', { transfer: [port] }])).toBe(1);
    expect(transferCount(['m', '*'])).toBe(0);
  });
  it('checks the svc-embed marker without ever throwing', () => {
    expect(isSvcEmbed({ source: 'svc-embed' })).toBe(true);
    expect(isSvcEmbed({ source: 'other' })).toBe(false);
    expect(isSvcEmbed(null)).toBe(false);
    expect(
      isSvcEmbed(
        new Proxy(
          {},
          {
            get() {
              throw new Error('no');
            },
          },
        ),
      ),
    ).toBe(false);
  });
  it('normalises target origins as the browser compares them', () => {
    expect(resolveTargetOrigin('/', 'https://me.example')).toBe('https://me.example');
    expect(resolveTargetOrigin('https://A.example:443/path', 'x')).toBe('https://a.example');
    expect(resolveTargetOrigin('*', 'x')).toBe('*');
    expect(resolveTargetOrigin('not an origin', 'x')).toBeNull();
  });
});
