/**
 * What every shared component reads: the store (the record log, the timeline view, the link's state) and the
 * Solid signals that say which part of it changed. The composition root (app/) provides it once; components call
 * `usePanel()` instead of receiving it through their props. The root's context holds more (the features'
 * controllers); this is the part the shared UI may see.
 */
import { createContext, useContext } from 'solid-js';
import type { PanelStore } from './panel-store.ts';
import type { PanelSignals } from './bridge.ts';

export interface PanelCore {
  store: PanelStore;
  sig: PanelSignals;
}

export const PanelContext = createContext<PanelCore>();

/** The panel's store and signals; throws outside the composition root's provider (a wiring mistake). */
export function usePanel(): PanelCore {
  const core = useContext(PanelContext);
  if (!core) {
    throw new Error('usePanel() is called outside the panel root (app/PanelRoot.tsx)');
  }
  return core;
}
