// Every relative link of the README, the top-level pages and docs/*.md leads somewhere: the file exists, and its
// #anchor is a heading of that file (as GitHub makes heading anchors) or an <a id> in it.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, codeBlocks, docFiles, links, read, ROOT, slug } from '../helpers/markdown.ts';

/** Each broken link of a file, as `file:line target (why)`. */
function brokenLinks(file: string): string[] {
  const md = read(file);
  const broken: string[] = [];
  for (const { target, line } of links(codeBlocks(md).prose)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      continue; // https:, mailto:… (not followed: no network in the unit tests)
    }
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const to = path ? normalize(join(dirname(file), decodeURIComponent(path))) : file;
    const where = `${file}:${line} ${target}`;
    if (to.startsWith('..') || !existsSync(join(ROOT, to))) {
      broken.push(`${where} (no such file)`);
    } else if (anchor !== undefined) {
      if (!to.endsWith('.md') || statSync(join(ROOT, to)).isDirectory()) {
        broken.push(`${where} (an anchor into a file that is not Markdown)`);
      } else if (!anchors(read(to)).has(decodeURIComponent(anchor))) {
        broken.push(`${where} (no heading or <a id> "${anchor}" in ${to})`);
      }
    }
  }
  return broken;
}

describe('the docs’ links', () => {
  it.each(docFiles())('%s: every relative link and anchor resolves', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('covers the README, the guides and every page of docs/', () => {
    const files = docFiles();
    for (const f of ['README.md', 'CONTRIBUTING.md', 'docs/panel.md', 'docs/cli.md', 'docs/testing.md']) {
      expect(files).toContain(f);
    }
  });
});

describe('GitHub’s heading anchors', () => {
  it.each([
    ['The panel', 'the-panel'],
    ['`check`: judge capture files', 'check-judge-capture-files'],
    ['Playwright Test: embed-inspector/playwright', 'playwright-test-embed-inspectorplaywright'],
    ['The command line: record --script', 'the-command-line-record---script'],
    ['Files: export, import, compare', 'files-export-import-compare'],
    ['What did not happen: the integration line', 'what-did-not-happen-the-integration-line'],
    ['Not this API: the panel’s test handle', 'not-this-api-the-panels-test-handle'],
    ['Rule set (v1) — **generated**', 'rule-set-v1--generated'],
    ['[Unreleased]', 'unreleased'],
    ['[0.1.0] - 2026-11-23', '010---2026-11-23'],
  ])('%s → #%s', (heading, anchor) => {
    expect(slug(heading)).toBe(anchor);
  });

  it('numbers a repeated heading as GitHub does', () => {
    expect([...anchors('# A\n## Added\n## Added\n```\n## not a heading\n```\n<a id="x"></a>\n')]).toEqual([
      'a',
      'added',
      'added-1',
      'x',
    ]);
  });
});

describe('the check itself', () => {
  it('finds a missing file and a missing anchor, and skips links in code', () => {
    const md = '[a](docs/nope.md) [b](README.md#no-such-heading) `[c](nope.md)`\n```\n[d](nope.md)\n```\n';
    const found = links(codeBlocks(md).prose).map((l) => l.target);
    expect(found).toEqual(['docs/nope.md', 'README.md#no-such-heading']);
  });
});
