// @ts-check
// Today's figures, written by the bench itself: each suite's last run is kept in bench/results.json, and the block
// of BENCHMARKS.md between the markers below is rewritten from it (one table per suite, under the build, date, run
// count and command: the measure, its goal, today's figure with its interval, whether the goal is met).
// `npm run bench -- --summary` rewrites the block from bench/results.json alone; every run of a suite records its
// rows first (run.mjs).
//
// A suite's rows (`row()`): a measure, a goal (`goal()`: below or at most a value, at least a ratio, at most an added
// cost per message...), the figure and its interval; a compare run (compare.mjs) adds the other build's figure and
// the ratio. A new suite is an entry of run.mjs's table with a function from its result to rows.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
export const RESULTS = join(ROOT, 'bench/results.json');
export const DOC = join(ROOT, 'BENCHMARKS.md');
export const START = '<!-- bench-summary:start -->';
export const END = '<!-- bench-summary:end -->';

/**
 * A goal: `op` against `value` in `unit` — `goal('<', 150, 'ms')`, `goal('≤', 1.15, '×')` (a ratio to a baseline),
 * `goal('≤', 5, 'µs/msg', { added: true })` (an added cost per message, e.g. CPU from /proc), `goal('≥', 3, '×')`.
 * `of`: what the goal is judged on when not the row's figure itself (e.g. "the interval's upper end").
 */
/**
 * @typedef {{ op: string, value: number, unit: string, added: boolean, issue?: number }} Goal
 * @param {string} op
 * @param {number} value
 * @param {string} unit
 * @param {{ added?: boolean, issue?: number }} [o]
 * @returns {Goal}
 */
export function goal(op, value, unit, { added = false, issue } = {}) {
  if (!['<', '≤', '≥', '>'].includes(op)) {
    throw new Error(`goal: unknown comparison ${op}`);
  }
  return { op, value, unit, added, issue };
}

export function goalText(g) {
  if (!g) {
    return '';
  }
  const v = `${g.added ? '+' : ''}${g.value}`;
  return `${g.op} ${g.unit === '×' ? `${v}×` : `${v} ${g.unit}`}${g.issue ? ` (#${g.issue})` : ''}`;
}

/** Whether `value` meets goal `g` (null without a goal or a figure). */
export function meets(g, value) {
  if (!g || !Number.isFinite(value)) {
    return null;
  }
  switch (g.op) {
    case '<':
      return value < g.value;
    case '≤':
      return value <= g.value;
    case '>':
      return value > g.value;
    default:
      return value >= g.value;
  }
}

/**
 * One row of a suite's table. `value` and `interval` ([lo, hi]) in `unit`; `against`: a compare run's other build,
 * `{ build, value, ratio, interval }` (ratio: this build ÷ that one).
 */
/**
 * @param {string} measure
 * @param {{ goal?: Goal | null, value: number, interval?: number[] | null, unit: string, digits?: number,
 *   against?: { build: string, value: number, ratio: number, interval: number[] } | null }} o
 */
export function row(measure, { goal: g = null, value, interval = null, unit, against = null, digits = 1 }) {
  return { measure, goal: g, value, interval, unit, against, digits, met: meets(g, value) };
}

/** The short commit of HEAD (with "+" when the tree has uncommitted changes to tracked files). */
export function headCommit() {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !==
      '';
    return `${sha}${dirty ? '+' : ''}`;
  } catch {
    return 'unknown';
  }
}

export function readResults(file = RESULTS) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { suites: {} };
}

/** Keep a suite's rows as today's (replacing its previous ones). */
export function recordSuite(
  key,
  { title, rows, runs, command, commit = headCommit(), date = today() },
  file = RESULTS,
) {
  const results = readResults(file);
  results.suites[key] = { title, rows, runs, command, commit, date };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return results;
}

const today = () => new Date().toISOString().slice(0, 10);

const num = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const withUnit = (x, unit, d) => (unit === '×' ? `${num(x, 2)}×` : `${num(x, d)} ${unit}`);

/** The markdown of the block: one table per suite, in `order` (then any other recorded suite). */
export function renderSummary(results, order = []) {
  const keys = [
    ...order.filter((k) => results.suites[k]),
    ...Object.keys(results.suites).filter((k) => !order.includes(k)),
  ];
  const out = [
    START,
    '## Today’s figures',
    '',
    'Written by the bench from `bench/results.json` (do not edit by hand). Above each table: build, date, runs,',
    'command. Figure: the runs’ median; in brackets the interval holding 90% of the medians of resampled runs. After',
    '`--compare REF`: REF’s figure and this build ÷ REF, paired run by run (below 1: this build is faster).',
  ];
  for (const key of keys) {
    const s = results.suites[key];
    const compared = s.rows.find((r) => r.against);
    out.push('', `### ${s.title}`, '');
    out.push(`${s.commit}, ${s.date}, ${s.runs}${/\D/.test(String(s.runs)) ? '' : ' runs'}: \`${s.command}\``, '');
    out.push(
      `| measure | goal | today | met |${compared ? ` ${compared.against.build} | ratio |` : ''}`,
      `|---|---|---|---|${compared ? '---|---|' : ''}`,
    );
    for (const r of s.rows) {
      const d = r.digits ?? 1;
      const iv = r.interval
        ? ` (${num(r.interval[0], r.unit === '×' ? 2 : d)}–${num(r.interval[1], r.unit === '×' ? 2 : d)})`
        : '';
      const met = r.met === null || r.met === undefined ? '' : r.met ? 'yes' : '**no**';
      const against = compared
        ? r.against
          ? ` ${withUnit(r.against.value, r.unit, d)} | ${num(r.against.ratio, 2)}× (${num(r.against.interval?.[0], 2)}–${num(r.against.interval?.[1], 2)}) |`
          : ' | |'
        : '';
      out.push(`| ${r.measure} | ${goalText(r.goal)} | ${withUnit(r.value, r.unit, d)}${iv} | ${met} |${against}`);
    }
  }
  out.push(END);
  return out.join('\n');
}

/**
 * Rewrite the block of BENCHMARKS.md between START and END (the rest of the file stays as it is). Where the markers
 * are missing they are added at the top, under the title.
 */
export function writeSummary(results = readResults(), order = [], doc = DOC) {
  const text = readFileSync(doc, 'utf8');
  const block = renderSummary(results, order);
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  let next;
  if (a >= 0 && b > a) {
    next = text.slice(0, a) + block + text.slice(b + END.length);
  } else if (a >= 0 || b >= 0) {
    throw new Error(`${doc}: only one of the markers ${START} and ${END} is there`);
  } else {
    const lines = text.split('\n');
    const at = lines[0]?.startsWith('# ') ? 1 : 0;
    next = [...lines.slice(0, at), '', block, ...lines.slice(at)].join('\n');
  }
  if (next !== text) {
    writeFileSync(doc, next);
  }
  return block;
}
