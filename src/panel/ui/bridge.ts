/**
 * Bridges the framework-free store to Solid: one signal per part of the UI, bumped when a `Change` names it. Which
 * event names which part is the table `CHANGES` in changes.ts; this file adds no rule of its own.
 */
import { batch, createSignal, onCleanup, type Accessor } from 'solid-js';
import type { Change } from './changes.ts';
import type { PanelStore } from './panel-store.ts';

export interface PanelSignals {
  /** The view's order, or what its rows show (filters, time base, live records, a new log). */
  view: Accessor<number>;
  /** A live batch was applied (bumped once per batch, whether or not it added rows). */
  appended: Accessor<number>;
  /** The log's contents and the tab state: counts, frames, session facts, linked records, limits. */
  state: Accessor<number>;
  /** The selected record, or where it is. */
  selection: Accessor<number>;
  filters: Accessor<number>;
  /** The connection to the background. */
  status: Accessor<number>;
  /** The capture scope, the tab's sites, scope change results and notes. */
  capture: Accessor<number>;
}

type SignalName = keyof PanelSignals;
const NAMES: readonly SignalName[] = ['view', 'appended', 'state', 'selection', 'filters', 'status', 'capture'];

export function bindStore(store: PanelStore): PanelSignals {
  const signals = {} as PanelSignals;
  const bump = {} as Record<SignalName, () => void>;
  for (const name of NAMES) {
    const [get, set] = createSignal(0);
    signals[name] = get;
    bump[name] = () => set((n) => n + 1);
  }
  const off = store.onChange((c: Change) =>
    batch(() => {
      for (const name of NAMES) {
        if (c[name] !== undefined && c[name] !== false) {
          bump[name]();
        }
      }
    }),
  );
  onCleanup(off);
  return signals;
}
