/**
 * `embed-inspector check --format mermaid|svg` on a session recorded from the sandbox (the built command line, the
 * system Chromium): the host's action posted to the wrong origin is a dropped arrow with its note; the Mermaid text
 * passes the grammar of Mermaid's lexer and Mermaid itself renders it, naming every participant and message; the
 * SVG is well-formed, renders in Chromium and shows every message; the exit status is the capture's verdict.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { cliIn } from '../helpers/cli.ts';
import { parseSequenceDiagram } from '../helpers/mermaid-grammar.ts';
import { mermaidRenderer } from '../helpers/mermaid-render.ts';
import { checkWellFormed } from '../helpers/xml-wellformed.ts';
import { onTestFinished } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'ei-flow-'));
const cli = cliIn(dir);
let hostUrl = '';

test.beforeAll(async ({ sandbox }) => {
  hostUrl = sandbox.hostUrl;
  const r = await cli('record', `${hostUrl}?faults=action-wrong-origin`, '--duration', '2500', '--out', 'wrong.json');
  expect(r.code, r.out + r.err).toBe(1);
});

describe('check --format mermaid|svg', () => {
  it('prints a sequenceDiagram with the dropped action as a cross and its note, and fails as check does', async () => {
    const r = await cli('check', 'wrong.json', '--format', 'mermaid');
    expect(r.code, r.err).toBe(1);
    const parsed = parseSequenceDiagram(r.out);
    const tenant = JSON.parse(readFileSync(join(dir, 'wrong.json'), 'utf8')).tenantOrigin;
    expect(parsed.filter((s) => s.kind === 'participant').map((s) => s.kind === 'participant' && s.alias)).toEqual([
      `host page · ${new URL(hostUrl).origin}`,
      `embed · dashboard · ${tenant}`,
    ]);
    const messages = parsed.flatMap((s) => (s.kind === 'message' ? [`${s.from}${s.arrow}${s.to}: ${s.text}`] : []));
    expect(messages).toEqual(expect.arrayContaining(['embed1->>host: ready', 'host-xembed1: set-color-scheme']));
    expect(messages.indexOf('embed1->>host: ready')).toBeLessThan(messages.indexOf('host-xembed1: set-color-scheme'));
    const notes = parsed.flatMap((s) => (s.kind === 'note' ? [s.text] : []));
    expect(notes).toContainEqual(expect.stringMatching(/^set-color-scheme dropped by the browser/));
    expect(notes).toContainEqual(expect.stringMatching(/^✗ origin\.action-target: /));
  });

  it('prints a text that Mermaid renders, naming every participant and every message', async ({ plainChromium }) => {
    const r = await cli('check', 'wrong.json', '--format', 'mermaid');
    const parsed = parseSequenceDiagram(r.out);
    const mermaid = await mermaidRenderer(plainChromium.browser);
    onTestFinished(() => mermaid.close());
    const drawn = await mermaid.render(r.out);
    expect(drawn.ok ? '' : drawn.error).toBe('');
    if (drawn.ok) {
      expect(drawn.diagramType).toBe('sequence');
      const wanted = parsed.flatMap((s) =>
        s.kind === 'participant' ? [s.alias] : s.kind === 'message' || s.kind === 'note' ? [s.text] : [],
      );
      expect(wanted).toEqual(expect.arrayContaining(['ready', 'set-color-scheme']));
      for (const t of wanted) {
        expect(drawn.texts).toContain(t);
      }
    }
    // the same helper rejects what Mermaid rejects: the text cut after a message's arrow
    const cut = r.out.replace(/(embed1->>host): ready\n[\s\S]*/, '$1\n');
    expect(cut).not.toBe(r.out);
    const broken = await mermaid.render(cut);
    expect(broken.ok).toBe(false);
  });

  it('writes a self-contained SVG that Chromium renders, with every message', async ({ plainChromium }) => {
    const r = await cli('check', 'wrong.json', '--format', 'svg', '--out', 'flow.svg');
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/^wrote flow\.svg: [1-9]\d* messages in 2 lanes \(svg\)\n$/);
    const svg = readFileSync(join(dir, 'flow.svg'), 'utf8');
    checkWellFormed(svg);
    const mermaid = parseSequenceDiagram((await cli('check', 'wrong.json', '--format', 'mermaid')).out);
    const labels = mermaid.flatMap((s) =>
      s.kind === 'message' ? [s.arrow === '-x' ? `${s.text} (dropped)` : s.text] : [],
    );
    const page = await plainChromium.browser.newPage();
    try {
      await page.goto(`file://${join(dir, 'flow.svg')}`);
      const shown = await page.evaluate(() => ({
        root: document.documentElement.nodeName,
        error: document.getElementsByTagName('parsererror').length,
        texts: [...document.querySelectorAll('text')].map((t) => t.textContent),
        width: document.documentElement.getBoundingClientRect().width,
      }));
      expect(shown).toMatchObject({ root: 'svg', error: 0 });
      expect(shown.width).toBeGreaterThan(0);
      for (const l of labels) {
        expect(shown.texts).toContain(l);
      }
    } finally {
      await page.close();
    }
  });

  it('prints SVG to a pipe, and refuses --out with a text report', async () => {
    const piped = await cli('check', 'wrong.json', '--format', 'svg');
    expect(piped.out).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const bad = await cli('check', 'wrong.json', '--out', 'x.txt');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--out goes with --format mermaid or svg/);
    expect(bad.out).toBe('');
  });
});
