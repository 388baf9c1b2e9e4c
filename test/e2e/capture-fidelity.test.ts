// A delivery is recorded as the browser delivered it, whatever the page does with its copy afterwards: the relay
// holds the event and reads its own copy of the data later (deliveries.ts). A plain host/embed pair written here.
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { messagesOnly, settled, tabIdOf, typeOf, waitForRecords } from '../helpers/capture.ts';

// The host mutates every message it gets, keeps the events, and reads them again later; then it dispatches two
// events of its own making.
const HOST = `<!doctype html><script>
  window.kept = [];
  addEventListener('message', (e) => {
    if (!e.isTrusted || e.origin !== '{{EMBED}}') return;
    window.kept.push(e);
    if (e.data && e.data.payload) { e.data.payload.path = '/mutated'; e.data.type = 'svc:event:changed'; }
    if (e.data && e.data.buf) new Uint8Array(e.data.buf)[0] = 99;
  });
  window.later = () => {
    const view = window.kept.find((e) => e.data.payload);
    const buf = window.kept.find((e) => e.data.buf);
    return { path: view && view.data.payload.path, type: view && view.data.type, byte: buf && new Uint8Array(buf.data.buf)[0], length: buf && buf.data.buf.byteLength };
  };
  // In one task, between posts: each made-up event is dispatched in the middle of the task that posts.
  window.construct = () => {
    const w = document.querySelector('iframe').contentWindow;
    w.postMessage({ source: 'svc-embed', note: 'before' }, '{{EMBED}}');
    dispatchEvent(new MessageEvent('message', { data: { source: 'svc-embed', note: 'made here', fn() {} }, origin: 'http://made.test' }));
    w.postMessage({ source: 'svc-embed', note: 'between' }, '{{EMBED}}');
    dispatchEvent(new MessageEvent('message', { data: { source: 'svc-embed', note: 'plain' }, origin: 'http://made.test' }));
    w.postMessage({ source: 'svc-embed', note: 'after' }, '{{EMBED}}');
  };
</script><iframe src="{{EMBED}}/embed/dashboard/plain"></iframe>`;
const EMBED = `<!doctype html><script>
  addEventListener('load', () => {
    parent.postMessage({ source: 'svc-embed', direction: 'event', type: 'svc:event:view', payload: { surface: 'dashboard', path: '/sales' }, timestamp: 1, surface: 'dashboard' }, '{{HOST}}');
    const buf = new ArrayBuffer(8);
    new Uint8Array(buf)[0] = 7;
    parent.postMessage({ buf }, '{{HOST}}', [buf]);
  });
</script>`;

// A page that changes its URL between two messages to itself, loaded with credentials in its URL.
const MOVES = `<!doctype html><script>
  addEventListener('message', (e) => {
    if (e.data && e.data.note === 'first') {
      history.pushState(null, '', '/moved?q=1#h');
      postMessage({ source: 'svc-embed', note: 'second' }, '*');
    }
  });
  postMessage({ source: 'svc-embed', note: 'first' }, '*');
</script>`;

describe('deliveries are recorded as delivered', () => {
  let srv: TwoOrigins;
  let l: Launched;
  test.beforeAll(async ({ chromium, launchForFile }) => {
    srv = await launchForFile.pages({ '/': HOST, '/moves': MOVES }, { '/embed/dashboard/plain': EMBED });
    l = chromium;
  });

  it('the page mutating its copy changes neither the record nor what the page kept; made-up events are honest', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as any).kept?.length === 2, { timeout: 20_000 });
    const tabId = await tabIdOf(l, page);
    // Once the extension has recorded the deliveries (it read its own copy of their data), the page still sees its
    // own (mutated) copy and its transferred buffer.
    await settled(l, tabId);
    expect(await page.evaluate(() => (window as any).later())).toEqual({
      path: '/mutated',
      type: 'svc:event:changed',
      byte: 99,
      length: 8,
    });
    await page.evaluate(() => (window as any).construct());
    const rs = messagesOnly(
      await waitForRecords(
        l,
        tabId,
        (all) =>
          all.filter((r) => r.kind === 'receive' && r.frameUrl.startsWith(srv.hostOrigin)).length >= 4 &&
          all.filter((r) => r.kind === 'post' && r.frameUrl.startsWith(srv.hostOrigin)).length >= 3,
      ),
    );
    const host = rs.filter((r) => r.kind === 'receive' && r.frameUrl.startsWith(srv.hostOrigin));
    const view = host.find((r) => typeOf(r) === 'svc:event:view');
    expect(view?.data).toMatchObject({ type: 'svc:event:view', payload: { surface: 'dashboard', path: '/sales' } });
    expect(host.some((r) => typeOf(r) === 'svc:event:changed')).toBe(false);
    const buf = host.find((r) => r.origin === srv.embedOrigin && !typeOf(r));
    expect(JSON.stringify(buf?.data)).toContain('ArrayBuffer');
    expect(buf?.transfer ?? 0).toBe(0); // (a transferred buffer is not a port)
    // Made-up events: recorded in order, with their data where this world can copy it, else marked unreadable.
    const made = host.filter((r) => r.origin === 'http://made.test');
    expect(made.map((r) => r.data)).toEqual([
      { $ei: 'Unknown', kind: 'Unreadable', message: 'a constructed event whose data this world cannot copy' },
      { source: 'svc-embed', note: 'plain' },
    ]);
    // ... and in the host's order, among the posts of the same task.
    const hostOrder = rs
      .filter((r) => r.frameUrl.startsWith(srv.hostOrigin) && (r.kind === 'post' || r.origin === 'http://made.test'))
      .map((r) => `${r.kind} ${(r.data as { note?: string }).note ?? 'unreadable'}`);
    expect(hostOrder).toEqual(['post before', 'receive unreadable', 'post between', 'receive plain', 'post after']);
    // The embed's own post of the view, for comparison, holds the same data.
    const post = rs.find((r) => r.kind === 'post' && typeOf(r) === 'svc:event:view');
    expect(post?.data).toEqual(view?.data);
  });

  it("a delivery's frame URL is the page's URL when it came, as location.href gives it (no credentials)", async () => {
    const page = await l.browser.newPage();
    const withCredentials = srv.hostOrigin.replace('://', '://user:secret@');
    await page.goto(`${withCredentials}/moves`, { waitUntil: 'load' });
    expect(await page.evaluate(() => document.URL)).toContain('user:secret@'); // (the page does have them)
    const tabId = await tabIdOf(l, page);
    const notes = <R extends { kind: string; data: unknown }>(rs: R[]) =>
      rs.filter((r) => r.kind === 'receive' && (r.data as { note?: string })?.note);
    const rs = notes(await waitForRecords(l, tabId, (all) => notes(all).length >= 2));
    expect(rs.map((r) => [(r.data as { note: string }).note, r.frameUrl])).toEqual([
      ['first', `${srv.hostOrigin}/moves`],
      ['second', `${srv.hostOrigin}/moved?q=1#h`],
    ]);
  });
});
