// What a CI job reads in each output format: the same figures in text, JSON and JUnit; a listing that agrees
// with them; JUnit test case names that do not move when a recording has one more message.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkCapture, checkRecords, readCapture } from '../protocol/capture.ts';
import type { CaptureRecord } from '../protocol/record.ts';
import {
  EMBED_URL,
  HOST,
  T0,
  TENANT,
  actionPair,
  eventPair,
  foreign,
  msg,
  navigation,
  numbered as numberedAny,
  rec,
} from '../../test/fixtures/messages.ts';

import { renderJson, renderJunit, renderText, type FileResult } from './report.ts';
import { evaluate, type EvaluateOptions } from '../protocol/verdict.ts';

beforeAll(() => {
  process.env.NO_COLOR = '1';
});

const EMBED = EMBED_URL;
const numbered = (records: Array<Record<string, unknown>>, base = 1, t0 = T0): CaptureRecord[] =>
  numberedAny(records, base, t0) as CaptureRecord[];
const fixture = readCapture(
  JSON.parse(readFileSync(new URL('../../test/fixtures/captures/clean-session.json', import.meta.url), 'utf8')),
);

// Captures a CI job meets: [name, records, options]
const CAPTURES: Array<[string, CaptureRecord[], EvaluateOptions]> = [
  ['clean-session.json (the checked-in example)', fixture.messages, {}],
  [
    'a session with posts and their deliveries',
    numbered([
      navigation(EMBED),
      ...eventPair('svc:event:ready'),
      ...eventPair('svc:event:view'),
      ...actionPair('svc:action:set-color-scheme'),
      foreign,
    ]),
    {},
  ],
  [
    'invalid posts whose deliveries carry their issues',
    numbered([
      navigation(EMBED),
      ...eventPair('svc:event:ready'),
      ...actionPair('svc:action:set-timezone', { timezone: 'UTC+2' }, '*'),
      ...actionPair('svc:action:set-locale', { locale: 'xx_not a locale' }, '*'),
      ...eventPair('svc:event:view', { surface: 'dashboard', path: 5 }),
      foreign,
      foreign,
    ]),
    {},
  ],
  [
    'an expired session',
    numbered([navigation(EMBED), ...eventPair('svc:event:error', { message: 'session expired', fatal: true })]),
    {},
  ],
  [
    'warnings, failing on warnings',
    numbered([
      rec(msg('svc:event:ready')),
      rec(msg('svc:event:download', { format: 'png', target: 'dashboard', rowCount: 3 })),
      rec(msg('svc:event:view')),
    ]),
    { failOn: 'warning', expect: ['svc:event:download'] },
  ],
  ['a page with no embed', numbered([foreign, navigation(`${HOST}/app`)]), {}],
  ['a page with no embed, allowed', numbered([foreign]), { allowEmpty: true }],
];

const fileOf = (file: string, records: CaptureRecord[], opts: EvaluateOptions = {}): FileResult => {
  const result = checkRecords(records);
  return { file, records, result, evaluation: evaluate(records, result, { where: file, ...opts }) };
};

/** The figures each format prints, read back as a CI job would. */
function fromText(text: string) {
  const m = text.match(
    /(\d+) messages?: (\d+) valid, (\d+) invalid, (\d+) foreign · (\d+) records? · findings: (\d+) errors?, (\d+) warnings?, (\d+) infos? · checks: (\d+) passed, (\d+) failed/,
  );
  expect(m, text).not.toBeNull();
  const [messages, valid, invalid, foreignN, records, errors, warnings, infos, passed, failed] = m!
    .slice(1)
    .map(Number);
  return {
    messages,
    records,
    valid,
    invalid,
    foreign: foreignN,
    errors,
    warnings,
    infos,
    checks: passed + failed,
    failed,
  };
}
function fromJson(text: string) {
  const s = JSON.parse(text).summary;
  const f = s.perFile[0];
  for (const k of ['messages', 'records', 'valid', 'invalid', 'foreign', 'errors', 'warnings', 'infos', 'checks']) {
    expect(f[k], k).toBe(s[k]);
  }
  const { messages, records, valid, invalid, foreign: fo, errors, warnings, infos, checks, checksFailed } = s;
  return { messages, records, valid, invalid, foreign: fo, errors, warnings, infos, checks, failed: checksFailed };
}
function fromJunit(text: string) {
  const doc = parseXml(text);
  const suite = doc.children[0];
  const prop = (name: string) =>
    Number(
      suite.children.find((c) => c.name === 'properties')!.children.find((p) => p.attrs.name === name)!.attrs.value,
    );
  const cases = suite.children.filter((c) => c.name === 'testcase');
  expect(Number(suite.attrs.tests)).toBe(cases.length);
  expect(Number(suite.attrs.failures)).toBe(cases.filter((c) => c.children.some((x) => x.name === 'failure')).length);
  return {
    messages: prop('messages'),
    records: prop('records'),
    valid: prop('valid'),
    invalid: prop('invalid'),
    foreign: prop('foreign'),
    errors: prop('errors'),
    warnings: prop('warnings'),
    infos: prop('infos'),
    checks: Number(suite.attrs.tests),
    failed: Number(suite.attrs.failures),
  };
}

interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}
const ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
const unescapeText = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|apos);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);
/** A strict little XML reader: one root, balanced tags, quoted attributes, no stray `<` or `&`. Throws otherwise. */
function parseXml(text: string): XmlNode {
  const body = text.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  expect(body).not.toBe(text);
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (let m = token.exec(body); m; m = token.exec(body)) {
    const [, close, name, attrText, selfClose, chars, stray] = m;
    if (stray) {
      throw new Error(`stray < at ${m.index}`);
    }
    const top = stack[stack.length - 1];
    if (chars !== undefined) {
      if (ENTITY.test(chars)) {
        throw new Error(`raw & in text at ${m.index}`);
      }
      if (stack.length === 1 && chars.trim()) {
        throw new Error('text outside the root');
      }
      top.text += unescapeText(chars);
      continue;
    }
    if (close) {
      if (top.name !== name) {
        throw new Error(`</${name}> closes <${top.name}>`);
      }
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(/([\w:.-]+)="([^"]*)"/g)) {
      if (a[1] in attrs || ENTITY.test(a[2])) {
        throw new Error(`bad attribute ${a[1]} of <${name}>`);
      }
      attrs[a[1]] = unescapeText(a[2]);
    }
    const node: XmlNode = { name, attrs, children: [], text: '' };
    top.children.push(node);
    if (!selfClose) {
      stack.push(node);
    }
  }
  if (stack.length !== 1 || root.children.length !== 1) {
    throw new Error('unbalanced document');
  }
  return root.children[0];
}

describe('one counting in text, JSON and JUnit', () => {
  it.each(CAPTURES)('%s: the three formats give the same figures', (name, records, opts) => {
    const files = [fileOf(`${name}.json`, records, opts)];
    const text = fromText(renderText(files));
    expect(fromJson(renderJson(files))).toEqual(text);
    expect(fromJunit(renderJunit(files))).toEqual(text);
    // What the capture itself implies: records are its posts and deliveries; a delivery of a post in the
    // capture is not a message of its own; every message has one verdict.
    const seqs = new Set(records.filter((r) => !r.navigation).map((r) => r.seq));
    const deliveries = records.filter(
      (r) => !r.navigation && r.kind === 'receive' && r.pairedWith !== undefined && seqs.has(r.pairedWith),
    );
    expect(text.records).toBe(seqs.size);
    expect(text.messages).toBe(seqs.size - deliveries.length);
    expect(text.valid + text.invalid + text.foreign).toBe(text.messages);
    expect(text.checks).toBeGreaterThan(0);
  });

  it.each(CAPTURES)('%s: the text lists as many invalid entries as it counts, each message once', (name, records) => {
    const files = [fileOf(`${name}.json`, records)];
    const out = renderText(files, { all: true });
    const counted = fromText(out);
    const entries = out.split('\n').filter((l) => /^ {2}#\d+ /.test(l));
    expect(entries).toHaveLength(counted.messages);
    expect(entries.filter((l) => l.includes('✗ invalid'))).toHaveLength(counted.invalid);
    const listed = renderText(files)
      .split('\n')
      .filter((l) => l.includes('✗ invalid'));
    expect(listed).toHaveLength(counted.invalid);
  });

  it('shows a delivery that only carries its post’s issues under the post, not as another failing entry', () => {
    const records = numbered([rec(msg('svc:event:ready')), ...actionPair('svc:action:refresh', {}, '*')]);
    const out = renderText([fileOf('wildcard.json', records)]);
    expect(out).toMatch(/#2 +✗ invalid +svc:action:refresh/);
    expect(out).not.toMatch(/#3 +✗/);
    expect(out).toContain('↳ delivery of #2: #3');
    expect(fromText(out)).toMatchObject({ messages: 2, records: 3, invalid: 1, errors: 1 });
  });

  it('adds the files up in JSON and JUnit, and prints a line per file count in text', () => {
    const files = CAPTURES.map(([name, records, opts]) => fileOf(`${name}.json`, records, opts));
    const json = JSON.parse(renderJson(files)).summary;
    const junit = parseXml(renderJunit(files));
    const sum = (k: string) => json.perFile.reduce((n: number, f: Record<string, number>) => n + f[k], 0);
    for (const k of ['messages', 'records', 'errors', 'warnings', 'infos', 'checks', 'checksFailed']) {
      expect(json[k], k).toBe(sum(k));
    }
    expect(Number(junit.attrs.tests)).toBe(json.checks);
    expect(Number(junit.attrs.failures)).toBe(json.checksFailed);
    expect(junit.children).toHaveLength(files.length);
    const failedFiles = files.filter((f) => !f.evaluation?.passed).length;
    expect(json.exitCode).toBe(failedFiles ? 1 : 0);
    expect(renderText(files)).toContain(
      `${files.length} files: ${files.length - failedFiles} passed, ${failedFiles} failed`,
    );
  });
});

describe("the embed's address: the count is the list's", () => {
  it('an address with every part wrong and no session: "N" is the number of findings listed under the frame', () => {
    const url = `${new URL(EMBED).origin}/embed/dashboards/dash01?allowExport=yes&timezone=%2B02%3A00&f_orders.region=notjson`;
    const records = numbered([
      navigation(url),
      ...eventPair('svc:event:ready'),
      ...eventPair('svc:event:dashboard-loaded'),
    ]);
    const out = renderText([fileOf('address.json', records)]);
    const n = Number(out.match(/the embed URL has (\d+)/)?.[1]);
    const under = out.split('\n').filter((l) => /^ {11}\S+ +url\./.test(l));
    expect(under.map((l) => l.trim().split(/\s+/)[1])).toEqual([
      'url.path',
      'url.session',
      'url.allow-export',
      'url.timezone-offset',
      'url.filter',
    ]);
    expect(n).toBe(under.length);
    expect(out).toContain('the embed URL has 5 findings: 4 problems, 1 note');
  });
});

describe('why a run failed, in every format', () => {
  it('prints the reasons before the counts in text, in JSON and in the JUnit suite', () => {
    const file = fileOf('empty.json', numbered([foreign]));
    const lines = renderText([file]).split('\n');
    const reason = lines.findIndex((l) => l.includes('✗ no embed traffic seen in empty.json'));
    const counts = lines.findIndex((l) => /\d+ messages?: /.test(l));
    expect(reason).toBeGreaterThan(-1);
    expect(reason).toBeLessThan(counts);
    expect(JSON.parse(renderJson([file])).summary).toMatchObject({
      exitCode: 1,
      reasons: ['no embed traffic seen in empty.json'],
    });
    const suite = parseXml(renderJunit([file])).children[0];
    expect(suite.children.find((c) => c.name === 'system-out')?.text).toBe('no embed traffic seen in empty.json');
    const traffic = suite.children.find((c) => c.attrs.name === 'embed traffic seen');
    expect(traffic?.attrs.classname).toBe('embed-inspector.expectations');
    expect(traffic?.children[0]?.name).toBe('failure');
  });

  it('JSON has checks, expectations and each record with its type, kind, direction, time, frame and origins', () => {
    const records = CAPTURES[1][1];
    const j = JSON.parse(renderJson([fileOf('session.json', records, { expect: ['svc:event:view'] })]));
    expect(j.expectations).toEqual([
      { file: 'session.json', type: 'svc:event:ready', implicit: true, met: true, seq: 2 },
      { file: 'session.json', type: 'svc:event:view', implicit: false, met: true, seq: 4 },
    ]);
    expect(j.checks.length).toBe(j.summary.checks);
    const post = records.find((r) => r.kind === 'post' && !r.navigation)!;
    expect(j.messages.find((m: { seq: number }) => m.seq === post.seq)).toEqual({
      file: 'session.json',
      seq: post.seq,
      verdict: 'valid',
      issues: [],
      type: (post.data as { type: string }).type,
      kind: 'post',
      direction: 'event',
      time: post.time,
      frameUrl: post.frameUrl,
      origin: post.origin,
      targetOrigin: post.targetOrigin,
      surface: 'dashboard',
      pairedWith: post.pairedWith,
    });
    expect(j.messages).toHaveLength(j.summary.records);
  });

  it('a failing check lists its records in JUnit the way text names them', () => {
    const records = numbered([rec(msg('svc:event:ready')), ...actionPair('svc:action:refresh', {}, '*')]);
    const suite = parseXml(renderJunit([fileOf('wildcard.json', records)])).children[0];
    const c = suite.children.find((x) => x.attrs.name === 'origin.action-wildcard · svc:action:refresh (post)');
    expect(c?.attrs.classname).toBe('embed-inspector.origin');
    const failure = c?.children.find((x) => x.name === 'failure');
    expect(failure?.text).toContain(`#2 post in ${HOST}/app at ${new Date(records[1].time).toISOString()}`);
    expect(failure?.text).toContain('targetOrigin');
  });
});

describe('JUnit test cases stay put across recordings', () => {
  // Two recordings of one session: other seqs and times, and one more `view` in the second.
  const session = (extraView: boolean, base: number, t: number) => {
    const list = [
      navigation(EMBED),
      ...eventPair('svc:event:ready'),
      ...eventPair('svc:event:view'),
      ...(extraView ? eventPair('svc:event:view', { surface: 'dashboard', path: '/embed/dashboard/dash02' }) : []),
      ...actionPair('svc:action:set-color-scheme', undefined, '*'),
      ...eventPair('svc:event:dashboard-loaded'),
      foreign,
    ];
    return numbered(list, base, t);
  };
  const names = (records: CaptureRecord[]) =>
    parseXml(renderJunit([fileOf('run.json', records)]))
      .children[0].children.filter((c) => c.name === 'testcase')
      .map((c) => `${c.attrs.classname} / ${c.attrs.name}`);

  it('gives the same names in the same order', () => {
    const first = names(session(false, 1, T0));
    const second = names(session(true, 500, T0 + 86_400_000));
    expect(first.length).toBeGreaterThan(5);
    expect(second).toEqual(first);
    expect(first.some((n) => /#\d/.test(n))).toBe(false);
  });

  it('a clean run is well-formed XML with test cases and no failure', () => {
    const doc = parseXml(renderJunit([fileOf('clean.json', fixture.messages)]));
    expect(doc.name).toBe('testsuites');
    expect(Number(doc.attrs.tests)).toBeGreaterThan(0);
    expect(doc.attrs.failures).toBe('0');
  });

  it('escapes what a message can carry', () => {
    const nasty = 'a<b>&"c\'\u0001';
    const records = numbered([rec(msg('svc:event:ready')), rec(msg(nasty, {}))]);
    const doc = parseXml(renderJunit([fileOf(`x&<${nasty}>.json`, records)]));
    expect(doc.children[0].attrs.name).toContain('x&<a<b>&"c\'');
    expect(JSON.stringify(doc)).toContain('a<b>&\\"c\'\ufffd');
  });
});

describe("a stranger's file that reads as a capture", () => {
  // (readCapture accepts both: a finite time past the last date a Date holds, records paired with themselves)
  const read = (messages: Array<Record<string, unknown>>) =>
    readCapture({ format: 'embed-inspector-capture', version: 1, tenantOrigin: TENANT, messages }).messages;
  const session = () =>
    numbered([
      ...eventPair('svc:event:ready'),
      ...actionPair('svc:action:set-color-scheme', { scheme: 'dark' }),
      rec({ source: 'svc-embed', direction: 'event' }), // (no type: an error, with a line of its own)
    ]);
  it.each([
    ['times past the last date a Date holds', () => read(session().map((r, i) => ({ ...r, time: 8.64e15 + i })))],
    ['records paired with themselves', () => read(session().map((r) => ({ ...r, pairedWith: r.seq })))],
  ])('%s: reported in every format, not a crash', (_what, records) => {
    const result = checkCapture({ tenantOrigin: TENANT, messages: records() });
    const files = [
      { file: 'x.json', records: records(), result, evaluation: evaluate(records(), result, { where: 'x.json' }) },
    ];
    for (const render of [renderText, renderJson, renderJunit]) {
      expect(render(files)).toContain('x.json');
    }
  });
});
