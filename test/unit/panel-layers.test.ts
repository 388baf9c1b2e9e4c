// The panel's folders are its layers (ARCHITECTURE.md): a file imports its own folder and the folders of lower
// levels, never a folder of its own level or above. Every import counts, `import type` and `export … from` too,
// since each is a dependency a reader follows; tests are not part of the panel and are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.ts';

const PANEL = join(ROOT, 'src/panel');

/** Each folder of src/panel and its level: a folder imports only folders of a lower level. */
const LEVELS: Record<string, number> = {
  app: 5, // the composition root: creates the parts once and mounts the layout
  features: 4, // features/<name>: one node each, so two features are on one level and never import each other
  ui: 3, // the shared UI: the store it reads, its bridge to Solid, the shared components
  link: 2, // the transports and the live tab
  timeline: 2, // the timeline view: filters, order, selection
  log: 1, // the record log and what is computed from the records; protocol.ts, the door to src/protocol
};
/** The most folders a chain of imports may pass through (main.tsx, the entry, imports only app/). */
const MAX_CHAIN = 5;
/** What may sit at the panel's root beside the layer folders. */
const ROOT_FILES = ['index.html', 'main.tsx'];

/** The node a panel file belongs to: its top folder (features/<name> for a feature), or '.' at the root. */
function nodeOf(rel: string): string {
  const parts = rel.split('/');
  if (parts.length === 1) {
    return '.';
  }
  return parts[0] === 'features' ? `features/${parts[1]}` : parts[0];
}
const levelOf = (node: string): number | undefined => LEVELS[node.split('/')[0] as string];

/** Why `from` may not import `to` (null when it may). */
function refusal(from: string, to: string): string | null {
  if (from === to) {
    return null;
  }
  if (to === '.') {
    return 'nothing imports the entry';
  }
  if (from === '.') {
    return to === 'app' ? null : 'the entry imports only the composition root (app/)';
  }
  const a = levelOf(from),
    b = levelOf(to);
  if (a === undefined || b === undefined) {
    return `${a === undefined ? from : to} is not a layer of the panel (LEVELS)`;
  }
  if (b > a) {
    return `${from} (level ${a}) imports ${to}, above it (level ${b})`;
  }
  return b === a ? `${from} imports ${to}, beside it (level ${a})` : null;
}

interface Edge {
  file: string;
  target: string;
  from: string;
  to: string;
}

function panelFiles(dir = PANEL): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      out.push(...panelFiles(p));
    } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) {
      out.push(p);
    }
  }
  return out;
}

/**
 * The modules a file names: `import`/`export … from` (type-only too) and side-effect imports at the start of a line
 * (Biome's formatting puts every top-level statement there), and dynamic `import('…')`.
 */
const IMPORTS = [
  /^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];
const importsOf = (text: string): string[] =>
  IMPORTS.flatMap((re) => [...text.matchAll(re)].map((m) => m[1] as string));

/** Every import between two panel nodes: static, type-only, re-exports, side-effect (CSS) and dynamic. */
function panelEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const abs of panelFiles()) {
    const file = relative(PANEL, abs);
    for (const fileName of importsOf(readFileSync(abs, 'utf8'))) {
      if (!fileName.startsWith('.')) {
        continue;
      }
      const target = relative(PANEL, resolve(dirname(abs), fileName));
      if (target.startsWith('..')) {
        continue; // src/shared, src/protocol: biome.jsonc's rules and lint.test.ts
      }
      edges.push({ file, target, from: nodeOf(file), to: nodeOf(target) });
    }
  }
  return edges;
}

/** The longest chain of nodes in the graph, from the entry (a cycle is reported as one). */
function longestChain(edges: Edge[]): string[] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.from !== e.to) {
      next.set(e.from, (next.get(e.from) ?? new Set()).add(e.to));
    }
  }
  const memo = new Map<string, string[]>();
  const walk = (n: string, on: Set<string>): string[] => {
    if (on.has(n)) {
      throw new Error(`a cycle through ${n}`);
    }
    const known = memo.get(n);
    if (known) {
      return known;
    }
    on.add(n);
    let best = [n];
    for (const t of next.get(n) ?? []) {
      const p = walk(t, on);
      if (p.length + 1 > best.length) {
        best = [n, ...p];
      }
    }
    on.delete(n);
    memo.set(n, best);
    return best;
  };
  return walk('.', new Set());
}

describe('the rule of the panel layers', () => {
  // Each row: importer's node, imported node, allowed.
  const CASES: Array<[string, string, boolean]> = [
    ['app', 'features/act', true],
    ['app', 'log', true],
    ['features/flow', 'ui', true],
    ['features/act', 'link', true],
    ['features/act', 'features/flow', false],
    ['features/flow', 'app', false],
    ['ui', 'features/flow', false],
    ['ui', 'app', false],
    ['ui', 'link', true],
    ['ui', 'timeline', true],
    ['link', 'timeline', false],
    ['timeline', 'link', false],
    ['link', 'ui', false],
    ['log', 'timeline', false],
    ['log', 'base', false],
    ['.', 'app', true],
    ['.', 'ui', false],
    ['app', '.', false],
  ];
  it.each(CASES)('%s imports %s: %s', (from, to, ok) => {
    expect(refusal(from, to) === null).toBe(ok);
  });
});

describe('the panel layers in src/panel', () => {
  const edges = panelEdges();

  it('reads the imports of every panel file', () => {
    expect(edges.length).toBeGreaterThan(100);
    // (every folder's files import one another or a folder below: each folder is seen as an importer)
    const folders = readdirSync(PANEL, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) =>
        e.name === 'features' ? readdirSync(join(PANEL, 'features')).map((f) => `features/${f}`) : [e.name],
      );
    expect(new Set(edges.map((e) => e.from))).toEqual(new Set(['.', ...folders]));
  });

  it('has no file loose at its root but the entry', () => {
    const loose = readdirSync(PANEL, { withFileTypes: true })
      .filter((e) => !(e.isDirectory() ? e.name in LEVELS : ROOT_FILES.includes(e.name)))
      .map((e) => e.name);
    expect(loose).toEqual([]);
  });

  it('imports only downward: no import goes up or sideways', () => {
    const wrong = edges
      .map((e) => ({ e, why: refusal(e.from, e.to) }))
      .filter((x) => x.why !== null)
      .map(({ e, why }) => `${e.file} → ${e.target}: ${why}`);
    expect(wrong).toEqual([]);
  });

  it(`passes through at most ${MAX_CHAIN} folders from the entry`, () => {
    const chain = longestChain(edges);
    expect(chain[0]).toBe('.');
    expect(chain.slice(1).length, chain.join(' > ')).toBeLessThanOrEqual(MAX_CHAIN);
  });
});
