/**
 * The match pattern of a capture site, shared by the background (which registers the capture scripts for it) and
 * the panel (which asks for host access to it). Chromium honours a port in a match pattern; Firefox accepts one
 * but then matches nothing, so a Firefox pattern names the host only (background/scope-model.ts says what follows).
 */
export function sitePattern(origin: string, firefox: boolean): string {
  const u = new URL(origin);
  return firefox ? `${u.protocol}//${u.hostname}/*` : `${u.protocol}//${u.host}/*`;
}
