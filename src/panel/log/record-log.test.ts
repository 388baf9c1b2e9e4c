/**
 * The record log on its own: live batches applied together at the scheduled tick (one event each), updates in
 * place, late records placed by capture time, the bound with the background's evictions first, and what the
 * readers see (counts, lookups, the first ready).
 */
import { describe, expect, it } from 'vitest';
import { newTabState, type ClassifiedRecord } from '../../shared/messages.ts';
import { syntheticSession } from '../app/synthetic.ts';
import { RecordLog, type LogEvents } from './record-log.ts';
import { searchTextOf } from './searchtext.ts';

/** A log whose ticks run when the test says, and every event it sent, in order. */
function setup() {
  const ticks: Array<() => void> = [];
  const log = new RecordLog({ schedule: (fn) => ticks.push(fn) });
  const events: Array<[keyof LogEvents, unknown]> = [];
  for (const type of ['batch', 'reordered', 'replaced', 'synced', 'cleared', 'state'] as const) {
    log.on(type, (e) => events.push([type, e]));
  }
  const tick = () => {
    for (const fn of ticks.splice(0)) {
      fn();
    }
  };
  return { log, events, tick };
}
const seqs = (log: RecordLog) => log.all().map((r) => r.seq);
/** Counts by verdict as the log keeps them: a post and its delivery are one message; a navigation is none. */
const tally = (records: readonly ClassifiedRecord[]) => {
  const messages = records.filter((r) => !r.navigation && !(r.kind === 'receive' && r.pairedWith !== undefined));
  return {
    valid: messages.filter((r) => r.verdict === 'valid').length,
    invalid: messages.filter((r) => r.verdict === 'invalid').length,
    foreign: messages.filter((r) => r.verdict === 'foreign').length,
  };
};

/** A top-level navigation (a new page) at `seq`, made from a record of the session. */
const topNavigation = (like: ClassifiedRecord, seq: number): ClassifiedRecord => ({
  ...like,
  seq,
  kind: 'receive',
  frameId: 0,
  frameUrl: 'https://host.example.com/next',
  data: { url: 'https://host.example.com/next' },
  navigation: true,
  issues: [],
});

describe('RecordLog', () => {
  it('applies queued live records together at the next tick, with one batch event', () => {
    const { log, events, tick } = setup();
    const records = syntheticSession(60); // (at least 60: whole exchanges)
    const first = records.slice(0, 40);
    log.enqueue(first.slice(0, 25));
    log.enqueue(first.slice(25));
    expect(log.count).toBe(0); // nothing before the tick
    expect(events).toEqual([]);
    tick();
    expect(seqs(log)).toEqual(first.map((r) => r.seq));
    expect(events).toEqual([['batch', { from: 0, count: 40, updated: [] }]]);
    expect(log.counts).toEqual(tally(first));
    log.enqueue(records.slice(40));
    tick();
    expect(events[1]).toEqual(['batch', { from: 40, count: records.length - 40, updated: [] }]);
    expect(log.counts).toEqual(tally(records));
  });

  it('replaces updated records in place, and ignores an update of a record it does not hold', () => {
    const { log, events, tick } = setup();
    const records = syntheticSession(30);
    log.load(newTabState(1), records);
    const target = records.find((r) => r.verdict === 'valid')!;
    const i = log.indexOfSeq(target.seq);
    const changed: ClassifiedRecord = { ...target, verdict: 'invalid' };
    log.enqueue([changed, { ...target, seq: 99_999 }], true);
    tick();
    expect(log.at(i)).toBe(changed);
    expect(log.count).toBe(records.length);
    expect(events.at(-1)).toEqual(['batch', { from: records.length, count: 0, updated: [i] }]);
    expect(log.counts.invalid).toBe(tally(records).invalid + 1);
    expect(log.counts.valid).toBe(tally(records).valid - 1);
  });

  it('finds records by seq, and says what it does not hold', () => {
    const { log } = setup();
    const records = syntheticSession(50);
    log.load(newTabState(1), records);
    for (const k of [0, 17, 49]) {
      expect(log.indexOfSeq(records[k].seq)).toBe(k);
      expect(log.bySeq(records[k].seq)).toBe(log.at(k));
    }
    expect(log.indexOfSeq(-5)).toBe(-1);
    expect(log.bySeq(null)).toBeUndefined();
  });

  it('places late records by capture time: the tail from their seq is rewritten, with one reordered event', () => {
    const { log, events } = setup();
    const records = syntheticSession(20);
    log.load(newTabState(1), records.slice(0, 15));
    events.length = 0;
    // a record captured earlier came late: the background placed it by capture time, and numbered the tail again
    // from seq `from` on (incoming is in seq order)
    const from = records[10].seq;
    const incoming = [records[19], ...records.slice(10, 19)].map((r, k) => ({ ...r, seq: from + k }));
    const previous = log.all().slice(10);
    log.reorder(from, incoming);
    expect(log.all().slice(0, 10)).toEqual(records.slice(0, 10));
    expect(log.all().slice(10)).toEqual(incoming);
    expect(events).toEqual([['reordered', { from: 10, previous }]]);
    expect(log.counts).toEqual(tally([...records.slice(0, 10), ...incoming]));
    expect(log.indexOfSeq(from + 3)).toBe(13);
  });

  it('keeps at most maxRecords: what the background let go first, then the oldest', () => {
    const { log, events } = setup();
    const records = syntheticSession(40);
    log.load(newTabState(1), records);
    log.forget([records[30].seq, records[35].seq]);
    events.length = 0;
    log.setState(newTabState(1, { maxRecords: 30 }));
    const kept = records.filter((_, k) => k !== 30 && k !== 35).slice(-30);
    expect(seqs(log)).toEqual(kept.map((r) => r.seq));
    expect(log.counts).toEqual(tally(kept));
    expect(events.map(([type]) => type)).toEqual(['replaced', 'state']);
  });

  it('a trim keeps the search text it had made: a search after it is not cold, and every text is right', () => {
    const { log, tick } = setup();
    const records = syntheticSession(5_000);
    log.load(newTabState(1), records);
    log.indexText(Number.POSITIVE_INFINITY);
    expect(log.textIndexed).toBe(log.count);
    // A record updated after its chunk was built (its text is made again when needed), and two the background let go.
    const changed = { ...log.at(4_200), data: { ...(log.at(4_200).data as object), extra: 'Ünïcode' } };
    log.enqueue([changed as ClassifiedRecord], true);
    tick();
    log.forget([records[2_500].seq, records[4_999].seq]);
    log.setState(newTabState(1, { maxRecords: 3_000 }));
    expect(log.count).toBe(3_000);
    // Its first two chunks of 1,024 come over whole; the one with the updated record and the last, partial one do not.
    expect(log.textIndexed).toBe(2_048);
    const texts = log.all().map((r) => searchTextOf(r));
    expect(log.all().map((_, i) => log.textAt(i))).toEqual(texts);
    log.indexText(Number.POSITIVE_INFINITY);
    expect(log.textIndexed).toBe(3_000);
    expect(log.all().map((_, i) => log.textAt(i))).toEqual(texts);
  });

  it('empties at once when cleared, and says so after the replacement', () => {
    const { log, events } = setup();
    log.load(newTabState(1), syntheticSession(10));
    events.length = 0;
    log.clear();
    expect(log.count).toBe(0);
    expect(log.counts).toEqual({ valid: 0, invalid: 0, foreign: 0 });
    expect(events.map(([type]) => type)).toEqual(['replaced', 'cleared']);
  });

  it('knows where the current page starts (preserve log), through live records, late records and trims', () => {
    const { log, tick } = setup();
    const records = syntheticSession(30).map((r, k) => ({ ...r, seq: k + 1 }));
    const page = (seq: number) => topNavigation(records[0], seq);
    /** The index of the last top-level navigation, else 0, read off the records. */
    const expected = () =>
      Math.max(
        0,
        log.all().findLastIndex((r) => r.navigation && r.frameId === 0),
      );
    log.load(newTabState(1), records.slice(0, 10));
    expect(log.pageStart).toBe(0);
    log.enqueue([page(11), ...records.slice(11, 20).map((r, k) => ({ ...r, seq: 12 + k }))]);
    tick();
    expect(log.pageStart).toBe(10);
    expect(log.pageStart).toBe(expected());
    // Late records rewrite the tail from seq 8 on: the navigation moves to index 12.
    log.reorder(
      8,
      [...records.slice(7, 11), page(99), ...records.slice(11, 20)].map((r, k) => ({ ...r, seq: 8 + k })),
    );
    expect(log.pageStart).toBe(expected());
    expect(log.pageStart).toBe(11);
    // ...and a rewrite without it: the page starts at the first record again.
    log.reorder(
      5,
      records.slice(4, 25).map((r, k) => ({ ...r, seq: 5 + k })),
    );
    expect(log.pageStart).toBe(0);
    log.setState(newTabState(1, { maxRecords: 5 }));
    expect(log.pageStart).toBe(expected());
  });

  it("a whole log's page facts, made when first read, are those kept record by record as they come", () => {
    const records = syntheticSession(3_000).map((r, k) => ({ ...r, seq: k + 1 }));
    // a top-level navigation in the middle: the facts are the last page's
    const all = [...records.slice(0, 1_500), topNavigation(records[0], 1_500.5), ...records.slice(1_500)];
    const bulk = setup();
    bulk.log.load(newTabState(1), all);
    const live = setup();
    live.log.load(newTabState(1), []);
    for (let k = 0; k < all.length; k += 250) {
      live.log.enqueue(all.slice(k, k + 250));
      live.tick();
    }
    expect(live.log.pageStart).toBe(1_500);
    expect(bulk.log.pageStart).toBe(1_500);
    const facts = bulk.log.pageFacts();
    expect(facts).toEqual(live.log.pageFacts());
    expect(facts?.judged.length).toBeGreaterThan(3);
    expect(facts?.judged.every((i) => i >= 1_500)).toBe(true);
    expect(facts?.withIssues.length).toBeGreaterThan(0);
  });

  it('knows it was cleared during the current page, until the next page begins or another log loads', () => {
    const { log, tick } = setup();
    const records = syntheticSession(30).map((r, k) => ({ ...r, seq: k + 1 }));
    const page = (seq: number) => topNavigation(records[0], seq);
    log.load(newTabState(1), records.slice(0, 10));
    expect(log.clearedOnPage).toBe(false);
    log.clear();
    expect(log.clearedOnPage).toBe(true);
    // The page's tail comes on; a sync of the same log (the worker started again) keeps it so.
    log.enqueue(records.slice(10, 20));
    tick();
    log.sync(newTabState(1), log.all().slice());
    expect(log.clearedOnPage).toBe(true);
    // A top-level navigation: the next page is whole.
    log.enqueue([page(21), ...records.slice(21, 25)]);
    tick();
    expect(log.clearedOnPage).toBe(false);
    log.clear();
    log.load(newTabState(2), records.slice(0, 5)); // another tab, a file
    expect(log.clearedOnPage).toBe(false);
  });

  it('counts the times it was given records (a load, a sync, a clear), not its own rewrites', () => {
    const { log } = setup();
    const records = syntheticSession(40);
    const at = log.generation;
    log.load(newTabState(1), records);
    expect(log.generation).toBe(at + 1);
    log.setState(newTabState(1, { maxRecords: 30 })); // a trim
    log.reorder(records[35].seq, records.slice(35)); // late records
    expect(log.generation).toBe(at + 1);
    log.sync(newTabState(1), records); // the source's snapshot again
    expect(log.generation).toBe(at + 2);
    log.clear();
    expect(log.generation).toBe(at + 3);
  });

  it("knows the session's first ready", () => {
    const { log } = setup();
    const records = syntheticSession(30);
    log.load(newTabState(1), records);
    const first = records.findIndex((r) => (r.data as { type?: string } | null)?.type === 'svc:event:ready');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(log.readyIndex).toBe(first);
  });

  it('a snapshot of the same log again is synced (same records read anew); one of another log replaces it', () => {
    const { log, events } = setup();
    const records = syntheticSession(40);
    log.load(newTabState(1), records.slice(0, 30));
    events.length = 0;
    // the worker restarted meanwhile, and more came: the same log, read again with what came since
    const again = records.map((r) => ({ ...r }));
    log.sync(newTabState(1, { pageUrl: 'https://host.test/' }), again);
    expect(seqs(log)).toEqual(records.map((r) => r.seq));
    expect(log.state.pageUrl).toBe('https://host.test/');
    expect(log.counts).toEqual(tally(records));
    expect(events.map(([type]) => type)).toEqual(['synced']);
    // a Clear elsewhere or a new page while the link was down: nothing held is there
    log.sync(newTabState(1), []);
    expect(events.map(([type]) => type)).toEqual(['synced', 'replaced']);
    log.sync(newTabState(1), records.slice(0, 5));
    expect(events.map(([type]) => type)).toEqual(['synced', 'replaced', 'synced']); // nothing held: nothing replaced
    log.sync(
      newTabState(1),
      records.slice(0, 5).map((r) => ({ ...r, seq: r.seq + 1_000 })),
    );
    expect(events.map(([type]) => type)).toEqual(['synced', 'replaced', 'synced', 'replaced']);
  });
});
