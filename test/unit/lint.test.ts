// `npm test` runs `npm run lint` (biome ci) first: a file that breaks the formatting or a lint rule fails it.
// Each scratch file is written into the tree (so the project's biome.jsonc applies), checked, and removed.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.ts';

const scratch = join(ROOT, 'src', `lint-scratch-${process.pid}.ts`);
const lint = (file: string) =>
  spawnSync(process.execPath, [join(ROOT, 'node_modules/@biomejs/biome/bin/biome'), 'ci', '--colors=off', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });

const CLEAN =
  "import type { Issue } from './protocol/classify.ts';\n\nexport function first(xs: Issue[]): Issue | undefined {\n  if (xs.length === 0) {\n    return undefined;\n  }\n  return xs[0];\n}\n";
// Each row: what is wrong, the file, and the rule biome must name.
const BROKEN: Array<[string, string, RegExp]> = [
  ['formatting (double quotes, no semicolon)', 'export const x = "a"\n', /format/],
  [
    'a floating promise',
    'export async function f(): Promise<number> {\n  return 1;\n}\nexport function g(): void {\n  f();\n}\n',
    /noFloatingPromises/,
  ],
  [
    'an import used only as a type, not marked `type`',
    "import { Issue } from './protocol/classify.ts';\n\nexport const n = (i: Issue): string => i.rule;\n",
    /useImportType/,
  ],
  [
    'an if without braces',
    'export function h(x: number): number {\n  if (x > 1) return 2;\n  return x;\n}\n',
    /useBlockStatements/,
  ],
];

// (each case spawns Biome: seconds on a busy 2-core machine, so a generous limit; no time is asserted)
describe('lint in npm test', { timeout: 30_000 }, () => {
  afterEach(() => rmSync(scratch, { force: true }));

  it('passes a file that follows the rules', () => {
    writeFileSync(scratch, CLEAN);
    const r = lint(scratch);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it.each(BROKEN)('fails on %s', (_what, text, rule) => {
    writeFileSync(scratch, text);
    const r = lint(scratch);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(rule);
  });
});

// The boundaries between contexts (ARCHITECTURE.md): each row a file, where it sits, and whether lint accepts it.
const BOUNDARIES: Array<[string, string, string, boolean]> = [
  [
    'protocol imports another context',
    'src/protocol',
    "import { errorText } from '../capture/observe.ts';\n\nexport const e = errorText;\n",
    false,
  ],
  [
    'background imports the panel',
    'src/background',
    "import type { Store } from '../panel/store.ts';\n\nexport type S = Store;\n",
    false,
  ],
  [
    'a panel component imports the background',
    'src/panel/ui',
    "import type { Scope } from '../../background/scope-model.ts';\n\nexport type S = Scope;\n",
    false,
  ],
  [
    'the sandbox imports src',
    'sandbox',
    "import { classify } from '../src/protocol/classify.ts';\n\nexport const c = classify;\n",
    false,
  ],
  [
    'the background imports a Node helper',
    'src/background',
    "import { chromiumPath } from '../node/chromium.ts';\n\nexport const c = chromiumPath;\n",
    false,
  ],
  [
    'the command line imports a Node helper',
    'src/cli',
    "import { chromiumPath } from '../node/chromium.ts';\n\nexport const c = chromiumPath;\n",
    true,
  ],
  [
    'a panel component imports protocol (through its door) and shared',
    'src/panel/ui',
    "import { classify } from '../log/protocol.ts';\nimport { sitePattern } from '../../shared/site-pattern.ts';\n\nexport const c = [classify, sitePattern];\n",
    true,
  ],
  [
    'a panel component imports protocol past its door',
    'src/panel/ui',
    "import { classify } from '../../protocol/classify.ts';\n\nexport const c = classify;\n",
    false,
  ],
];

describe('context boundaries in npm test', { timeout: 30_000 }, () => {
  const made: string[] = [];
  afterEach(() => {
    for (const f of made.splice(0)) {
      rmSync(f, { force: true });
    }
  });

  it.each(BOUNDARIES)('%s', (_what, dir, text, ok) => {
    const file = join(ROOT, dir, `boundary-scratch-${process.pid}.${dir === 'sandbox' ? 'mjs' : 'ts'}`);
    made.push(file);
    writeFileSync(file, text);
    const r = lint(file);
    if (ok) {
      expect(r.status, r.stdout + r.stderr).toBe(0);
    } else {
      expect(r.status).not.toBe(0);
      expect(r.stdout + r.stderr).toMatch(/noRestrictedImports/);
    }
  });
});
