import { describe, expect, it } from 'vitest';
import { Drain, joinEntries, parsePosts, postLine, type BatchEntry, type PagePost } from './relay-merge.ts';

/** What a Drain given these deliveries and posts writes, all slices together. */
function inFrameOrder<D extends { i: number }>(deliveries: D[], posts: PagePost[], json: (d: D) => string) {
  const out: string[] = [];
  const drain = new Drain<D>(
    json,
    (records) => out.push(...records),
    2,
    () => {},
  );
  drain.add(deliveries, posts);
  drain.drain();
  return out;
}

// A frame's story: 'd' a delivery it saw, 'p:x' a post it made. The relay gets the deliveries it numbered and the
// posts with the count of deliveries seen when each was made; merged, they must tell the story again.
const CASES: Array<[string, string[]]> = [
  ['a post in the handler of the first delivery follows it', ['d0', 'p:a', 'd1']],
  ['posts before any delivery come first', ['p:a', 'p:b', 'd0', 'd1']],
  ['posts between deliveries keep their place', ['d0', 'p:a', 'd1', 'd2', 'p:b', 'p:c', 'd3']],
  ['posts after the last delivery come last', ['d0', 'd1', 'p:a']],
  ['posts only', ['p:a', 'p:b']],
  ['deliveries only', ['d0', 'd1', 'd2']],
];

function split(story: string[], held = (_: number) => true) {
  const deliveries: Array<{ i: number }> = [];
  const lines: string[] = [];
  let seen = 0;
  for (const step of story) {
    if (step.startsWith('d')) {
      if (held(seen)) {
        deliveries.push({ i: seen });
      }
      seen++;
    } else {
      lines.push(postLine(seen, JSON.stringify(step)));
    }
  }
  const posts: PagePost[] = [];
  parsePosts(lines.join('\n'), posts, 'https://h.example/');
  return { deliveries, posts };
}

describe('the frame order rebuilt from the relay deliveries and the page posts', () => {
  for (const [name, story] of CASES) {
    it(name, () => {
      const { deliveries, posts } = split(story);
      expect(inFrameOrder(deliveries, posts, (d) => JSON.stringify(`d${d.i}`))).toEqual(
        story.map((s) => JSON.stringify(s)),
      );
    });
  }

  it('a delivery not recorded (paused) keeps the numbers of the others, and the posts their place', () => {
    const story = ['d0', 'p:a', 'd1', 'p:b', 'd2'];
    const { deliveries, posts } = split(story, (i) => i !== 1);
    expect(inFrameOrder(deliveries, posts, (d) => JSON.stringify(`d${d.i}`))).toEqual(
      ['d0', 'p:a', 'p:b', 'd2'].map((s) => JSON.stringify(s)),
    );
  });

  it('a delivery that cannot be written is left out, and nothing else', () => {
    const { deliveries, posts } = split(['d0', 'p:a', 'd1']);
    expect(inFrameOrder(deliveries, posts, (d) => (d.i === 0 ? '' : '"d1"'))).toEqual(['"p:a"', '"d1"']);
  });

  it('record JSON with escaped newlines and tabs in its strings survives the lines', () => {
    const json = JSON.stringify({ text: 'a\nb\tc', url: 'http://x/?q=\t' });
    const posts: PagePost[] = [];
    parsePosts([postLine(3, json), postLine(4, json)].join('\n'), posts, 'https://h.example/a');
    expect(posts).toEqual([
      { after: 3, json, url: 'https://h.example/a' },
      { after: 4, json, url: 'https://h.example/a' },
    ]);
  });

  it('a line that does not parse is dropped, never thrown', () => {
    const posts: PagePost[] = [];
    parsePosts(['x\t{}', '', '2', '5\t{"ok":1}', '-1\t{}'].join('\n'), posts, 'u');
    expect(posts).toEqual([{ after: 5, json: '{"ok":1}', url: 'u' }]);
  });
});

describe("joinEntries: parts of a bounded size, the lines of the page's world beside their JSON", () => {
  const run = (entries: BatchEntry[], max: number) => {
    const out: Array<[string, string[]]> = [];
    joinEntries(entries, max, (json, lines) => out.push([json, lines]));
    return out;
  };
  const u = (entry: string, line: string) => ({ entry, line });
  it.each([
    ['nothing', [], 10, []],
    ['all in one', ['a', 'b', 'c'], 10, [['a,b,c', []]]],
    [
      'split before the bound',
      ['aaaa', 'bbbb', 'cccc'],
      10,
      [
        ['aaaa,bbbb', []],
        ['cccc', []],
      ],
    ],
    [
      'an entry over the bound goes alone',
      ['a', 'x'.repeat(20), 'b'],
      10,
      [
        ['a', []],
        ['x'.repeat(20), []],
        ['b', []],
      ],
    ],
    ['lines go with their part, in order', ['a', u('P', 'l1'), u('Q', 'l2')], 100, [['a,P,Q', ['l1', 'l2']]]],
    [
      'a line counts towards the bound',
      [u('P', 'x'.repeat(9)), 'b'],
      10,
      [
        ['P', ['x'.repeat(9)]],
        ['b', []],
      ],
    ],
  ] as Array<[string, BatchEntry[], number, Array<[string, string[]]>]>)('%s', (_name, entries, max, expected) => {
    expect(run(entries, max)).toEqual(expected);
    const all = run(entries, max);
    expect(all.map(([j]) => j).join(',')).toBe(entries.map((e) => (typeof e === 'string' ? e : e.entry)).join(','));
    expect(all.flatMap(([, l]) => l)).toEqual(entries.flatMap((e) => (typeof e === 'string' ? [] : [e.line])));
  });
});

describe('Drain: the hand-overs written in slices keep the frame order', () => {
  /** A drain whose deferred slices run when `tick` is called; `out` gets each slice's records. */
  const drainOf = (slice: number) => {
    const later: Array<() => void> = [];
    const out: string[][] = [];
    const drain = new Drain<{ i: number }>(
      (d) => JSON.stringify(`d${d.i}`),
      (r) => out.push(r),
      slice,
      (fn) => later.push(fn),
    );
    const tick = () => {
      while (later.length) {
        later.shift()?.();
      }
    };
    return { drain, out, tick, later };
  };
  const LONG = ['p:a', 'd0', 'd1', 'p:b', 'p:c', 'd2', 'd3', 'd4', 'p:d', 'd5', 'd6', 'p:e'];

  for (const [name, story] of [...CASES, ['a long story', LONG] as [string, string[]]]) {
    for (const slice of [1, 2, 3, 100]) {
      it(`${name}, ${slice} per slice`, () => {
        const { deliveries, posts } = split(story);
        const { drain, out, tick } = drainOf(slice);
        drain.add(deliveries, posts);
        tick();
        expect(out.flat()).toEqual(story.map((s) => JSON.stringify(s)));
        expect(Math.max(...out.map((r) => r.filter((x) => x.startsWith('"d')).length))).toBeLessThanOrEqual(slice);
        expect(drain.queued).toBe(0);
      });
    }
  }

  it('hand-overs queued while earlier slices wait keep the order across them', () => {
    const { deliveries, posts } = split(LONG);
    const { drain, out, tick } = drainOf(2);
    // The story handed over in three parts: each part's deliveries and the posts made before the next part's.
    drain.add(deliveries.slice(0, 2), posts.slice(0, 1));
    drain.add(deliveries.slice(2, 5), posts.slice(1, 3));
    drain.add(deliveries.slice(5), posts.slice(3));
    tick();
    expect(out.flat()).toEqual(LONG.map((s) => JSON.stringify(s)));
  });

  it('writes the first slice at once and the rest in later tasks; drain writes everything now', () => {
    const { deliveries, posts } = split(LONG);
    const { drain, out, later } = drainOf(2);
    drain.add(deliveries, posts);
    expect(out).toHaveLength(1);
    expect(later).toHaveLength(1);
    drain.drain();
    expect(out.flat()).toEqual(LONG.map((s) => JSON.stringify(s)));
    expect(drain.queued).toBe(0);
    later.shift()?.(); // the slice scheduled before the drain finds nothing left
    expect(out.flat()).toHaveLength(LONG.length);
  });
});

describe('Drain: a slice is bounded by characters as well as by deliveries', () => {
  // Each row: the frame's story ('d' a delivery, 'p' a post; `size` characters each record), deliveries and
  // characters per slice. Every slice stops once it reaches its characters (its last record may pass them), so a
  // burst of posts alone, or of large records, is written over several tasks, in the frame's order.
  const story = (pattern: string, times: number) => pattern.repeat(times).split('');
  const ROWS: Array<[string, string[], number, number, number]> = [
    ['posts only', story('p', 40), 100, 1000, 250],
    ['10 KB deliveries only', story('d', 30), 10_000, 1000, 25_000],
    ['posts between deliveries', story('dppd', 20), 1000, 1000, 3000],
    ['deliveries bound first', story('dp', 20), 10, 3, 1_000_000],
    ['a record longer than a slice goes alone', story('pd', 5), 5000, 1000, 100],
  ];
  for (const [name, steps, size, slice, sliceChars] of ROWS) {
    it(name, () => {
      const deliveries: Array<{ i: number }> = [];
      const posts: PagePost[] = [];
      const expected: string[] = [];
      const pad = (id: string) => JSON.stringify(id.padEnd(size - 2, '.'));
      for (const s of steps) {
        const id = `${s}${expected.length}`;
        if (s === 'd') {
          deliveries.push({ i: deliveries.length });
          expected.push(pad(`d${deliveries.length - 1}`));
        } else {
          posts.push({ after: deliveries.length, json: pad(id), url: '' });
          expected.push(pad(id));
        }
      }
      const later: Array<() => void> = [];
      const out: string[][] = [];
      const drain = new Drain<{ i: number }>(
        (d) => pad(`d${d.i}`),
        (r) => out.push(r),
        slice,
        (fn) => later.push(fn),
        sliceChars,
      );
      drain.add(deliveries, posts);
      expect(out).toHaveLength(1); // the first slice in the task of the hand-over, the rest in later tasks
      while (later.length) {
        later.shift()?.();
      }
      expect(out.flat()).toEqual(expected);
      for (const r of out) {
        const chars = r.reduce((n, x) => n + x.length, 0);
        expect(chars - r[r.length - 1].length).toBeLessThan(sliceChars);
        expect(r.filter((x) => x.startsWith('"d')).length).toBeLessThanOrEqual(slice);
      }
    });
  }
});
