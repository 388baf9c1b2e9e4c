/**
 * Mermaid itself (its browser bundle, in the system Chromium: test/helpers/mermaid-render.ts) parses and draws the
 * flow's Mermaid text: a flow with an awkward string in every text renders, and every text the grammar of
 * test/helpers/mermaid-grammar.ts reads from the text is drawn as written (nothing lost to a comment, an entity,
 * markup or math). A broken text fails to render: the renderer rejects what Mermaid rejects. Fails (never skips)
 * without Chromium.
 */
import { flowToMermaid } from '../../src/protocol/flow-mermaid.ts';
import { AWKWARD, awkwardFlow } from '../helpers/awkward-flow.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { parseSequenceDiagram } from '../helpers/mermaid-grammar.ts';
import { mermaidRenderer, type MermaidRenderer } from '../helpers/mermaid-render.ts';

let mermaid: MermaidRenderer;
test.beforeAll(async ({ plainChromium }) => {
  mermaid = await mermaidRenderer(plainChromium.browser);
}, 60_000);
test.afterAll(async () => {
  await mermaid?.close();
});

/** The texts a reader sees in the diagram: the title, the participants, the messages and the notes. */
const textsOf = (src: string) => parseSequenceDiagram(src).map((s) => (s.kind === 'participant' ? s.alias : s.text));

describe('Mermaid renders the flow export', () => {
  it.each(AWKWARD)('with %s in every text, each text drawn as written', async (_what, s) => {
    const { model, opts } = awkwardFlow(s);
    const src = flowToMermaid(model, opts);
    const r = await mermaid.render(src);
    expect(r.ok ? '' : r.error).toBe('');
    if (r.ok) {
      expect(r.diagramType).toBe('sequence');
      const wanted = textsOf(src);
      expect(wanted.filter((t) => t.includes(s)).length).toBeGreaterThan(10);
      for (const t of wanted) {
        expect(r.texts).toContain(t);
      }
    }
  });

  it.each([
    ['an end without its block', 'sequenceDiagram\n  a->>b: x\n  end\n'],
    ['a semicolon ending a message early', 'sequenceDiagram\n  a->>b: x; y->>\n'],
    ['a message without an arrow', 'sequenceDiagram\n  participant a as A\n  a host: ready\n'],
    ['a block never closed', 'sequenceDiagram\n  loop every second\n  a->>b: x\n'],
    ['no diagram type', 'host->>embed1: ready\n'],
  ])('a broken text (%s) fails to render, with Mermaid’s message', async (_what, src) => {
    const r = await mermaid.render(src);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error).not.toBe('');
  });
});
