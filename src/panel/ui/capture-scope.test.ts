import { describe, expect, it } from 'vitest';
import { createStore } from '../app/create-store.ts';
import { createMemoryTransport } from '../link/transports.ts';
import { changeScope, setTabMode, tabCapture } from './capture-scope.ts';

const HOST = 'http://127.0.0.1:4100';
const EMBED = 'http://localhost:4101';

function attached() {
  const t = createMemoryTransport({ tabId: 7 });
  const store = createStore({ schedule: (fn) => fn() });
  store.attach(t);
  return { t, store };
}

describe('the capture scope in the panel', () => {
  it('capture off: the page and its frames are offered, page first', () => {
    const { t, store } = attached();
    expect(tabCapture(store)).toBeNull(); // until the background says
    t.emit({
      type: 'capture',
      scope: { all: null, sites: [] },
      sites: [
        { origin: HOST, top: true, mode: null },
        { origin: EMBED, top: false, mode: null },
      ],
    });
    expect(tabCapture(store)).toMatchObject({
      off: true,
      mode: null,
      missing: [{ origin: HOST }, { origin: EMBED }],
      captured: [],
    });
  });

  it('page captured, a frame not: not off, the frame is missing', () => {
    const { t, store } = attached();
    t.emit({
      type: 'capture',
      scope: { all: null, sites: [{ origin: HOST, mode: 'receive-only' }] },
      sites: [
        { origin: HOST, top: true, mode: 'receive-only' },
        { origin: EMBED, top: false, mode: null },
      ],
    });
    expect(tabCapture(store)).toMatchObject({ off: false, mode: 'receive-only', missing: [{ origin: EMBED }] });
  });

  it('turning sites on asks the background, with a reload, and resolves on its answer', async () => {
    const { t, store } = attached();
    expect(await changeScope(store, { op: 'add', sites: [HOST, EMBED], mode: 'full' }, { reload: true })).toBeNull();
    expect(t.sent.at(-1)).toMatchObject({
      type: 'set-capture',
      change: { op: 'add', sites: [HOST, EMBED], mode: 'full' },
      reload: true,
    });
  });

  it("receive only sets the mode of the tab's captured sites and says it takes effect on reload", async () => {
    const { t, store } = attached();
    t.emit({
      type: 'capture',
      scope: { all: null, sites: [{ origin: HOST, mode: 'full' }] },
      sites: [
        { origin: HOST, top: true, mode: 'full' },
        { origin: EMBED, top: false, mode: null },
      ],
    });
    expect(await setTabMode(store, 'receive-only')).toBeNull();
    expect(t.sent.at(-1)).toMatchObject({
      type: 'set-capture',
      change: { op: 'mode', sites: [HOST], mode: 'receive-only' },
    });
    expect(store.captureNote).toMatch(/takes effect when the page reloads/);
  });
});
