/**
 * What the panel's flow view draws, read from its document: the lane heads with their lifelines' x, and the arrow
 * rows on screen with their lines' ends and drawn width. `readFlowDrawing` runs in the panel's document; it goes
 * there as its source, so it uses nothing but its arguments (and works through Firefox's Xray wrappers too: no
 * globals of the page are called). `FLOW_DRAWING` is that call for a page or frame of the panel;
 * `expectHandshakeDrawn` checks a sandbox session's lanes and handshake arrows in it.
 */
import { expect } from 'vitest';
import type { PanelTarget } from './panel-handle.ts';

export interface FlowDrawing {
  /** The Flow tab is the selected view. */
  flowShown: boolean;
  lanes: Array<{ title: string; origin: string; x: number }>;
  /** Arrow rows on screen, top to bottom. */
  arrows: Array<{ label: string; x1: number; x2: number; width: number; height: number }>;
}

export function readFlowDrawing(d: Document): FlowDrawing {
  const lifelines = [...d.querySelectorAll('.flow-lifeline')].map((l) =>
    Number.parseFloat((l as HTMLElement).style.left),
  );
  const lanes = [...d.querySelectorAll('.flow-lane-head')].map((h, i) => ({
    title: h.querySelector('.flow-lane-title')?.textContent ?? '',
    origin: h.querySelector('.flow-lane-origin')?.textContent ?? '',
    x: lifelines[i],
  }));
  const arrows = [...d.querySelectorAll('.flow-row.k-arrow')]
    .filter((r) => (r as HTMLElement).style.display !== 'none')
    .map((r) => {
      const line = r.querySelector('.flow-line');
      const box = line ? line.getBoundingClientRect() : null;
      return {
        top: r.getBoundingClientRect().top,
        label: r.querySelector('.flow-label')?.textContent ?? '',
        x1: Number(line?.getAttribute('x1')),
        x2: Number(line?.getAttribute('x2')),
        width: box ? box.width : 0,
        height: r.getBoundingClientRect().height,
      };
    })
    .sort((a, b) => a.top - b.top)
    .map(({ top, ...a }) => a);
  const tab = d.querySelector('.vt-flow');
  return { flowShown: tab?.getAttribute('aria-selected') === 'true', lanes, arrows };
}

/** The expression that reads the drawing in a page or frame of the panel. */
const FLOW_DRAWING = `(${readFlowDrawing.toString()})(document)`;

export function flowDrawing(target: PanelTarget): Promise<FlowDrawing> {
  return target.evaluate(FLOW_DRAWING) as Promise<FlowDrawing>;
}

/**
 * The sandbox dashboard session's flow: a lane for the host page and one for the embed (by origin), the embed's
 * `ready` drawn from the embed's lifeline to the host's, and the host's first action after it, `set-color-scheme`,
 * from the host's lifeline to the embed's.
 */
export function expectHandshakeDrawn(d: FlowDrawing, origins: { host: string; tenant: string }): void {
  expect(d.flowShown).toBe(true);
  expect(d.lanes.map(({ title, origin }) => ({ title, origin }))).toEqual([
    { title: 'host page', origin: origins.host },
    { title: 'embed · dashboard', origin: origins.tenant },
  ]);
  const [host, embed] = d.lanes.map((l) => l.x);
  expect(embed).toBeGreaterThan(host);
  const one = (label: string) => {
    const found = d.arrows.filter((a) => a.label === label);
    expect(found, `one ${label} arrow on screen`).toHaveLength(1);
    expect(found[0].width, `the ${label} line is drawn`).toBeGreaterThan((embed - host) / 2);
    expect(found[0].height).toBeGreaterThan(0);
    return found[0];
  };
  const ready = one('ready');
  expect(ready.x1).toBe(embed);
  expect(Math.abs(ready.x2 - host)).toBeLessThan(4);
  const action = one('set-color-scheme');
  expect(action.x1).toBe(host);
  expect(Math.abs(action.x2 - embed)).toBeLessThan(4);
  expect(d.arrows.indexOf(ready)).toBeLessThan(d.arrows.indexOf(action));
}
