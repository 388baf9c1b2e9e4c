// The transparency suites' comparison (test/transparency/harness.ts): a known difference is allowed only as its
// entry pins it, and an entry whose difference is no longer found fails the comparison.
import { describe, expect, it } from 'vitest';
import { assertSame, isKnown, isKnownReorder, pinnedDifference, staleKnown } from '../transparency/harness.ts';
import type { KnownDifference } from '../transparency/known-differences.ts';

const entry = (name: string, without: string[], full: string[]): KnownDifference => ({
  suite: 'windows',
  name,
  readme: 'a sentence',
  without,
  full,
});

describe('known differences', () => {
  it.each([
    ['a value', 'true', 'false', { without: ['true'], full: ['false'] }],
    [
      'a line of a text',
      'Error\n    at a (x)\n    at b (y)',
      'Error\n    at b (y)',
      { without: ['    at a (x)'], full: [] },
    ],
    ['a repeated entry', ['1× Ready', 'done'], ['1× Ready', '1× Ready', 'done'], { without: [], full: ['1× Ready'] }],
    [
      'the ports of the test servers',
      'from http://127.0.0.1:4100 to http://localhost:4101',
      'from http://127.0.0.1:5200 to http://localhost:5201!',
      {
        without: ['from http://127.0.0.1:<port> to http://localhost:<port>'],
        full: ['from http://127.0.0.1:<port> to http://localhost:<port>!'],
      },
    ],
  ])('pins %s', (_what, none, full, pinned) => {
    expect(pinnedDifference(none, full)).toEqual(pinned);
  });

  it('allows a difference only as pinned, and only in full mode', () => {
    const known = [entry('x === y', ['true'], ['false'])];
    const d = { suite: 'windows', name: 'x === y', mode: 'full' as const, none: 'true', other: 'false' };
    expect(isKnown(d, known)).toBe(true);
    expect(isKnown({ ...d, other: 'threw TypeError' }, known)).toBe(false);
    expect(isKnown({ ...d, mode: 'receive-only' }, known)).toBe(false);
  });

  it('finds an entry stale when its difference is gone or changed, and a library’s only when it was observed', () => {
    const known = [
      entry('x === y', ['true'], ['false']),
      { ...entry('lib › log', ['a'], ['b']), suite: 'libraries' as const },
    ];
    const d = { suite: 'windows', name: 'x === y', mode: 'full' as const, none: 'true', other: 'false' };
    expect(staleKnown('windows', [d], { 'x === y': 'true' }, known)).toEqual([]);
    expect(staleKnown('windows', [], { 'x === y': 'true' }, known)).toEqual([known[0]]);
    expect(staleKnown('windows', [{ ...d, other: 'null' }], { 'x === y': 'true' }, known)).toEqual([known[0]]);
    expect(staleKnown('libraries', [], { 'other › log': [] }, known)).toEqual([]);
    expect(staleKnown('libraries', [], { 'lib › log': ['a'] }, known)).toEqual([known[1]]);
  });

  it('allows a difference only in the browser its entry names, and finds it stale only there', () => {
    const firefox = { ...entry('x === y', ['true'], ['false']), browser: 'firefox' as const };
    const d = { suite: 'windows', name: 'x === y', mode: 'full' as const, none: 'true', other: 'false' };
    expect(isKnown(d, [firefox])).toBe(false);
    expect(isKnown({ ...d, browser: 'firefox' }, [firefox])).toBe(true);
    expect(staleKnown('windows', [], { 'x === y': 'true' }, [firefox])).toEqual([]);
    expect(staleKnown('windows', [], { 'x === y': 'true' }, [firefox], 'firefox')).toEqual([firefox]);
  });

  // Firefox's own-name listings (KNOWN_REORDERS): the capture's names may move everywhere; in a popup any built-in.
  const without = ['window', 'Boolean', 'HOST', 'EMBED', 'T', '__t', 'RegExp', 'Array', 'DOMRectList', 'JSON'];
  it.each([
    ['pop', 'the capture’s own name moved', true, ['window', 'Boolean', 'JSON', 'HOST', 'EMBED', 'T', '__t']],
    ['pop', 'built-ins moved', true, ['window', 'Boolean', 'DOMRectList', 'HOST', 'EMBED', 'T', 'Array', '__t']],
    ['spop', 'RegExp after Array', true, ['window', 'Boolean', 'HOST', 'EMBED', 'T', '__t', 'Array', 'RegExp']],
    ['pop', 'a page global moved', false, ['window', 'Boolean', 'EMBED', 'HOST', 'T', '__t']],
    ['pop', 'T moved', false, ['window', 'Boolean', 'HOST', 'EMBED', '__t', 'T']],
    ['pop', 'a lowercase own name moved', false, ['__t', 'window', 'Boolean', 'HOST', 'EMBED', 'T']],
    ['xo', 'a built-in moved in a frame', false, ['window', 'Boolean', 'DOMRectList', 'HOST', 'EMBED', 'T', '__t']],
    ['xo', 'the capture’s own name moved in a frame', true, ['window', 'Boolean', 'JSON', 'HOST', 'EMBED', 'T', '__t']],
  ])('in receive-only, %s’s listing with %s is allowed: %s', (frame, _what, allowed, head) => {
    // `head` is the listing's start; the names it leaves out follow in their order without the extension
    const other = [...head, ...without.filter((x) => !head.includes(x))];
    const d = {
      suite: 'windows',
      browser: 'firefox' as const,
      name: `${frame}: Object.getOwnPropertyNames(window)`,
      mode: 'receive-only' as const,
      none: without,
      other,
    };
    expect(isKnownReorder(d)).toBe(allowed);
    expect(isKnownReorder({ ...d, other: [...other, 'ourGlobal'], none: [...without, 'Boolean'] })).toBe(false);
  });

  it('fails the comparison on a stale entry of the real list', () => {
    expect(() => assertSame('windows', {}, {}, 'full')).toThrow(/no longer found as pinned/);
    expect(() => assertSame('windows', {}, {}, 'receive-only')).not.toThrow();
  });
});
