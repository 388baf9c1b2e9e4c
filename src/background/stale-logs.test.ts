import { describe, expect, it } from 'vitest';
import { fakeStore } from '../../test/helpers/background-fakes.ts';
import { newState } from './tablog.ts';
import { dropStaleLogs } from './stale-logs.ts';

/** A stored log of tab `tabId` that ended on page `url` (document `documentId`, as Chromium names it). */
async function stored(store: ReturnType<typeof fakeStore>, tabId: number, url: string, documentId?: string) {
  const state = { ...newState(tabId), pageUrl: url };
  await store.commit({ meta: { tabId, state, docBatches: {}, frames: [], topDocumentId: documentId } });
}

function sessionStorage() {
  const data: Record<string, unknown> = {};
  return {
    data,
    get: async (k: string) => (k in data ? { [k]: data[k] } : {}),
    set: async (items: Record<string, unknown>) => void Object.assign(data, items),
  };
}

describe('dropStaleLogs: the logs of an earlier browser session', () => {
  it("drops a log whose tab shows another document or is gone, keeps one whose tab shows its page's", async () => {
    const store = fakeStore();
    await stored(store, 7, 'https://host.example/a', 'doc-a'); // the browser restarted: tab 7 is another tab now
    await stored(store, 8, 'https://host.example/b', 'doc-b'); // the extension was updated: tab 8 shows it still
    await stored(store, 9, 'https://host.example/c', 'doc-c'); // no tab 9 now
    const shows = new Map([
      [7, { documentId: 'doc-new', url: 'https://host.example/a' }],
      [8, { documentId: 'doc-b', url: 'https://host.example/b' }],
    ]);
    const mark = sessionStorage();
    const deps = { mark, metas: store.metas, remove: store.remove, shows: async (t: number) => shows.get(t) ?? null };
    expect(await dropStaleLogs(deps)).toEqual([7, 9]);
    expect(await store.tabIds()).toEqual([8]);
    // the next workers of this browser session drop nothing (a log made since is the session's)
    await stored(store, 7, 'https://host.example/x', 'doc-x');
    expect(await dropStaleLogs(deps)).toEqual([]);
    expect((await store.tabIds()).sort()).toEqual([7, 8]);
  });

  it('without document names (Firefox), the page address tells', async () => {
    const store = fakeStore();
    await stored(store, 1, 'https://host.example/a');
    await stored(store, 2, 'https://host.example/b');
    const shows = async (t: number) => ({ url: t === 1 ? 'https://host.example/a' : 'https://other.example/' });
    const deps = { mark: sessionStorage(), metas: store.metas, remove: store.remove, shows };
    expect(await dropStaleLogs(deps)).toEqual([2]);
  });

  it('a tab that cannot be asked about counts as gone; the mark is set only once every log is judged', async () => {
    const store = fakeStore();
    await stored(store, 3, 'https://host.example/a', 'doc-a');
    const mark = sessionStorage();
    const failing = {
      mark,
      metas: store.metas,
      remove: async () => Promise.reject(new Error('disk')),
      shows: async () => null,
    };
    await expect(dropStaleLogs(failing)).rejects.toThrow('disk');
    expect(mark.data).toEqual({});
    const deps = {
      mark,
      metas: store.metas,
      remove: store.remove,
      shows: async () => Promise.reject(new Error('no tab')),
    };
    expect(await dropStaleLogs(deps)).toEqual([3]);
  });
});
