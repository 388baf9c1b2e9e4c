// The matchers of embed-inspector/playwright at the end of a test's time, when the extension's worker answers late
// (ingesting a flood on a loaded machine): a verdict that a finished read established stands, and says what it could
// not read; it is never replaced by a timeout of the read that only lists records for the message.
import { describe, expect as vexpect, it } from 'vitest';
import { evaluateIn, workerContext } from '../../test/helpers/fake-worker.ts';
import { Embed } from './embed.ts';
import { expect } from './playwright.ts';

const ready = { seq: 1, kind: 'receive', data: { source: 'svc-embed', type: 'svc:event:ready' }, issues: [] };

/** What a call to the worker asks (the reader's arguments: a read's start names what it reads). */
type Ask = { op?: string; what?: string } | undefined;

/** A worker holding `ready` whose answers come 4 s late to the calls `late` picks. */
function worker(late: (ask: Ask) => boolean) {
  const evaluate = evaluateIn(
    workerContext({
      settle: async () => ({ frames: 1, silent: 0 }),
      count: async () => 1,
      records: async () => [ready],
    }),
  );
  const slow: typeof evaluate = async (f, arg) => {
    if (late(arg as Ask)) {
      await new Promise((r) => setTimeout(r, 4_000));
    }
    return evaluate(f, arg);
  };
  return slow;
}

/** Late from the `n`th read on (each retry of a matcher starts one read). */
const lateFromRead = (n: number) => {
  let reads = 0;
  return (ask: Ask) => ask?.op === 'start' && ++reads >= n;
};

/** An embed handle reading from that worker, whose caller's time ends at `until`. */
const embedOf = (late: (ask: Ask) => boolean, until: number) =>
  new Embed({ evaluate: worker(late), tabId: async () => 1, until: () => until, grace: 200 });

const failure = (p: Promise<unknown>) => p.then(() => new Error('passed')).catch((e: Error) => e);

describe('a matcher whose worker answers late at the end of the test’s time', () => {
  it('toHaveSeen: "Not seen", from its last finished read; the records it could not list are named', async () => {
    const until = Date.now() + 400;
    // (the retries read in time; the read that lists records for the message is not answered in the grace)
    const listing = (ask: Ask) => ask?.op === 'start' && ask.what === 'lines';
    const embed = embedOf(listing, until);
    const started = Date.now();
    const e = await failure(expect(embed).toHaveSeen('svc:event:download', { timeout: 60_000 }));
    vexpect(String(e)).toMatch(/Not seen: svc:event:download\nSeen: svc:event:ready/);
    vexpect(String(e)).toMatch(/the test's time ran out before the assertion's own timeout/);
    vexpect(String(e)).toMatch(
      /Records: not listed \(not read: the extension’s worker did not answer before the time ran out\)/,
    );
    vexpect(String(e)).not.toMatch(/EmbedTimeoutError/);
    vexpect(Date.now() - started).toBeLessThan(2_000);
  });

  it('toHaveSeenInOrder and toHaveReceived: a retry the worker did not answer leaves the last finished one', async () => {
    for (const assertion of [
      (embed: Embed) => expect(embed).toHaveSeenInOrder(['svc:event:ready', 'svc:event:download'], { timeout: 60_000 }),
      (embed: Embed) => expect(embed).toHaveReceived('svc:event:download', undefined, { timeout: 60_000 }),
    ]) {
      // (the first retry reads in time, the second is not answered)
      const until = Date.now() + 1_000;
      const embed = embedOf(lateFromRead(2), until);
      const e = await failure(assertion(embed));
      vexpect(String(e)).toMatch(/then no svc:event:download|No delivery of svc:event:download/);
      vexpect(String(e)).toMatch(/the last read did not finish: not read: the extension’s worker did not answer/);
      vexpect(String(e)).not.toMatch(/EmbedTimeoutError/);
    }
  });

  it('a worker that never answered in time: the timeout names the assertion (nothing was read to judge)', async () => {
    const until = Date.now() + 300;
    const embed = embedOf(lateFromRead(1), until);
    const e = await failure(expect(embed).toHaveSeen('svc:event:download', { timeout: 60_000 }));
    vexpect(String(e)).toMatch(/EmbedTimeoutError: expect\(embed\)\.toHaveSeen\(\): .*not read/);
  });
});
