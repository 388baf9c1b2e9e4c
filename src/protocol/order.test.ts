import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { causalOrder, type Orderable } from './order.ts';

/** A record for the table: a label, its frame (undefined: none), time, kind, and the label of its partner. */
type Row = [
  label: string,
  frameId: number | undefined,
  time: number,
  kind: 'post' | 'receive' | 'nav',
  partner?: string,
];

function records(rows: Row[]): Array<Orderable & { label: string }> {
  const seqOf = new Map(rows.map((r, i) => [r[0], i + 1]));
  return rows.map(([label, frameId, time, kind, partner], i) => ({
    label,
    seq: i + 1,
    time,
    kind: kind === 'nav' ? 'receive' : kind,
    ...(frameId === undefined ? {} : { frameId }),
    ...(kind === 'nav' ? { navigation: true } : {}),
    ...(partner ? { pairedWith: seqOf.get(partner) } : {}),
  }));
}
const labels = (rs: Array<{ label: string }>) => rs.map((r) => r.label).join(' ');

// Frame 0 is the host, 3 the embed. Input order: the order in which the frames' batches reached the background.
const cases: Array<[name: string, input: Row[], expected: string]> = [
  [
    'already in order: unchanged',
    [
      ['a', 0, 1, 'post'],
      ['b', 3, 2, 'receive', 'a'],
      ['c', 3, 3, 'post'],
    ],
    'a b c',
  ],
  [
    'two frames whose batches came one after the other: by time',
    [
      ['h1', 0, 10, 'receive'],
      ['h2', 0, 30, 'post'],
      ['e1', 3, 5, 'post'],
      ['e2', 3, 20, 'receive'],
    ],
    'e1 h1 e2 h2',
  ],
  [
    'a post before its delivery when the clocks say otherwise',
    [
      ['delivery', 3, 99.5, 'receive', 'post'],
      ['post', 0, 100, 'post', 'delivery'],
    ],
    'post delivery',
  ],
  [
    'what follows a delivery in its frame follows its post too',
    [
      ['delivery', 3, 99.5, 'receive', 'post'],
      ['answer', 3, 99.8, 'post'],
      ['post', 0, 100, 'post', 'delivery'],
      ['later', 0, 99.9, 'receive'],
    ],
    'post delivery answer later',
  ],
  [
    "a frame's own order is kept whatever its times",
    [
      ['x', 0, 5, 'post'],
      ['y', 0, 3, 'receive'],
      ['z', 3, 4, 'post'],
    ],
    'z x y',
  ],
  [
    'same-frame post and delivery interleaved: the frame order',
    [
      ['recv ready', 0, 101, 'receive'],
      ['post a1', 0, 101.2, 'post'],
      ['post a2', 0, 101.2, 'post'],
      ['recv a1 in embed', 3, 101.1, 'receive', 'post a1'],
    ],
    'recv ready post a1 recv a1 in embed post a2',
  ],
  [
    'equal times keep their input order',
    [
      ['b', 3, 7, 'post'],
      ['a', 0, 7, 'post'],
      ['c', 3, 7, 'receive'],
    ],
    'b a c',
  ],
  [
    'a late batch goes back to its time',
    [
      ['h1', 0, 10, 'post'],
      ['h2', 0, 11, 'post'],
      ['h3', 0, 12, 'post'],
      ['late', 3, 10.5, 'receive', 'h1'],
    ],
    'h1 late h2 h3',
  ],
  [
    'navigations and records without a frame are placed by time only',
    [
      ['e1', 3, 10, 'post'],
      ['nav', 3, 5, 'nav'],
      ['loose', undefined, 7, 'receive'],
    ],
    'nav loose e1',
  ],
  [
    "a pairing that contradicts a frame's order (a wrong pairing) yields to it",
    [
      ['r1', 0, 1, 'receive', 'p2'],
      ['p1', 0, 2, 'post', 'r2'],
      ['r2', 3, 0.5, 'receive', 'p1'],
      ['p2', 3, 1.5, 'post', 'r1'],
    ],
    // r1 → p1 → r2 → p2 → r1: a cycle. The earliest delivery goes first; every frame keeps its order.
    'r2 p2 r1 p1',
  ],
];

describe('causalOrder', () => {
  it.each(cases)('%s', (_name, rows, expected) => {
    const input = records(rows);
    const out = causalOrder(input);
    expect(labels(out)).toBe(expected);
    expect(labels(causalOrder(out))).toBe(expected); // its own order
    expect(labels(input)).toBe(rows.map((r) => r[0]).join(' ')); // the input is left alone
  });

  const arbitrary = fc
    .array(
      fc.record({
        frameId: fc.constantFrom(0, 3, 4, undefined),
        time: fc.integer({ min: 0, max: 40 }),
        kind: fc.constantFrom('post' as const, 'receive' as const),
        pairWith: fc.option(fc.nat(30), { nil: undefined }),
      }),
      { maxLength: 30 },
    )
    .map((rows) => {
      // Any times (clocks of frames may disagree); a post is paired with a delivery listed after it (as a frame
      // lists a message it posts to itself), each record at most once: no cycle.
      const out: Array<Orderable & { seq: number }> = rows.map((r, i) => ({
        seq: i + 1,
        time: r.time,
        kind: r.kind,
        ...(r.frameId === undefined ? {} : { frameId: r.frameId }),
      }));
      rows.forEach((r, i) => {
        const j = r.pairWith;
        const post = out[i],
          delivery = j !== undefined ? out[j] : undefined;
        if (
          delivery &&
          j! > i &&
          post.kind === 'post' &&
          delivery.kind === 'receive' &&
          post.pairedWith === undefined &&
          delivery.pairedWith === undefined
        ) {
          post.pairedWith = delivery.seq;
          delivery.pairedWith = post.seq;
        }
      });
      return out;
    });

  it('keeps every record, each frame in its order, a post before its delivery, else by time', () => {
    fc.assert(
      fc.property(arbitrary, (input) => {
        const out = causalOrder(input);
        expect(out.map((r) => r.seq).sort((a, b) => a - b)).toEqual(input.map((r) => r.seq));
        const pos = new Map(out.map((r, i) => [r.seq, i]));
        const frameOf = new Map<number, number>();
        for (const r of input) {
          if (r.frameId === undefined) {
            continue;
          }
          const prev = frameOf.get(r.frameId);
          if (prev !== undefined) {
            expect(pos.get(r.seq)!).toBeGreaterThan(pos.get(prev)!);
          }
          frameOf.set(r.frameId, r.seq);
        }
        // A record earlier than the one before it was held back by that one: its frame's previous record or its post.
        for (let i = 1; i < out.length; i++) {
          const a = out[i - 1],
            b = out[i];
          if (b.time < a.time) {
            const heldBy = (a.frameId !== undefined && a.frameId === b.frameId) || b.pairedWith === a.seq;
            expect(heldBy).toBe(true);
          }
        }
        expect(causalOrder(out).map((r) => r.seq)).toEqual(out.map((r) => r.seq));
      }),
      { numRuns: 300 },
    );
  });

  it('returns an equal list for records already in order, and a new array', () => {
    const input = records([
      ['a', 0, 1, 'post'],
      ['b', 3, 1, 'receive', 'a'],
    ]);
    const out = causalOrder(input);
    expect(out).not.toBe(input);
    expect(out).toEqual(input);
  });
});
