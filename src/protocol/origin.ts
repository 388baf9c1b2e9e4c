/** Origin helpers (pure). */

const cache = new Map<string, string>();
// The last answer, checked first: classify asks for the same tenant origin for every message.
let lastValue: string | undefined;
let lastOrigin = '';
/** `https://Acme.example.com:443/x` → `https://acme.example.com`; anything unparsable is returned as given. */
export function normalizeOrigin(value: string): string {
  if (value === lastValue) {
    return lastOrigin;
  }
  const hit = cache.get(value);
  if (hit !== undefined) {
    lastValue = value;
    lastOrigin = hit;
    return hit;
  }
  let out = value;
  try {
    if (value !== 'null' && value !== '*' && value !== '/') {
      const o = new URL(value).origin;
      if (o && o !== 'null') {
        out = o;
      }
    }
  } catch {
    /* not a URL: keep */
  }
  if (cache.size > 1000) {
    cache.clear();
  }
  cache.set(value, out);
  lastValue = value;
  lastOrigin = out;
  return out;
}

const urlCache = new Map<string, string | null>();
/** The origin of a URL, or null (opaque or unparsable). Cached: hot paths see the same few URLs. */
export function originOf(url: string | undefined | null): string | null {
  if (!url) {
    return null;
  }
  let o = urlCache.get(url);
  if (o !== undefined) {
    return o;
  }
  try {
    o = new URL(url).origin;
    if (!o || o === 'null') {
      o = null;
    }
  } catch {
    o = null;
  }
  if (urlCache.size > 2000) {
    urlCache.clear();
  }
  urlCache.set(url, o);
  return o;
}

/** Does this URL have the embedded-surface address shape (`/embed/dashboard/…`, `/embed/d/…`, `/embed/…`)? */
export function isEmbedUrl(url: string | undefined | null): boolean {
  if (!url) {
    return false;
  }
  try {
    return /^\/embed(\/|$)/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** A postMessage target origin as the browser compares it: `*`, the poster's origin for `/`, or the origin of the URL. null when invalid. */
export function resolveTargetOrigin(targetOrigin: string, posterOrigin: string): string | null {
  if (targetOrigin === '*') {
    return '*';
  }
  if (targetOrigin === '/') {
    return posterOrigin;
  }
  try {
    return new URL(targetOrigin).origin;
  } catch {
    return null;
  }
}
