// The panel and `embed-inspector check` say the same of the same records: a capture file opened in the panel shows
// the counts by verdict that `check` prints (figures), and its integration line is good exactly when `check` passes
// (with its defaults: --fail-on error, no --expect), in the same state. The panel reads the file as the file
// transport does (the classification `check` runs); `check` is run as src/cli/check.ts runs it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/panel/app/create-store.ts';
import { syntheticSession, TENANT } from '../../src/panel/app/synthetic.ts';
import { createFileTransport } from '../../src/panel/link/transports.ts';
import { integrationOf } from '../../src/panel/log/integration.ts';
import { verdictOfState } from '../../src/panel/ui/integration-verdict.ts';
import { checkCapture, readCapture } from '../../src/protocol/capture.ts';
import { CAPTURE_FORMAT, type CaptureFile, type CaptureRecord } from '../../src/protocol/record.ts';
import { evaluate } from '../../src/protocol/verdict.ts';
import { ROOT } from '../helpers/paths.ts';

const plain = (n: number): CaptureRecord[] => syntheticSession(n).map(({ verdict: _v, issues: _i, ...r }) => r);
const fileOf = (messages: CaptureRecord[], tenantOrigin: string | null = TENANT): CaptureFile => ({
  format: CAPTURE_FORMAT,
  version: 1,
  tenantOrigin,
  messages,
  meta: { createdAt: new Date((messages.at(-1)?.time ?? Date.UTC(2026, 0, 1)) + 1000).toISOString() },
});

/** The demo session up to (not including) the embed's ready. */
const beforeReady = (): CaptureRecord[] => {
  const all = plain(400);
  return all.slice(
    0,
    all.findIndex((r) => (r.data as { type?: string } | null)?.type === 'svc:event:ready'),
  );
};

const CASES: Array<[string, () => CaptureFile]> = [
  [
    'the clean session fixture',
    () => readCapture(JSON.parse(readFileSync(join(ROOT, 'test/fixtures/captures/clean-session.json'), 'utf8'))),
  ],
  ['a demo session', () => fileOf(plain(400))],
  ['a demo session judged for another tenant', () => fileOf(plain(400), 'https://other.example')],
  ['a session cut just before ready', () => fileOf(beforeReady())],
  ['no records', () => fileOf([])],
];

describe('the panel shows what check says', () => {
  it.each(CASES)('%s', (_what, make) => {
    const file = make();
    const run = evaluate(file.messages, checkCapture(file), { where: 'x.json' });

    const store = createStore({ schedule: (fn) => fn() });
    store.attach(createFileTransport(file, 'x.json'));
    const { valid, invalid, foreign } = store.log.counts;
    expect({ valid, invalid, foreign }).toEqual({
      valid: run.figures.valid,
      invalid: run.figures.invalid,
      foreign: run.figures.foreign,
    });
    const line = integrationOf(store.log); // judged now, as the line is
    expect(line.state).toBe(run.integration.state);
    expect(verdictOfState(line.state, true)).toBe(run.passed ? 'good' : 'bad');
  });
});
