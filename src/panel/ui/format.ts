/** Small pure formatters shared by the grid and the detail pane. */
import { formatBytes } from './jsontree-model.ts';

export { formatBytes };

/** Milliseconds relative to an origin: `+1.234 s`, `−0.120 s`, `+12:03.5` past an hour's fraction. */
export function formatRelative(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  const a = Math.abs(ms);
  if (a < 60_000) {
    return `${sign}${(a / 1000).toFixed(3)} s`;
  }
  const m = Math.floor(a / 60_000);
  const s = (a % 60_000) / 1000;
  return `${sign}${m}:${s.toFixed(1).padStart(4, '0')}`;
}

/** A duration: `840 ms`, `1.63 s`, `2 min 3 s`. */
export function formatDuration(ms: number): string {
  const a = Math.abs(ms);
  if (a < 1000) {
    return `${Math.round(ms)} ms`;
  }
  if (a < 60_000) {
    return `${(ms / 1000).toFixed(2)} s`;
  }
  return `${Math.floor(a / 60_000)} min ${Math.round((a % 60_000) / 1000)} s`;
}

export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  if (Number.isNaN(d.getTime())) {
    return String(epochMs);
  }
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** Memoise a string → string function over the few distinct URLs and origins a log has (rows ask per render). */
function cached(fn: (s: string) => string): (s: string) => string {
  const memo = new Map<string, string>();
  return (s) => {
    let v = memo.get(s);
    if (v === undefined) {
      v = fn(s);
      if (memo.size > 5000) {
        memo.clear();
      }
      memo.set(s, v);
    }
    return v;
  };
}

/**
 * A URL's origin as a label for display: never null (an opaque origin shows its scheme, an unparsable URL itself).
 * `protocol/origin.ts`'s `originOf` is the origin for rules (null when there is none).
 */
export const originLabel = cached((url: string): string => {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? `${u.protocol}` : u.origin;
  } catch {
    return url;
  }
});

/** A frame by URL: `host/path` without query or fragment (the session parameter stays out of the grid). */
export const frameLabel = cached((url: string): string => {
  try {
    const u = new URL(url);
    if (u.protocol === 'about:' || u.protocol === 'data:' || u.protocol === 'blob:') {
      return url.slice(0, 40);
    }
    const path = u.pathname.length > 32 ? `…${u.pathname.slice(-31)}` : u.pathname;
    return `${u.host}${path === '/' ? '' : path}`;
  } catch {
    return url.slice(0, 60);
  }
});

/**
 * A page divider's words (a top-level navigation, Preserve log): what tells one page of a site from the next first
 * — its path and query — then its host, so that a narrow Type column still shows which page it was.
 */
export const pageLabel = cached((url: string): string => {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      return url.slice(0, 60);
    }
    // (no "page:" word: the divider's style and its ⟳ say it; every character of a narrow Type column counts)
    const where = `${u.pathname}${u.search}`;
    const shown = where.length > 48 ? `${where.slice(0, 47)}…` : where;
    return shown === '/' ? `${u.host}/` : `${shown} · ${u.host}`;
  } catch {
    return url.slice(0, 60);
  }
});

export const hostOf = cached((origin: string): string => {
  try {
    return new URL(origin).host || origin;
  } catch {
    return origin;
  }
});

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
