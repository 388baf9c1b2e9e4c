/**
 * The integration line's judgement of the log: the same as the protocol's over the current page's records
 * (`integrationState` after `diagnose`), though it reads the records' issues only where there are some.
 */
import { describe, expect, it } from 'vitest';
import { newTabState, type ClassifiedRecord } from '../../shared/messages.ts';
import { syntheticSession } from '../app/synthetic.ts';
import { diagnose, integrationState } from './protocol.ts';
import { integrationOf } from './integration.ts';
import { RecordLog } from './record-log.ts';

const NOW = Date.parse('2026-12-01T12:00:00Z');

/** The judgement as the protocol states it: every record of the page, read in full. */
function reference(log: RecordLog) {
  const all = log.all();
  let start = 0;
  all.forEach((r, k) => {
    if (r.navigation && r.frameId === 0) {
      start = k;
    }
  });
  const page = all.slice(start);
  const d = diagnose(page, { tenantOrigin: log.state.tenantOrigin, now: NOW });
  return { ...integrationState(page, d), notes: d.notes.map((n) => n.message) };
}

const logOf = (records: ClassifiedRecord[], tenantOrigin: string | null = null) => {
  const log = new RecordLog({ schedule: () => {} });
  log.load(newTabState(1, { tenantOrigin }), records);
  return log;
};
const session = syntheticSession(2_000);
const topNav = (seq: number, time: number): ClassifiedRecord => ({
  seq,
  time,
  kind: 'receive',
  frameUrl: 'https://host.example.com/next',
  origin: 'https://host.example.com',
  data: { url: 'https://host.example.com/next' },
  navigation: true,
  frameId: 0,
  verdict: 'foreign',
  issues: [],
});

describe('integrationOf', () => {
  it.each<[string, () => RecordLog]>([
    ['a session with errors and warnings', () => logOf(session, 'https://acme.svc-embed.example')],
    ['the same without its tenant origin', () => logOf(session)],
    ['a session without issues', () => logOf(session.map((r) => ({ ...r, issues: [] })))],
    [
      'the second page of a preserved log (the first page is not judged)',
      () => {
        const last = session[session.length - 1];
        const next = session.slice(0, 40).map((r, k) => ({ ...r, seq: last.seq + 2 + k, pairedWith: undefined }));
        return logOf([...session, topNav(last.seq + 1, last.time + 1), ...next]);
      },
    ],
    ['a page that navigated and has no record since', () => logOf([...session, topNav(1e6, 1e15)])],
    ['no records', () => logOf([])],
    [
      'live batches, updates in place and late records (what the log kept made again)',
      () => {
        const log = new RecordLog({ schedule: () => {} });
        log.load(newTabState(1), session.slice(0, 500));
        log.enqueue(session.slice(500, 1200));
        log.flush();
        // An update: a record with an error now (the background judged it again), and one without its issues.
        const hurt = session.findIndex((r, k) => k > 600 && r.issues.length === 0);
        const healed = session.findIndex((r, k) => k > 600 && r.issues.length > 0);
        log.enqueue(
          [
            {
              ...session[hurt],
              issues: [{ rule: 'origin.event-target', severity: 'error', path: 'x', message: 'lost' }],
            },
            { ...session[healed], issues: [] },
          ],
          true,
        );
        log.flush();
        log.reorder(session[1100].seq, session.slice(1100, 1300));
        log.enqueue(session.slice(1300));
        log.flush();
        return log;
      },
    ],
    [
      'a new page among live records',
      () => {
        const log = logOf(session.slice(0, 1000));
        const last = session[999];
        log.enqueue([
          topNav(last.seq + 1, last.time + 1),
          ...session.slice(1000, 1100).map((r, k) => ({ ...r, seq: last.seq + 2 + k })),
        ]);
        log.flush();
        return log;
      },
    ],
  ])('%s: as the protocol judges the page', (_what, make) => {
    const log = make();
    const got = integrationOf(log, NOW);
    const want = reference(log);
    expect({ state: got.state, text: got.text, seq: got.seq, notes: got.notes }).toEqual(want);
  });
});
