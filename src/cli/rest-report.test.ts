// REST calls in a check's result: their own figures and list, their findings counted with the others, checks named
// `<rule> · <operation>`; the same figures in text, JSON and JUnit; a HAR of another tool judged on them alone.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkCapture, readCapture } from '../protocol/capture.ts';
import type { CaptureFile, RestCall } from '../protocol/record.ts';
import { renderJson, renderJunit, renderText, type FileResult } from './report.ts';
import { evaluate, type EvaluateOptions } from '../protocol/verdict.ts';

beforeAll(() => {
  process.env.NO_COLOR = '1';
});

const BASE = 'https://acme.example.com/api/v1/deployments/7';
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const clean = readCapture(
  JSON.parse(readFileSync(new URL('../../test/fixtures/captures/clean-session.json', import.meta.url), 'utf8')),
);
const auth = { Authorization: 'Bearer [redacted]', 'Content-Type': 'application/json' };
const call = (over: Partial<RestCall>): RestCall => ({
  time: T0,
  method: 'GET',
  url: `${BASE}/workbooks/9`,
  status: 200,
  requestHeaders: auth,
  requestBody: null,
  responseBody: JSON.stringify({ id: 9, type: 'WORKBOOK' }),
  ...over,
});
const good = call({});
const badBody = call({
  time: T0 + 10,
  method: 'PUT',
  url: `${BASE}/notifications/4`,
  status: 400,
  requestBody: '{"hour":"8"}',
  responseBody: '{"error":{}}',
});
const legacy = call({
  time: T0 + 20,
  method: 'DELETE',
  url: `${BASE}/reports/5/connect-workbook`,
  requestBody: '{"sheetId":"7"}',
  responseBody: null,
});
const other = call({ url: 'https://acme.example.com/static/app.js' });

const fileOf = (name: string, capture: CaptureFile, opts: EvaluateOptions = {}): FileResult => {
  const result = checkCapture(capture);
  return {
    file: name,
    records: capture.messages,
    result,
    evaluation: evaluate(capture.messages, result, { where: name, ...opts }),
  };
};
const withRest = (rest: RestCall[]): CaptureFile => ({ ...clean, rest });
const restOnly = (rest: RestCall[]): CaptureFile => ({ ...clean, messages: [], tenantOrigin: null, rest });

describe('REST calls in the verdict', () => {
  it('count apart from the messages; their findings count with the others and fail at --fail-on', () => {
    const plain = fileOf('clean.json', clean).evaluation!;
    const f = fileOf('rest.json', withRest([good, badBody, legacy, other])).evaluation!;
    expect(f.figures).toMatchObject({
      messages: plain.figures.messages,
      records: plain.figures.records,
      restCalls: 3,
      restValid: 2,
      restInvalid: 1,
      errors: plain.figures.errors + 1,
      warnings: plain.figures.warnings + 1,
    });
    expect(plain.figures).toMatchObject({ restCalls: 0, restValid: 0, restInvalid: 0 });
    expect(f.restSkipped).toBe(1);
    expect(f.rules['rest.request-shape']).toBe(1);
    expect(f.rest.map((c) => [c.index, c.operation, c.verdict])).toEqual([
      [0, 'getWorkbook', 'valid'],
      [1, 'updateNotification', 'invalid'],
      [2, 'disconnectReportFromWorkbook', 'valid'],
    ]);
    const names = f.checks.filter((c) => c.classname.startsWith('embed-inspector.rest')).map((c) => [c.name, c.passed]);
    expect(names).toEqual([
      ['rest.disconnect-address · disconnectReportFromWorkbook', true],
      ['rest.request-shape · updateNotification', false],
      ['rest.status-undocumented · updateNotification', true],
      ['disconnectReportFromWorkbook (DELETE)', true],
      ['getWorkbook (GET)', true],
      ['updateNotification (PUT)', true],
    ]);
    expect(f.exitCode).toBe(1);
    expect(f.reasons.at(-1)).toMatch(
      /^1 error \(--fail-on error\) in 1 check: rest\.request-shape · updateNotification$/,
    );
    // warnings fail at --fail-on warning
    const w = fileOf('w.json', withRest([good, legacy]), { failOn: 'warning' }).evaluation!;
    expect(w.checks.find((c) => c.name === 'rest.disconnect-address · disconnectReportFromWorkbook')?.passed).toBe(
      false,
    );
    expect(fileOf('ok.json', withRest([good, legacy])).evaluation!.exitCode).toBe(plain.exitCode);
  });

  it('a file with REST calls and no record (a HAR of another tool) is judged on them alone', () => {
    const ok = fileOf('other.har', restOnly([good])).evaluation!;
    expect(ok.restOnly).toBe(true);
    expect(ok.empty).toBe(true);
    expect(ok.exitCode).toBe(0);
    expect(ok.checks.map((c) => c.name)).toEqual(['getWorkbook (GET)']);
    expect(ok.integration.text).toMatch(/no window messages in this file.*REST calls checked: 1/);
    const text = renderText([fileOf('other.har', restOnly([good]))]);
    expect(text).not.toContain('tenant origin'); // nothing of the messages' is said
    expect(text).toContain('integration: no window messages in this file');
    expect(fileOf('bad.har', restOnly([good, badBody])).evaluation!.exitCode).toBe(1);
    // with no call of the four operations it is empty, as before
    expect(fileOf('none.har', restOnly([other])).evaluation!.reasons).toEqual(['no embed traffic seen in none.har']);
  });
});

describe('REST calls in the three formats', () => {
  const files = () => [fileOf('rest.json', withRest([good, badBody, legacy, other]))];

  it('the same figures in text, JSON and JUnit', () => {
    const text = renderText(files());
    const m = text.match(
      /(\d+) messages?: .* · (\d+) records? · (\d+) REST calls?: (\d+) valid, (\d+) invalid · findings: (\d+) errors?, (\d+) warnings?, (\d+) infos? · checks: (\d+) passed, (\d+) failed/,
    );
    expect(m, text).not.toBeNull();
    const [, , , restCalls, restValid, restInvalid, errors, warnings, infos, passed, failed] = m!.map(Number);
    const s = JSON.parse(renderJson(files())).summary;
    expect(s).toMatchObject({ restCalls, restValid, restInvalid, errors, warnings, infos, checksFailed: failed });
    expect(s.checks).toBe(passed + failed);
    expect(s.perFile[0]).toMatchObject({ restCalls, restValid, restInvalid, restSkipped: 1 });
    const junit = renderJunit(files());
    for (const [k, v] of Object.entries({ restCalls, restValid, restInvalid, errors, warnings, infos })) {
      expect(junit).toContain(`<property name="${k}" value="${v}"/>`);
    }
    expect(junit).toContain(`tests="${passed + failed}" failures="${failed}"`);
  });

  it('text lists the calls with findings (all with --all); JSON lists every call; JUnit names the call in a failure', () => {
    const text = renderText(files());
    expect(text).toContain(
      '3 REST calls of the platform API checked; 1 other request not checked (not one of the four operations)',
    );
    expect(text).toMatch(/rest\[1\]\s+✗ invalid\s+PUT .*\/notifications\/4 → 400\s+updateNotification/);
    expect(text).toMatch(/error\s+rest\.request-shape\s+request\.body\.hour/);
    expect(text).not.toContain('rest[0]');
    expect(renderText(files(), { all: true })).toMatch(/rest\[0\]\s+✓ valid\s+GET .*\/workbooks\/9 → 200/);
    const json = JSON.parse(renderJson(files()));
    expect(json.rest.map((r: { index: number; verdict: string }) => [r.index, r.verdict])).toEqual([
      [0, 'valid'],
      [1, 'invalid'],
      [2, 'valid'],
    ]);
    expect(json.rest[1]).toMatchObject({
      file: 'rest.json',
      operation: 'updateNotification',
      method: 'PUT',
      status: 400,
      params: { deploymentId: '7', id: '4' },
    });
    const junit = renderJunit(files());
    expect(junit).toMatch(
      /<testcase classname="embed-inspector.rest" name="rest.request-shape · updateNotification" file="rest.json"><failure [^>]*>[^<]*rest\[1\] PUT https:\/\/acme.example.com\/api\/v1\/deployments\/7\/notifications\/4 → 400 at 2026-11-23T10:00:00.010Z: error request.body.hour/,
    );
  });
});
