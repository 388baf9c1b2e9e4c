// No import circles anywhere in the project: a module and what it imports form a tree a reader can follow down,
// and a bundle's order never depends on which file of a circle loads first. Every import counts, `import type` too.
import { describe, expect, it } from 'vitest';
import { circles, importGraph } from '../helpers/imports.ts';

describe('the circle finder', () => {
  it.each([
    ['a tree', { a: ['b', 'c'], b: ['c'], c: [] }, []],
    ['two files', { a: ['b'], b: ['a'] }, [['a', 'b']]],
    ['a file importing itself', { a: ['a'] }, [['a']]],
    ['a long circle beside a tree', { a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['d'] }, [['a', 'b', 'c']]],
    [
      'two circles',
      { a: ['b'], b: ['a', 'c'], c: ['d'], d: ['c'] },
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
  ])('%s', (_what, graph, want) => {
    expect(circles(new Map(Object.entries(graph)))).toEqual(want);
  });
});

describe('the project', () => {
  const graph = importGraph();

  it('reads the imports of every part', () => {
    const parts = new Set([...graph.keys()].map((f) => f.split('/')[0]));
    for (const part of ['src', 'sandbox', 'scripts', 'bench', 'test']) {
      expect(parts).toContain(part);
    }
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    expect(graph.get('src/cli/check.ts')).toContain('src/cli/check-flow.ts');
  });

  it('has no import circle', () => {
    expect(circles(graph).map((c) => c.join(' ↔ '))).toEqual([]);
  });
});
