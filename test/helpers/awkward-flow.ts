/**
 * Flows whose every text holds one awkward string: the lanes' titles and origins, the message labels, the targets
 * and errors of posts, the issues and the title, through every kind of line the Mermaid writer
 * (src/protocol/flow-mermaid.ts) writes: participants, a delivered and a foreign arrow, a dropped post, a post that
 * threw, a post whose receiver is not captured, a pause, a navigation's issue, the session's notes and the title.
 * Shared by the writer's unit test (Mermaid's grammar) and the end-to-end render test (Mermaid itself).
 */
import type { Issue } from '../../src/protocol/classify.ts';
import { flowOfItems, type FlowArrow, type FlowLane, type FlowModel } from '../../src/protocol/flow.ts';
import type { MermaidOptions } from '../../src/protocol/flow-mermaid.ts';

/** Strings Mermaid's lexer, its renderer or its sanitizer would read as something other than text. */
export const AWKWARD: Array<[what: string, text: string]> = [
  ['a semicolon', 'a;b'],
  ['a hash', '#fff'],
  ['a comment', '100%%done'],
  ['a directive', '%%{init: {"theme": "dark"}}%%'],
  ['markup', '<b>bold</b>&amp;'],
  ['a line break tag', 'one<br>two'],
  ['a script tag', 'x<script>alert(1)</script>'],
  ['an entity code', 'x#59;y'],
  ['a style line', 'style:#f00;'],
  ['a classDef line', 'classDef a fill:#f00;'],
  ['colons (an origin with a port)', 'http://127.0.0.1:5173'],
  ['quotes', `a: "b" 'c'`],
  ['KaTeX math', '$$x^2$$'],
  ['a dollar', 'cost $5'],
  ['an arrow and a colon', 'a->>b: c'],
  ['a note statement', 'Note over host: x'],
  ['keywords', 'end loop alt participant'],
  ['an alias keyword', 'x as y'],
  ['a shape annotation', 'x@{ "type": "actor" }'],
  ['a comma', 'a,b'],
  ['a backslash', 'back\\slash'],
  ['non-Latin text and emoji', 'é ü ✗ … 😀 日本'],
];

function awkwardIssue(s: string): Issue {
  return { rule: 'awkward.rule', severity: 'error', path: '$', message: s };
}

const lane = (index: number, role: FlowLane['role'], title: string, origin: string | null): FlowLane => ({
  index,
  role,
  title,
  origin,
  surface: null,
  url: null,
  frames: 1,
});
const arrow = (over: Partial<FlowArrow>): FlowArrow => ({
  kind: 'arrow',
  seq: 1,
  post: 1,
  delivery: 2,
  from: 1,
  to: 0,
  type: null,
  label: 'ready',
  state: 'delivered',
  verdict: 'valid',
  tone: 'valid',
  milestone: false,
  error: null,
  targetOrigin: null,
  issues: [],
  time: 0,
  ...over,
});

/** A flow of three lanes with `s` in every text, and the writer's options (title and notes) with it too. */
export function awkwardFlow(s: string): { model: FlowModel; opts: MermaidOptions } {
  const issue = awkwardIssue(s);
  const model: FlowModel = flowOfItems(
    [
      lane(0, 'host', `host ${s}`, 'https://host.example:8443'),
      lane(1, 'embed', `embed · ${s}`, s),
      lane(2, 'other', s, null),
    ],
    [
      arrow({ label: s, issues: [issue] }),
      arrow({ label: s, tone: 'foreign', from: 2, to: 0 }),
      arrow({ label: s, state: 'dropped', from: 0, to: 1, targetOrigin: s }),
      arrow({ label: s, state: 'threw', from: 0, to: 1, error: s }),
      arrow({ label: s, state: 'sent', from: 2, to: null, targetOrigin: s }),
      { kind: 'gap', ms: 3000, time: 0 },
      { kind: 'navigation', seq: 9, lane: 2, url: s, issues: [issue], time: 0 },
    ],
    0,
  );
  return { model, opts: { title: s, notes: [issue] } };
}
