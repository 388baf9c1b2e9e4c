// The viewer's panel fetches a file list, and each file of it, from a path on its own origin only: never another
// origin's, however the path is spelled.
import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './same-origin.ts';

describe('sameOriginPath', () => {
  it.each([
    ['/captures.json', '/captures.json'],
    ['//other.example/list.json', null],
    ['/\\other.example/list.json', null],
    ['https://other.example/list.json', null],
    ['captures.json', null],
    ['', null],
  ])('the panel takes the list %s as %s', (given, taken) => {
    expect(sameOriginPath(given, 'http://127.0.0.1:5000')).toBe(taken);
  });
});
