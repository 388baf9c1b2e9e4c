/**
 * The coverage of a suite (protocol/coverage.ts) as one self-contained HTML page (the reporter's index.html, and
 * `embed-inspector coverage --format html`): its style inline, no script, no font, image or request of any kind (a
 * Content-Security-Policy of `default-src 'none'` says so to the browser), so that it opens from a CI artifact in any
 * browser. The gaps come first, then the matrix (types × surfaces × direction, posts and deliveries), the values, the
 * rules and each test with a link to its capture. Every string is inert (protocol/inert.ts) and escaped for HTML.
 */
import { ACTIONS, EVENTS, SURFACES, type MessageSpec } from '../protocol/catalog.ts';
import {
  percent,
  surfacesOf,
  type Coverage,
  type KindCounts,
  type Ratio,
  type TestCoverage,
} from '../protocol/coverage.ts';
import { inert } from '../protocol/inert.ts';

/** Text for HTML: inert, then the markup characters as entities. */
function html(s: unknown): string {
  return inert(String(s)).replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`,
  );
}
/** A relative link: each path segment percent-encoded (no scheme can survive), then escaped. */
const href = (path: string) => html(path.split('/').map(encodeURIComponent).join('/'));

const CSS = `
:root{color-scheme:light dark;--fg:#1f2328;--muted:#59636e;--bg:#fff;--line:#d1d9e0;--gap:#cf222e;--gap-bg:#ffebe9;--ok:#1a7f37;--ok-bg:#dafbe1;--na:#6e7781}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#3d444d;--gap:#ff7b72;--gap-bg:#3c1618;--ok:#3fb950;--ok-bg:#12261e;--na:#9198a1}}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;padding:16px 24px;max-width:1280px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.figures{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0;padding:0;list-style:none}
.figures li{border:1px solid var(--line);border-radius:6px;padding:6px 10px}
.figures b{font-size:17px}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
thead th{font-weight:600;color:var(--muted);white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.gap{color:var(--gap);background:var(--gap-bg)}
.seen{color:var(--ok);background:var(--ok-bg)}
.na{color:var(--na)}
ul.gaps{padding-left:20px}ul.gaps li{margin:2px 0}
.chip{display:inline-block;border:1px solid var(--line);border-radius:10px;padding:0 7px;margin:1px 2px;white-space:nowrap}
.muted{color:var(--muted)}
a{color:inherit}
`;

const row = (cells: string[], attrs = '') => `<tr${attrs}>${cells.join('')}</tr>`;
const th = (s: string, scope = '') => `<th${scope ? ` scope="${scope}"` : ''}>${s}</th>`;
const td = (s: string, cls = '') => `<td${cls ? ` class="${cls}"` : ''}>${s}</td>`;
const figure = (name: string, r: Ratio) =>
  `<li><b>${r.covered}/${r.total}</b> ${html(name)} <span class="muted">(${html(percent(r))})</span></li>`;
const kinds = (k: KindCounts) => `post ${k.post} · delivery ${k.delivery}`;

/** The page of a suite's coverage. `title`: what it covers (a project, a run), above the figures. */
export function coverageHtml(c: Coverage, opts: { title?: string } = {}): string {
  const s = c.summary;
  const rules = s.rules;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>Embed protocol coverage${opts.title ? ` · ${html(opts.title)}` : ''}</title>`,
    `<style>${CSS}</style></head><body>`,
    `<header><h1>Embed protocol coverage</h1>${opts.title ? `<p class="muted">${html(opts.title)}</p>` : ''}`,
    `<ul class="figures" aria-label="Summary">${figure('events', s.events)}${figure('actions', s.actions)}${figure('type × surface cells', s.surfaces)}${figure('payload values', s.values)}`,
    `<li><b>${rules.checked}/${rules.total}</b> rules checked <span class="muted">(${rules.passed} passed, ${rules.fired} fired, ${rules.neverApplicable} never applicable)</span></li>`,
    `<li><b>${s.tests.total}</b> tests <span class="muted">(${s.tests.withData} with embed data, ${s.tests.messages} messages)</span></li></ul></header>`,
    '<main>',
    gapsSection(c),
    matrixSection(c),
    valuesSection(c),
    rulesSection(c),
    testsSection(c),
    '</main>',
    `<footer><p class="muted">${html(c.format)} version ${c.version}; the same figures are in coverage.json.</p></footer>`,
    '</body></html>',
    '',
  ].join('\n');
}

function gapsSection(c: Coverage): string {
  const items = c.gaps.map((g) => `<li>${html(g)}</li>`).join('');
  const unknown = c.unknownTypes.messages
    ? `<p>${c.unknownTypes.messages} messages of types the protocol does not have: ${c.unknownTypes.names.map((n) => `<code>${html(n)}</code>`).join(', ')}</p>`
    : '';
  return `<section id="gaps" aria-labelledby="gaps-h"><h2 id="gaps-h">Gaps (${c.gaps.length})</h2>${
    c.gaps.length
      ? `<ul class="gaps">${items}</ul>`
      : '<p>No gaps: every type, surface, value and rule was exercised.</p>'
  }${unknown}</section>`;
}

/** Types × surfaces: a cell per surface the catalog allows for the type (— where it does not), posts and deliveries. */
function matrixSection(c: Coverage): string {
  const unknown = Object.values(c.types).some((t) => t.surfaces.unknown);
  const surfaces = [...SURFACES, ...(unknown ? (['unknown'] as const) : [])];
  const head = row([
    th('Type', 'col'),
    th('Direction', 'col'),
    ...surfaces.map((sf) => th(html(sf), 'col')),
    th('Messages', 'col'),
    th('Invalid', 'col'),
    th('Tests', 'col'),
  ]);
  const line = (spec: MessageSpec) => {
    const t = c.types[spec.type];
    const allowed: readonly string[] = surfacesOf(spec);
    const cells = surfaces.map((sf) => {
      const k = t.surfaces[sf];
      if (!allowed.includes(sf) && !(k && k.post + k.delivery > 0)) {
        return td('—', 'na');
      }
      return k && k.post + k.delivery > 0 ? td(kinds(k), 'seen') : td('never', 'gap');
    });
    return row(
      [
        th(`<code>${html(spec.type)}</code>`, 'row'),
        td(spec.direction === 'event' ? 'embed → host' : 'host → embed'),
        ...cells,
        td(String(t.messages), `num${t.seen ? '' : ' gap'}`),
        td(String(t.invalid), 'num'),
        td(String(t.tests.length), 'num'),
      ],
      ` data-type="${html(spec.type)}"`,
    );
  };
  return `<section id="matrix" aria-labelledby="matrix-h"><h2 id="matrix-h">Message types by surface</h2>
<table><caption class="muted">Records of each type by the surface of its embed: posts (seen in the sender's frame, full capture mode) and deliveries (seen where it arrived). — : the protocol does not send it there.</caption>
<thead>${head}</thead><tbody>${[...EVENTS, ...ACTIONS].map(line).join('\n')}</tbody></table></section>`;
}

function valuesSection(c: Coverage): string {
  const rows: string[] = [];
  for (const spec of [...EVENTS, ...ACTIONS]) {
    const t = c.types[spec.type];
    for (const [field, vs] of Object.entries(t.values)) {
      const chips = Object.entries(vs).map(
        ([v, n]) => `<span class="chip ${n ? 'seen' : 'gap'}">${html(v)} ${n ? `× ${n}` : 'never'}</span>`,
      );
      const other = Object.entries(t.otherValues[field] ?? {}).map(
        ([v, n]) => `<span class="chip">${html(v)} × ${n}</span>`,
      );
      rows.push(
        row([
          th(`<code>${html(spec.type)}</code> <code>${html(field)}</code>`, 'row'),
          td(chips.join(' ')),
          td(other.length ? other.join(' ') : '<span class="muted">none</span>'),
        ]),
      );
    }
  }
  return `<section id="values" aria-labelledby="values-h"><h2 id="values-h">Payload values</h2>
<table><thead>${row([th('Type and field', 'col'), th('Values of the protocol', 'col'), th('Other values seen', 'col')])}</thead><tbody>${rows.join('\n')}</tbody></table></section>`;
}

function rulesSection(c: Coverage): string {
  const titles = new Map(c.tests.map((t) => [t.id, t.title]));
  const order = { fired: 0, passed: 1, 'never-applicable': 2 } as const;
  const rows = Object.entries(c.rules)
    .sort(([, a], [, b]) => order[a.status] - order[b.status])
    .map(([id, r]) =>
      row(
        [
          th(`<code>${html(id)}</code>`, 'row'),
          td(html(r.severity)),
          td(
            html(r.status.replace('-', ' ')),
            r.status === 'never-applicable' ? 'gap' : r.status === 'passed' ? 'seen' : '',
          ),
          td(String(r.checked), 'num'),
          td(String(r.passed), 'num'),
          td(String(r.fired), 'num'),
          td(r.tests.map((t) => html(titles.get(t) ?? t)).join('<br>')),
        ],
        ` data-rule="${html(id)}"`,
      ),
    );
  return `<section id="rules" aria-labelledby="rules-h"><h2 id="rules-h">Rules</h2>
<table><caption class="muted">Checked: on how many messages, embed addresses, REST calls or captures the rule looked; fired: on how many it found something.</caption>
<thead>${row(['Rule', 'Severity', 'Status', 'Checked', 'Passed', 'Fired', 'Fired in'].map((h) => th(h, 'col')))}</thead><tbody>${rows.join('\n')}</tbody></table></section>`;
}

function testsSection(c: Coverage): string {
  const line = (t: TestCoverage) =>
    row(
      [
        th(`${html(t.title)}${t.project ? ` <span class="muted">[${html(t.project)}]</span>` : ''}`, 'row'),
        td(html(t.status ?? '')),
        td(
          t.hasData
            ? String(t.messages)
            : `<span class="muted">no embed data${t.error ? `: ${html(t.error)}` : ''}</span>`,
          'num',
        ),
        td(t.types.map((x) => `<span class="chip">${html(x.replace(/^svc:/, ''))}</span>`).join(' ')),
        td(t.fired.map((x) => `<code>${html(x)}</code>`).join(' ')),
        td(t.capture ? `<a href="${href(t.capture)}">capture</a>` : '<span class="muted">none attached</span>'),
      ],
      ` data-test="${html(t.id)}"`,
    );
  return `<section id="tests" aria-labelledby="tests-h"><h2 id="tests-h">Tests (${c.tests.length})</h2>
<table><thead>${row(['Test', 'Status', 'Messages', 'Types seen', 'Rules fired', 'Capture'].map((h) => th(h, 'col')))}</thead><tbody>${c.tests.map(line).join('\n')}</tbody></table></section>`;
}
