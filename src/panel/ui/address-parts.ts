/**
 * An embed frame's address as its navigation record's detail shows it: the URL itself, cut into the parts the
 * address rules (protocol/address.ts, `url.*`) judge — origin, path, each query parameter — each with the issues
 * that name it, and the parameters an issue finds absent (a missing `session`). A part that is there and wrong is
 * marked wrong; only what is not there is "missing". The session's value is never shown. Pure.
 */
import { namedParameter } from '../log/protocol.ts';

export interface AddressIssue {
  rule: string;
  severity: string;
  path: string;
  message: string;
}

export interface AddressPart {
  kind: 'origin' | 'path' | 'param' | 'absent';
  /** As shown: `https://acme.example.com`, `/embed/dashboard/x`, `allowExport=yes`, `session`. */
  text: string;
  /** The indices (into the issues given) of the issues about this part. */
  issues: number[];
}

/** The parameter an issue's path names (`url.allowExport` → `allowExport`), or null for origin, path and query. */
function paramOf(path: string): string | null {
  if (!path.startsWith('url.')) {
    return null;
  }
  const k = path.slice(4);
  return k === 'origin' || k === 'path' || k === 'query' ? null : k;
}

/** The parts of `url` and which of `issues` (a navigation record's) mark each; null when it is not a URL. */
export function addressParts(url: string, issues: readonly AddressIssue[]): AddressPart[] | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const parts: AddressPart[] = [
    { kind: 'origin', text: u.origin, issues: [] },
    { kind: 'path', text: u.pathname, issues: [] },
  ];
  for (const [k, v] of u.searchParams) {
    const shown = k === 'session' && v ? '…' : v;
    parts.push({ kind: 'param', text: `${k}=${shown}`, issues: [] });
  }
  const params = [...u.searchParams.keys()];
  issues.forEach((i, n) => {
    if (!i.rule.startsWith('url.')) {
      return;
    }
    if (i.path === 'url.origin') {
      parts[0].issues.push(n);
      return;
    }
    if (i.path === 'url.path') {
      parts[1].issues.push(n);
      return;
    }
    if (i.path === 'url.query') {
      // the parameters the spec does not name
      params.forEach((k, at) => {
        if (!namedParameter(k)) {
          parts[2 + at].issues.push(n);
        }
      });
      return;
    }
    const k = paramOf(i.path);
    if (k === null) {
      return;
    }
    const at = params.flatMap((p, j) => (p === k ? [j] : []));
    if (at.length) {
      for (const j of at) {
        parts[2 + j].issues.push(n);
      }
    } else {
      parts.push({ kind: 'absent', text: k, issues: [n] });
    }
  });
  return parts;
}

/** The URL a navigation record names (its frame's new document), or null for any other record. */
export function navigationUrl(r: { navigation?: boolean; data: unknown; frameUrl: string }): string | null {
  if (!r.navigation) {
    return null;
  }
  const url = (r.data as { url?: unknown } | null)?.url;
  return typeof url === 'string' ? url : r.frameUrl;
}
