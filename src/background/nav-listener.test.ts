import { describe, expect, it } from 'vitest';
import { FollowedListener, navFilterOf } from './nav-listener.ts';
import { EMPTY_SCOPE } from './scope-model.ts';

type Cb = (d: number) => void;
function fakeEvent() {
  const listeners = new Map<Cb, unknown>();
  return {
    listeners,
    addListener: (cb: Cb, filter?: unknown) => listeners.set(cb, filter ?? 'every'),
    removeListener: (cb: Cb) => listeners.delete(cb),
    fire: (d: number) => {
      for (const cb of [...listeners.keys()]) {
        cb(d);
      }
    },
  };
}

describe('navFilterOf', () => {
  it('hears nothing with nothing captured and no log open', () => {
    expect(navFilterOf(EMPTY_SCOPE, false)).toBe('none');
  });
  it("hears only the captured sites' hosts while no log is open", () => {
    const scope = { all: null, sites: { 'http://127.0.0.1:4100': 'full', 'https://localhost:4101': 'receive-only' } };
    expect(navFilterOf(scope as never, false)).toEqual({
      url: [
        { schemes: ['http'], hostEquals: '127.0.0.1' },
        { schemes: ['https'], hostEquals: 'localhost' },
      ],
    });
  });
  it('an IPv6 site is heard by its scheme', () => {
    expect(navFilterOf({ all: null, sites: { 'http://[::1]:8080': 'full' } }, false)).toEqual({
      url: [{ schemes: ['http'] }],
    });
  });
  it('hears every navigation while a log is open or every site is captured', () => {
    expect(navFilterOf(EMPTY_SCOPE, true)).toBe('every');
    expect(navFilterOf({ all: 'full', sites: {} }, false)).toBe('every');
  });
});

describe('FollowedListener', () => {
  it('starts unfiltered, then follows the filter with one listener at a time, each event handled once', () => {
    const ev = fakeEvent();
    const seen: number[] = [];
    const nav = new FollowedListener(ev, (d: number) => seen.push(d));
    expect([...ev.listeners.values()]).toEqual(['every']);
    const f = { url: [{ schemes: ['http'], hostEquals: 'a.test' }] };
    nav.set(f);
    expect([...ev.listeners.values()]).toEqual([f]);
    ev.fire(1);
    nav.set({ url: [{ schemes: ['http'], hostEquals: 'a.test' }] }); // the same filter: nothing changes
    expect(ev.listeners.size).toBe(1);
    nav.set('none');
    expect(ev.listeners.size).toBe(0);
    ev.fire(2);
    nav.set('every');
    ev.fire(3);
    expect(seen).toEqual([1, 3]);
  });
});
