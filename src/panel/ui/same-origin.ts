/**
 * Where the panel may fetch capture files from (`view`): its own server only. `p` when it is a path on this page's own origin (`/captures.json`), else null: never another origin's list, not
 * even spelled `//host/…` or `/\\host/…`.
 */
export function sameOriginPath(p: string | null | undefined, origin = globalThis.location?.origin): string | null {
  if (!p?.startsWith('/') || p.startsWith('//') || p.startsWith('/\\') || !origin) {
    return null;
  }
  try {
    return new URL(p, origin).origin === origin ? p : null;
  } catch {
    return null;
  }
}
