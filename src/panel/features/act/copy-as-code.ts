/**
 * "Copy as code": the JavaScript a host developer would write for a captured message, following the spec's
 * rules (actions to the iframe content window with the tenant origin, never `*`; one `message` listener that
 * checks origin, source marker and direction). Pure.
 */
import { decode, propertyKey, specOf } from '../../log/protocol.ts';

const q = (s: string) => JSON.stringify(s);

/** A JS literal for a decoded value (JSON plus the few values JSON lacks). */
export function toJsLiteral(value: unknown, indent = '  ', depth = 0): string {
  const pad = indent.repeat(depth + 1),
    end = indent.repeat(depth);
  if (value === undefined) {
    return 'undefined';
  }
  if (typeof value === 'bigint') {
    return `${value}n`;
  }
  if (typeof value === 'number') {
    return Number.isNaN(value)
      ? 'NaN'
      : Object.is(value, -0)
        ? '-0'
        : !Number.isFinite(value)
          ? value > 0
            ? 'Infinity'
            : '-Infinity'
          : String(value);
  }
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'undefined';
  }
  if (value instanceof Date) {
    return `new Date(${q(Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString())})`;
  }
  if (value instanceof RegExp) {
    return String(value);
  }
  if (value instanceof Map) {
    return `new Map([${[...value].map(([k, v]) => `[${toJsLiteral(k, indent, depth + 1)}, ${toJsLiteral(v, indent, depth + 1)}]`).join(', ')}])`;
  }
  if (value instanceof Set) {
    return `new Set([${[...value].map((v) => toJsLiteral(v, indent, depth + 1)).join(', ')}])`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return '[]';
    }
    return `[\n${value.map((v) => pad + toJsLiteral(v, indent, depth + 1)).join(',\n')},\n${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) {
    return '{}';
  }
  return `{\n${entries.map(([k, v]) => `${pad}${propertyKey(k)}: ${toJsLiteral(v, indent, depth + 1)}`).join(',\n')},\n${end}}`;
}

export interface ActionSnippetOptions {
  /** The tenant origin; required: the snippet never uses `*`. */
  tenantOrigin: string;
  /** How the snippet finds the iframe. */
  iframeSelector?: string;
}

/** The host-side code that sends this action. `data` may be encoded (as captured). */
export function actionSnippet(data: unknown, opts: ActionSnippetOptions): string {
  const msg = decode(data) as Record<string, unknown> | null;
  const type = msg && typeof msg.type === 'string' ? msg.type : 'svc:action:refresh';
  const payload = msg && 'payload' in msg ? msg.payload : {};
  const selector = opts.iframeSelector ?? `iframe[src^="${opts.tenantOrigin}"]`;
  return [
    `const TENANT_ORIGIN = ${q(opts.tenantOrigin)};`,
    `const iframe = document.querySelector(${q(selector)});`,
    '',
    'iframe.contentWindow.postMessage(',
    '  {',
    "    source: 'svc-embed',",
    "    direction: 'action',",
    `    type: ${q(type)},`,
    `    payload: ${toJsLiteral(payload, '  ', 2)},`,
    '    timestamp: Date.now(),',
    '  },',
    "  TENANT_ORIGIN, // never '*'",
    ');',
  ].join('\n');
}

/** A host listener for one event type (or all events), following the three receiving rules. */
export function listenerSnippet(eventType: string | null, opts: { tenantOrigin: string }): string {
  const spec = eventType ? specOf(eventType) : undefined;
  const fields = spec
    ? Object.entries(spec.fields).map(
        ([k, f]) =>
          `//   ${k}${f.required ? '' : '?'}: ${f.enum ? f.enum.map((e) => `'${e}'`).join(' | ') : f.kind}${f.nullable ? ' | null' : ''}`,
      )
    : [];
  const lines = [
    `const TENANT_ORIGIN = ${q(opts.tenantOrigin)};`,
    '',
    "window.addEventListener('message', (event) => {",
    '  if (event.origin !== TENANT_ORIGIN) return; // 1. only the tenant origin',
    '  const data = event.data;',
    "  if (!data || data.source !== 'svc-embed' || data.direction !== 'event') return; // 2. source marker and direction",
    '  switch (data.type) { // 3. dispatch on type',
  ];
  if (eventType) {
    lines.push(`    case ${q(eventType)}: {`);
    if (fields.length) {
      lines.push('      // payload:', ...fields.map((f) => `      ${f}`));
    }
    lines.push(
      '      const { payload, surface } = data;',
      `      console.log(${q(eventType)}, surface, payload);`,
      '      break;',
      '    }',
    );
  } else {
    lines.push("    case 'svc:event:ready':", "      console.log('embed ready', data.payload);", '      break;');
  }
  lines.push('  }', '});');
  return lines.join('\n');
}
