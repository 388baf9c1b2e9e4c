/**
 * Mermaid itself, on a Mermaid text: its browser bundle (node_modules/mermaid/dist/mermaid.min.js, the version the
 * project's devDependencies pin) loaded into a blank page of a Chromium the caller launched, then `mermaid.parse`
 * and `mermaid.render` on the text. The result is the SVG Mermaid draws, with the texts it shows, or the message of
 * what Mermaid threw. Mermaid's Node entry needs a DOM (and a newer Node), hence the browser.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser } from 'puppeteer-core';

const require = createRequire(import.meta.url);
/** The bundle that defines `window.mermaid` (the package's `exports` do not name it: found from its package.json). */
const MERMAID_BUNDLE = join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js');

export type MermaidRender =
  | {
      ok: true;
      svg: string;
      /** The texts of the SVG's `<text>` elements, in document order, whitespace-trimmed. */
      texts: string[];
      /** The type of diagram Mermaid recognised (`sequence`…). */
      diagramType: string;
    }
  | { ok: false; error: string };

/** A page of the caller's Chromium with Mermaid loaded: renders texts one after another; close it when done. */
export interface MermaidRenderer {
  render(text: string): Promise<MermaidRender>;
  close(): Promise<void>;
}

/** Loads Mermaid into a new blank page of `browser` (a few seconds: the bundle is large; reuse the renderer). */
export async function mermaidRenderer(browser: Browser): Promise<MermaidRenderer> {
  const page = await browser.newPage();
  await page.goto('about:blank');
  await page.addScriptTag({ path: MERMAID_BUNDLE });
  await page.evaluate(() => {
    (window as unknown as { mermaid: any }).mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
  });
  let n = 0;
  return {
    render: (text) =>
      page.evaluate(
        async (src: string, id: string): Promise<MermaidRender> => {
          const mermaid = (window as unknown as { mermaid: any }).mermaid;
          try {
            // parse throws on a text Mermaid's grammar rejects; render draws it (and throws on what parse let by)
            await mermaid.parse(src);
            const { svg, diagramType } = await mermaid.render(id, src);
            const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
            if (doc.getElementsByTagName('parsererror').length) {
              return { ok: false, error: 'Mermaid drew an SVG that is not well-formed' };
            }
            const texts = [...doc.querySelectorAll('text')].map((t) => (t.textContent ?? '').trim());
            return { ok: true, svg, texts, diagramType };
          } catch (e) {
            return { ok: false, error: String((e as Error)?.message ?? e) };
          }
        },
        text,
        `ei-mermaid-${++n}`,
      ),
    close: () => page.close(),
  };
}

/** Parses and renders one text with Mermaid in a new page of `browser` (closed afterwards). */
export async function renderMermaid(browser: Browser, text: string): Promise<MermaidRender> {
  const r = await mermaidRenderer(browser);
  try {
    return await r.render(text);
  } finally {
    await r.close();
  }
}
