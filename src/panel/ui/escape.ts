/**
 * What Esc undoes besides the popovers (Popover.tsx) and the details (app/Layout.tsx): the parts of the panel whose
 * bar says "Esc …" (the flow view's range) register here, and the layout's key handler, which hears every key of
 * the panel on the window before DevTools' forwarder does, asks them wherever the focus is — also on `<body>`, where
 * a download's click or a closed element leaves it. An owner returns true when it acted: the key is then the panel's.
 */
const owners = new Set<() => boolean>();

/** Hear Esc while `act` is registered; returns the function that unregisters it. */
export function onEscape(act: () => boolean): () => void {
  owners.add(act);
  return () => owners.delete(act);
}

/** Esc was pressed outside a field: true when an owner acted on it (the latest registered first). */
export function pressEscape(): boolean {
  for (const act of [...owners].reverse()) {
    if (act()) {
      return true;
    }
  }
  return false;
}
