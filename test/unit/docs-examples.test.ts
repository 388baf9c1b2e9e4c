// The code the README and the guides show is the code the test suite runs: a block under
// `<!-- example: docs/examples/FILE -->` is that file, word for word (test/e2e/package.test.ts runs the files
// against the sandbox from the installed package, the type check covers the specs); every JavaScript or TypeScript block of the README is
// such a block, and every file of docs/examples is shown somewhere.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks, docFiles, read, ROOT } from '../helpers/markdown.ts';

const CODE = new Set(['js', 'mjs', 'javascript', 'ts', 'typescript', 'tsx']);
const shown = docFiles().flatMap((file) => codeBlocks(read(file)).blocks.map((b) => ({ file, ...b })));

describe('the docs’ code samples', () => {
  it.each(shown.filter((b) => b.example).map((b) => [`${b.file}:${b.line}`, b] as const))('%s is its file', (_, b) => {
    expect(b.example).toMatch(/^docs\/examples\/[\w.-]+$/);
    expect(existsSync(join(ROOT, b.example!)), `${b.example} exists`).toBe(true);
    expect(b.text).toBe(read(b.example!).replace(/\n*$/, '\n'));
  });

  it('every JavaScript or TypeScript block of the README is a file the tests run', () => {
    const bare = shown.filter((b) => b.file === 'README.md' && CODE.has(b.lang) && !b.example);
    expect(bare.map((b) => `README.md:${b.line}`)).toEqual([]);
    expect(shown.filter((b) => b.file === 'README.md' && b.example).length).toBeGreaterThan(0);
  });

  it('every file of docs/examples is shown in the docs', () => {
    const used = new Set(shown.map((b) => b.example));
    const files = readdirSync(join(ROOT, 'docs/examples')).map((f) => `docs/examples/${f}`);
    expect(files.filter((f) => !used.has(f))).toEqual([]);
  });

  it('reads the marker above a block, blank lines between allowed', () => {
    const { blocks } = codeBlocks('text\n<!-- example: docs/examples/a.ts -->\n\n```ts\nx;\n```\n\n```sh\ny\n```\n');
    expect(blocks).toEqual([
      { lang: 'ts', text: 'x;\n', line: 4, example: 'docs/examples/a.ts' },
      { lang: 'sh', text: 'y\n', line: 8 },
    ]);
  });
});
