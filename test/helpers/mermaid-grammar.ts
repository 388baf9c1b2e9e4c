/**
 * A small grammar of the part of Mermaid's `sequenceDiagram` that the flow export writes, after Mermaid's own
 * lexer (packages/mermaid/src/diagrams/sequence/parser/sequenceDiagram.jison): entity codes (`#35;`) are taken
 * out before lexing as Mermaid's `encodeEntities` does; a message or note text ends at `#`, `;` or a line break
 * and `%%` starts a comment, so a text holding one of those would lose its end; its renderer draws `$$…$$` as
 * KaTeX math. No maintained package parses sequenceDiagram without a DOM (`@mermaid-js/parser` covers other
 * diagram types), hence this one; test/helpers/mermaid-render.ts runs Mermaid itself, in a browser.
 */

export type MermaidStatement =
  | { kind: 'participant'; id: string; alias: string }
  | { kind: 'message'; from: string; to: string; arrow: string; text: string }
  | { kind: 'note'; placement: string; over: string[]; text: string }
  | { kind: 'title'; text: string };

const ENTITY = /#(\w+);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** Mermaid's entity codes, decoded as its renderer shows them. */
const decodeMermaid = (s: string): string =>
  s.replace(ENTITY, (m, code: string) =>
    /^\d+$/.test(code) ? String.fromCodePoint(Number(code)) : (NAMED[code.toLowerCase()] ?? m),
  );

// Keywords the lexer matches before an actor id (first match wins, case-insensitive): an id must not start with one.
const KEYWORDS = [
  'box',
  'participant',
  'actor',
  'create',
  'destroy',
  'loop',
  'rect',
  'opt',
  'alt',
  'else',
  'par',
  'and',
  'critical',
  'option',
  'break',
  'end',
  'left of',
  'right of',
  'links',
  'link',
  'properties',
  'details',
  'over',
  'note',
  'activate',
  'deactivate',
  'title',
  'accTitle',
  'accDescr',
  'sequenceDiagram',
  'autonumber',
  'off',
];
const ID = /^[^+\->:\n,;#%\s]+$/;
const ARROWS = ['-->>', '->>', '-->', '->', '--x', '-x', '--)', '-)'];
const TEXT = /^[^#\n;]+$/;

function id(s: string, line: number): string {
  const v = s.trim();
  if (!ID.test(v)) {
    throw new Error(`line ${line}: "${v}" is not a participant id`);
  }
  const k = KEYWORDS.find((w) => v.toLowerCase().startsWith(w.toLowerCase()));
  if (k) {
    throw new Error(`line ${line}: id "${v}" starts with the keyword "${k}"`);
  }
  return v;
}
function text(s: string, line: number): string {
  const t = s.replace(ENTITY, 'E');
  if (!TEXT.test(t) || !t.trim()) {
    throw new Error(`line ${line}: text "${s}" ends early (a #, ; or line break) or is empty`);
  }
  // (Mermaid's renderer draws a text with `$$…$$` as KaTeX math, in place of the text as written)
  if (/\$\$.*\$\$/.test(t)) {
    throw new Error(`line ${line}: text "${s}" holds $$…$$, which Mermaid draws as math`);
  }
  return decodeMermaid(s.trim());
}

/** Parse the text; throws with the line number on anything the diagram would misread. */
export function parseSequenceDiagram(src: string): MermaidStatement[] {
  const lines = src.replace(/\n$/, '').split('\n');
  if (lines[0] !== 'sequenceDiagram') {
    throw new Error('line 1: expected "sequenceDiagram"');
  }
  const declared = new Set<string>();
  const used = (x: string, line: number) => {
    if (!declared.has(x)) {
      throw new Error(`line ${line}: participant "${x}" is not declared`);
    }
    return x;
  };
  const out: MermaidStatement[] = [];
  lines.slice(1).forEach((raw, k) => {
    const n = k + 2;
    if (/%%/.test(raw.replace(ENTITY, 'E'))) {
      throw new Error(`line ${n}: "%%" starts a comment`);
    }
    // (encodeEntities first drops the last `;` of such a line, cutting an entity code in two)
    if (/style.*:\S*#.*;/.test(raw) || /classDef.*:\S*#.*;/.test(raw)) {
      throw new Error(`line ${n}: Mermaid strips the last ";" of a "style…:#…;" line`);
    }
    const l = raw.trim();
    let m: RegExpMatchArray | null;
    if ((m = l.match(/^participant (\S+) as (.*)$/))) {
      const p = id(m[1], n);
      declared.add(p);
      out.push({ kind: 'participant', id: p, alias: text(m[2], n) });
    } else if ((m = l.match(/^title (.*)$/))) {
      out.push({ kind: 'title', text: text(m[1], n) });
    } else if ((m = l.match(/^Note (left of|right of|over) ([^:]+): (.*)$/))) {
      const over = m[2].split(',').map((x) => used(id(x, n), n));
      if (over.length > (m[1] === 'over' ? 2 : 1)) {
        throw new Error(`line ${n}: a note is over at most two participants`);
      }
      out.push({ kind: 'note', placement: m[1], over, text: text(m[3], n) });
    } else if ((m = l.match(/^([^:]+?): (.*)$/))) {
      const head = m[1];
      const arrow = ARROWS.find((a) => head.includes(a));
      if (!arrow) {
        throw new Error(`line ${n}: no arrow in "${head}"`);
      }
      const at = head.indexOf(arrow);
      out.push({
        kind: 'message',
        from: used(id(head.slice(0, at), n), n),
        arrow,
        to: used(id(head.slice(at + arrow.length), n), n),
        text: text(m[2], n),
      });
    } else {
      throw new Error(`line ${n}: not a statement: "${l}"`);
    }
  });
  return out;
}
