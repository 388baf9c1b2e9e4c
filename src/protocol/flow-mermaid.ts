/**
 * A flow (flow.ts) as a Mermaid `sequenceDiagram`, for tickets and READMEs: one participant per lane, named by
 * role and origin; one line per message; a dropped post as a cross arrow with a note; a post that threw, a pause
 * and each issue as a note. Pure.
 *
 * Mermaid's lexer ends a message text at `#`, `;` and a line break, and takes `%%` as the start of a comment;
 * message texts here are written with its entity codes (`#35;`, `#59;`, `#37;`, `#lt;`…) instead, so whatever a
 * captured message type holds, every line is one statement of the diagram.
 */
import type { Issue } from './classify.ts';
import { formatGap, type FlowArrow, type FlowLane, type FlowModel } from './flow.ts';

export interface MermaidOptions {
  /** Notes on the whole session (a diagnosis's notes), written after the last message. */
  notes?: readonly Issue[];
  /** A title line. */
  title?: string;
}

const MAX_TEXT = 200;
const ENTITIES: Record<string, string> = {
  '#': '#35;',
  ';': '#59;',
  '%': '#37;',
  '<': '#lt;',
  '>': '#gt;',
  '&': '#amp;',
  '"': '#quot;',
  ':': '#58;',
  $: '#36;',
};
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A text Mermaid reads as written: one line, its special characters as entity codes, at most `max` characters. */
export function mermaidText(s: string, max = MAX_TEXT): string {
  let t = s
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/[\u0000-\u001F\u007F\u2028\u2029]+/g, ' ')
    .trim();
  const chars = Array.from(t);
  if (chars.length > max) {
    t = `${chars.slice(0, max - 1).join('')}…`;
  }
  // (Mermaid strips the last `;` of a line with `style…:…#…;` or `classDef…`: such a text has its `:` encoded too)
  const special = /style|classDef/.test(t) ? /[#;%<>&"$:]/g : /[#;%<>&"$]/g;
  return t.replace(special, (c) => ENTITIES[c]) || '(empty)';
}

const MARK = { error: '✗', warning: '⚠', info: 'ℹ' } as const;

/** The participant ids: `host`, `embed1`…, `frame1`…, `others` (never a Mermaid keyword or arrow). */
function participantIds(lanes: readonly FlowLane[]): string[] {
  let embeds = 0;
  let frames = 0;
  return lanes.map((l) =>
    l.role === 'host'
      ? 'host'
      : l.role === 'embed'
        ? `embed${++embeds}`
        : l.role === 'others'
          ? 'others'
          : `frame${++frames}`,
  );
}

const laneName = (l: FlowLane) => (l.origin ? `${l.title} · ${l.origin}` : l.title);

/** The Mermaid text of a flow. */
export function flowToMermaid(model: FlowModel, opts: MermaidOptions = {}): string {
  const ids = participantIds(model.lanes);
  const out: string[] = ['sequenceDiagram'];
  if (opts.title) {
    out.push(`  title ${mermaidText(opts.title)}`);
  }
  for (const l of model.lanes) {
    out.push(`  participant ${ids[l.index]} as ${mermaidText(laneName(l))}`);
  }
  const over = (a: number, b: number | null) =>
    b === null || b === a ? ids[a] : `${ids[Math.min(a, b)]},${ids[Math.max(a, b)]}`;
  const issueNotes = (where: string, issues: readonly Issue[]) => {
    for (const i of issues) {
      out.push(`  Note over ${where}: ${mermaidText(`${MARK[i.severity] ?? ''} ${i.rule}: ${i.message}`)}`);
    }
  };
  const all = model.lanes.length ? over(0, model.lanes.length - 1) : null;
  for (const item of model.items) {
    if (item.kind === 'gap') {
      if (all) {
        out.push(`  Note over ${all}: ${mermaidText(`… ${formatGap(item.ms)} …`)}`);
      }
      continue;
    }
    if (item.kind === 'navigation') {
      issueNotes(ids[item.lane], item.issues);
      continue;
    }
    arrowLines(item, ids, over, out);
    issueNotes(over(item.from, item.to), item.issues);
  }
  if (opts.notes?.length && all) {
    issueNotes(all, opts.notes);
  }
  return `${out.join('\n')}\n`;
}

function arrowLines(a: FlowArrow, ids: string[], over: (a: number, b: number | null) => string, out: string[]): void {
  const from = ids[a.from];
  const label = mermaidText(a.label, 80);
  if (a.state === 'threw') {
    out.push(`  Note over ${from}: ${mermaidText(`${a.label}: postMessage threw (${a.error ?? 'error'}), not sent`)}`);
    return;
  }
  if (a.to === null) {
    const to = a.targetOrigin ? ` to ${a.targetOrigin}` : '';
    out.push(`  Note right of ${from}: ${mermaidText(`${a.label} posted${to}; its receiver is not in the capture`)}`);
    return;
  }
  const to = ids[a.to];
  if (a.state === 'dropped') {
    out.push(`  ${from}-x${to}: ${label}`);
    const origin = a.targetOrigin ? ` (target origin ${a.targetOrigin})` : '';
    out.push(`  Note over ${over(a.from, a.to)}: ${mermaidText(`${a.label} dropped by the browser${origin}`)}`);
    return;
  }
  out.push(`  ${from}${a.tone === 'foreign' ? '-->>' : '->>'}${to}: ${label}`);
}
