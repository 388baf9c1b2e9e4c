/** docs/rules.md, generated from the rule table and the catalog (`npm run schema` writes it). */
import { RULE_LIST } from './rules.ts';
import { ACTIONS, EVENTS, type MessageSpec } from './catalog.ts';

const GROUPS: Record<string, string> = {
  envelope: 'Envelope',
  payload: 'Payloads',
  'cross-field': 'Cross-field',
  action: 'Action semantics',
  origin: 'Origin',
  session: 'Session (stateful, per embed)',
  url: "The embed's address (on the embed frame's navigation record)",
  silence: 'What did not happen (the embed frame, the end of the session)',
  rest: 'REST operations (Network traffic)',
};

/** The anchor of a rule's row in docs/rules.md (`#rule-envelope.direction`): the panel's rule links use it. */
export const ruleAnchor = (id: string): string => `rule-${id}`;
/** Where the rules doc lives in the repository and the package. */
export const RULES_DOC_PATH = 'docs/rules.md';

const esc = (s: string) => s.replace(/\|/g, '\\|');

function fieldsTable(m: MessageSpec): string {
  const rows = Object.entries(m.fields).map(
    ([name, f]) =>
      `| \`${name}\` | ${f.enum ? f.enum.map((e) => `\`${e}\``).join(', ') : f.kind}${f.nullable ? ' or null' : ''} | ${f.required ? 'yes' : 'no'} | ${esc(f.doc)} |`,
  );
  return rows.length
    ? ['| Field | Type | Required | Spec |', '|---|---|---|---|', ...rows].join('\n')
    : '_Empty payload._';
}

export function rulesMarkdown(): string {
  const out: string[] = [
    '# Rule set',
    '',
    '_Generated from `src/protocol/rules.ts` and `src/protocol/catalog.ts` by `npm run schema`; do not edit by hand. A unit test fails when this file is stale._',
    '',
    'Every captured message gets a verdict: `foreign` (no `source: "svc-embed"` marker: not part of the protocol, not checked), `invalid` (at least one issue of severity `error`) or `valid` (no error; warnings and infos may remain). Each issue names a rule below by its stable id.',
    '',
    '## How the tenant origin is found',
    '',
    "Origin rules need the tenant origin (the origin the embed is served from). It is the origin given by hand (`--tenant-origin`, the panel's tenant field, a capture file's `tenantOrigin`); otherwise the embed's own frame says it: the origin of a frame at an embed address (`/embed/dashboard/…`, `/embed/d/<id>/app/…`, or a misspelling of one; a video player's `/embed/` frame is not one) that spoke the protocol, the host receiving an svc-embed event from it (or the frame posting one itself). Where several did, the first whose `svc:event:ready` reached the host is the tenant's, else the first that spoke. What a message says never decides it: a `ready` from a frame that is not at an embed address never sets it (any frame of a page may be hostile). When none is known, the origin rules are skipped and the summary says so.",
    '',
    '## Sessions',
    '',
    "Session rules run over the stream in capture order, one session per embed (keyed by the embed's origin: events by the origin they come from, actions by the origin they are posted to). Each message is counted once, at its first observation: when the post and its delivery are both in the stream, whichever comes second (it names the first in `pairedWith`, or has the same type, direction and timestamp) is skipped. A navigation of the embed frame starts a new session; a top-level navigation ends them all, except that a page the browser shows again from its back/forward cache (the same document as before: its navigation record says `restored`) goes on with the sessions that were ready when the tab left it. Clearing the panel's log empties the view; it does not start a new session.",
    '',
    '## A post and its delivery',
    '',
    "A post and its delivery are one message. The delivery shows the issues of its post that it does not have itself (the sender's: its target origin, the session rules counted at the post), marked as the sender's, so the delivery of an invalid post is invalid too. Counts by verdict count messages: a delivery paired with its post is not counted again.",
    '',
    '## Leniency where the spec is silent',
    '',
    'Where the spec says "not shown", nothing is invented: unknown envelope or payload fields are `info` only; `set-theme` accepts any embedTheme field with any value (their types are not shown); ordering the spec does not guarantee is a `warning`. Each rule below says where it reads the spec leniently.',
    '',
  ];
  for (const group of Object.keys(GROUPS)) {
    out.push(`## ${GROUPS[group]}`, '', '| Rule | Severity | Checks | Spec | Note |', '|---|---|---|---|---|');
    for (const r of RULE_LIST.filter((x) => x.group === group)) {
      out.push(
        `| <a id="${ruleAnchor(r.id)}"></a>\`${r.id}\` | ${r.severity} | ${esc(r.summary)} | ${esc(r.spec)} | ${esc(r.note ?? '')} |`,
      );
    }
    out.push('');
  }
  out.push(
    '## Catalog',
    '',
    'Envelope: `{source: "svc-embed", direction, type, payload, timestamp, surface}`; `surface` is on every event and never on an action.',
    '',
  );
  for (const m of [...EVENTS, ...ACTIONS] as readonly MessageSpec[]) {
    out.push(
      `### \`${m.type}\``,
      '',
      `${m.summary}${m.surfaces ? ` Surfaces: ${m.surfaces.join(', ')}.` : ''}${m.open ? ' Further fields are accepted.' : ''}`,
      '',
      fieldsTable(m),
      '',
    );
  }
  return out.join('\n');
}
