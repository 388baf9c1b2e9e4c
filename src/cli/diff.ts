/**
 * `embed-inspector diff A B [--format text|json] [--tenant-origin ORIGIN]`: what changed between two sessions (for
 * "it passed yesterday"), compared by `diffCaptures` (protocol/diff.ts). Exit 0 when B has no error finding that A
 * did not have, 1 when it has (a new rule, or more of one), 2 for unusable input or flags.
 */
import {
  diffCaptures,
  type CaptureDiff,
  type EventRun,
  type FindingExample,
  type RuleDiff,
  type SeverityCounts,
  type TimingBase,
  type TimingFigure,
} from '../protocol/diff.ts';
import { oneOf, originFlag, parse, UsageError } from './args.ts';
import { loadCapture } from './check.ts';
import { plural } from './report.ts';

export const DIFF_HELP = `Usage: embed-inspector diff A B [options]

Compares two capture files (format v1): A, the session that passed, and B, the one in question. Says what
changed: message types and their counts, findings by rule, the order of the events, payload fields per
type, the timing of ready and dashboard-loaded, and the integration's state.

Options:
  --format text|json       output format (default: text)
  --tenant-origin ORIGIN   the tenant origin of both (default: each file's, else inferred)
  -h, --help               this help

Exit status: 0 B has no error finding that A did not have; 1 B has new errors (a rule A did not have, or
more findings of one); 2 unusable input or flags.`;

const useColor = () => !!process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: string) => (s: string) => (useColor() ? `\x1b[${code}m${s}\x1b[0m` : s);
const red = paint('31'),
  yellow = paint('33'),
  green = paint('32'),
  dim = paint('2'),
  bold = paint('1');

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

/** The one line that says whether B regresses: its new errors, else that it has none (and its new warnings). */
export function headline(d: CaptureDiff): string {
  const list = (severity: string) =>
    d.newIssues.filter((i) => i.severity === severity).map((i) => `${i.rule} (${i.a} → ${i.b})`);
  const errors = list('error');
  const warnings = list('warning');
  const infos = list('info');
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

/** The comparison in words: headings, + / - / ~ markers; colours only on a terminal without NO_COLOR. */
export function renderDiffText(d: CaptureDiff, files: { a: string; b: string }): string {
  const out: string[] = [];
  const sideLine = (label: 'A' | 'B', file: string, s: CaptureDiff['a']) =>
    `  ${label} ${file}: ${plural(s.messages, 'message')}, ${plural(s.events, 'event')} · findings: ${
      s.errors ? red(plural(s.errors, 'error')) : '0 errors'
    }, ${s.warnings ? yellow(plural(s.warnings, 'warning')) : '0 warnings'}, ${plural(s.infos, 'info')}`;
  out.push(bold(`diff ${files.a} → ${files.b}`), sideLine('A', files.a, d.a), sideLine('B', files.b, d.b));
  const head = headline(d);
  out.push(d.exitCode ? red(head) : green(head), '');

  // ---- integration
  const at = (seq: number | null) => (seq !== null ? ` (see #${seq})` : '');
  if (d.integration.same) {
    out.push(`${bold('Integration')}: the same: ${d.integration.a.text}`);
  } else {
    out.push(
      bold('Integration'),
      `  ${red('-')} A: ${d.integration.a.text}${at(d.integration.a.seq)}`,
      `  ${green('+')} B: ${d.integration.b.text}${at(d.integration.b.seq)}`,
    );
  }

  // ---- issues by rule
  const changedRules = d.rules.filter((r) => r.status !== 'same');
  const sameRules = d.rules.filter((r) => r.status === 'same');
  if (!d.rules.length) {
    out.push(`${bold('Issues by rule')}: none in either`);
  } else if (!changedRules.length) {
    out.push(
      `${bold('Issues by rule')}: the same: ${sameRules.map((r) => `${r.rule} (${countsText(r.a)})`).join(', ')}`,
    );
  } else {
    const width = Math.max(...changedRules.map((r) => r.rule.length));
    out.push(bold('Issues by rule'), ...changedRules.flatMap((r) => ruleLines(r, width)));
    if (sameRules.length) {
      out.push(dim(`  unchanged: ${sameRules.map((r) => `${r.rule} (${countsText(r.a)})`).join(', ')}`));
    }
  }

  // ---- message types
  const changedTypes = d.types.filter((t) => t.status !== 'same');
  const sameTypes = d.types.length - changedTypes.length;
  if (!d.types.length) {
    out.push(`${bold('Message types')}: no svc-embed message in either`);
  } else if (!changedTypes.length) {
    out.push(`${bold('Message types')}: the same (${plural(sameTypes, 'type')}, counts unchanged)`);
  } else {
    const width = Math.max(...changedTypes.map((t) => t.type.length));
    out.push(
      bold('Message types'),
      ...changedTypes.map((t) => {
        const marker = t.status === 'added' ? green('+') : t.status === 'removed' ? red('-') : yellow('~');
        return `  ${marker} ${t.type.padEnd(width)}  ${t.a} → ${t.b}`;
      }),
    );
    if (sameTypes) {
      out.push(dim(`  unchanged: ${plural(sameTypes, 'type')}`));
    }
  }

  // ---- order of events
  if (d.order.same) {
    const runs = d.order.hunks.flatMap((h) => h.events);
    out.push(
      `${bold('Order of events')}: the same${runs.length ? ` (${plural(d.order.a, 'event')}: ${sameText(runs)})` : ' (no event in either)'}`,
    );
  } else {
    out.push(`${bold('Order of events')}: differs (${plural(d.order.a, 'event')} in A, ${d.order.b} in B)`);
    for (const h of d.order.hunks) {
      if (h.op === 'same') {
        out.push(dim(`    ${sameText(h.events)}`));
      } else {
        out.push(`  ${h.op === 'added' ? green('+') : red('-')} ${runsText(h.events)}`);
      }
    }
  }

  // ---- payload shapes
  if (!d.shapes.changed.length) {
    out.push(
      `${bold('Payload fields')}: ${
        d.shapes.unchanged ? `the same for the ${plural(d.shapes.unchanged, 'type')} in both` : 'no type in both'
      }`,
    );
  } else {
    out.push(bold('Payload fields'));
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
  }

  // ---- timing
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
  out.push(`${bold('Timing')} ${dim(`(${base})`)}`, ...rows.map(([name, f]) => timingLine(name, f, width, aWidth)));
  return out.join('\n');
}

/** The same content as JSON: the files, the headline and `diffCaptures`' result. */
export function renderDiffJson(d: CaptureDiff, files: { a: string; b: string }): string {
  const { a, b, exitCode, ...rest } = d;
  return JSON.stringify(
    { exitCode, headline: headline(d), a: { file: files.a, ...a }, b: { file: files.b, ...b }, ...rest },
    null,
    2,
  );
}

export async function runDiff(
  argv: string[],
  io: { out: (s: string) => void } = { out: (s) => process.stdout.write(s) },
): Promise<number> {
  const { values, positionals } = parse(argv, {
    format: { type: 'string' },
    'tenant-origin': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(DIFF_HELP + '\n');
    return 0;
  }
  const format = oneOf('format', values.format, ['text', 'json'] as const, 'text');
  const tenantOrigin = originFlag('tenant-origin', values['tenant-origin']);
  if (positionals.length !== 2) {
    throw new UsageError(
      `diff needs two capture files, A and B (got ${positionals.length}; see embed-inspector diff --help)`,
    );
  }
  const [fileA, fileB] = positionals;
  // Read both first: nothing is printed when either is unusable.
  const a = await loadCapture(fileA);
  const b = await loadCapture(fileB);
  const d = diffCaptures(a, b, { tenantOrigin });
  const files = { a: fileA, b: fileB };
  io.out((format === 'json' ? renderDiffJson(d, files) : renderDiffText(d, files)) + '\n');
  return d.exitCode;
}
