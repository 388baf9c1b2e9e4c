/**
 * The text of a comparison (diff.ts), as `embed-inspector diff` prints it and the panel's Compare shows it: one
 * rendering for both. `style` colours it (the command line on a terminal); plain by default. Pure.
 */
import type {
  CaptureDiff,
  EventRun,
  FindingExample,
  RuleDiff,
  SeverityCounts,
  TimingBase,
  TimingFigure,
} from './diff.ts';

export interface DiffStyle {
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}
const PLAIN: DiffStyle = { red: (s) => s, yellow: (s) => s, green: (s) => s, dim: (s) => s, bold: (s) => s };
let style: DiffStyle = PLAIN;
const red = (s: string) => style.red(s),
  yellow = (s: string) => style.yellow(s),
  green = (s: string) => style.green(s),
  dim = (s: string) => style.dim(s),
  bold = (s: string) => style.bold(s);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const short = (type: string) => type.replace(/^svc:event:/, '');

function countsText(c: SeverityCounts): string {
  const parts = (['error', 'warning', 'info'] as const).filter((s) => c[s] > 0).map((s) => plural(c[s], s));
  return parts.length ? parts.join(', ') : 'none';
}

function runsText(runs: readonly EventRun[]): string {
  return runs.map((r) => `${short(r.type)}${r.count > 1 ? ` ×${r.count}` : ''}`).join(', ');
}

/** A long stretch of the same events, shortened: its first two and last two runs. */
function sameText(runs: readonly EventRun[]): string {
  if (runs.length <= 5) {
    return runsText(runs);
  }
  const hidden = runs.slice(2, -2).reduce((n, r) => n + r.count, 0);
  return `${runsText(runs.slice(0, 2))}, … ${plural(hidden, 'event')} …, ${runsText(runs.slice(-2))}`;
}

function exampleText(e: FindingExample | null, side: 'A' | 'B'): string {
  return e ? dim(`${side} #${e.seq} ${e.type}: ${e.message}`) : '';
}

function ms(n: number | null): string {
  return n === null ? 'never' : `${n} ms`;
}

function signed(n: number | null): string {
  return n === null ? '' : n > 0 ? `+${n} ms` : n < 0 ? `−${-n} ms` : '±0 ms';
}

const BASE: Record<TimingBase, string> = {
  'embed-navigation': "the embed frame's navigation",
  'first-record': 'the first record',
};

/**
 * The one line that says whether B regresses: why it fails as a run (no embed, never ready…), else its new errors,
 * else that it has none (and its new warnings).
 */
export function headline(d: CaptureDiff): string {
  const list = (severity: string) =>
    d.newIssues.filter((i) => i.severity === severity).map((i) => `${i.rule} (${i.a} → ${i.b})`);
  const errors = list('error');
  const warnings = list('warning');
  const infos = list('info');
  if (d.b.failures.length) {
    return `✗ B fails as a run: ${d.b.failures.join('; ')}`;
  }
  if (errors.length) {
    const n = d.newIssues.filter((i) => i.severity === 'error').reduce((s, i) => s + i.b - i.a, 0);
    return `✗ B has ${plural(n, 'new error')}: ${errors.join(', ')}`;
  }
  if (!warnings.length && !infos.length) {
    return '✓ no new issues in B';
  }
  const more = [
    warnings.length ? `new warnings: ${warnings.join(', ')}` : '',
    infos.length ? `new infos: ${infos.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `✓ no new errors in B; ${more}`;
}

function ruleLines(r: RuleDiff, width: number): string[] {
  const marker =
    r.status === 'new' || r.status === 'more'
      ? red('+')
      : r.status === 'gone' || r.status === 'fewer'
        ? green('-')
        : yellow('~');
  const example = exampleText(r.example, r.status === 'gone' || r.status === 'fewer' ? 'A' : 'B');
  return [
    `  ${marker} ${r.rule.padEnd(width)}  ${countsText(r.a)} → ${countsText(r.b)}`,
    ...(example ? [`      ${example}`] : []),
  ];
}

function timingLine(name: string, f: TimingFigure, width: number, aWidth: number): string {
  const diff = signed(f.difference);
  return `  ${name.padEnd(width)}  ${ms(f.a).padStart(aWidth)} → ${ms(f.b)}${diff ? `  (${diff})` : ''}`;
}

function integrationLines(d: CaptureDiff): string[] {
  const at = (seq: number | null) => (seq !== null ? ` (see #${seq})` : '');
  if (d.integration.same) {
    return [`${bold('Integration')}: the same: ${d.integration.a.text}`];
  }
  return [
    bold('Integration'),
    `  ${red('-')} A: ${d.integration.a.text}${at(d.integration.a.seq)}`,
    `  ${green('+')} B: ${d.integration.b.text}${at(d.integration.b.seq)}`,
  ];
}

function ruleSection(d: CaptureDiff): string[] {
  const changedRules = d.rules.filter((r) => r.status !== 'same');
  const sameRules = d.rules.filter((r) => r.status === 'same');
  if (!d.rules.length) {
    return [`${bold('Issues by rule')}: none in either`];
  }
  if (!changedRules.length) {
    return [
      `${bold('Issues by rule')}: the same: ${sameRules.map((r) => `${r.rule} (${countsText(r.a)})`).join(', ')}`,
    ];
  }
  const width = Math.max(...changedRules.map((r) => r.rule.length));
  const out = [bold('Issues by rule'), ...changedRules.flatMap((r) => ruleLines(r, width))];
  if (sameRules.length) {
    out.push(dim(`  unchanged: ${sameRules.map((r) => `${r.rule} (${countsText(r.a)})`).join(', ')}`));
  }
  return out;
}

function typeSection(d: CaptureDiff): string[] {
  const changedTypes = d.types.filter((t) => t.status !== 'same');
  const sameTypes = d.types.length - changedTypes.length;
  if (!d.types.length) {
    return [`${bold('Message types')}: no svc-embed message in either`];
  }
  if (!changedTypes.length) {
    return [`${bold('Message types')}: the same (${plural(sameTypes, 'type')}, counts unchanged)`];
  }
  const width = Math.max(...changedTypes.map((t) => t.type.length));
  const out = [
    bold('Message types'),
    ...changedTypes.map((t) => {
      const marker = t.status === 'added' ? green('+') : t.status === 'removed' ? red('-') : yellow('~');
      return `  ${marker} ${t.type.padEnd(width)}  ${t.a} → ${t.b}`;
    }),
  ];
  if (sameTypes) {
    out.push(dim(`  unchanged: ${plural(sameTypes, 'type')}`));
  }
  return out;
}

function orderSection(d: CaptureDiff): string[] {
  if (d.order.same) {
    const runs = d.order.hunks.flatMap((h) => h.events);
    return [
      `${bold('Order of events')}: the same${runs.length ? ` (${plural(d.order.a, 'event')}: ${sameText(runs)})` : ' (no event in either)'}`,
    ];
  }
  const out = [`${bold('Order of events')}: differs (${plural(d.order.a, 'event')} in A, ${d.order.b} in B)`];
  for (const h of d.order.hunks) {
    if (h.op === 'same') {
      out.push(dim(`    ${sameText(h.events)}`));
    } else {
      out.push(`  ${h.op === 'added' ? green('+') : red('-')} ${runsText(h.events)}`);
    }
  }
  return out;
}

function shapeSection(d: CaptureDiff): string[] {
  if (!d.shapes.changed.length) {
    return [
      `${bold('Payload fields')}: ${
        d.shapes.unchanged ? `the same for the ${plural(d.shapes.unchanged, 'type')} in both` : 'no type in both'
      }`,
    ];
  }
  const out = [bold('Payload fields')];
  for (const s of d.shapes.changed) {
    out.push(`  ${s.type}`);
    if (s.onlyA.length) {
      out.push(`    ${red('-')} only in A: ${s.onlyA.join(', ')}`);
    }
    if (s.onlyB.length) {
      out.push(`    ${green('+')} only in B: ${s.onlyB.join(', ')}`);
    }
  }
  if (d.shapes.unchanged) {
    out.push(dim(`  unchanged: ${plural(d.shapes.unchanged, 'type')}`));
  }
  return out;
}

function timingSection(d: CaptureDiff): string[] {
  const { from } = d.timing;
  const base =
    from.a === from.b
      ? from.a
        ? `ms from ${BASE[from.a]}`
        : 'no record'
      : `A from ${from.a ? BASE[from.a] : 'nothing'}, B from ${from.b ? BASE[from.b] : 'nothing'}`;
  const rows: Array<[string, TimingFigure]> = [
    ['ready', d.timing.ready],
    ['dashboard-loaded', d.timing.dashboardLoaded],
  ];
  if (d.timing.loadDurationMs.a !== null || d.timing.loadDurationMs.b !== null) {
    rows.push(['loadDurationMs', d.timing.loadDurationMs]);
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  const aWidth = Math.max(...rows.map(([, f]) => ms(f.a).length));
  return [`${bold('Timing')} ${dim(`(${base})`)}`, ...rows.map(([name, f]) => timingLine(name, f, width, aWidth))];
}

/** The comparison in words: headings, + / - / ~ markers; colours only on a terminal without NO_COLOR. */
export function renderDiffText(d: CaptureDiff, files: { a: string; b: string }, colours: DiffStyle = PLAIN): string {
  style = colours;
  const sideLine = (label: 'A' | 'B', file: string, s: CaptureDiff['a']) =>
    `  ${label} ${file}: ${plural(s.messages, 'message')}, ${plural(s.events, 'event')} · findings: ${
      s.errors ? red(plural(s.errors, 'error')) : '0 errors'
    }, ${s.warnings ? yellow(plural(s.warnings, 'warning')) : '0 warnings'}, ${plural(s.infos, 'info')}`;
  const head = headline(d);
  return [
    bold(`diff ${files.a} → ${files.b}`),
    sideLine('A', files.a, d.a),
    sideLine('B', files.b, d.b),
    d.exitCode ? red(head) : green(head),
    '',
    ...integrationLines(d),
    ...ruleSection(d),
    ...typeSection(d),
    ...orderSection(d),
    ...shapeSection(d),
    ...timingSection(d),
  ].join('\n');
}
