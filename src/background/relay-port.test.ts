import { describe, expect, it, vi } from 'vitest';
import { MESSAGES_VERSION, type BackgroundToRelay, type RelayToBackground } from '../shared/messages.ts';
import { stamp } from '../shared/channel.ts';
import { RelayPort } from './relay-port.ts';
import { fakePort } from '../../test/helpers/background-fakes.ts';

const TAB = 7;

function setup() {
  const p = fakePort<RelayToBackground, BackgroundToRelay>('capture');
  const drop = vi.fn();
  const relay = new RelayPort(p.port, TAB, 3, drop);
  return { p, relay, drop };
}

describe('relay port', () => {
  it.each([
    ['full', false],
    ['receive-only', false],
    [null, true],
  ] as const)('a hello in mode %s: out of scope is %s', (mode, out) => {
    const { relay } = setup();
    relay.hello('https://host.example', mode);
    expect(relay.origin).toBe('https://host.example');
    expect(relay.mode).toBe(mode);
    expect(relay.outOfScope).toBe(out);
  });

  it('a scope change takes the frame out of scope (its batches are then let go)', () => {
    const { relay } = setup();
    relay.hello('https://ads.example', 'receive-only');
    relay.rescope(null);
    expect(relay.outOfScope).toBe(true);
    expect(relay.origin).toBe('https://ads.example');
  });

  it('what it sends reaches the relay stamped with this version', () => {
    const { p, relay } = setup();
    relay.ack(4);
    relay.config({ receiveOnly: true, paused: false, maxBytes: 4096 });
    expect(p.sent).toEqual([
      stamp<BackgroundToRelay>({ type: 'ack', batch: 4 }),
      stamp<BackgroundToRelay>({ type: 'config', config: { receiveOnly: true, paused: false, maxBytes: 4096 } }),
    ]);
    expect(p.sent.map((m) => (m as { v?: number }).v)).toEqual([MESSAGES_VERSION, MESSAGES_VERSION]);
  });

  it('posting to a port that is gone says so instead of throwing', () => {
    const { p, relay } = setup();
    p.close();
    relay.closed();
    expect(relay.gone).toBe(true);
    expect(relay.post({ type: 'flush', id: 'x' })).toBe(false);
    expect(() => relay.ack(1)).not.toThrow();
  });

  it('hears the relay hop of this version and drops, with its reason, a message of another', () => {
    const { p, relay, drop } = setup();
    const heard: RelayToBackground[] = [];
    relay.channel.listen((m) => heard.push(m));
    const flushed = stamp<RelayToBackground>({ type: 'flushed', id: 'x' });
    p.deliver(flushed);
    p.deliver({ ...flushed, v: flushed.v + 1 } as unknown as RelayToBackground);
    expect(heard).toEqual([flushed]);
    expect(drop).toHaveBeenCalledTimes(1);
  });
});
