/**
 * Where the panel runs: inside DevTools (Chrome or Firefox: `devtools.inspectedWindow.tabId`, the DevTools
 * theme) or in a normal tab (`?tabId=`, `prefers-color-scheme`); `?theme=light|dark` overrides the theme
 * (screenshots, tests); `?fixture=demo&n=…` shows a synthetic session (test build only); `?view=/captures.json` the
 * capture files that `embed-inspector view` serves.
 */
import { sameOriginPath } from '../ui/same-origin.ts';
import { findBrowserApi } from '../../shared/browser-api.ts';

export type Theme = 'light' | 'dark';

interface DevtoolsApi {
  inspectedWindow?: { tabId?: number };
  panels?: {
    themeName?: string;
    onThemeChanged?: { addListener(fn: (name: string) => void): void };
    setThemeChangeHandler?: (fn: (name: string) => void) => void;
  };
}

/** The DevTools API where the panel runs inside DevTools (undefined in a normal tab, where it is absent or unusable). */
function devtoolsApi(): DevtoolsApi | undefined {
  try {
    return findBrowserApi()?.devtools as DevtoolsApi | undefined;
  } catch {
    return undefined;
  }
}

export interface PanelEnv {
  tabId: number | null;
  inDevtools: boolean;
  themeOverride: Theme | null;
  fixture: string | null;
  fixtureSize: number;
  /** `embed-inspector view`: the URL of the list of capture files to show (same server), or null. */
  view: string | null;
}

export function readEnv(search = location.search): PanelEnv {
  const q = new URLSearchParams(search);
  const dt = devtoolsApi();
  const fromDevtools = dt?.inspectedWindow?.tabId;
  const fromQuery = q.get('tabId');
  const tabId =
    typeof fromDevtools === 'number'
      ? fromDevtools
      : fromQuery !== null && /^\d+$/.test(fromQuery)
        ? Number(fromQuery)
        : null;
  const t = q.get('theme');
  const n = Number(q.get('n'));
  return {
    tabId,
    inDevtools: typeof fromDevtools === 'number',
    themeOverride: t === 'light' || t === 'dark' ? t : null,
    fixture: import.meta.env.EI_TEST_BUILD ? q.get('fixture') : null,
    // (a path on this page's own server only: the list is fetched, never navigated to)
    view: sameOriginPath(q.get('view')),
    fixtureSize: Number.isFinite(n) && n > 0 ? Math.min(n, 2_000_000) : 80,
  };
}

const fromDevtoolsName = (name: string | undefined): Theme | null => (name === 'dark' ? 'dark' : name ? 'light' : null);

/** The theme to use now, and a subscription to its changes (DevTools theme, else the OS preference). */
export function watchTheme(env: PanelEnv, apply: (t: Theme) => void): void {
  if (env.themeOverride) {
    apply(env.themeOverride);
    return;
  }
  const panels = devtoolsApi()?.panels;
  const dtTheme = fromDevtoolsName(panels?.themeName);
  if (dtTheme) {
    apply(dtTheme);
    try {
      panels?.onThemeChanged?.addListener((n) => apply(fromDevtoolsName(n) ?? 'light'));
    } catch {
      /* not in this browser */
    }
    try {
      panels?.setThemeChangeHandler?.((n) => apply(fromDevtoolsName(n) ?? 'light'));
    } catch {
      /* not in this browser */
    }
    return;
  }
  const mq = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  apply(mq?.matches ? 'dark' : 'light');
  mq?.addEventListener?.('change', (e) => apply(e.matches ? 'dark' : 'light'));
}
