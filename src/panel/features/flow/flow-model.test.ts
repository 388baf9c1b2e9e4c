import { describe, expect, it } from 'vitest';
import { checkRecords } from '../../../protocol/capture.ts';
import {
  actionPair,
  eventPair,
  foreign,
  HOST,
  navigation,
  numbered,
  T0,
  TENANT,
} from '../../../../test/fixtures/messages.ts';
import { checkWellFormed } from '../../../../test/helpers/xml-wellformed.ts';
import { parseSequenceDiagram } from '../../../../test/helpers/mermaid-grammar.ts';
import { flowExports, flowFileName, flowIndexOf, flowOfView, rowOfSeq, seqAtRow, stepRow } from './flow-model.ts';
import { rangeRows } from './flow-range.ts';

/** A small session as the panel's log holds it: classified, in causal order, with a 5 s pause before the last pair. */
function session() {
  const raw = numbered([
    navigation(`${HOST}/app`),
    ...eventPair('svc:event:ready'),
    ...actionPair('svc:action:set-theme', { theme: 'dark' }),
    { ...foreign, from: 'self' }, // (another library of the page, talking to itself)
    ...eventPair('svc:event:dashboard-loaded'),
  ]);
  raw[raw.length - 2].time = T0 + 5000;
  raw[raw.length - 1].time = T0 + 5010;
  const { messages } = checkRecords(raw, { tenantOrigin: TENANT });
  const bySeq = new Map(messages.map((m) => [m.seq, m]));
  return raw.map((r) => ({
    ...r,
    verdict: bySeq.get(r.seq)?.verdict ?? 'valid',
    issues: bySeq.get(r.seq)?.issues ?? [],
  }));
}
const all = (records: readonly unknown[]) => records.map((_, i) => i);
const labels = (m: ReturnType<typeof flowOfView>) =>
  m.items.map((x) => (x.kind === 'arrow' ? x.label : x.kind === 'gap' ? 'gap' : 'loaded'));

describe('flowOfView: the flow of what the timeline shows', () => {
  it('draws the shown records: an arrow per pair, a gap row for the pause, foreign traffic when the filter shows it', () => {
    const records = session();
    const m = flowOfView({ records, order: all(records), tenantOrigin: TENANT });
    expect(labels(m)).toEqual(['loaded', 'ready', 'set-theme', 'message', 'gap', 'dashboard-loaded']);
    expect(m.lanes.map((l) => l.title)).toEqual(['host page', 'embed · dashboard']);
  });

  it('leaves out what the filters hide; a pair stays one arrow when only one half passes them', () => {
    const records = session();
    // the timeline shows only the deliveries (kind:receive), without the foreign message and the navigation
    const order = all(records).filter(
      (i) => records[i].kind === 'receive' && !records[i].navigation && records[i].verdict !== 'foreign',
    );
    const m = flowOfView({ records, order, tenantOrigin: TENANT });
    expect(labels(m)).toEqual(['ready', 'set-theme', 'gap', 'dashboard-loaded']);
    const ready = records.filter((r) => (r.data as { type?: string }).type === 'svc:event:ready');
    expect(ready).toHaveLength(2);
    const pairOf = (seq: number) => records.find((r) => r.seq === seq)?.pairedWith;
    expect(rowOfSeq(m, ready[0].seq, pairOf)).toBe(0);
    expect(rowOfSeq(m, ready[1].seq, pairOf)).toBe(0);
    expect(m.rowOf.get(ready[0].seq)).toBe(0);
    expect(m.rowOf.get(ready[1].seq)).toBe(0);
    // every shown record's row, by the search and by the model's map alike; a hidden record has none
    for (const r of records) {
      expect(rowOfSeq(m, r.seq, pairOf)).toBe(m.rowOf.get(r.seq) ?? -1);
    }
  });

  it('one index of the log serves every filter; a log grown since draws the records it indexed', () => {
    const records = session();
    const index = flowIndexOf({ records, tenantOrigin: TENANT });
    const deliveries = all(records).filter((i) => records[i].kind === 'receive' && !records[i].navigation);
    for (const order of [all(records), deliveries, []]) {
      const fresh = flowOfView({ records, order, tenantOrigin: TENANT });
      expect(labels(flowOfView({ records, order, tenantOrigin: TENANT }, {}, index))).toEqual(labels(fresh));
    }
    const grown = [...records, ...session().map((r) => ({ ...r, seq: r.seq + 100 }))];
    const m = flowOfView({ records: grown, order: all(grown), tenantOrigin: TENANT }, {}, index);
    expect(labels(m)).toEqual(labels(flowOfView({ records, order: all(records), tenantOrigin: TENANT })));
  });

  it('expands the other frames into a lane each when asked', () => {
    const extra = numbered(
      [
        { kind: 'receive', frameUrl: 'https://a.example.net/x', origin: HOST, data: { hello: 1 } },
        { kind: 'receive', frameUrl: 'https://b.example.net/y', origin: HOST, data: { hello: 2 } },
      ],
      100,
      T0 + 6000,
    ).map((r) => ({ ...r, verdict: 'foreign', issues: [] }));
    const records = [...session(), ...extra];
    const collapsed = flowOfView({ records, order: all(records), tenantOrigin: TENANT });
    const expanded = flowOfView({ records, order: all(records), tenantOrigin: TENANT }, { expandOthers: true });
    expect(collapsed.lanes.filter((l) => l.role === 'others').map((l) => l.frames)).toEqual([2]);
    expect(expanded.lanes.filter((l) => l.role === 'other')).toHaveLength(2);
  });
});

describe('keyboard rows', () => {
  const records = session();
  const m = flowOfView({ records, order: all(records), tenantOrigin: TENANT });
  const gap = m.items.findIndex((x) => x.kind === 'gap');
  const last = m.items.length - 1;
  it.each([
    ['↓ from nothing: the first row', -1, 1, 0],
    ['↑ from nothing: the last row', -1, -1, last],
    ['↓ over the gap to the record after it', gap - 1, 1, gap + 1],
    ['↑ over the gap to the record before it', gap + 1, -1, gap - 1],
    ['↓ at the end stays', last, 1, last],
    ['↑ at the start stays', 0, -1, 0],
    ['a page down past the end: the last row', 0, 100, last],
    ['a page up past the start: the first row', last, -100, 0],
  ])('%s', (_name, from, delta, to) => {
    expect(stepRow(m, from, delta)).toBe(to);
    expect(seqAtRow(m, to)).not.toBeNull();
  });
  it('a gap stands for no record; an empty flow has no row to move to', () => {
    expect(seqAtRow(m, gap)).toBeNull();
    expect(stepRow(flowOfView({ records: [], order: [], tenantOrigin: null }), -1, 1)).toBe(-1);
  });
});

describe('exports of the view', () => {
  it('an SVG document that is well-formed and a Mermaid text that parses, each with every shown message', () => {
    const records = session();
    const m = flowOfView({ records, order: all(records), tenantOrigin: TENANT });
    const { svg, mermaid } = flowExports(m, { pageUrl: `${HOST}/app?x=<&>` });
    checkWellFormed(svg);
    for (const l of ['ready', 'set-theme', 'dashboard-loaded']) {
      expect(svg).toContain(`>${l}<`);
    }
    const parsed = parseSequenceDiagram(mermaid);
    expect(parsed.filter((s) => s.kind === 'message').map((s) => s.kind === 'message' && s.text)).toEqual([
      'ready',
      'set-theme',
      'message',
      'dashboard-loaded',
    ]);
  });
  it("redacts secrets as `check` does: the page address, the frames' addresses, the issues quoting them", () => {
    const records = session();
    records[0] = { ...records[0], frameUrl: `${HOST}/app?token=SECRET-T1` };
    (records[0].data as { url?: string }).url = `${HOST}/app?token=SECRET-T1`;
    records[0].issues = [{ rule: 'x', severity: 'warning', path: 'url', message: 'at /app?session=SECRET-S2' }];
    const m = flowOfView({ records, order: all(records), tenantOrigin: TENANT });
    expect(JSON.stringify(m.items)).toContain('SECRET'); // (the panel shows its own log as it is)
    const { svg, mermaid } = flowExports(m, { pageUrl: `${HOST}/app?token=SECRET-T1&session=SECRET-S2` });
    for (const text of [svg, mermaid]) {
      expect(text).not.toContain('SECRET');
    }
    expect(svg).toContain('[redacted]');
    checkWellFormed(svg);
  });
  it('names the files by the page and the time', () => {
    const at = new Date(Date.UTC(2026, 10, 26, 9, 43, 7));
    expect(flowFileName(`${HOST}/app`, at, 'svg')).toBe('flow-host.example.org-2026-11-26T09-43-07.svg');
    expect(flowFileName(null, at, 'mmd')).toBe('flow-session-2026-11-26T09-43-07.mmd');
  });
});

describe('rangeRows: the selected range from the anchor to its far end', () => {
  it.each([
    ['down from the anchor', 3, 7, [3, 7]],
    ['up from the anchor', 7, 3, [3, 7]],
    ['the anchor itself: no range', 4, 4, null],
    ['no anchor row (the selection is not drawn)', -1, 4, null],
    ['no far end (its record is not drawn)', 4, -1, null],
  ] as const)('%s', (_name, anchor, end, expected) => {
    expect(rangeRows(anchor, end)).toEqual(expected);
  });
});
