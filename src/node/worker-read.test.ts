// The worker's side of a read, run as the libraries run it: its source text alone, in a context of its own (no
// module around it), over a fake automation API; and the reader's side putting the pieces back together.
import { describe, expect, it } from 'vitest';
import { runInContext } from 'node:vm';
import { evaluateIn, workerContext } from '../../test/helpers/fake-worker.ts';
import { gunzipSync } from 'node:zlib';
import { LogReader } from './log-reader.ts';
import { workerRead, type Piece, type ReadStart, type WorkerReadArg } from './worker-read.ts';

const rec = (seq: number, extra: Record<string, unknown> = {}) => ({
  seq,
  time: seq,
  kind: seq % 2 ? 'post' : 'receive',
  frameUrl: 'https://host.example/',
  origin: 'https://host.example',
  data: {
    source: 'svc-embed',
    direction: 'action',
    type: 'svc:action:set-filter',
    payload: { i: seq, pad: 'x'.repeat(200) },
  },
  verdict: 'valid',
  issues: [],
  ...extra,
});

/** A worker of its own: the fake API and the globals a service worker has, and `workerRead` from its source. */
function fakeWorker(records: ReturnType<typeof rec>[]) {
  const ctx = workerContext({
    records: async () => records,
    exportCapture: async (_tabId: number, createdBy?: string) => ({
      format: 'embed-inspector-capture',
      version: 1,
      tenantOrigin: null,
      messages: records.map(({ verdict: _v, issues: _i, ...m }) => m),
      meta: { createdBy },
    }),
    settle: async () => ({ frames: 1, silent: 0 }),
    count: async () => records.length,
  });
  const fn = runInContext(`(${workerRead.toString()})`, ctx) as typeof workerRead;
  // Every function the reader sends runs in the fake worker from its source text, as in a browser.
  const evaluate = evaluateIn(ctx);
  return { fn, evaluate, ctx };
}

const decode = (p: Piece) => JSON.parse(p.gz ? gunzipSync(Buffer.from(p.gz, 'base64')).toString() : (p.text ?? '[]'));

describe('workerRead (in the worker)', () => {
  it('runs from its source text alone and streams a long log in compressed pieces of whole records', async () => {
    const records = Array.from({ length: 20_000 }, (_, i) => rec(i + 1));
    const { fn } = fakeWorker(records);
    const start = (await fn({
      op: 'start',
      tabId: 1,
      what: 'records',
      chunk: 1_000_000,
    } as WorkerReadArg)) as ReadStart;
    expect(start.total).toBe(20_000);
    expect(start.id).not.toBeNull();
    expect(start.piece?.gz).toBeDefined();
    const items = decode(start.piece!);
    let next = start.piece!.next;
    let pieces = 1;
    while (next < start.total) {
      const p = (await fn({ op: 'piece', id: start.id!, from: next, chunk: 1_000_000 })) as Piece;
      items.push(...decode(p));
      next = p.next;
      pieces++;
    }
    expect(pieces).toBeGreaterThan(3);
    expect(items).toEqual(records);
    // The last piece let the stored read go: asking again says it is gone (the reader then reads again).
    expect(await fn({ op: 'piece', id: start.id!, from: 0, chunk: 1_000_000 })).toBeNull();
  });

  it('keeps what the query asks for: kind, type, issues, navigation; lines without payloads; types once a pair', async () => {
    const records = [
      rec(1, { navigation: true, kind: 'receive', data: null, issues: [{ rule: 'url.x' }] }),
      rec(2, { kind: 'post', pairedWith: 3 }),
      rec(3, { kind: 'receive', pairedWith: 2 }),
      rec(4, { kind: 'post', dropped: true, issues: [{ rule: 'origin.y' }] }),
      rec(5, { verdict: 'foreign', data: { hello: 1 } }),
    ];
    const { fn } = fakeWorker(records);
    const read = async (what: string, q: object = {}) =>
      decode(((await fn({ op: 'start', tabId: 1, what, q, chunk: 1e6 } as WorkerReadArg)) as ReadStart).piece!);
    expect((await read('records', { kind: 'receive' })).map((r: { seq: number }) => r.seq)).toEqual([3]);
    expect((await read('records', { navigation: true, withIssues: true })).map((r: { seq: number }) => r.seq)).toEqual([
      1, 4,
    ]);
    expect((await read('records', { foreign: true })).map((r: { seq: number }) => r.seq)).toEqual([2, 3, 4, 5]);
    expect(await read('types')).toEqual(['svc:action:set-filter', 'svc:action:set-filter']);
    const [line] = await read('lines', { kind: 'post' });
    expect(line).toMatchObject({ seq: 2, data: { type: 'svc:action:set-filter', source: 'svc-embed' } });
    expect(line.data.payload).toBeUndefined();
    expect(await read('first', { type: 'svc:action:nope' })).toEqual([]);
  });
});

describe('LogReader', () => {
  it('reads the capture whole through the worker, and keeps whole records when its time runs out', async () => {
    const records = Array.from({ length: 30_000 }, (_, i) => rec(i + 1));
    const { evaluate } = fakeWorker(records);
    const reader = new LogReader(evaluate as never, async () => 7);
    const whole = await reader.read<{ seq: number }>('capture', { createdBy: 'test' });
    expect(whole.complete).toBe(true);
    expect(whole.items.map((m) => m.seq)).toEqual(records.map((r) => r.seq));
    expect(whole.head).toMatchObject({ format: 'embed-inspector-capture', meta: { createdBy: 'test' } });
    const cut = await reader.read<{ seq: number }>('records', { until: Date.now() - 1 });
    expect(cut.complete).toBe(false);
    expect(cut.items.length).toBeGreaterThan(0);
    expect(cut.items.length).toBeLessThan(30_000);
    expect(cut.items.map((m) => m.seq)).toEqual(records.slice(0, cut.items.length).map((r) => r.seq));
    expect(cut.missing).toMatch(/not read: the time ran out/);
  });
});
