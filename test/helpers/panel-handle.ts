/**
 * The panel's test handle (`window.__embedInspectorPanel`, src/panel/app/test-handle.ts), typed for the tests:
 * `inPanel(page, (h, arg) => ..., arg)` runs a function with it in the panel page and returns the result. Tests
 * use its facade (`h.records()`, `h.rows()`, `h.counts()`, `h.state()`, `h.setFilters()`, `h.select()`…: the
 * table in docs/internals.md, "Testing the panel"), not the log's or the view's classes (`h.log`, `h.view`).
 */
import type { Frame, FrameWaitForFunctionOptions, Page } from 'puppeteer-core';
import type { PanelTestHandle } from '../../src/panel/app/test-handle.ts';

export type { PanelTestHandle } from '../../src/panel/app/test-handle.ts';

/** A page or frame that shows the panel. */
export type PanelTarget = Page | Frame;

/**
 * The expression that calls `fn` with the handle and `arg` in the page: `fn` goes as its source (as puppeteer sends
 * any function it evaluates), so it reads nothing of the test's scope but `arg`, which goes as JSON.
 */
function callInPanel(fn: (h: PanelTestHandle, arg: never) => unknown, arg: unknown): string {
  const a = arg === undefined ? 'undefined' : JSON.stringify(arg);
  return `(${fn.toString()})(window.__embedInspectorPanel, ${a})`;
}

/** Run `fn(handle, arg)` in the panel and return its result (serialised as JSON: plain values only). */
export function inPanel<R>(target: PanelTarget, fn: (h: PanelTestHandle) => R): Promise<Awaited<R>>;
export function inPanel<R, A>(target: PanelTarget, fn: (h: PanelTestHandle, arg: A) => R, arg: A): Promise<Awaited<R>>;
export function inPanel<R, A>(
  target: PanelTarget,
  fn: (h: PanelTestHandle, arg: A) => R,
  arg?: A,
): Promise<Awaited<R>> {
  return target.evaluate(callInPanel(fn, arg)) as Promise<Awaited<R>>;
}

/**
 * Wait until `fn(handle, arg)` is truthy in the panel (false while the handle is not installed yet, so it can be
 * the first wait after opening the page). Options as `waitForFunction`'s (timeout, polling).
 */
export async function waitInPanel<A = undefined>(
  target: PanelTarget,
  fn: (h: PanelTestHandle, arg: A) => unknown,
  opts: FrameWaitForFunctionOptions = {},
  arg?: A,
): Promise<void> {
  try {
    await target.waitForFunction(`!!window.__embedInspectorPanel && ${callInPanel(fn, arg)}`, opts);
  } catch (e) {
    // A wait that failed says how the panel's link stood and what the panel warned of (a port given up, a drop).
    const status = await inPanel(target, (h) => h.store.status).catch(() => 'unknown (the page is gone)');
    const notes = panelNotes.get(target) ?? [];
    (e as Error).message +=
      `\nthe panel's link: ${status}; its warnings and errors` +
      (notes.length ? `:\n  ${notes.join('\n  ')}` : ': none');
    throw e;
  }
}

/** What a panel page printed as warnings and errors, with the time since it was opened (panel.ts's panelFor). */
const panelNotes = new WeakMap<PanelTarget, string[]>();
export const panelNotesOf = (target: PanelTarget): readonly string[] => panelNotes.get(target) ?? [];
export function notePanelConsole(page: Page): void {
  const notes: string[] = [];
  const start = Date.now();
  panelNotes.set(page, notes);
  page.on('console', (m) => {
    if (m.type() === 'warn' || m.type() === 'error') {
      notes.push(`${((Date.now() - start) / 1000).toFixed(1)} s ${m.type()}: ${m.text().slice(0, 300)}`);
    }
  });
}
