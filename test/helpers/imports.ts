/** The project's own import graph, read from the source text (for the tests that hold its shape). Node only. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT } from './paths.ts';

/**
 * The modules a file names: `import`/`export … from` (type-only too) and side-effect imports at the start of a line
 * (Biome's formatting puts every top-level statement there), and dynamic `import('…')` in code. A JSDoc type in a
 * comment (the sandbox's `@typedef` of its context) is not an import: nothing loads or checks it.
 */
const STATIC = [/^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm, /^import\s*['"]([^'"]+)['"]/gm];
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*).*$/gm;
const importsOf = (text: string): string[] => [
  ...STATIC.flatMap((re) => [...text.matchAll(re)].map((m) => m[1] as string)),
  ...[...text.replace(COMMENT_LINE, '').matchAll(DYNAMIC)].map((m) => m[1] as string),
];

const SOURCE = /\.(?:ts|tsx|mts|js|mjs)$/;

/**
 * Every tracked source file (relative to the root, fixtures and third-party pages left out) and the project files
 * each imports by a relative path: every import counts, `import type` too, since each is a dependency a reader
 * follows.
 */
export function importGraph(): Map<string, string[]> {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(
      (f) => SOURCE.test(f) && !f.startsWith('test/fixtures/') && !f.endsWith('.d.mts') && existsSync(resolve(ROOT, f)),
    );
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(readFileSync(resolve(ROOT, file), 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(ROOT, resolve(ROOT, dirname(file), s.split('?')[0]!)))
      .filter((t) => known.has(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The graph's circles: each strongly connected set of two or more files (or a file importing itself), sorted. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative (a deep chain of imports must not overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) {
      continue;
    }
    const work: Array<[string, number]> = [[start, 0]];
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      if (i === 0) {
        index.set(v, next);
        low.set(v, next);
        next++;
        stack.push(v);
        onStack.add(v);
      }
      const edges = graph.get(v) ?? [];
      if (i < edges.length) {
        top[1]++;
        const w = edges[i]!;
        if (!index.has(w)) {
          work.push([w, 0]);
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const set: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          set.push(w);
        } while (w !== v);
        if (set.length > 1 || (graph.get(v) ?? []).includes(v)) {
          out.push(set.sort());
        }
      }
    }
  }
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
