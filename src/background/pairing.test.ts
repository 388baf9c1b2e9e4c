import { describe, expect, it } from 'vitest';
import { judgeDropped, Pairer, type FrameTree } from './pairing.ts';
import type { ClassifiedRecord } from '../shared/messages.ts';

const HOST = 'https://host.example';
const TENANT = 'https://acme.example.com';
const frames = (...list: Array<[number, number, string]>): FrameTree =>
  new Map(list.map(([frameId, parentFrameId, url]) => [frameId, { frameId, parentFrameId, url }]));
const post = (target: string, targetOrigin: string, frameId = 0, origin = HOST): ClassifiedRecord =>
  ({
    seq: 1,
    time: 1,
    kind: 'post',
    frameUrl: `${origin}/`,
    origin,
    target,
    targetOrigin,
    data: 'x',
    frameId,
    verdict: 'foreign',
    issues: [],
  }) as ClassifiedRecord;

const top = [0, -1, `${HOST}/`] as [number, number, string];
/** The tree with frame `id` opaque (the browser said its origin is 'null'). */
const opaque = (tree: FrameTree, id: number): FrameTree =>
  new Map([...tree].map(([k, f]) => [k, k === id ? { ...f, opaque: true } : f]));
const embed = [3, 0, `${TENANT}/embed/dashboard/a`] as [number, number, string];
const blank = [4, 0, 'about:blank'] as [number, number, string];
const srcdoc = [5, 0, 'about:srcdoc'] as [number, number, string];

describe('judgeDropped (a post the browser did not deliver: its target origin matches no possible target frame)', () => {
  it.each([
    ['child post to the tenant origin', post('child', TENANT), frames(top, embed), false],
    ['child post to a wrong origin', post('child', 'https://wrong.example'), frames(top, embed), true],
    ['child post with "*" cannot be judged', post('child', '*'), frames(top, embed), undefined],
    ['"/" means the poster\'s own origin', post('child', '/'), frames(top, embed), true],
    // about:blank and srcdoc children have their creator's origin, so they can be judged too
    [
      'wrong origin, with an about:blank sibling',
      post('child', 'https://wrong.example'),
      frames(top, embed, blank),
      true,
    ],
    ['the host origin reaches an about:blank child', post('child', HOST), frames(top, embed, blank), false],
    ['the host origin reaches a srcdoc child', post('child', HOST), frames(top, srcdoc), false],
    ['parent post from the embed to the host', post('parent', HOST, 3, TENANT), frames(top, embed), false],
    [
      'parent post from the embed to a wrong origin',
      post('parent', 'https://wrong.example', 3, TENANT),
      frames(top, embed),
      true,
    ],
    ['unknown frame tree cannot be judged', post('parent', HOST, 9, TENANT), frames(top), undefined],
    // A sandboxed embed without allow-same-origin: its origin is 'null' whatever its address says.
    ['child post to an opaque frame’s address origin', post('child', TENANT), opaque(frames(top, embed), 3), true],
    ['child post with "*" to an opaque frame', post('child', '*'), opaque(frames(top, embed), 3), undefined],
    [
      'a post that threw is not "dropped"',
      { ...post('child', 'https://wrong.example'), error: 'SyntaxError' },
      frames(top, embed),
      undefined,
    ],
  ] as Array<[string, ClassifiedRecord, FrameTree, boolean | undefined]>)('%s', (_name, rec, tree, want) => {
    expect(judgeDropped(rec, tree)).toBe(want);
  });
});

/** A post from the top frame to the embed, or its delivery there. */
const flow = (kind: 'post' | 'receive', seq: number, time: number, data: unknown): ClassifiedRecord =>
  ({
    seq,
    time,
    kind,
    frameUrl: kind === 'post' ? `${HOST}/` : `${TENANT}/embed/dashboard/a`,
    origin: HOST,
    target: kind === 'post' ? 'child' : undefined,
    targetOrigin: kind === 'post' ? TENANT : undefined,
    from: kind === 'receive' ? 'parent' : undefined,
    data,
    frameId: kind === 'post' ? 0 : 3,
    verdict: 'foreign',
    issues: [],
  }) as ClassifiedRecord;

describe('Pairer: a flood whose posts all come before their deliveries', () => {
  const tree = frames(top, embed);
  const rec = (kind: 'post' | 'receive', i: number) => flow(kind, kind === 'post' ? i : 1_000_000 + i, i, { n: i });
  // (flood size, the tab's log bound, posts paired): every post is paired while the flood fits the bound.
  it.each([
    [3_000, 50_000, 3_000],
    [30_000, 50_000, 30_000],
    [40_000, 100_000, 40_000],
  ])(
    '%i posts, then their deliveries, with a log bound of %i: %i paired',
    (n, bound, paired) => {
      const pairer = new Pairer(
        () => tree,
        () => bound,
      );
      const posts = Array.from({ length: n }, (_, i) => rec('post', i));
      for (const p of posts) {
        expect(pairer.add(p)).toBeNull();
      }
      for (let i = 0; i < n; i++) {
        pairer.add(rec('receive', i));
      }
      expect(posts.filter((p) => p.pairedWith === 1_000_000 + p.seq).length).toBe(paired);
    },
    20_000,
  ); // (tens of thousands of records: a loaded machine's unit run is slow, not wrong)
});

describe('Pairer: long messages (past the sampled key)', () => {
  const tree = frames(top, embed);
  const rec = (kind: 'post' | 'receive', seq: number, data: unknown) => flow(kind, seq, seq, data);
  // 10,000 characters of text: the key samples the first and last 512 and every ~8th between.
  const long = (at: number, c: string) => {
    const chars = Array.from({ length: 10_000 }, (_, i) => String.fromCharCode(97 + (i % 26)));
    chars[at] = c;
    return { source: 'svc-embed', type: 'svc:event:view', payload: { text: chars.join('') } };
  };

  it('pairs a delivery with its post, each read from its own text', () => {
    const pairer = new Pairer(() => tree);
    const data = long(0, 'a');
    expect(pairer.add(rec('post', 1, JSON.parse(JSON.stringify(data))))).toBeNull();
    expect(pairer.add(rec('receive', 2, JSON.parse(JSON.stringify(data))))?.seq).toBe(1);
  });

  it('does not pair data that differ only where the key does not look', () => {
    const pairer = new Pairer(() => tree);
    const a = rec('post', 1, long(600, 'a'));
    const b = rec('receive', 2, long(600, 'Z'));
    expect(JSON.stringify(a.data).length).toBeGreaterThan(2048);
    expect(pairer.add(a)).toBeNull();
    expect(pairer.add(b)).toBeNull();
    expect(a.pairedWith).toBeUndefined();
    // Its own post comes later and takes it.
    expect(pairer.add(rec('post', 3, long(600, 'Z')))?.seq).toBe(2);
  });

  it('pairs the same JSON with values JSON writes alike (a NaN and a null)', () => {
    const pairer = new Pairer(() => tree);
    expect(pairer.add(rec('post', 1, { ...long(0, 'a'), n: Number.NaN }))).toBeNull();
    expect(pairer.add(rec('receive', 2, { ...long(0, 'a'), n: null }))?.seq).toBe(1);
  });
});
