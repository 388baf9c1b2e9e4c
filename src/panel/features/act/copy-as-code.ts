/**
 * "Copy as code": the JavaScript a host developer would write for a captured message, following the spec's
 * rules (actions to the iframe content window with the tenant origin, never `*`; one `message` listener that
 * checks origin, source marker and direction). Pure.
 */
import { decode, literal, specOf } from '../../log/protocol.ts';

const q = (s: string) => JSON.stringify(s);

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
    `    payload: ${literal(payload, '    ', 100 - 'payload: '.length)},`,
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
