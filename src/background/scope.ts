/**
 * The capture scope's one writer: kept in storage.local (`captureScope`; the MV3 worker stops when idle,
 * so memory is only a copy) and mirrored by the content scripts registered with `scripting.registerContentScripts`
 * (scope-model.ts says which). A fresh profile has an empty scope: no script of ours runs anywhere.
 *
 * Every change runs on one chain: registered first, then stored, then announced (`onScopeChange`), so that
 * `setCapture` resolves once the scripts are registered. At start the stored scope is loaded and the registrations
 * are checked against it (registrations persist across sessions; an extension update may have dropped them).
 */
import type { CaptureMode, TabSite } from '../shared/messages.ts';
import { browserApi, type Scripting } from '../shared/browser-api.ts';
import { originOf } from '../protocol/origin.ts';
import {
  EMPTY_SCOPE,
  REGISTRATION_PREFIX,
  ScopeError,
  modeOf,
  registrationKey,
  registrationsOf,
  type Scope,
} from './scope-model.ts';

const KEY = 'captureScope';
const api = browserApi;
const isFirefox = () => {
  try {
    return api().runtime.getURL('').startsWith('moz-extension:');
  } catch {
    return false;
  }
};

let current: Scope = EMPTY_SCOPE;
const listeners = new Set<(scope: Scope) => void>();

/** Resolves once the stored scope is loaded and the registrations match it. */
export const scopeReady: Promise<void> = (async () => {
  try {
    const v = (await api().storage.local.get(KEY)) as Record<string, unknown>;
    current = parseStored(v[KEY]);
  } catch (e) {
    console.warn('embed-inspector: could not read the capture scope', e);
  }
  try {
    await register(current);
  } catch (e) {
    console.warn('embed-inspector: could not register the capture scripts', e);
  }
})();
let chain: Promise<unknown> = scopeReady;

function parseStored(v: unknown): Scope {
  if (!v || typeof v !== 'object') {
    return EMPTY_SCOPE;
  }
  const s = v as Partial<Scope>;
  const all = s.all === 'full' || s.all === 'receive-only' ? s.all : null;
  const sites: Record<string, CaptureMode> = {};
  for (const [o, m] of Object.entries(s.sites ?? {})) {
    if (m === 'full' || m === 'receive-only') {
      sites[o] = m;
    }
  }
  return { all, sites };
}

/** The scope now (after `scopeReady`). */
export const scope = (): Scope => current;
export function onScopeChange(fn: (scope: Scope) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Replace the scope by `next(current)`; resolves with it once the scripts are registered and it is stored. */
export function updateScope(next: (s: Scope) => Scope): Promise<Scope> {
  const run = chain.then(async () => {
    const s = next(current);
    await register(s);
    await api().storage.local.set({ [KEY]: s });
    current = s;
    for (const fn of listeners) {
      try {
        fn(s);
      } catch (e) {
        console.warn('embed-inspector:', e);
      }
    }
    return s;
  });
  chain = run.catch(() => {});
  return run;
}

/** Make the registered content scripts those of `s` (ours only: ids with REGISTRATION_PREFIX). */
async function register(s: Scope): Promise<void> {
  const scripting = api().scripting;
  const want = registrationsOf(s, isFirefox());
  const have = ((await scripting.getRegisteredContentScripts()) as Array<Parameters<typeof registrationKey>[0]>).filter(
    (r) => r.id.startsWith(REGISTRATION_PREFIX),
  );
  const key = (rs: Array<Parameters<typeof registrationKey>[0]>) => rs.map(registrationKey).sort().join('\n');
  if (key(have) === key(want)) {
    return;
  }
  if (have.length) {
    await scripting.unregisterContentScripts({ ids: have.map((r) => r.id) });
  }
  try {
    if (want.length) {
      await scripting.registerContentScripts(want as Scripting.RegisteredContentScript[]);
    }
  } catch (e) {
    // Leave the scripts of the scope in force, not none.
    await scripting
      .registerContentScripts(registrationsOf(current, isFirefox()) as Scripting.RegisteredContentScript[])
      .catch(() => {});
    throw new ScopeError(`the capture scripts could not be registered: ${(e as Error).message}`);
  }
}

/** The origins of a tab (its page first, then its frames'), each with the mode it is captured in. */
export async function tabSites(tabId: number): Promise<TabSite[]> {
  await scopeReady;
  const urls: Array<{ url: string; top: boolean }> = [];
  try {
    const frames = (await api().webNavigation.getAllFrames({ tabId })) ?? [];
    for (const f of [...frames].sort((a, b) => a.frameId - b.frameId)) {
      urls.push({ url: f.url, top: f.frameId === 0 });
    }
  } catch {
    /* tab gone, or no frames yet */
  }
  if (!urls.some((u) => u.top)) {
    try {
      const t = await api().tabs.get(tabId);
      if (t.url) {
        urls.unshift({ url: t.url, top: true });
      }
    } catch {
      /* gone */
    }
  }
  const out: TabSite[] = [];
  for (const { url, top } of urls) {
    if (!/^https?:/.test(url)) {
      continue;
    }
    const origin = originOf(url);
    if (!origin || out.some((s) => s.origin === origin)) {
      continue;
    }
    out.push({ origin, top, mode: current.sites[origin] ?? current.all });
  }
  return out;
}

/** The mode a frame of `origin` is captured in now (null: out of scope). */
export const frameMode = (origin: string | null | undefined): CaptureMode | null => modeOf(current, origin);
