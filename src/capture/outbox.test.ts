import { afterAll, describe, expect, it, vi } from 'vitest';

// The outbox captures the timer functions when it loads (before any page script could replace them):
// load it under fake timers.
vi.useFakeTimers();
const {
  HAND_OVER_CHARS,
  LIGHT_CHARS,
  LIGHT_WAIT_MS,
  MAX_HELD_CHARS,
  MAX_HELD_ENTRIES,
  MAX_QUIET_MS,
  MAX_WAIT_MS,
  PER_POST_CHAR_MS,
  PER_POST_MS,
  QUIET_MS,
  Outbox,
} = await import('./outbox.ts');
// The fake clock (Date.now is faked with the timers).
const clock = () => Date.now();

/** An outbox whose hand-overs are kept as lists of record ids. */
function outbox() {
  const events: string[][] = [];
  const box = new Outbox<string>(clock, (entries) => {
    expect(entries.length).toBeGreaterThan(0);
    events.push(entries.map((e) => JSON.parse(e).id));
  });
  return { box, events, flat: () => events.flat() };
}
const rec = (id: string, pad = 0) => JSON.stringify({ id, pad: 'x'.repeat(pad) });
const add = (box: InstanceType<typeof Outbox<string>>, json: string) => box.add(json, json.length);

describe('Outbox: one ordered outbox per frame', () => {
  afterAll(() => {
    vi.useRealTimers();
  });

  // Each row: what the frame did, in order; what the relay must get, in order.
  // 'r:x' a delivery, 'p:x' a post reserved (its JSON written at the end of the task), 'f:x' that post filled,
  // 'u:x' that post found unreadable, 'F' a synchronous flush (pagehide).
  const CASES: Array<[string, string[], string[]]> = [
    ['a delivery, then posts from its handler', ['r:ready', 'p:a1', 'p:a2', 'f:a1', 'f:a2'], ['ready', 'a1', 'a2']],
    ['posts, then a delivery of a later task', ['p:a', 'f:a', 'r:b'], ['a', 'b']],
    ['a synchronous delivery between a post and the end of its task', ['p:a', 'r:b', 'f:a'], ['a', 'b']],
    [
      'pagehide in the middle of a task keeps the reserved post and what follows',
      ['r:x', 'p:a', 'r:y', 'F', 'f:a'],
      ['x', 'a', 'y'],
    ],
    ['an unreadable post is skipped, not held', ['p:a', 'u:a', 'r:b'], ['b']],
  ];
  for (const [name, steps, expected] of CASES) {
    it(name, () => {
      const { box, flat } = outbox();
      const slots = new Map<string, number>();
      for (const s of steps) {
        const [op, id] = s.split(':');
        if (op === 'r') {
          add(box, rec(id));
        } else if (op === 'p') {
          slots.set(id, box.reserve());
        } else if (op === 'f') {
          box.fill(slots.get(id)!, rec(id), rec(id).length);
        } else if (op === 'u') {
          box.fill(slots.get(id)!, null, 0);
        } else {
          box.flush();
        }
      }
      vi.advanceTimersByTime(MAX_WAIT_MS);
      expect(flat()).toEqual(expected);
    });
  }

  it('a delivery leaves after QUIET_MS without a new record, in one event with those before it', () => {
    const { box, events } = outbox();
    for (let i = 0; i < 100; i++) {
      add(box, rec(String(i)));
    }
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toHaveLength(1);
    expect(events[0]).toHaveLength(100);
  });

  it('a steady light stream that never goes quiet still leaves within LIGHT_WAIT_MS (+ one tick)', () => {
    const { box, flat } = outbox();
    add(box, rec('0'));
    for (let i = 1; i < 30; i++) {
      vi.advanceTimersByTime(10);
      add(box, rec(String(i)));
    }
    expect(flat()).toContain('0');
    expect(flat().length).toBeGreaterThanOrEqual(LIGHT_WAIT_MS / 10);
  });

  it('a burst is held while it lasts (not past MAX_WAIT_MS) and leaves once the frame is quiet', () => {
    const { box, events, flat } = outbox();
    const n = 3000;
    // One record a ms, twice as heavy as a light stream.
    const pad = (2 * LIGHT_CHARS) / LIGHT_WAIT_MS;
    for (let i = 0; i < n; i++) {
      add(box, rec(String(i), pad));
      vi.advanceTimersByTime(1);
    }
    expect(events).toEqual([]);
    vi.advanceTimersByTime(QUIET_MS);
    expect(flat()).toEqual(Array.from({ length: n }, (_, i) => String(i)));
  });

  // When a frame hands over: each row, what it recorded ('p' posts of one task, 'r' deliveries, one a ms), at which
  // ms after the first entry; the hand-over is due QUIET_MS after the last entry, longer by PER_POST_CHAR_MS per
  // character of post JSON held and by PER_POST_MS per post held (a heavy burst: nothing leaves earlier), and not a
  // timer period later.
  const QUIET_CASES: Array<[string, Array<[at: number, kind: 'p' | 'r', n: number, pad: number]>]> = [
    ['5,000 posts of 200 B in one task', [[0, 'p', 5000, 200]]],
    ['1,000 posts of 200 B in one task', [[0, 'p', 1000, 200]]],
    ['1,000 posts of 10 KB in one task', [[0, 'p', 1000, 10_000]]],
    ['a burst of deliveries, its last 30 ms after its first', [[0, 'r', 31, 4000]]],
    [
      'posts, then deliveries that end 20 ms later',
      [
        [0, 'p', 500, 200],
        [0, 'r', 21, 4000],
      ],
    ],
    [
      'deliveries, then posts from a handler 10 ms later',
      [
        [0, 'r', 1, 70_000],
        [10, 'p', 2000, 200],
      ],
    ],
  ];
  for (const [name, steps] of QUIET_CASES) {
    it(`hands over a quiet period after its last entry: ${name}`, () => {
      const { box, flat } = outbox();
      const ids: string[] = [];
      let t = 0;
      let postChars = 0;
      let posts = 0;
      for (const [at, kind, n, pad] of steps) {
        vi.advanceTimersByTime(at - t);
        t = at;
        if (kind === 'p') {
          const slots = Array.from({ length: n }, () => box.reserve());
          for (const [i, slot] of slots.entries()) {
            const json = rec(`p${at}.${i}`, pad);
            box.fill(slot, json, json.length);
            postChars += json.length;
            posts++;
            ids.push(`p${at}.${i}`);
          }
        } else {
          for (let i = 0; i < n; i++) {
            if (i > 0) {
              vi.advanceTimersByTime(1);
              t++;
            }
            add(box, rec(`r${t}`, pad));
            ids.push(`r${t}`);
          }
        }
      }
      const quiet = Math.ceil(Math.min(MAX_QUIET_MS, QUIET_MS + postChars * PER_POST_CHAR_MS + posts * PER_POST_MS));
      vi.advanceTimersByTime(quiet - 1);
      expect(flat()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(flat()).toEqual(ids);
    });
  }

  it('holds a burst of 20,000 posts of 10 KB in one task whole until its quiet period ends', () => {
    const handed: number[] = [];
    const box = new Outbox<number>(clock, (entries) => handed.push(entries.length));
    const chars = 10_300; // a 10 KB envelope's record JSON
    const slots = Array.from({ length: 20_000 }, () => box.reserve());
    for (const [i, slot] of slots.entries()) {
      box.fill(slot, i, chars);
    }
    const quiet = Math.ceil(Math.min(MAX_QUIET_MS, QUIET_MS + slots.length * (chars * PER_POST_CHAR_MS + PER_POST_MS)));
    vi.advanceTimersByTime(quiet - 1);
    expect(handed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(handed).toEqual([20_000]);
  });

  it('a frame that handed its posts over waits only for the posts it has held since', () => {
    const { box, flat } = outbox();
    const post = (id: string) => {
      const json = rec(id, 200);
      box.fill(box.reserve(), json, json.length);
      return json.length;
    };
    for (let i = 0; i < 5000; i++) {
      post(`a${i}`);
    }
    box.flush(); // asked: the receiver's burst ended
    expect(flat().length).toBe(5000);
    // More than a light stream holds (that leaves by LIGHT_WAIT_MS whatever was posted before).
    const n = 400;
    let chars = 0;
    for (let i = 0; i < n; i++) {
      chars += post(`b${i}`);
    }
    expect(chars).toBeGreaterThan(LIGHT_CHARS);
    const quiet = Math.ceil(QUIET_MS + chars * PER_POST_CHAR_MS + n * PER_POST_MS);
    vi.advanceTimersByTime(quiet - 1);
    expect(flat().length).toBe(5000);
    vi.advanceTimersByTime(1);
    expect(flat().slice(5000)).toEqual(Array.from({ length: n }, (_, i) => `b${i}`));
  });

  it('a steady stream of 10 small envelopes every 4 ms is handed over while it lasts', () => {
    const { box, flat } = outbox();
    const envelope = rec('x', 300);
    let n = 0;
    for (let t = 0; t < 1000; t += 4) {
      for (let k = 0; k < 10; k++) {
        add(box, rec(String(n++), envelope.length - rec('', 0).length));
      }
      vi.advanceTimersByTime(4);
    }
    // Everything but the last LIGHT_WAIT_MS of the stream has left before it ends.
    expect(flat().length).toBeGreaterThan(n - (LIGHT_WAIT_MS / 4 + 1) * 10);
    vi.advanceTimersByTime(QUIET_MS);
    expect(flat()).toEqual(Array.from({ length: n }, (_, i) => String(i)));
  });

  // Why a frame hands over decides whether it tells the background that a burst it received ended (relay.ts: the
  // frames that posted it hand over then). Each row: what the frame did; the `burstEnd` flag of each hand-over.
  const WHY_CASES: Array<[string, (box: InstanceType<typeof Outbox<string>>) => void, boolean[]]> = [
    [
      'a burst, then its quiet period',
      (box) => {
        for (let i = 0; i < 1000; i++) {
          add(box, rec(`r${i}`, 400));
        }
        vi.advanceTimersByTime(MAX_WAIT_MS);
      },
      [true],
    ],
    [
      'a few deliveries, then a quiet period',
      (box) => {
        add(box, rec('expect'));
        vi.advanceTimersByTime(MAX_WAIT_MS);
      },
      [false],
    ],
    [
      'a light stream',
      (box) => {
        add(box, rec('a'));
        vi.advanceTimersByTime(LIGHT_WAIT_MS / 2);
        add(box, rec('b'));
        vi.advanceTimersByTime(LIGHT_WAIT_MS / 2);
      },
      [false],
    ],
    [
      'a stream that never goes quiet',
      (box) => {
        for (let t = 0; t < MAX_WAIT_MS; t += 5) {
          add(box, rec(String(t), 10_000));
          vi.advanceTimersByTime(5);
        }
      },
      [false],
    ],
    [
      'past the bound of entries, in tasks of their own',
      (box) => {
        for (let i = 0; i < MAX_HELD_ENTRIES; i++) {
          box.add('r', 1);
        }
        vi.advanceTimersByTime(0);
      },
      [false],
    ],
    [
      'a flush (pagehide, an ask)',
      (box) => {
        add(box, rec('a'));
        box.flush();
        vi.advanceTimersByTime(MAX_WAIT_MS);
      },
      [false],
    ],
  ];
  for (const [name, run, expected] of WHY_CASES) {
    it(`says why it hands over: ${name}`, () => {
      const why: boolean[] = [];
      const box = new Outbox<string>(clock, (_entries, burstEnd) => why.push(burstEnd));
      run(box);
      expect(why).toEqual(expected);
    });
  }

  it('a stream that never goes quiet hands over by MAX_WAIT_MS', () => {
    const { box, events } = outbox();
    for (let t = 0; t <= MAX_WAIT_MS + QUIET_MS; t += 5) {
      add(box, rec(String(t), 1000));
      vi.advanceTimersByTime(5);
    }
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events[0].length).toBeLessThanOrEqual((MAX_WAIT_MS + QUIET_MS) / 5 + 1);
    vi.advanceTimersByTime(QUIET_MS);
  });

  // Past a bound of what a frame holds. Each row: how the frame recorded `n` entries of `chars` characters each —
  // 'posts' all in one task (written at its end), 'deliveries' one a task, 'no-yield' with no task run between
  // them (a page posting from a chain of microtasks) — and whether a hand-over may run inside the page's own task.
  // Whatever the row: nothing lost, in order; a hand-over in a task of its own carries at most HAND_OVER_CHARS
  // (and one entry); the frame never holds more than twice a bound (and one entry).
  const BOUND_CASES: Array<[string, 'posts' | 'deliveries' | 'no-yield', number, number, boolean]> = [
    ['one task posts three times the bound of characters', 'posts', 3 * (MAX_HELD_CHARS / 10_000), 10_000, false],
    [
      'deliveries of 10 KB past the bound of characters',
      'deliveries',
      2 * (MAX_HELD_CHARS / 10_000) + 7,
      10_000,
      false,
    ],
    ['small deliveries past the bound of entries', 'deliveries', MAX_HELD_ENTRIES + 10, 400, false],
    [
      'a page that never yields: three times the bound of characters',
      'no-yield',
      3 * (MAX_HELD_CHARS / 10_000),
      10_000,
      true,
    ],
    ['a page that never yields: three times the bound of entries', 'no-yield', 3 * MAX_HELD_ENTRIES, 100, true],
  ];
  for (const [name, kind, n, chars, inPageTask] of BOUND_CASES) {
    it(`past a bound: ${name}`, () => {
      let inTask = false;
      let handed = 0;
      let added = 0;
      let maxHeld = 0;
      const own: number[] = [];
      const inPage: number[] = [];
      const ids: string[] = [];
      const box = new Outbox<string>(clock, (entries) => {
        (inTask ? inPage : own).push(entries.length);
        handed += entries.length;
        for (const e of entries) {
          ids.push(e);
        }
      });
      const page = (fn: () => void) => {
        inTask = true;
        fn();
        inTask = false;
        maxHeld = Math.max(maxHeld, added - handed);
      };
      if (kind === 'posts') {
        page(() => {
          const slots = Array.from({ length: n }, () => box.reserve());
          for (const [i, slot] of slots.entries()) {
            box.fill(slot, String(i), chars);
            added++;
          }
        });
      } else {
        for (let i = 0; i < n; i++) {
          page(() => {
            box.add(String(i), chars);
            added++;
          });
          if (kind === 'deliveries') {
            vi.advanceTimersByTime(0); // the tasks due run between deliveries
          }
        }
      }
      vi.advanceTimersByTime(MAX_WAIT_MS);
      expect(ids).toEqual(Array.from({ length: n }, (_, i) => String(i)));
      expect(inPage.length > 0).toBe(inPageTask);
      expect(Math.max(...own) * chars).toBeLessThanOrEqual(HAND_OVER_CHARS + chars);
      if (kind !== 'posts') {
        expect(maxHeld * chars).toBeLessThan(2 * MAX_HELD_CHARS + chars);
        expect(maxHeld).toBeLessThanOrEqual(2 * MAX_HELD_ENTRIES);
      }
    });
  }

  // Hand-overs in parts of about `part` characters (page.ts: one event to the relay each). Each row: the sizes of
  // the entries held, the part, and at which call of `handOver` the receiver flushes from inside it (the relay
  // asks for every post before it hands its deliveries over; 0: never). Whatever the row: each call carries at
  // most `part` characters and one entry; the entries leave in order, each once, all within the flush.
  const PART_CASES: Array<[string, number[], number, number]> = [
    ['parts of several entries', Array(20).fill(300), 1000, 0],
    ['an entry longer than a part goes alone', [100, 5000, 100, 100], 1000, 0],
    ['a flush from inside the first part takes the rest after it', Array(20).fill(300), 1000, 1],
    ['a flush from inside a later part', Array(50).fill(250), 1000, 3],
  ];
  for (const [name, sizes, part, nestedAt] of PART_CASES) {
    it(`hands over in parts: ${name}`, () => {
      const calls: number[][] = [];
      const box: InstanceType<typeof Outbox<number>> = new Outbox<number>(
        clock,
        (entries) => {
          calls.push(entries);
          if (calls.length === nestedAt) {
            box.flush();
          }
        },
        part,
      );
      for (const [i, n] of sizes.entries()) {
        box.add(i, n);
      }
      box.flush();
      expect(calls.flat()).toEqual(sizes.map((_, i) => i));
      expect(box.size).toBe(0);
      for (const c of calls) {
        const chars = c.reduce((n, i) => n + sizes[i], 0);
        expect(chars - sizes[c[c.length - 1]]).toBeLessThan(part);
      }
    });
  }

  it('does not hand over a post before the end of its task, even when the wait bound passes', () => {
    const { box, flat } = outbox();
    add(box, rec('a'));
    const slot = box.reserve();
    vi.advanceTimersByTime(MAX_WAIT_MS);
    expect(flat()).toEqual([]);
    box.fill(slot, rec('p'), rec('p').length);
    vi.advanceTimersByTime(MAX_WAIT_MS);
    expect(flat()).toEqual(['a', 'p']);
  });
});
