// A read at the end of a test's time, while a frame still hands over a flood: the worker's wait is bounded by the
// caller's time, and a matcher whose pass on part of the log is still true reads what is there.
import { describe, expect, it } from 'vitest';
import { evaluateIn, workerContext } from '../../test/helpers/fake-worker.ts';
import { Embed, readerOf, settledRead } from './embed.ts';
import { settleNote } from './log-reader.ts';

/** A worker whose one frame never finishes handing over: its settle waits as long as it is let, then says so. */
function floodingWorker(types: string[]) {
  const asked: Array<number | undefined> = [];
  const ctx = workerContext({
    settle: async (_tabId: number, o: { within?: number } = {}) => {
      asked.push(o.within);
      await new Promise((r) => setTimeout(r, Math.min(o.within ?? 10_000, 10_000)));
      return { frames: 2, silent: 1 };
    },
    count: async () => asked.length * 1000,
    records: async () => types.map((type, i) => ({ seq: i + 1, kind: 'receive', data: { source: 'svc-embed', type } })),
  });
  const evaluate = evaluateIn(ctx);
  return { evaluate, asked };
}

describe('settling at the end of the caller’s time', () => {
  it('asks the worker to wait no longer than the caller has left, and ends by then', async () => {
    const w = floodingWorker(['svc:event:ready']);
    const until = Date.now() + 300;
    const embed = new Embed({ evaluate: w.evaluate, tabId: async () => 1, until: () => until, grace: 200 });
    const started = Date.now();
    await expect(settledRead(embed, 'expect(embed).toHaveSeen()', 'types')).rejects.toThrow(
      /toHaveSeen\(\): the test's time ran out while the page's frames handed over what they held \(1 of 2 frames stayed busy/,
    );
    // (a frame handing over a flood held the worker's answer for 10 s before the bound)
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(w.asked.length).toBeGreaterThan(0);
    for (const within of w.asked) {
      expect(within).toBeLessThanOrEqual(300);
    }
  });

  it('partial: reads what the log holds, and says which frames had not handed over', async () => {
    const w = floodingWorker(['svc:event:ready', 'svc:action:set-filter']);
    const until = Date.now() + 200;
    const embed = new Embed({ evaluate: w.evaluate, tabId: async () => 1, until: () => until, grace: 2_000 });
    const read = await settledRead<string>(embed, 'expect(embed).toHaveSeen()', 'types', { partial: true });
    expect(read.complete).toBe(true);
    expect(read.items).toEqual(['svc:event:ready', 'svc:action:set-filter']);
    expect(read.settled).toEqual({ frames: 2, silent: 1, cut: true });
  });

  it('a worker too busy to answer does not hold the caller past its end: each call is given up then', async () => {
    const w = floodingWorker(['svc:event:ready']);
    // (a worker ingesting a flood on a loaded machine: every answer comes 4 s late)
    const slow: typeof w.evaluate = async (f, arg) => {
      await new Promise((r) => setTimeout(r, 4_000));
      return w.evaluate(f, arg);
    };
    const until = Date.now() + 200;
    const embed = new Embed({ evaluate: slow, tabId: async () => 1, until: () => until, grace: 300 });
    const started = Date.now();
    const settled = await readerOf(embed).settle();
    expect(settled).toMatchObject({ cut: true, unanswered: true });
    expect(settleNote(settled)).toMatch(/worker did not answer before the time ran out: records may be missing/);
    const read = await readerOf(embed).read<string>('types');
    expect(read).toMatchObject({ complete: false, items: [] });
    expect(read.missing).toMatch(/not read: the extension’s worker did not answer before the time ran out/);
    await expect(
      settledRead(embed, 'expect(embed).toHaveSeen()', 'types', { partial: true, late: true }),
    ).rejects.toThrow(/toHaveSeen\(\): 0 read, not read: the extension’s worker did not answer/);
    // Each of the three ended at the reader's end (until + grace), not at the worker's answer 4 s on.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a wait the worker stopped answering says what it could not read, never that nothing was seen', async () => {
    const w = floodingWorker(['svc:event:ready']);
    // (answers come quickly until the caller's time is nearly out, then 4 s late: a worker ingesting a flood)
    const until = Date.now() + 300;
    const lateNearEnd: typeof w.evaluate = async (f, arg) => {
      if (Date.now() > until - 150) {
        await new Promise((r) => setTimeout(r, 4_000));
      }
      return w.evaluate(f, arg);
    };
    const embed = new Embed({ evaluate: lateNearEnd, tabId: async () => 1, until: () => until, grace: 100 });
    const error = await embed.waitFor('svc:event:download', { timeout: 60_000 }).catch((e: Error) => e);
    expect(String(error)).toMatch(/svc:event:download not delivered before the test's time ran out/);
    expect(String(error)).not.toMatch(/no svc-embed message seen/);
    expect(String(error)).toMatch(/what was seen was not read \(the extension’s worker did not answer in time\)/);
  });
});
