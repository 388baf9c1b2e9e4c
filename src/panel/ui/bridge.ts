/** Bridges the framework-free store to Solid: one signal per kind of change, bumped by store notifications. */
import { batch, createSignal, onCleanup, type Accessor } from 'solid-js';
import type { PanelStore } from '../store.ts';

export interface PanelSignals {
  /** The filtered view changed (filter change, replace, or appended records). */
  view: Accessor<number>;
  /** Records were appended while the view's end moved: how many rows were added by the last batch. */
  appended: Accessor<number>;
  /** Tab state, counts, session facts. */
  state: Accessor<number>;
  selection: Accessor<number>;
  filters: Accessor<number>;
  status: Accessor<number>;
  /** The capture scope, the tab's sites, scope change results. */
  capture: Accessor<number>;
}

export function bindStore(store: PanelStore): PanelSignals {
  const mk = () => createSignal(0);
  const [view, setView] = mk();
  const [appended, setAppended] = mk();
  const [state, setState] = mk();
  const [selection, setSelection] = mk();
  const [filters, setFilters] = mk();
  const [status, setStatus] = mk();
  const [capture, setCapture] = mk();
  const off = store.onChange((c) =>
    batch(() => {
      if (c.records || c.view || c.appended !== undefined) {
        setView((n) => n + 1);
      }
      if (c.appended !== undefined) {
        setAppended((n) => n + 1);
      }
      if (c.state || c.records || c.appended !== undefined) {
        setState((n) => n + 1);
      }
      if (c.selection || c.records) {
        setSelection((n) => n + 1);
      }
      if (c.filters) {
        setFilters((n) => n + 1);
      }
      if (c.status) {
        setStatus((n) => n + 1);
      }
      if (c.capture || c.status) {
        setCapture((n) => n + 1);
      }
    }),
  );
  onCleanup(off);
  return { view, appended, state, selection, filters, status, capture };
}
