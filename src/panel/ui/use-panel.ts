/**
 * What every shared component reads: the store (the record log, the timeline view, the link's state), the Solid
 * signals that say which part of it changed, and `select`, which reads the store through them. The composition root
 * (app/) provides it once; components call `usePanel()` instead of receiving it through their props. The root's
 * context holds more (the features' controllers); this is the part the shared UI may see.
 */
import { createContext, useContext } from 'solid-js';
import type { PanelStore } from './panel-store.ts';
import type { PanelSignals, Select } from './bridge.ts';

export interface PanelCore {
  store: PanelStore;
  /** Which part of the store changed: for effects that only trigger on a change (`on(sig.state, …)`). */
  sig: PanelSignals;
  /** Read the store and subscribe to the parts the read depends on, in one call (bridge.ts). */
  select: Select;
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
