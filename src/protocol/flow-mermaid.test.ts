import { describe, expect, it } from 'vitest';
import { checkRecords } from './capture.ts';
import { buildFlow, flowOfCapture, type FlowInput } from './flow.ts';
import { flowToMermaid, mermaidText } from './flow-mermaid.ts';
import { parseSequenceDiagram } from '../../test/helpers/mermaid-grammar.ts';
import { AWKWARD, awkwardFlow } from '../../test/helpers/awkward-flow.ts';
import { EMBED_URL, eventPair, HOST, msg, navigation, numbered, rec, TENANT } from '../../test/fixtures/messages.ts';

const session = () =>
  numbered([
    navigation(`${HOST}/app`),
    navigation(EMBED_URL),
    ...eventPair('svc:event:ready'),
    rec(msg('svc:action:set-theme', { theme: 'dark' }), { targetOrigin: 'https://acme.example.net', dropped: true }),
    rec(msg('svc:action:set-theme', { theme: 'dark' }), { targetOrigin: 'nonsense', error: 'SyntaxError: bad origin' }),
    ...eventPair('svc:event:dashboard-loaded'),
  ]);
const mermaidOf = (records: any[]) => {
  const result = checkRecords(records, { tenantOrigin: TENANT });
  return flowToMermaid(flowOfCapture(records, result), { notes: result.diagnosis.notes });
};

describe('flowToMermaid', () => {
  it('names participants by role and origin and writes one line per message', () => {
    const parsed = parseSequenceDiagram(mermaidOf(session()));
    expect(parsed.filter((s) => s.kind === 'participant')).toEqual([
      { kind: 'participant', id: 'host', alias: `host page · ${HOST}` },
      { kind: 'participant', id: 'embed1', alias: `embed · dashboard · ${TENANT}` },
    ]);
    expect(parsed.filter((s) => s.kind === 'message')).toEqual([
      { kind: 'message', from: 'embed1', arrow: '->>', to: 'host', text: 'ready' },
      { kind: 'message', from: 'host', arrow: '-x', to: 'embed1', text: 'set-theme' },
      { kind: 'message', from: 'embed1', arrow: '->>', to: 'host', text: 'dashboard-loaded' },
    ]);
  });

  it('notes a dropped post, a post that threw, each issue and a pause', () => {
    const records = session();
    records[records.length - 2].time += 3000;
    records[records.length - 1].time += 3000;
    const notes = parseSequenceDiagram(mermaidOf(records)).flatMap((s) => (s.kind === 'note' ? [s.text] : []));
    expect(notes).toContainEqual(
      expect.stringMatching(/^set-theme dropped by the browser \(target origin https:\/\/acme\.example\.net\)$/),
    );
    expect(notes).toContainEqual('set-theme: postMessage threw (SyntaxError: bad origin), not sent');
    expect(notes).toContainEqual(expect.stringMatching(/^✗ origin\.action-target: /));
    expect(notes).toContainEqual(expect.stringMatching(/^… 3\.\d s …$/));
  });

  const hostile: Array<[string, string]> = [
    ['a semicolon', 'svc:event:a;b'],
    ['a hash', 'svc:event:#fff'],
    ['a comment', 'svc:event:100%%done'],
    ['markup', 'svc:event:<b>bold</b>&amp;'],
    ['a line break', 'svc:event:two\nlines'],
    ['a keyword', 'end'],
    ['an entity code', 'x#59;y'],
    ['a style line', 'style:#f00;'],
    ['a colon and quote', 'a: "b"'],
    ['a lone surrogate', 'a\uD800b'],
    ['KaTeX math', 'svc:event:$$x^2$$'],
  ];
  it.each(hostile)('a message type with %s stays one statement and reads as written', (_what, type) => {
    const records = numbered([rec({ source: 'svc-embed', direction: 'event', type, payload: {}, timestamp: 1 })]);
    const text = flowToMermaid(buildFlow(records as FlowInput[], { tenantOrigin: TENANT }));
    const messages = parseSequenceDiagram(text).filter((s) => s.kind === 'message');
    expect(messages).toHaveLength(1);
    const label = type.startsWith('svc:event:') ? type.slice(10) : type;
    expect(messages[0]).toMatchObject({
      text: label.replace(/\uD800/g, '\uFFFD').replace(/\s+/g, ' '),
    });
  });

  // (Mermaid itself draws these flows in test/e2e/flow-mermaid-render.test.ts)
  it.each(AWKWARD)('a flow with %s in every text: one statement a line, each text as written', (_what, s) => {
    const { model, opts } = awkwardFlow(s);
    const text = flowToMermaid(model, opts);
    const parsed = parseSequenceDiagram(text);
    expect(parsed).toHaveLength(text.trimEnd().split('\n').length - 1);
    const of = <K extends string>(kind: K) => parsed.filter((p) => p.kind === kind);
    expect(of('title')).toEqual([{ kind: 'title', text: s }]);
    expect(of('participant').map((p) => p.kind === 'participant' && p.alias)).toEqual([
      `host ${s} · https://host.example:8443`,
      `embed · ${s} · ${s}`,
      s,
    ]);
    expect(of('message').map((m) => m.kind === 'message' && `${m.from}${m.arrow}${m.to}: ${m.text}`)).toEqual([
      `embed1->>host: ${s}`,
      `frame1-->>host: ${s}`,
      `host-xembed1: ${s}`,
    ]);
    expect(of('note').map((m) => m.kind === 'note' && m.text)).toEqual([
      `✗ awkward.rule: ${s}`,
      `${s} dropped by the browser (target origin ${s})`,
      `${s}: postMessage threw (${s}), not sent`,
      `${s} posted to ${s}; its receiver is not in the capture`,
      '… 3.0 s …',
      `✗ awkward.rule: ${s}`,
      `✗ awkward.rule: ${s}`,
    ]);
  });

  it('cuts a long text and never leaves it empty', () => {
    expect(Array.from(mermaidText('x'.repeat(500), 50))).toHaveLength(50);
    expect(mermaidText(' \n ')).toBe('(empty)');
  });
});
