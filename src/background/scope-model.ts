/**
 * The capture scope as data (pure: unit-tested in Node; scope.ts stores it and registers the scripts).
 *
 * A site is an origin (`http://127.0.0.1:4100`). The scope lists sites with their mode and may switch on every
 * site (`all`: a mode, or null). Nothing of ours runs in a page whose site is out of scope: the content scripts
 * are registered for the scope's match patterns only.
 *
 * Match patterns: Chromium honours a port in a pattern (`http://127.0.0.1:4100/*` matches that port only; a
 * pattern without a port matches every port). Firefox accepts such a pattern but then matches nothing at all, so
 * for Firefox a site's pattern is its host without the port (every port of that host gets the scripts; the
 * background records nothing from the other ports: `modeOf` is exact). Checked in Chromium 156 and Firefox ESR 153.
 */
import type { CaptureMode, CaptureScopeView } from '../shared/messages.ts';
import { CAPTURE_SCRIPTS } from './capture-files.ts';
import { sitePattern } from '../shared/site-pattern.ts';

export interface Scope {
  /** Every site is captured in this mode (listed sites keep their own); null: only the listed sites. */
  all: CaptureMode | null;
  /** origin → mode */
  sites: Record<string, CaptureMode>;
}
export const EMPTY_SCOPE: Scope = Object.freeze({ all: null, sites: Object.freeze({}) }) as Scope;

/** What `embedInspector.getCapture()` returns and `setCapture()` takes. */
export interface CaptureSetting {
  sites: 'all' | string[];
  mode?: CaptureMode;
  /** Per-site modes, when they differ from `mode` (with `sites: 'all'`: the listed sites and their own modes). */
  modes?: Record<string, CaptureMode>;
}

export class ScopeError extends Error {}

const isMode = (m: unknown): m is CaptureMode => m === 'full' || m === 'receive-only';

/** The origin a site string names (`http://LOCALHOST:4101/` → `http://localhost:4101`), or a ScopeError saying why not. */
export function normalizeOrigin(site: unknown): string {
  const example = 'write scheme://host[:port] with no path, e.g. http://127.0.0.1:4100';
  if (typeof site !== 'string' || !site.trim()) {
    throw new ScopeError(`not an origin: ${JSON.stringify(site)} (${example})`);
  }
  let url: URL;
  try {
    url = new URL(site.trim());
  } catch {
    throw new ScopeError(`not an origin: "${site}" (${example})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ScopeError(`not an http or https origin: "${site}" (${example})`);
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || /[?#]$/.test(site.trim())) {
    throw new ScopeError(`not an origin: "${site}" has more than scheme, host and port (${example})`);
  }
  return url.origin;
}

/** `setCapture`'s argument checked and turned into a scope. Throws a ScopeError that says what is wrong. */
export function scopeFromSetting(input: unknown): Scope {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new ScopeError(
      `it takes { sites: ['http://127.0.0.1:4100', …] | 'all' | [], mode?: 'full' | 'receive-only' }, got ${JSON.stringify(input)}`,
    );
  }
  const { sites, mode = 'full', modes, ...rest } = input as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) {
    throw new ScopeError(`unknown option ${unknown.map((k) => JSON.stringify(k)).join(', ')} (sites, mode, modes)`);
  }
  if (!isMode(mode)) {
    throw new ScopeError(`mode must be 'full' or 'receive-only', got ${JSON.stringify(mode)}`);
  }
  const listed: Record<string, CaptureMode> = {};
  if (modes !== undefined) {
    if (!modes || typeof modes !== 'object' || Array.isArray(modes)) {
      throw new ScopeError(`modes must map origins to 'full' or 'receive-only', got ${JSON.stringify(modes)}`);
    }
    for (const [site, m] of Object.entries(modes)) {
      if (!isMode(m)) {
        throw new ScopeError(`the mode of ${site} must be 'full' or 'receive-only', got ${JSON.stringify(m)}`);
      }
      listed[normalizeOrigin(site)] = m;
    }
  }
  if (sites === 'all') {
    return { all: mode, sites: listed };
  }
  if (!Array.isArray(sites)) {
    throw new ScopeError(
      `sites must be 'all' or an array of origins (e.g. ['http://127.0.0.1:4100']), got ${JSON.stringify(sites)}`,
    );
  }
  const out: Record<string, CaptureMode> = {};
  for (const site of sites) {
    const origin = normalizeOrigin(site);
    out[origin] = listed[origin] ?? mode;
  }
  for (const origin of Object.keys(listed)) {
    if (!(origin in out)) {
      throw new ScopeError(`modes names ${origin}, which is not in sites`);
    }
  }
  return { all: null, sites: out };
}

/** The scope in `setCapture`'s shape (`modes` only when the sites' modes are not all `mode`). */
export function settingOf(scope: Scope): CaptureSetting {
  const entries = Object.entries(scope.sites).sort(([a], [b]) => a.localeCompare(b));
  if (scope.all) {
    const mixed = entries.some(([, m]) => m !== scope.all);
    return { sites: 'all', mode: scope.all, ...(mixed ? { modes: Object.fromEntries(entries) } : {}) };
  }
  const first = entries[0]?.[1] ?? 'full';
  const mixed = entries.some(([, m]) => m !== first);
  return {
    sites: entries.map(([o]) => o),
    mode: mixed ? 'full' : first,
    ...(mixed ? { modes: Object.fromEntries(entries) } : {}),
  };
}

export function viewOf(scope: Scope): CaptureScopeView {
  return {
    all: scope.all,
    sites: Object.entries(scope.sites)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([origin, mode]) => ({ origin, mode })),
  };
}

/**
 * The mode a document of `origin` is captured in, or null when it is out of scope. An opaque origin (`null`: a
 * sandboxed or data: frame, which the scripts reach only through a captured page that created it) counts as in
 * scope, in the mode of every site or else `full`.
 */
export function modeOf(scope: Scope, origin: string | null | undefined): CaptureMode | null {
  if (!origin || origin === 'null') {
    return scope.all ?? 'full';
  }
  return scope.sites[origin] ?? scope.all;
}

/** Sites added, removed or given a mode; the "every site" switch. */
export function withChange(
  scope: Scope,
  change:
    | { op: 'add'; sites: string[]; mode: CaptureMode }
    | { op: 'remove'; sites: string[] }
    | { op: 'mode'; sites: string[]; mode: CaptureMode }
    | { op: 'all'; mode: CaptureMode | null },
): Scope {
  const sites = { ...scope.sites };
  switch (change.op) {
    case 'add':
    case 'mode':
      if (!isMode(change.mode)) {
        throw new ScopeError(`mode must be 'full' or 'receive-only', got ${JSON.stringify(change.mode)}`);
      }
      for (const s of change.sites) {
        sites[normalizeOrigin(s)] = change.mode;
      }
      return { all: scope.all, sites };
    case 'remove':
      for (const s of change.sites) {
        delete sites[normalizeOrigin(s)];
      }
      return { all: scope.all, sites };
    case 'all':
      if (change.mode !== null && !isMode(change.mode)) {
        throw new ScopeError(`mode must be 'full', 'receive-only' or null, got ${JSON.stringify(change.mode)}`);
      }
      return { all: change.mode, sites };
  }
}

export interface Registration {
  id: string;
  js: string[];
  matches: string[];
  excludeMatches?: string[];
  world?: 'MAIN';
  runAt: 'document_start';
  allFrames: true;
  matchOriginAsFallback: true;
  persistAcrossSessions: true;
}
export const REGISTRATION_PREFIX = 'ei-';

/**
 * The content scripts a scope needs: the isolated relay wherever anything is captured (it records deliveries in
 * both modes), and, where the mode is `full`, the MAIN-world post hook (`main-world.js`) and the relay that opens a
 * private channel to it (`relay-full.js`); a receive-only frame runs nothing in the page's world, and its relay
 * (`relay.js`) neither listens for nor dispatches any event there. Every frame, from `document_start`, and frames
 * without an origin of their own (about:blank, srcdoc, blob:) of a captured page (`matchOriginAsFallback`). Two
 * sites sharing one Firefox pattern (one host, two ports) in different modes get receive-only: it changes nothing in
 * the page.
 */
export function registrationsOf(scope: Scope, firefox: boolean): Registration[] {
  const byPattern = new Map<string, CaptureMode>();
  for (const [origin, mode] of Object.entries(scope.sites)) {
    const p = sitePattern(origin, firefox);
    byPattern.set(p, byPattern.get(p) === 'receive-only' ? 'receive-only' : mode);
  }
  const patterns = (mode: CaptureMode) =>
    [...byPattern]
      .filter(([, m]) => m === mode)
      .map(([p]) => p)
      .sort();
  // Every site in one mode (a listed site keeps its own): that mode's scripts everywhere but the other mode's sites.
  const byId = (rs: Registration[]) => rs.sort((a, b) => (a.id < b.id ? -1 : 1));
  if (scope.all) {
    const otherMode = scope.all === 'full' ? 'receive-only' : 'full';
    const other = patterns(otherMode);
    return byId([...scriptsOf(scope.all, ['<all_urls>'], other), ...(other.length ? scriptsOf(otherMode, other) : [])]);
  }
  const full = patterns('full');
  const receiveOnly = patterns('receive-only');
  return byId([
    ...(full.length ? scriptsOf('full', full) : []),
    ...(receiveOnly.length ? scriptsOf('receive-only', receiveOnly) : []),
  ]);
}

/** The scripts of one mode, for these patterns (less the excluded ones). */
function scriptsOf(mode: CaptureMode, matches: string[], excludeMatches: string[] = []): Registration[] {
  const common = {
    matches,
    ...(excludeMatches.length ? { excludeMatches } : {}),
    runAt: 'document_start',
    allFrames: true,
    matchOriginAsFallback: true,
    persistAcrossSessions: true,
  } as const;
  // Chromium runs the scripts registered for one run_at in the order of their ids, not of registration: the
  // relay's id sorts first, so that it is up when the MAIN-world script starts and asks it for the channel's node
  // (page.ts; where the MAIN world runs first, the relay offers the node as it starts).
  if (mode === 'receive-only') {
    return [{ id: `${REGISTRATION_PREFIX}0-relay`, js: [CAPTURE_SCRIPTS.relay.file], ...common }];
  }
  return [
    { id: `${REGISTRATION_PREFIX}0-relay-full`, js: [CAPTURE_SCRIPTS.relayFull.file], ...common },
    { id: `${REGISTRATION_PREFIX}1-main-full`, js: [CAPTURE_SCRIPTS.full.file], world: 'MAIN', ...common },
  ];
}

/** The fields that decide what a registration injects where (to compare what is registered with what should be). */
export function registrationKey(r: {
  id: string;
  js?: string[];
  matches?: string[];
  excludeMatches?: string[];
  world?: string;
  allFrames?: boolean;
  matchOriginAsFallback?: boolean;
  runAt?: string;
}): string {
  return JSON.stringify([
    r.id,
    r.js ?? [],
    [...(r.matches ?? [])].sort(),
    [...(r.excludeMatches ?? [])].sort(),
    r.world === 'MAIN' ? 'MAIN' : 'ISOLATED',
    !!r.allFrames,
    !!r.matchOriginAsFallback,
    r.runAt ?? 'document_idle',
  ]);
}
