/**
 * The composition root's context: everything the panel is made of, created once (create-app.ts) and handed down
 * by the root component (PanelRoot.tsx). The shared UI reads its part through `usePanel()` (ui/use-panel.ts: the
 * store and its signals, nothing of the features); the root and the layout read the whole through `useApp()`; a
 * feature's components read their controller through the feature's own hook (`useAct()`).
 */
import { useContext } from 'solid-js';
import { PanelContext, type PanelCore } from '../ui/use-panel.ts';
import type { PanelEnv } from './env.ts';
import type { LiveLink } from '../link/live-link.ts';
import type { PanelTransport } from '../link/transports.ts';
import type { ActController } from '../features/act/act-controller.ts';
import type { RestLog } from '../features/rest/rest-log.ts';

export interface PanelApp extends PanelCore {
  env: PanelEnv;
  /** The link to the inspected tab, kept while another source is shown (null: no tab, a demo, capture files). */
  live: LiveLink | null;
  /** Show the records of this transport (the live tab's, an imported file's, a test's). */
  useTransport(t: PanelTransport): void;
  /** A note above the timeline ("not attached to a tab"), or null. */
  notice(): string | null;
  /** The composer, replay, export and import. */
  act: ActController;
  /** The REST calls seen in DevTools' Network traffic, or an imported file's. */
  rest: RestLog;
}

/** The whole app; throws outside the root's provider (a wiring mistake). */
export function useApp(): PanelApp {
  const app = useContext(PanelContext) as PanelApp | undefined;
  if (!app || !('act' in app)) {
    throw new Error('useApp() is called outside the panel root (app/PanelRoot.tsx)');
  }
  return app;
}
