/**
 * Bridges the framework-free store to Solid: one signal per part of the UI, bumped when a `Change` names it. Which
 * event names which part is the table `CHANGES` in changes.ts; this file adds no rule of its own.
 *
 * Components read the store through `select`: it names the parts a read depends on and reads, in one call, so that
 * no read of the store is left without the signal that says it changed (a stale UI with no error). The signals
 * themselves remain for what only triggers on a change (`on([sig.state, sig.appended], …)`).
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
/** A part of the UI's state, as the bridge names it (one signal each). */
type PanelPart = SignalName;

/**
 * A reactive read of the store: `select('state', (s) => s.log.state)` is an accessor that subscribes to the part(s)
 * named, then reads. Not a memo: it reads again whenever asked, as a hand-written accessor does.
 */
export type Select = <T>(parts: PanelPart | readonly PanelPart[], read: (store: PanelStore) => T) => Accessor<T>;

/** What the composition root hands to the components: the signals and the selector over them. */
export interface PanelBridge {
  sig: PanelSignals;
  select: Select;
}
const NAMES: readonly SignalName[] = ['view', 'appended', 'state', 'selection', 'filters', 'status', 'capture'];

/** The selector over `sig`: each accessor it makes reads the signals of its parts, then the store. */
export function selectorOf(store: PanelStore, sig: PanelSignals): Select {
  return <T>(parts: PanelPart | readonly PanelPart[], read: (store: PanelStore) => T): Accessor<T> => {
    if (typeof parts === 'string') {
      const tick = sig[parts];
      return () => {
        tick();
        return read(store);
      };
    }
    const ticks = parts.map((p) => sig[p]);
    return () => {
      for (const tick of ticks) {
        tick();
      }
      return read(store);
    };
  };
}

/** The signals over the store's changes (for as long as the owner lives) and the selector over them. */
export function bindStore(store: PanelStore): PanelBridge {
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
  return { sig: signals, select: selectorOf(store, signals) };
}
