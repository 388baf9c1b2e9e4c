// CHANGELOG.md keeps Keep a Changelog's shape: each release section has each kind of change once.
import { describe, expect, it } from 'vitest';
import { read } from '../helpers/markdown.ts';

const KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

describe('CHANGELOG.md', () => {
  const releases = read('CHANGELOG.md').split(/^## /m).slice(1);

  it('has releases, newest first, each named once', () => {
    const names = releases.map((r) => r.split('\n')[0]);
    expect(names[0]).toBe('[Unreleased]');
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(releases.map((r) => [r.split('\n')[0], r] as const))('%s has each kind of change once', (_, r) => {
    const kinds = [...r.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(kinds.filter((k) => !KINDS.includes(k))).toEqual([]);
    expect(kinds).toEqual([...new Set(kinds)]);
    expect(kinds).toEqual(KINDS.filter((k) => kinds.includes(k)));
  });
});
