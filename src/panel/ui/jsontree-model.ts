/**
 * The JSON tree's model: how an encoded value (encoding.ts, `$ei` tags) is shown: what it was (`Date …`,
 * `Map(2)`, `[Circular → $.a]`), its children (built lazily), and what "copy" puts on the clipboard.
 * Pure; everything it returns is rendered as text only.
 */
import { tagOf } from '../log/protocol.ts';

type NodeKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'null'
  | 'special'
  | 'object'
  | 'array'
  | 'map'
  | 'set'
  | 'ref'
  | 'truncated';

export interface TreeNode {
  /** Property name, index or map key, as shown before the colon; '' for the root. */
  key: string;
  /** The encoder's path of this value (`$.payload.value`, `$.a[0]`, `$.m.<value 0>`). */
  path: string;
  kind: NodeKind;
  /** One line: the value, or a preview of a container. */
  summary: string;
  /** A longer text for the tooltip (full string, base64 bytes…), when useful. */
  title?: string;
  /** Children, when the node can be expanded. */
  children?: () => TreeNode[];
  childCount: number;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const childPath = (path: string, key: string) =>
  IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

function quote(s: string, max = 200): string {
  const q = JSON.stringify(s.length > max ? s.slice(0, max) : s);
  return s.length > max ? `${q.slice(0, -1)}…"` : q;
}
export function formatBytes(n: number): string {
  if (n < 1024) {
    return `${n} B`;
  }
  if (n < 1024 * 1024) {
    return `${(n / 1024).toFixed(1)} kB`;
  }
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
const b64Bytes = (s: unknown) => {
  const t = String(s ?? '').replace(/=+$/, '');
  return Math.floor((t.length * 3) / 4);
};

/** A short inline preview of any encoded value (used in container previews and the summary column). */
export function preview(v: unknown, budget = 60): string {
  if (v === null) {
    return 'null';
  }
  switch (typeof v) {
    case 'string':
      return quote(v, Math.max(10, budget));
    case 'number':
    case 'boolean':
      return String(v);
    case 'object':
      break;
    default:
      return String(v);
  }
  const tag = tagOf(v);
  if (tag && tag !== 'Object') {
    return special(v as Record<string, unknown>, '').summary;
  }
  const entries = Array.isArray(v)
    ? v.map((x, i) => [String(i), x] as const)
    : Object.entries(tag === 'Object' ? (((v as Record<string, unknown>).v as object) ?? {}) : (v as object));
  const open = Array.isArray(v) ? '[' : '{';
  const close = Array.isArray(v) ? ']' : '}';
  let out = open;
  for (let k = 0; k < entries.length; k++) {
    const [key, val] = entries[k];
    const inner =
      val !== null && typeof val === 'object' && !tagOf(val)
        ? Array.isArray(val)
          ? `Array(${val.length})`
          : '{…}'
        : preview(val, 20);
    const part = (k ? ', ' : '') + (Array.isArray(v) ? inner : `${key}: ${inner}`);
    if (out.length + part.length > budget) {
      out += k ? ', …' : '…';
      break;
    }
    out += part;
  }
  return out + close;
}

/** A node of `kind` with `summary` (and `extra`: its children, a title). */
const leaf = (key: string, path: string, kind: NodeKind, summary: string, extra: Partial<TreeNode> = {}): TreeNode => ({
  key,
  path,
  kind,
  summary,
  childCount: 0,
  ...extra,
});

/** A value cut by the capture's size cap or depth: why, and what of it was kept (its preview). */
function truncatedNode(e: Record<string, unknown>, path: string, key: string): TreeNode {
  const size = Number(e.originalSize);
  const kept = Object.entries(e).filter(
    ([k]) => k !== '$ei' && k !== 'originalSize' && k !== 'preview' && k !== 'reason',
  );
  const kids = (): TreeNode[] => [
    ...kept.map(([k, v]) => describe(v, childPath(path, k), k)),
    ...(typeof e.preview === 'string'
      ? [
          {
            key: 'preview',
            path: `${path}.<preview>`,
            kind: 'string' as const,
            summary: quote(e.preview, 2000),
            title: e.preview,
            childCount: 0,
          },
        ]
      : []),
  ];
  const count = kept.length + (typeof e.preview === 'string' ? 1 : 0);
  const why =
    e.reason === 'depth'
      ? 'nested too deep'
      : Number.isFinite(size)
        ? `${formatBytes(size)}, over the size cap`
        : 'over the size cap';
  return leaf(key, path, 'truncated', `Truncated (${why})`, count ? { children: kids, childCount: count } : {});
}

/** A Map: its entries, a primitive key as the label of its value, an object key as an entry of key and value. */
function mapNode(e: Record<string, unknown>, path: string, key: string): TreeNode {
  const entries = Array.isArray(e.v) ? (e.v as unknown[][]) : [];
  return leaf(key, path, 'map', `Map(${entries.length})`, {
    childCount: entries.length,
    children: () =>
      entries.map(([k, v], i) => {
        const primitiveKey = k === null || typeof k !== 'object';
        if (primitiveKey) {
          return describe(v, `${path}.<value ${i}>`, `${preview(k, 40)} =>`);
        }
        return {
          key: `[${i}]`,
          path: `${path}.<entry ${i}>`,
          kind: 'object',
          summary: `{${preview(k, 20)} => ${preview(v, 20)}}`,
          childCount: 2,
          children: () => [describe(k, `${path}.<key ${i}>`, 'key'), describe(v, `${path}.<value ${i}>`, 'value')],
        } satisfies TreeNode;
      }),
  });
}

/** Describe one tagged value (not a plain object/array). */
function special(e: Record<string, unknown>, path: string, key = ''): TreeNode {
  const tag = tagOf(e)!;
  const node = (kind: NodeKind, summary: string, extra: Partial<TreeNode> = {}) =>
    leaf(key, path, kind, summary, extra);
  switch (tag) {
    case 'undefined':
      return node('special', 'undefined');
    case 'Number':
      return node('number', String(e.v));
    case 'BigInt':
      return node('number', `${String(e.v)}n`);
    case 'Date':
      return node('special', `Date ${String(e.v)}`);
    case 'RegExp':
      return node('special', `/${String(e.source)}/${String(e.flags ?? '')}`);
    case 'Symbol':
      return node('special', `Symbol(${String(e.v ?? '')})`);
    case 'Function':
      return node('special', 'ƒ (function, not cloneable)');
    case 'Error':
      return node('special', `${String(e.name ?? 'Error')}: ${String(e.message ?? '')}`);
    case 'ArrayBuffer':
      return node('special', `ArrayBuffer(${formatBytes(b64Bytes(e.v))})`, {
        title: `base64: ${String(e.v).slice(0, 4000)}`,
      });
    case 'TypedArray':
      return node('special', `${String(e.kind ?? 'TypedArray')}(${formatBytes(b64Bytes(e.v))})`, {
        title: `base64: ${String(e.v).slice(0, 4000)}`,
      });
    case 'Blob':
      return node(
        'special',
        `${String(e.kind ?? 'Blob')}${e.name ? ` ${quote(String(e.name))}` : ''} (${formatBytes(Number(e.size) || 0)}${e.type ? `, ${String(e.type)}` : ''})`,
      );
    case 'Unknown':
      return node(
        'special',
        `[${String(e.kind ?? 'unknown')}${e.message ? `: ${String(e.message)}` : ''}${e.v !== undefined ? ` ${String(e.v)}` : ''}]`,
      );
    case 'Ref': {
      const target = String(e.path ?? '$');
      const circular = path === target || path.startsWith(`${target}.`) || path.startsWith(`${target}[`);
      return node('ref', `[${circular ? 'Circular' : 'Repeated'} → ${target}]`);
    }
    case 'Truncated':
      return truncatedNode(e, path, key);
    case 'Map':
      return mapNode(e, path, key);
    case 'Set': {
      const items = Array.isArray(e.v) ? (e.v as unknown[]) : [];
      return node('set', `Set(${items.length})`, {
        childCount: items.length,
        children: () => items.map((v, i) => describe(v, `${path}.<item ${i}>`, `[${i}]`)),
      });
    }
    default:
      return node('special', `[${String(tag)}]`);
  }
}

/** Describe any encoded value at `path` under the label `key`. */
export function describe(v: unknown, path = '$', key = ''): TreeNode {
  if (v === null) {
    return { key, path, kind: 'null', summary: 'null', childCount: 0 };
  }
  switch (typeof v) {
    case 'string':
      return {
        key,
        path,
        kind: 'string',
        summary: quote(v, 500),
        title: v.length > 500 ? v.slice(0, 10_000) : undefined,
        childCount: 0,
      };
    case 'number':
      return { key, path, kind: 'number', summary: String(v), childCount: 0 };
    case 'boolean':
      return { key, path, kind: 'boolean', summary: String(v), childCount: 0 };
    case 'object':
      break;
    default:
      return { key, path, kind: 'special', summary: String(v), childCount: 0 };
  }
  if (Array.isArray(v)) {
    return {
      key,
      path,
      kind: 'array',
      summary: `Array(${v.length}) ${preview(v)}`,
      childCount: v.length,
      children: () => v.map((x, i) => describe(x, `${path}[${i}]`, String(i))),
    };
  }
  const tag = tagOf(v);
  if (tag && tag !== 'Object') {
    return special(v as Record<string, unknown>, path, key);
  }
  const obj = (tag === 'Object' ? (v as Record<string, unknown>).v : v) as Record<string, unknown>;
  const keys = Object.keys(obj ?? {});
  return {
    key,
    path,
    kind: 'object',
    summary: preview(v),
    childCount: keys.length,
    children: () => keys.map((k) => describe(obj[k], childPath(path, k), k)),
  };
}

/** What "copy value" puts on the clipboard: strings as they are, anything else as (encoded) JSON. */
export function copyText(v: unknown): string {
  if (typeof v === 'string') {
    return v;
  }
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** The encoded value at an encoder path produced by `describe` (for copying a subtree). */
export function valueAt(root: unknown, path: string): unknown {
  if (path === '$') {
    return root;
  }
  const re = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.<(key|value|item|entry) (\d+)>/g;
  let cur: unknown = root;
  let m: RegExpExecArray | null;
  re.lastIndex = 1;
  while ((m = re.exec(path)) !== null) {
    if (cur === null || typeof cur !== 'object') {
      return undefined;
    }
    const tag = tagOf(cur);
    const c = cur as Record<string, unknown>;
    if (m[1] !== undefined || m[3] !== undefined) {
      const k = m[1] ?? JSON.parse(m[3]);
      const o = (tag === 'Object' ? c.v : tag === 'Truncated' ? c : c) as Record<string, unknown>;
      cur = o?.[k];
    } else if (m[2] !== undefined) {
      cur = (cur as unknown[])[Number(m[2])];
    } else {
      const i = Number(m[5]);
      if (tag === 'Map') {
        const entry = ((c.v as unknown[][]) ?? [])[i];
        cur = m[4] === 'key' ? entry?.[0] : m[4] === 'value' ? entry?.[1] : entry;
      } else if (tag === 'Set') {
        cur = ((c.v as unknown[]) ?? [])[i];
      } else {
        return undefined;
      }
    }
  }
  return cur;
}

/**
 * Where in the tree an issue's path (a rule's `payload.filters[0].field`, `surface`, `$`) points: the tree path of
 * the deepest node it names that the value has (`$.payload.filters[0]` when `field` is missing), and whether the
 * whole path is there. A field that is missing is shown on its parent, named in `missing`.
 */
export interface TreeHighlight {
  path: string;
  exact: boolean;
  /** The first part of the issue's path that the value does not have (a missing field), when not exact. */
  missing?: string;
}
export function highlightOf(root: unknown, issuePath: string): TreeHighlight {
  const rel = issuePath.replace(/^\$/, '').replace(/^\./, '');
  const parts: Array<string | number> = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(rel)) !== null) {
    parts.push(m[2] !== undefined ? Number(m[2]) : m[3] !== undefined ? JSON.parse(`"${m[3]}"`) : m[1]);
  }
  let path = '$';
  let cur: unknown = root;
  for (const part of parts) {
    const next = typeof part === 'number' ? `${path}[${part}]` : childPath(path, part);
    const v = valueAt(cur, typeof part === 'number' ? `$[${part}]` : childPath('$', part));
    const has =
      cur !== null &&
      typeof cur === 'object' &&
      v !== undefined &&
      (typeof part === 'number' || part in ((tagOf(cur) === 'Object' ? (cur as { v: object }).v : cur) as object));
    if (!has) {
      return { path, exact: false, missing: String(part) };
    }
    cur = v;
    path = next;
  }
  return { path, exact: true };
}

/** Is `path` an ancestor of `of` in the tree (so it opens to show it)? */
export const isAncestorPath = (path: string, of: string): boolean =>
  of.length > path.length && of.startsWith(path) && (of[path.length] === '.' || of[path.length] === '[');
