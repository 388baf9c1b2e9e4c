/**
 * The coverage of a suite (protocol/coverage.ts) as terminal text: the summary the Playwright reporter prints at the
 * end of a run and `embed-inspector coverage` prints first, then, for the command line, each type and each capture.
 * Every string is inert (protocol/inert.ts): a test title or a name from the page cannot move the cursor, start a
 * new line or reorder what a reader sees.
 */
import { ACTIONS, EVENTS, type MessageSpec } from '../protocol/catalog.ts';
import { percent, surfacesOf, type Coverage, type Ratio, type TypeCoverage } from '../protocol/coverage.ts';
import { inertValue } from '../protocol/inert.ts';

const ratio = (name: string, r: Ratio) => `${name} ${r.covered}/${r.total} (${percent(r)})`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface CoverageTextOptions {
  /** Gaps listed before "… and N more" (default: all). */
  maxGaps?: number;
  /** Where the whole report is (the reporter's index.html), named after a cut list. */
  report?: string;
  /** Each type's counts and each test's line after the summary (the command line's text). */
  details?: boolean;
}

/** The summary: figures, then the gaps. */
export function coverageText(coverage: Coverage, opts: CoverageTextOptions = {}): string {
  const c = inertValue(coverage);
  const s = c.summary;
  const lines = [
    `Embed protocol coverage: ${plural(s.tests.total, 'test')}${s.tests.withData < s.tests.total ? ` (${s.tests.withData} with embed data)` : ''}, ${plural(s.tests.messages, 'message')}`,
    `  ${ratio('events', s.events)} · ${ratio('actions', s.actions)} · ${ratio('surfaces', s.surfaces)} · ${ratio('values', s.values)}`,
    `  rules ${s.rules.checked}/${s.rules.total} checked: ${s.rules.passed} passed, ${s.rules.fired} fired, ${s.rules.neverApplicable} never applicable`,
  ];
  if (c.unknownTypes.messages > 0) {
    lines.push(
      `  ${plural(c.unknownTypes.messages, 'message')} of types the protocol does not have: ${c.unknownTypes.names.join(', ')}`,
    );
  }
  const max = opts.maxGaps ?? Number.POSITIVE_INFINITY;
  if (c.gaps.length === 0) {
    lines.push('No gaps: every type, surface, value and rule was exercised.');
  } else {
    lines.push(`Gaps (${c.gaps.length}):`, ...c.gaps.slice(0, max).map((g) => `  ${g}`));
    if (c.gaps.length > max) {
      lines.push(`  … and ${c.gaps.length - max} more${opts.report ? ` (${opts.report})` : ''}`);
    }
  }
  if (opts.details) {
    lines.push('', ...typeLines(c), '', ...testLines(c));
  }
  return lines.join('\n');
}

/** One line per type: messages, invalid, then records (post/delivery) per surface. */
function typeLines(c: Coverage): string[] {
  const width = Math.max(...[...EVENTS, ...ACTIONS].map((s) => s.type.length));
  const line = (spec: MessageSpec) => {
    const t: TypeCoverage = c.types[spec.type];
    if (!t.seen) {
      return `  ${spec.type.padEnd(width)}  never sent`;
    }
    const cells = [...surfacesOf(spec), ...(t.surfaces.unknown ? ['unknown'] : [])].map((sf) => {
      const k = t.surfaces[sf];
      return `${sf} ${k.post}/${k.delivery}`;
    });
    return `  ${spec.type.padEnd(width)}  ${plural(t.messages, 'message')}${t.invalid ? `, ${t.invalid} invalid` : ''}; post/delivery: ${cells.join(', ')}`;
  };
  return ['Types:', ...EVENTS.map(line), ...ACTIONS.map(line)];
}

/** One line per test (or capture file): its messages, the types it saw, the rules that fired in it. */
function testLines(c: Coverage): string[] {
  return [
    'Tests:',
    ...c.tests.map((t) => {
      if (!t.hasData) {
        return `  ${t.title}: no embed data${t.error ? ` (${t.error})` : ''}`;
      }
      const fired = t.fired.length ? `; fired ${t.fired.join(', ')}` : '';
      return `  ${t.title}: ${plural(t.messages, 'message')}, ${plural(t.types.length, 'type')}${fired}`;
    }),
  ];
}
