import { describe, expect, it } from 'vitest';
import { checkRecords } from './capture.ts';
import { buildFlow, flowOfCapture, type FlowInput } from './flow.ts';
import { flowToSvg } from './flow-svg.ts';
import { checkWellFormed } from '../../test/helpers/xml-wellformed.ts';
import {
  EMBED_URL,
  eventPair,
  foreign,
  HOST,
  msg,
  navigation,
  numbered,
  rec,
  TENANT,
} from '../../test/fixtures/messages.ts';

const session = () =>
  numbered([
    navigation(`${HOST}/app`),
    navigation(EMBED_URL),
    ...eventPair('svc:event:ready'),
    rec(msg('svc:action:set-theme', { theme: 'dark' }), { targetOrigin: 'https://acme.example.net', dropped: true }),
    rec(msg('svc:action:set-theme', { theme: 'dark' }), {
      targetOrigin: 'nonsense',
      error: 'SyntaxError: <bad> & "worse"',
    }),
    foreign,
    ...eventPair('svc:event:view'),
  ]);
const svgOf = (records: any[], all = false) =>
  flowToSvg(flowOfCapture(records, checkRecords(records, { tenantOrigin: TENANT }), { includeForeign: all }), {
    title: 'a <capture> & more.json',
  });
const texts = (svg: string) => checkWellFormed(svg).flatMap((e) => (e.name === 'text' ? [e.text] : []));

describe('flowToSvg', () => {
  it('is one well-formed SVG document that needs nothing outside it, on a white background', () => {
    const svg = svgOf(session());
    const elements = checkWellFormed(svg);
    expect(elements[0]).toMatchObject({ name: 'svg', attrs: { xmlns: 'http://www.w3.org/2000/svg' } });
    expect(elements[1]).toMatchObject({ name: 'rect', attrs: { fill: '#ffffff', width: elements[0].attrs.width } });
    expect(
      elements
        .map((e) => e.name)
        .filter((n) => !['svg', 'rect', 'text', 'line', 'path', 'circle', 'g', 'title'].includes(n)),
    ).toEqual([]);
    expect(svg).not.toMatch(/href|url\(|@import|@font-face|<image|<style/);
  });

  it('draws every message of a small session with its label, the lanes and the title', () => {
    const t = texts(svgOf(session()));
    expect(t).toEqual(
      expect.arrayContaining(['a <capture> & more.json', 'host page', HOST, 'embed · dashboard', TENANT]),
    );
    expect(t.filter((x) => /^(ready|view|set-theme \(dropped\)|set-theme \(threw\))$/.test(x))).toEqual([
      'ready',
      'set-theme (dropped)',
      'set-theme (threw)',
      'view',
    ]);
    expect(t.filter((x) => x.startsWith('+')).length).toBe(6);
  });

  it('draws foreign messages only when asked', () => {
    expect(texts(svgOf(session()))).not.toContain('message');
    expect(texts(svgOf(session(), true))).toContain('message');
  });

  it('holds any message type as text, markup and characters XML cannot hold included', () => {
    const type = 'svc:event:<script>alert("x")</script>&\u0001\uD800';
    const records = numbered([rec({ source: 'svc-embed', direction: 'event', type, payload: {}, timestamp: 1 })]);
    const t = texts(flowToSvg(buildFlow(records as FlowInput[], { tenantOrigin: TENANT })));
    expect(t).toContainEqual(
      expect.stringMatching(/^<script>alert\("x"\)<\/script>&\uFFFD\uFFFD$|^<script>alert\("x"\)<\/scr…$/),
    );
  });
});
