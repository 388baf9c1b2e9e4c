/**
 * A document rewritten by `document.open()` (an about:blank frame filled by `document.write`, as some ad and widget
 * loaders do, or a `document.write` after the document was closed) keeps its window, and the capture's scripts in
 * it, but loses every event listener of its window and document, the relay's included (HTML's document open steps).
 *
 * The rewrite replaces the document's children, which a MutationObserver of the document alone sees (not its
 * subtree: it is not called for the page's own changes of its content). `renew` then adds the relay's listeners
 * again, at the end of the rewriting task (the observer's microtask): after any listener that task's own scripts
 * added, where the relay's came first before. Adding a listener that is still there changes nothing, so it is also
 * called, for nothing, as the parser inserts the document's root. The observer is not visible to the page.
 */
export function whenRewritten(doc: Document, renew: () => void): void {
  try {
    new MutationObserver(renew).observe(doc, { childList: true });
  } catch {
    /* never disturb the page */
  }
}
