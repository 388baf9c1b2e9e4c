import { describe, expect, it } from 'vitest';
import { WriteQueue } from './write-queue.ts';

/** A transaction runner whose transactions the test completes or fails, one at a time. */
function runner() {
  const runs: Array<{ writes: number[]; end: (err?: Error) => void }> = [];
  const queue = new WriteQueue<number>(
    (writes) =>
      new Promise<void>((resolve, reject) => {
        runs.push({ writes, end: (err) => (err ? reject(err) : resolve()) });
      }),
  );
  return { runs, queue };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('WriteQueue', () => {
  it('merges the writes asked for while a transaction is in flight into the next one, in order', async () => {
    const { runs, queue } = runner();
    const done: number[] = [];
    const write = (n: number) => queue.write(n).then(() => done.push(n));
    void write(1);
    void write(2); // the same task: the same transaction
    await tick();
    expect(runs.map((r) => r.writes)).toEqual([[1, 2]]);
    void write(3);
    void write(4);
    void write(5);
    await tick();
    expect(runs).toHaveLength(1); // they wait for the transaction in flight …
    expect(done).toEqual([]);
    runs[0].end();
    await tick();
    expect(done).toEqual([1, 2]);
    expect(runs.map((r) => r.writes)).toEqual([
      [1, 2],
      [3, 4, 5],
    ]); // … then go together
    runs[1].end();
    await tick();
    expect(done).toEqual([1, 2, 3, 4, 5]);
    void write(6); // the queue idle again: a write starts its own transaction
    await tick();
    expect(runs.map((r) => r.writes)).toEqual([[1, 2], [3, 4, 5], [6]]);
  });

  it('a failed transaction rejects each write it held, and the next writes go on', async () => {
    const { runs, queue } = runner();
    const outcome: string[] = [];
    const write = (n: number) =>
      queue.write(n).then(
        () => outcome.push(`${n} stored`),
        (e: Error) => outcome.push(`${n} ${e.message}`),
      );
    void write(1);
    await tick();
    void write(2);
    void write(3);
    runs[0].end(new Error('quota'));
    await tick();
    expect(outcome).toEqual(['1 quota']);
    runs[1].end();
    await tick();
    expect(outcome).toEqual(['1 quota', '2 stored', '3 stored']);
  });

  it('a read waits for the writes asked for before it, not for those asked for later', async () => {
    const { runs, queue } = runner();
    const seen: string[] = [];
    void queue.write(1).then(() => seen.push('write 1'));
    void queue.write(2).then(() => seen.push('write 2'));
    void queue.settled().then(() => seen.push('read'));
    await tick();
    void queue.write(3).then(() => seen.push('write 3'));
    expect(seen).toEqual([]);
    runs[0].end();
    await tick();
    expect(seen).toEqual(['write 1', 'write 2', 'read']);
    runs[1].end();
    await tick();
    expect(seen).toEqual(['write 1', 'write 2', 'read', 'write 3']);
  });

  it('a read after a failed write is not failed by it', async () => {
    const { runs, queue } = runner();
    queue.write(1).catch(() => undefined);
    const read = queue.settled();
    await tick();
    runs[0].end(new Error('aborted'));
    await expect(read).resolves.toBeUndefined();
  });
});
