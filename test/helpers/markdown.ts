/**
 * A small reading of the Markdown the docs tests check (test/unit/docs-*.test.ts): the docs' files, their fenced
 * code blocks (with the example marker above each), their links outside code, their headings' anchors as GitHub
 * makes them. Enough for our own docs; not a Markdown parser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

/** The Markdown files the checks cover, relative to the root: the top-level pages and docs/*.md. */
export function docFiles(): string[] {
  const top = ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'BENCHMARKS.md', 'CHANGELOG.md'];
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return [...top, ...docs];
}

export const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

export interface CodeBlock {
  /** The fence's info string (`ts`, `sh`, '' for none). */
  lang: string;
  /** The text between the fences, with a final line break. */
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The file named by `<!-- example: PATH -->` on the line before the fence (blank lines between allowed). */
  example?: string;
}

const CODE_LINE = '\0';

/** The fenced code blocks of a Markdown text, and the text with them blanked out (line numbers kept). */
export function codeBlocks(md: string): { blocks: CodeBlock[]; prose: string } {
  const lines = md.split('\n');
  const blocks: CodeBlock[] = [];
  const prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) {
      prose.push(lines[i]);
      continue;
    }
    const fence = open[2];
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(fence)) {
      j++;
    }
    let k = prose.length - 1;
    while (k >= 0 && prose[k] !== CODE_LINE && prose[k].trim() === '') {
      k--;
    }
    const example = k >= 0 ? /^<!-- example: (\S+) -->$/.exec(prose[k].trim())?.[1] : undefined;
    blocks.push({
      lang: open[3].trim(),
      text: `${lines.slice(i + 1, j).join('\n')}\n`,
      line: i + 1,
      ...(example ? { example } : {}),
    });
    for (let n = i; n <= j && n < lines.length; n++) {
      prose.push(CODE_LINE);
    }
    i = j;
  }
  return { blocks, prose: prose.map((l) => (l === CODE_LINE ? '' : l)).join('\n') };
}

/** Inline code spans of a text (outside fenced blocks). */
export const codeSpans = (prose: string): string[] =>
  [...prose.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)].map((m) => m[2]);

/** Links and images of a text outside code: `[text](target)`, `![alt](target)`. */
export function links(prose: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  prose.split('\n').forEach((l, i) => {
    const text = l.replace(/(`+)(?:[^`]|[^`].*?[^`])\1(?!`)/g, '');
    for (const m of text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      out.push({ target: m[1], line: i + 1 });
    }
  });
  return out;
}

/** A heading's anchor as GitHub makes it (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*)/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown text offers: its headings' slugs (repeats numbered as GitHub does) and `<a id|name>`. */
export function anchors(md: string): Set<string> {
  const { prose } = codeBlocks(md);
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const l of prose.split('\n')) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n ? `${base}-${n}` : base);
    }
    for (const m of l.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) {
      out.add(m[1]);
    }
  }
  return out;
}
