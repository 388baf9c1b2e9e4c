/**
 * A flow (flow.ts) as one self-contained SVG document for a bug report: presentation attributes only (no
 * stylesheet, no external font or image), dark text on a white background, every row of the model drawn. Lanes
 * are columns under a header (role, surface, origin), time runs down one row per item with the relative time at
 * the left; an arrow's colour is its verdict, a dropped post ends in a cross before its target lane, a post that
 * threw is a stub on its lane with a mark, milestones are bold. Each arrow's issues are its `<title>` (a tooltip).
 * Pure; every text is escaped for XML, characters XML cannot hold are replaced.
 */
import { shownUrl } from './address.ts';
import { formatGap, formatOffset, type FlowArrow, type FlowModel, type FlowTone } from './flow.ts';

export interface SvgOptions {
  /** A title above the lanes (e.g. the capture's file name). */
  title?: string;
}

const SVG_LAYOUT = { ruler: 92, lane: 210, header: 58, row: 26, pad: 16, legend: 34 } as const;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const TEXT = '#1f2328';
const MUTED = '#59636e';
const TONE_COLOURS: Record<FlowTone, string> = {
  valid: '#1a7f37',
  warning: '#9a6700',
  invalid: '#cf222e',
  foreign: '#6e7781',
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Text for XML: markup characters as entities; control characters and lone surrogates (not XML) replaced. */
function xmlText(s: string): string {
  return s
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/** At most `max` characters (code points), an ellipsis when cut. */
function cut(s: string, max: number): string {
  const chars = Array.from(s.replace(/[\r\n\t]+/g, ' '));
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

const num = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
const text = (x: number, y: number, s: string, attrs = '') =>
  `<text x="${num(x)}" y="${num(y)}"${attrs}>${xmlText(s)}</text>`;

/** The SVG document of a flow. */
export function flowToSvg(model: FlowModel, opts: SvgOptions = {}): string {
  const L = SVG_LAYOUT;
  const top = opts.title ? 28 : 0;
  const lanes = Math.max(1, model.lanes.length);
  const width = Math.max(L.ruler + lanes * L.lane + L.pad, 780); // (the legend's width at least)
  const bodyTop = top + L.header;
  const height = bodyTop + model.items.length * L.row + L.pad + L.legend;
  const cx = (lane: number) => L.ruler + lane * L.lane + L.lane / 2;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" font-size="12" fill="${TEXT}">`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  if (opts.title) {
    out.push(text(L.pad, 20, cut(opts.title, 120), ' font-size="14" font-weight="600"'));
  }
  // ---- lane headers and lifelines
  for (const l of model.lanes) {
    const x = L.ruler + l.index * L.lane + 6;
    out.push(
      `<rect x="${x}" y="${top + 6}" width="${L.lane - 12}" height="${L.header - 14}" rx="6" fill="#f6f8fa" stroke="#d1d9e0"/>`,
      text(cx(l.index), top + 24, cut(l.title, 30), ' text-anchor="middle" font-weight="600"'),
      text(
        cx(l.index),
        top + 40,
        cut(l.origin ?? (l.role === 'others' ? 'collapsed' : 'origin unknown'), 34),
        ` text-anchor="middle" font-size="11" fill="${MUTED}"`,
      ),
      `<line x1="${cx(l.index)}" y1="${bodyTop}" x2="${cx(l.index)}" y2="${bodyTop + model.items.length * L.row}" stroke="#d1d9e0" stroke-dasharray="4 3"/>`,
    );
  }
  // ---- rows
  model.items.forEach((item, row) => {
    const y = bodyTop + row * L.row;
    const mid = y + L.row / 2 + 4;
    if (item.kind === 'gap') {
      out.push(
        `<rect x="${L.pad}" y="${y + 4}" width="${width - 2 * L.pad}" height="${L.row - 8}" fill="#f6f8fa" stroke="#d1d9e0" stroke-dasharray="2 3"/>`,
        text(
          width / 2,
          y + L.row / 2 + 4,
          `⋯ ${formatGap(item.ms)} later ⋯`,
          ` text-anchor="middle" font-style="italic" fill="${MUTED}"`,
        ),
      );
      return;
    }
    out.push(text(L.pad, mid, formatOffset(item.time - model.start), ` font-size="11" fill="${MUTED}"`));
    if (item.kind === 'navigation') {
      const x = cx(item.lane);
      const colour = item.issues.some((i) => i.severity === 'error')
        ? TONE_COLOURS.invalid
        : item.issues.length
          ? TONE_COLOURS.warning
          : MUTED;
      const tip = item.issues.map((i) => `${i.severity} ${i.rule}: ${i.message}`).join('\n');
      out.push(
        `<g>${tip ? `<title>${xmlText(tip)}</title>` : ''}<path d="M${x} ${mid - 9} l5 5 l-5 5 l-5 -5 z" fill="${colour}"/>`,
        text(x + 9, mid, `loaded ${cut(pathOf(item.url), 26)}`, ` font-size="11" fill="${colour}"`),
        '</g>',
      );
      return;
    }
    out.push(arrowSvg(item, cx, mid));
  });
  // ---- legend
  const ly = height - L.legend + 14;
  let lx = L.pad;
  for (const [tone, word] of [
    ['valid', 'valid'],
    ['warning', 'warning'],
    ['invalid', 'invalid'],
    ['foreign', 'foreign'],
  ] as const) {
    out.push(
      `<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="${TONE_COLOURS[tone]}" stroke-width="2"/>`,
      text(lx + 22, ly, word, ` font-size="11" fill="${MUTED}"`),
    );
    lx += 80;
  }
  out.push(
    text(
      lx,
      ly,
      '× dropped by the browser   ! postMessage threw   bold: ready, dashboard-loaded, error',
      ` font-size="11" fill="${MUTED}"`,
    ),
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}

/** The path of a URL (its secrets left out), for a navigation's label. */
function pathOf(url: string): string {
  const shown = shownUrl(url);
  try {
    const u = new URL(shown);
    return decodeURI(u.pathname + u.search);
  } catch {
    return shown;
  }
}

function arrowSvg(a: FlowArrow, cx: (lane: number) => number, y: number): string {
  const colour = TONE_COLOURS[a.tone];
  const weight = a.milestone ? ' font-weight="700"' : '';
  const stroke = a.milestone ? 2.5 : 1.5;
  const dash = a.tone === 'foreign' ? ' stroke-dasharray="5 3"' : '';
  const tip = [
    `#${a.seq} ${a.type ?? a.label} · ${a.state}${a.targetOrigin ? ` · target origin ${a.targetOrigin}` : ''}`,
    ...(a.error ? [`threw ${a.error}`] : []),
    ...a.issues.map((i) => `${i.severity} ${i.rule}: ${i.message}`),
  ].join('\n');
  const parts: string[] = [`<g><title>${xmlText(tip)}</title>`];
  const x1 = cx(a.from);
  const line = (from: number, to: number) =>
    `<line x1="${num(from)}" y1="${y}" x2="${num(to)}" y2="${y}" stroke="${colour}" stroke-width="${stroke}"${dash}/>`;
  const head = (x: number, dir: number) => `<path d="M${num(x)} ${y} l${-8 * dir} -4 l0 8 z" fill="${colour}"/>`;
  const label = (x: number, s: string, anchor = 'middle') =>
    text(x, y - 5, cut(s, 34), ` text-anchor="${anchor}" fill="${colour}"${weight}`);
  if (a.state === 'threw') {
    const dir = a.to !== null && a.to < a.from ? -1 : 1;
    parts.push(
      line(x1, x1 + 26 * dir),
      `<circle cx="${num(x1 + 34 * dir)}" cy="${y - 3}" r="7" fill="${TONE_COLOURS.invalid}"/>`,
      text(x1 + 34 * dir, y + 1, '!', ' text-anchor="middle" font-weight="700" fill="#ffffff"'),
      label(x1 + 46 * dir, `${a.label} (threw)`, dir > 0 ? 'start' : 'end'),
    );
  } else if (a.to === null) {
    parts.push(
      line(x1, x1 + 60),
      head(x1 + 60, 1),
      text(x1 + 66, y + 4, '?', ` font-weight="700" fill="${colour}"`),
      label(x1 + 30, a.label),
    );
  } else if (a.to === a.from) {
    parts.push(
      `<path d="M${x1} ${y - 6} h28 v8 h-20" fill="none" stroke="${colour}" stroke-width="${stroke}"${dash}/>`,
      `<path d="M${x1} ${y + 2} l8 -4 l0 8 z" fill="${colour}"/>`,
      label(x1 + 34, a.label, 'start'),
    );
  } else {
    const x2 = cx(a.to);
    const dir = x2 > x1 ? 1 : -1;
    if (a.state === 'dropped') {
      const end = x2 - 16 * dir;
      parts.push(
        line(x1, end),
        `<path d="M${num(end - 5)} ${y - 5} l10 10 M${num(end - 5)} ${y + 5} l10 -10" stroke="${colour}" stroke-width="2.5"/>`,
        label((x1 + end) / 2, `${a.label} (dropped)`),
      );
    } else {
      parts.push(line(x1, x2 - 2 * dir), head(x2, dir), label((x1 + x2) / 2, a.label));
    }
  }
  if (a.milestone) {
    parts.push(`<circle cx="${x1}" cy="${y}" r="3.5" fill="${colour}"/>`);
  }
  parts.push('</g>');
  return parts.join('');
}
