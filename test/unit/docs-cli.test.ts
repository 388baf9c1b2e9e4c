// docs/cli.md lists each command's flags exactly as the command line's table has them (src/cli/commands.ts, which
// the parser and --help are made from), and every `embed-inspector` command the docs show uses flags that exist.
import { describe, expect, it } from 'vitest';
import { COMMANDS, flagLabel, type CommandSpec } from '../../src/cli/commands.ts';
import { codeBlocks, codeSpans, docFiles, read } from '../helpers/markdown.ts';

const CLI = read('docs/cli.md');
const byName = new Map(COMMANDS.map((c) => [c.name, c]));

/** The flags of a command as docs/cli.md's table under `## NAME` writes them (`-o, --out FILE`). */
function documentedFlags(name: string): string[] {
  const { prose } = codeBlocks(CLI);
  const start = prose.search(new RegExp(`^## ${name}$`, 'm'));
  if (start < 0) {
    return [];
  }
  const next = prose.slice(start + 1).search(/^## /m);
  const section = next < 0 ? prose.slice(start) : prose.slice(start, start + 1 + next);
  return [...section.matchAll(/^\| `(-[^`]+)` \|/gm)].map((m) => m[1].replace(/\\\|/g, '|'));
}

const tableFlags = (c: CommandSpec) =>
  Object.entries(c.flags).map(([name, f]) => `${f.short ? `-${f.short}, ` : ''}${flagLabel(name, f)}`);

/** The long flags a shown command line uses, per command: `embed-inspector diff a b --format json` → diff, format. */
function usedFlags(text: string): { command: string; flag: string; where: string }[] {
  const out: { command: string; flag: string; where: string }[] = [];
  for (const m of text.matchAll(/(?:^|[\s`(])(?:npx\s+)?embed-inspector\s+([a-z]+)([^\n|>&;#]*)/g)) {
    for (const f of m[2].matchAll(/(?:^|[\s[])--([a-z][\w-]*)/g)) {
      out.push({ command: m[1], flag: f[1], where: m[0].trim() });
    }
  }
  return out;
}

describe('docs/cli.md and the command table', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))('## %s lists exactly the flags of its table', (name, c) => {
    expect(documentedFlags(name).sort()).toEqual(tableFlags(c).sort());
  });

  it('has a section for every command and no section for a command that is not there', () => {
    const sections = [...CLI.matchAll(/^## ([a-z]+)$/gm)].map((m) => m[1]);
    expect(sections.sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });
});

describe('the command lines the docs show', () => {
  const shown = docFiles().flatMap((file) => {
    const md = read(file);
    const { blocks, prose } = codeBlocks(md);
    const texts = [
      ...blocks.filter((b) => /^(sh|bash|shell|yaml|)$/.test(b.lang)).map((b) => b.text),
      ...codeSpans(prose),
    ];
    return texts.flatMap((t) => usedFlags(t).map((u) => ({ ...u, file })));
  });

  it('are many (the check reads them)', () => {
    expect(shown.length).toBeGreaterThan(20);
  });

  it('name commands and flags that exist', () => {
    const wrong = shown.filter((u) => {
      const c = byName.get(u.command);
      return !c || !(u.flag === 'help' || u.flag in c.flags);
    });
    expect(wrong.map((u) => `${u.file}: ${u.where} (--${u.flag})`)).toEqual([]);
  });

  it('finds the command and its flags in a line', () => {
    expect(usedFlags('npx embed-inspector check a.json --format junit > out.xml # --not-this')).toEqual([
      { command: 'check', flag: 'format', where: 'npx embed-inspector check a.json --format junit' },
    ]);
    expect(usedFlags('embed-inspector view FILE… [--port N] [--no-open]').map((u) => u.flag)).toEqual([
      'port',
      'no-open',
    ]);
  });
});
