import { describe, expect, it } from 'vitest';
import { createRestLog } from './rest-log.ts';
import type { DevtoolsNetwork, HarEntry } from './network.ts';

const entry = (id: number): HarEntry => ({
  startedDateTime: '2026-11-23T10:00:00.000Z',
  time: 3,
  request: {
    method: 'GET',
    url: `http://localhost:4101/api/v1/deployments/1/workbooks/${id}`,
    headers: [{ name: 'Authorization', value: 'Bearer t' }],
  },
  response: { status: 200, content: { text: JSON.stringify({ id, name: 'w' }) } },
});

/** A stand-in for chrome.devtools.network: requests finish and the page navigates when the test says. */
function fakeNetwork() {
  const finished: Array<(e: HarEntry) => void> = [];
  const navigated: Array<(url: string) => void> = [];
  const network: DevtoolsNetwork = {
    getHAR: (cb) => cb({ entries: [] }),
    onRequestFinished: { addListener: (fn) => finished.push(fn) },
    onNavigated: { addListener: (fn) => navigated.push(fn) },
  };
  return {
    network,
    finish: (e: HarEntry) => {
      for (const fn of finished) {
        fn(e);
      }
    },
    navigate: (url: string) => {
      for (const fn of navigated) {
        fn(url);
      }
    },
  };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the REST log follows the message log rules', () => {
  // [preserve log, what a top-level navigation leaves]
  const CASES: Array<[boolean, number]> = [
    [false, 0],
    [true, 2],
  ];
  for (const [preserve, left] of CASES) {
    it(`a top-level navigation with preserve log ${preserve ? 'on keeps' : 'off empties'} it`, async () => {
      const net = fakeNetwork();
      const log = createRestLog(net.network, { preserveLog: () => preserve });
      net.finish(entry(1));
      net.finish(entry(2));
      await settle();
      expect(log.records()).toHaveLength(2);
      net.navigate('http://127.0.0.1:4100/');
      expect(log.records()).toHaveLength(left);
      net.finish(entry(3));
      await settle();
      expect(log.records()).toHaveLength(left + 1);
    });
  }

  it('Clear empties it, and calls after it are kept', async () => {
    const net = fakeNetwork();
    const log = createRestLog(net.network, { preserveLog: () => true });
    net.finish(entry(1));
    await settle();
    log.clear();
    expect(log.records()).toEqual([]);
    net.finish(entry(2));
    await settle();
    expect(log.records().map((r) => r.url)).toEqual([entry(2).request.url]);
  });
});
