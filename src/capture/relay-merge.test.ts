import { describe, expect, it } from 'vitest';
import { joinInChunks, mergeInOrder, parsePosts, postLine, type PagePost } from './relay-merge.ts';

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
  parsePosts(lines.join('\n'), posts);
  return { deliveries, posts };
}

describe('the frame order rebuilt from the relay deliveries and the page posts', () => {
  for (const [name, story] of CASES) {
    it(name, () => {
      const { deliveries, posts } = split(story);
      expect(mergeInOrder(deliveries, posts, (d) => JSON.stringify(`d${d.i}`))).toEqual(
        story.map((s) => JSON.stringify(s)),
      );
    });
  }

  it('a delivery not recorded (paused) keeps the numbers of the others, and the posts their place', () => {
    const story = ['d0', 'p:a', 'd1', 'p:b', 'd2'];
    const { deliveries, posts } = split(story, (i) => i !== 1);
    expect(mergeInOrder(deliveries, posts, (d) => JSON.stringify(`d${d.i}`))).toEqual(
      ['d0', 'p:a', 'p:b', 'd2'].map((s) => JSON.stringify(s)),
    );
  });

  it('a delivery that cannot be written is left out, and nothing else', () => {
    const { deliveries, posts } = split(['d0', 'p:a', 'd1']);
    expect(mergeInOrder(deliveries, posts, (d) => (d.i === 0 ? '' : '"d1"'))).toEqual(['"p:a"', '"d1"']);
  });

  it('record JSON with escaped newlines and tabs in its strings survives the lines', () => {
    const json = JSON.stringify({ text: 'a\nb\tc', url: 'http://x/?q=\t' });
    const posts: PagePost[] = [];
    parsePosts([postLine(3, json), postLine(4, json)].join('\n'), posts);
    expect(posts).toEqual([
      { after: 3, json },
      { after: 4, json },
    ]);
  });

  it('a line that does not parse is dropped, never thrown', () => {
    const posts: PagePost[] = [];
    parsePosts(['x\t{}', '', '2', '5\t{"ok":1}', '-1\t{}'].join('\n'), posts);
    expect(posts).toEqual([{ after: 5, json: '{"ok":1}' }]);
  });
});

describe('joinInChunks', () => {
  const run = (parts: string[], max: number) => {
    const out: string[] = [];
    joinInChunks(parts, ',', max, (j) => out.push(j));
    return out;
  };
  it.each([
    ['nothing', [], 10, []],
    ['all in one', ['a', 'b', 'c'], 10, ['a,b,c']],
    ['split before the bound', ['aaaa', 'bbbb', 'cccc'], 10, ['aaaa,bbbb', 'cccc']],
    ['a part over the bound goes alone', ['a', 'x'.repeat(20), 'b'], 10, ['a', 'x'.repeat(20), 'b']],
  ] as Array<[string, string[], number, string[]]>)('%s', (_name, parts, max, expected) => {
    expect(run(parts, max)).toEqual(expected);
    expect(run(parts, max).join(',')).toBe(parts.join(','));
  });
});
