import { describe, expect, it, vi } from 'vitest';
import { MESSAGES_VERSION, newTabState, type BackgroundToRelay, type RelayToBackground } from '../shared/messages.ts';
import { stamp } from '../shared/channel.ts';
import type { FrameInfo } from './pairing.ts';
import { RelayPort } from './relay-port.ts';
import { SEND_TIMEOUT_MS, SendRouting, type SendRequest } from './send-routing.ts';
import type { TabLogView } from './tablog.ts';
import { useFakeApi, fakePort } from '../../test/helpers/background-fakes.ts';

const TAB = 7;
const HOST = 'https://host.example';
const TENANT = 'https://acme.example.com';
const EMBED_URL = `${TENANT}/embed/dashboard`;
const ADS_URL = 'https://ads.example/frame';
/** A capture script of an older or newer build of the extension. */
const ANOTHER_VERSION = MESSAGES_VERSION + 1;

const fake = useFakeApi();

function setup(frames: FrameInfo[], opts: { tenant?: string | null; manual?: boolean; ports?: number[] } = {}) {
  const tenantOrigin = opts.tenant === undefined ? TENANT : opts.tenant;
  const log: TabLogView = {
    records: new Map(),
    nextSeq: 1,
    frames: new Map(frames.map((f) => [f.frameId, f])),
    state: newTabState(TAB, {
      tenantOrigin,
      tenantOriginSource: tenantOrigin ? (opts.manual ? 'manual' : 'embed-frame') : null,
    }),
    sessionBase: null,
  };
  const ports = new Map(
    (opts.ports ?? frames.map((f) => f.frameId)).map((id) => {
      const p = fakePort<RelayToBackground, BackgroundToRelay>('capture');
      return [id, { ...p, relay: new RelayPort(p.port, TAB, id) }];
    }),
  );
  const routing = new SendRouting(
    TAB,
    () => log,
    (id) => ports.get(id)?.relay,
  );
  const replies: Array<{ id: string; ok: boolean; error?: string }> = [];
  const send = (over: Partial<SendRequest>) =>
    routing.route(
      { type: 'send', tabId: TAB, id: 's1', from: 'embed', data: { type: 'x' }, targetOrigin: '*', ...over },
      (m) => replies.push(m),
    );
  const posts = (id: number) => ports.get(id)?.sent.filter((m) => m.type === 'post') ?? [];
  return { routing, send, replies, posts };
}

const top: FrameInfo = { frameId: 0, parentFrameId: -1, url: `${HOST}/` };
const embed: FrameInfo = { frameId: 3, parentFrameId: 0, url: EMBED_URL };
const ads: FrameInfo = { frameId: 5, parentFrameId: 0, url: ADS_URL };

const NO_EMBED = 'no embed frame on the tenant origin in this tab';
const NO_TENANT = 'the tenant origin is not known yet (no embed frame has spoken): set it by hand to send';

describe('send routing: which frame posts (only an embed frame on the tenant origin)', () => {
  it.each([
    ['by its address', [top, embed, ads], {}, EMBED_URL, 3],
    ['by its origin', [top, embed, ads], {}, `${TENANT}/other/page`, 3],
    ['the embed frame of the tenant origin', [top, embed, ads], {}, undefined, 3],
    [
      'with a tenant origin set by hand, any frame on it',
      [top, embed, ads],
      { tenant: 'https://ads.example', manual: true },
      ADS_URL,
      5,
    ],
    ['none: a frame that is not at an embed address, even named', [top, embed, ads], {}, ADS_URL, NO_EMBED],
    ['none: a lone frame that is not an embed', [top, ads], {}, undefined, NO_EMBED],
    ['none: no child frame', [top], {}, undefined, NO_EMBED],
    ['none: the tenant origin not known', [top, embed, ads], { tenant: null }, EMBED_URL, NO_TENANT],
  ] as const)('an embed send picks the frame %s', (_what, frames, opts, frameUrl, expected) => {
    const t = setup([...frames], opts);
    t.send({ from: 'embed', frameUrl });
    if (typeof expected === 'string') {
      expect(t.replies).toEqual([{ type: 'send-result', id: 's1', ok: false, error: expected }]);
      return;
    }
    expect(t.posts(expected)).toEqual([
      stamp<BackgroundToRelay>({ type: 'post', id: 's1', target: 'parent', data: { type: 'x' }, targetOrigin: '*' }),
    ]);
  });

  it("a host send posts from the top frame to the tenant's embed frame, never to another frame", () => {
    const t = setup([top, embed, ads]);
    t.send({ id: 'h1', from: 'host' });
    t.send({ id: 'h2', from: 'host', frameUrl: ADS_URL });
    expect(t.posts(0)).toMatchObject([{ id: 'h1', target: 'child', childUrl: EMBED_URL }]);
    expect(t.replies).toEqual([{ type: 'send-result', id: 'h2', ok: false, error: NO_EMBED }]);
    expect(t.posts(3)).toEqual([]);
  });
});

describe('send routing: the answer', () => {
  it("the frame's answer goes to the send's reply, once", () => {
    const t = setup([top, embed]);
    t.send({ id: 'a', frameUrl: EMBED_URL });
    t.routing.answered(
      stamp<RelayToBackground>({ type: 'post-result', id: 'a', ok: false, error: 'no such frame' }) as never,
    );
    t.routing.answered(stamp<RelayToBackground>({ type: 'post-result', id: 'a', ok: true }) as never);
    expect(t.replies).toEqual([{ type: 'send-result', id: 'a', ok: false, error: 'no such frame' }]);
  });

  it('a frame that does not answer in SEND_TIMEOUT_MS fails the send', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const t = setup([top, embed]);
    t.send({ id: 'slow', frameUrl: EMBED_URL });
    vi.advanceTimersByTime(SEND_TIMEOUT_MS - 1);
    expect(t.replies).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(t.replies).toEqual([{ type: 'send-result', id: 'slow', ok: false, error: 'the frame did not answer' }]);
  });

  it('a port closed in the middle of the post fails the send at once', () => {
    const t = setup([top, embed]);
    const relay = fakePort<RelayToBackground, BackgroundToRelay>('capture');
    relay.port.disconnect();
    const routing = new SendRouting(
      TAB,
      () => ({
        records: new Map(),
        nextSeq: 1,
        frames: new Map([[3, embed]]),
        state: newTabState(TAB, { tenantOrigin: TENANT, tenantOriginSource: 'embed-frame' }),
        sessionBase: null,
      }),
      () => new RelayPort(relay.port, TAB, 3),
    );
    routing.route({ type: 'send', tabId: TAB, id: 'g', from: 'embed', data: 1, targetOrigin: '*' }, (m) =>
      t.replies.push(m),
    );
    expect(t.replies).toEqual([{ type: 'send-result', id: 'g', ok: false, error: 'the frame is gone' }]);
  });

  it.each([
    [
      'the relay answers',
      async () => stamp<RelayToBackground>({ type: 'post-result', id: 'f', ok: true }),
      { ok: true },
    ],
    [
      'no capture script answers',
      async () => Promise.reject(new Error('Receiving end does not exist.')),
      { ok: false, error: expect.stringMatching(/no capture script/) },
    ],
    [
      'a capture script of another version answers',
      async () => ({
        ...stamp<RelayToBackground>({ type: 'post-result', id: 'f', ok: true }),
        v: ANOTHER_VERSION,
      }),
      { ok: false, error: expect.stringMatching(/another version/) },
    ],
  ])('without a port, tabs.sendMessage reaches the frame: %s', async (_what, answer, expected) => {
    const t = setup([top, embed], { ports: [] });
    fake.env.sendMessage.mockImplementationOnce(answer);
    t.send({ id: 'f', frameUrl: EMBED_URL });
    await vi.waitFor(() => expect(t.replies).toHaveLength(1));
    expect(t.replies[0]).toEqual({ type: 'send-result', id: 'f', ...expected });
    expect(fake.env.sendMessage).toHaveBeenCalledWith(
      TAB,
      stamp<BackgroundToRelay>({ type: 'post', id: 'f', target: 'parent', data: { type: 'x' }, targetOrigin: '*' }),
      { frameId: 3 },
    );
  });
});
