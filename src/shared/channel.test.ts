import { describe, expect, it } from 'vitest';
import {
  accept,
  backgroundPanelChannel,
  dispatch,
  type Handlers,
  panelChannel,
  readRelayToPage,
  relayToPageDetail,
  stamp,
  type Wall,
} from './channel.ts';
import { MESSAGES_VERSION, type BackgroundToRelay, type PanelToBackground } from './messages.ts';

/** Two walls joined: what one posts, the other's listeners hear (as a runtime Port pair). */
function pipe(): [Wall, Wall] {
  const make = (deliver: (m: unknown) => void, listeners: Set<(m: unknown) => void>): Wall => ({
    postMessage: (m) => deliver(structuredClone(m)),
    onMessage: { addListener: (fn) => listeners.add(fn), removeListener: (fn) => listeners.delete(fn) },
  });
  const a = new Set<(m: unknown) => void>();
  const b = new Set<(m: unknown) => void>();
  const each = (fns: Set<(m: unknown) => void>, m: unknown) => {
    for (const fn of fns) {
      fn(m);
    }
  };
  return [make((m) => each(b, m), a), make((m) => each(a, m), b)];
}

describe('channel', () => {
  it('stamps what a sender writes with the version, and the other end hears it', () => {
    const [panelWall, bgWall] = pipe();
    const heard: PanelToBackground[] = [];
    backgroundPanelChannel(bgWall).listen((m) => heard.push(m));
    panelChannel(panelWall).send({ type: 'clear', tabId: 3 });
    expect(heard).toEqual([{ type: 'clear', tabId: 3, v: MESSAGES_VERSION }]);
  });

  it.each([
    ['another version', { v: MESSAGES_VERSION - 1, type: 'clear', tabId: 1 }, 'version'],
    ['no version', { type: 'clear', tabId: 1 }, 'version undefined'],
    ['no type', { v: MESSAGES_VERSION }, 'not a message'],
    ['null', null, 'not a message'],
    ['a string', 'clear', 'not a message'],
  ])('drops %s and says why', (_name, raw, why) => {
    const [panelWall, bgWall] = pipe();
    const heard: unknown[] = [];
    const drops: string[] = [];
    backgroundPanelChannel(bgWall, (w) => drops.push(w)).listen((m) => heard.push(m));
    panelWall.postMessage(raw);
    expect(heard).toEqual([]);
    expect(drops).toHaveLength(1);
    expect(drops[0]).toContain('panel->background');
    expect(drops[0]).toContain(why);
  });

  it('stops hearing after unsubscribe', () => {
    const [panelWall, bgWall] = pipe();
    const heard: unknown[] = [];
    const off = backgroundPanelChannel(bgWall).listen((m) => heard.push(m));
    off();
    panelChannel(panelWall).send({ type: 'reload', tabId: 1 });
    expect(heard).toEqual([]);
  });

  it('dispatches each type to its handler', () => {
    const seen: string[] = [];
    const handlers: Handlers<BackgroundToRelay> = {
      config: (m) => seen.push(`config ${m.config.maxBytes}`),
      ack: (m) => seen.push(`ack ${m.batch}`),
      flush: (m) => seen.push(`flush ${m.id}`),
      'hand-over': () => seen.push('hand-over'),
      post: (m) => seen.push(`post ${m.target}`),
      'spill-key': (m) => seen.push(`spill-key ${m.key}`),
    };
    dispatch(stamp<BackgroundToRelay>({ type: 'ack', batch: 4 }), handlers);
    dispatch(stamp<BackgroundToRelay>({ type: 'flush', id: 'f1' }), handlers);
    expect(seen).toEqual(['ack 4', 'flush f1']);
  });

  it('carries relay -> page as a string detail, and refuses what is not one of this version', () => {
    const detail = relayToPageDetail({ type: 'flush' });
    expect(typeof detail).toBe('string');
    expect(readRelayToPage(detail)).toEqual({ type: 'flush', v: MESSAGES_VERSION });
    expect(readRelayToPage('{not json')).toBeNull();
    expect(readRelayToPage(JSON.stringify({ v: 1, type: 'flush' }))).toBeNull();
    expect(readRelayToPage({ type: 'flush' })).toBeNull();
    expect(accept('relay->page', { v: MESSAGES_VERSION, type: 'flush' })).not.toBeNull();
  });
});
