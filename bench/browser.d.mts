/** What the benches keep on the pages they drive (`page.evaluate` callbacks run there). */
import type { PanelTestHandle } from '../src/panel/app/test-handle.ts';

declare global {
  interface Window {
    /** The panel's test handle (src/panel/app/test-handle.ts). */
    __embedInspectorPanel: PanelTestHandle;
    __benchRecords: ReturnType<PanelTestHandle['synthetic']> | null;
    /** panel.mjs: the live batch's records, made before it is timed. */
    __benchLive: ReturnType<PanelTestHandle['synthetic']> | null;
    __benchLongTasks: number[];
    __benchFilter: (patch: Parameters<PanelTestHandle['view']['setFilters']>[0]) => Promise<{
      sync: number;
      frame: number;
      shown: number;
    }>;
    __benchScroll: (body: Element, o: { slow: boolean }) => Promise<{ deltas: number[]; slow: number[] }>;
    /** page-overhead-firefox.mjs: the probe that counts our scripts run in a frame. */
    __probe?: { n: number };
    /** page-load.mjs: when the host page's listeners got `ready` and `dashboard-loaded`. */
    __loadTimes: { ready?: number; dashboard?: number };
  }
}
