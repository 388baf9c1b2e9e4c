// The log is in the order things happened, across frames: a plain host/embed pair written here (two origins),
// whose host posts its actions from its `ready` handler while the embed keeps talking. No session warning, a post
// before its delivery, times that never go back in seq order; the panel shows the same log.
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { Launched } from '../../src/node/chromium.ts';
import type { ClassifiedRecord } from '../../src/shared/messages.ts';
import type { TwoOrigins } from '../helpers/two-origins.ts';
import { tabIdOf, waitForRecords, records, messagesOnly, typeOf, settled } from '../helpers/capture.ts';
import { panelFor, inPanel } from '../helpers/panel.ts';
import { checkCapture } from '../../src/protocol/capture.ts';
import { CAPTURE_FORMAT, CAPTURE_VERSION } from '../../src/protocol/record.ts';

const env = `(direction, type, payload) => ({ source: 'svc-embed', direction, type, payload, timestamp: Date.now() })`;
// The host: loads the embed when told, answers its ready with four actions, and otherwise only listens.
const HOST = `<!doctype html><script>
  const env = ${env};
  window.got = [];
  addEventListener('message', (e) => {
    if (e.origin !== '{{EMBED}}' || !e.data || e.data.source !== 'svc-embed') return;
    window.got.push(e.data.type);
    if (e.data.type === 'svc:event:ready') {
      const w = document.querySelector('iframe').contentWindow;
      w.postMessage(env('action', 'svc:action:set-color-scheme', { scheme: 'dark' }), '{{EMBED}}');
      w.postMessage(env('action', 'svc:action:set-locale', { locale: 'de-DE' }), '{{EMBED}}');
      w.postMessage(env('action', 'svc:action:navigate', { path: '/sales' }), '{{EMBED}}');
      w.postMessage(env('action', 'svc:action:refresh', {}), '{{EMBED}}');
    }
  });
  // In one task: posts, and message events the page dispatches itself between them (as a page's own event bus
  // might), each tagged.
  window.mixed = () => {
    const w = document.querySelector('iframe').contentWindow;
    const made = (tag) => new MessageEvent('message', { data: env('event', 'svc:event:view', { surface: 'dashboard', path: '/' + tag }), origin: '{{EMBED}}' });
    w.postMessage(env('action', 'svc:action:set-locale', { locale: 'x-A' }), '{{EMBED}}');
    dispatchEvent(made('D1'));
    w.postMessage(env('action', 'svc:action:set-locale', { locale: 'x-B' }), '{{EMBED}}');
    dispatchEvent(made('D2'));
    dispatchEvent(made('D3'));
    w.postMessage(env('action', 'svc:action:set-locale', { locale: 'x-C' }), '{{EMBED}}');
  };
  window.start = () => {
    const f = document.createElement('iframe');
    f.src = '{{EMBED}}/embed/dashboard/plain';
    document.body.append(f);
  };
</script><body></body>`;
// The embed: ready once mounted, a view, then an event every 15 ms for a while (the host, which only receives,
// hands its deliveries over once it is quiet: after the embed's later posts), and a navigate on each navigate.
const EMBED = `<!doctype html><script>
  const env = ${env};
  let path = '/';
  const send = (type, payload) => parent.postMessage(env('event', type, payload), '{{HOST}}');
  addEventListener('message', (e) => {
    if (e.origin !== '{{HOST}}' || !e.data || e.data.source !== 'svc-embed') return;
    if (e.data.type === 'svc:action:navigate') {
      send('svc:event:navigate', { path: e.data.payload.path, previousPath: path });
      path = e.data.payload.path;
    }
  });
  addEventListener('load', () => {
    send('svc:event:ready', { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' });
    send('svc:event:view', { surface: 'dashboard', path });
    let n = 0;
    const t = setInterval(() => {
      send('svc:event:view', { surface: 'dashboard', path, title: 'tick ' + n });
      if (++n === 12) { clearInterval(t); window.done = true; }
    }, 15);
  });
</script>`;

const sessionRules = (rs: ClassifiedRecord[]) =>
  rs.flatMap((r) =>
    r.issues.filter((i) => i.rule.startsWith('session.')).map((i) => `${r.seq} ${typeOf(r)}: ${i.rule}`),
  );

/** Where the log goes back in time, as "seq a (time) > seq b (time)". */
function backwards(rs: Array<{ seq: number; time: number }>): string[] {
  const out: string[] = [];
  for (let i = 1; i < rs.length; i++) {
    if (rs[i].time < rs[i - 1].time) {
      out.push(`${rs[i - 1].seq} (${rs[i - 1].time}) > ${rs[i].seq} (${rs[i].time})`);
    }
  }
  return out;
}

describe('the log is in causal order across frames', () => {
  let srv: TwoOrigins;
  let l: Launched;
  test.beforeAll(async ({ chromium, launchForFile }) => {
    srv = await launchForFile.pages({ '/': HOST }, { '/embed/dashboard/plain': EMBED });
    l = chromium;
  });

  it('a host posting from its ready handler: no session warning, posts before deliveries, time never goes back', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    const panel = await panelFor(l, page);
    await page.bringToFront(); // (timers of a background tab are throttled)
    await page.evaluate(() => (window as any).start());
    await page
      .waitForFunction(() => (window as any).got?.length >= 15, { timeout: 20_000 })
      .catch(async (e) => {
        throw new Error(`${e}; the host got ${JSON.stringify(await page.evaluate(() => (window as any).got))}`);
      });
    // 15 events and 4 actions, each seen on both sides.
    await waitForRecords(l, tabId, (rs) => messagesOnly(rs).filter((r) => r.pairedWith !== undefined).length >= 38);
    await settled(l, tabId);
    const all = await records(l, tabId);
    const log = messagesOnly(all);
    expect(log.length).toBe(38);

    expect(sessionRules(log)).toEqual([]);
    expect(backwards(log)).toEqual([]);
    // seq follows the log's order; every post comes before its delivery.
    expect(all.map((r) => r.seq)).toEqual([...all.map((r) => r.seq)].sort((a, b) => a - b));
    for (const r of log) {
      const partner = log.find((x) => x.seq === r.pairedWith)!;
      expect(partner, `${r.seq} ${typeOf(r)}`).toBeDefined();
      const [post, delivery] = r.kind === 'post' ? [r, partner] : [partner, r];
      expect(post.seq, typeOf(r)).toBeLessThan(delivery.seq);
    }
    // The host's ready handler: its delivery of ready comes before its four actions.
    const hostReady = log.find((r) => r.kind === 'receive' && typeOf(r) === 'svc:event:ready')!;
    const actions = log.filter((r) => r.kind === 'post' && (r.data as any).direction === 'action');
    expect(actions).toHaveLength(4);
    expect(actions.every((a) => a.seq > hostReady.seq)).toBe(true);

    // The command line reads the exported log the same way.
    const file = {
      format: CAPTURE_FORMAT,
      version: CAPTURE_VERSION,
      tenantOrigin: null,
      messages: all.map(({ verdict: _v, issues: _i, ...r }) => r),
    } as const;
    const checked = checkCapture(file);
    expect(Object.keys(checked.summary.rules).filter((r) => r.startsWith('session.'))).toEqual([]);

    // The panel shows the same log: same records in the same order, same verdicts; its Time column never goes back.
    await settled(l, tabId, panel);
    const shown: Array<{ seq: number; time: number; kind: string; navigation: boolean; rules: string[] }> =
      await inPanel(panel, (h) =>
        h.records().map((r: any) => ({
          seq: r.seq,
          time: r.time,
          kind: r.kind,
          navigation: !!r.navigation,
          rules: r.issues.map((i: any) => i.rule),
        })),
      );
    expect(shown).toEqual(
      all.map((r) => ({
        seq: r.seq,
        time: r.time,
        kind: r.kind,
        navigation: !!r.navigation,
        rules: r.issues.map((i) => i.rule),
      })),
    );
    expect(backwards(shown.filter((r) => !r.navigation))).toEqual([]);
    await panel.close();

    // The order came from the relay's counter, read by each post: the page's world has no `message` listener but
    // the page's own (a second one of ours would cost every delivery a listener call).
    const cdp = await page.createCDPSession();
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
    expect(listeners.filter((x) => x.type === 'message').map((x) => x.useCapture)).toEqual([false]);
    await cdp.detach();
    await page.close();
  });

  it('posts among the message events the page dispatches itself in the same task keep their order', async () => {
    const page = await l.browser.newPage();
    await page.goto(`${srv.hostOrigin}/`, { waitUntil: 'load' });
    const tabId = await tabIdOf(l, page);
    await page.bringToFront();
    await page.evaluate(() => (window as any).start());
    await page.waitForFunction(() => (window as any).got?.length >= 15, { timeout: 20_000 });
    await page.evaluate(() => (window as any).mixed());
    // The host's three posts and three events of its own, and the embed's three deliveries.
    const tagOf = (r: ClassifiedRecord): string | undefined => {
      const p = (r.data as any)?.payload;
      return r.kind === 'post' && /^x-/.test(p?.locale ?? '')
        ? p.locale.slice(2)
        : r.kind === 'receive' && /^\/D/.test(p?.path ?? '')
          ? p.path.slice(1)
          : undefined;
    };
    await waitForRecords(l, tabId, (rs) => rs.filter((r) => tagOf(r) !== undefined).length >= 6);
    await settled(l, tabId);
    const all = await records(l, tabId);
    expect(all.filter((r) => tagOf(r) !== undefined).map(tagOf)).toEqual(['A', 'D1', 'B', 'D2', 'D3', 'C']);
    // The embed got the three actions, after their posts.
    const got = all.filter((r) => r.kind === 'receive' && /^x-/.test((r.data as any)?.payload?.locale ?? ''));
    expect(got.map((r) => (r.data as any).payload.locale)).toEqual(['x-A', 'x-B', 'x-C']);
    await page.close();
  });
});
