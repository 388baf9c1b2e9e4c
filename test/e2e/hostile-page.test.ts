/**
 * A log no page can write: every frame of a captured page may be hostile (an ad, a compromised widget), so each
 * attack a page could make on the capture is played here, in real Chromium, in full and receive-only mode, against
 * a host, the tenant's embed (at an embed address) and a third party's frame on a third origin (127.0.0.2).
 *
 * The attacks use every private event name of this version and of the one before (a page would try both) and the
 * shapes our records had: forged records, a stolen tenant origin, a forged navigation, a flood of malformed lines,
 * a forged config, and probes for anything of ours a receive-only page could hear.
 */
import type { Page } from 'puppeteer-core';
import type { CaptureSetting, Launched } from '../../src/node/chromium.ts';
import * as messages from '../../src/shared/messages.ts';
import type { ClassifiedRecord, TabState } from '../../src/shared/messages.ts';
import { records, settled, state, tabIdOf, typeOf, waitForRecords } from '../helpers/capture.ts';
import { describe, expect, it, test, type Launcher } from '../helpers/fixtures.ts';
import { evaluateInFrame, waitInFrame } from '../helpers/frame-target.ts';
import { threeOrigins, type ThreeOrigins } from '../helpers/two-origins.ts';

/** Every private event name a page could try: this version's, and the names our events had before it. */
const NAMES = [
  ...Object.entries(messages)
    .filter(([k, v]) => k.startsWith('CHANNEL_') && typeof v === 'string')
    .map(([, v]) => v as string),
  ...['records', 'config', 'counter?', 'counter', 'counter!', 'reader'].map((n) => `embed-inspector:v8:${n}`),
];
const ATTACKER = 'https://attacker.example';
const BANK = 'https://bank.example/account';
const env = (direction: string, type: string, payload: unknown, surface?: string) => ({
  source: 'svc-embed',
  direction,
  type,
  payload,
  timestamp: 1,
  ...(surface ? { surface } : {}),
});
const READY = env(
  'event',
  'svc:event:ready',
  { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' },
  'dashboard',
);

/**
 * A page script that, from its first line, dispatches `lines` (the forged records, in every shape a record had) on
 * `document`, `window` and a fresh node, under every name, as CustomEvents with a string detail and with an object.
 */
const forge = (lines: string[]) => `
  (() => {
    const names = ${JSON.stringify(NAMES)};
    const details = ${JSON.stringify(lines)};
    const fire = () => {
      for (const name of names) for (const d of details) for (const t of [document, window]) {
        t.dispatchEvent(new CustomEvent(name, { detail: d }));
        t.dispatchEvent(new CustomEvent(name, { detail: { line: d } }));
        t.dispatchEvent(new FocusEvent(name, { relatedTarget: document.createTextNode(d) }));
      }
    };
    fire();
    window.forge = fire;
  })();`;
/** A forged record of each kind our batches held, as a line of the old and of the new format. */
function forgedLines(hostUrl: string): string[] {
  const recs = [
    { time: Date.now(), kind: 'receive', frameUrl: hostUrl, origin: ATTACKER, from: 'child', data: READY },
    {
      time: Date.now(),
      kind: 'post',
      frameUrl: hostUrl,
      origin: hostUrl.replace(/\/$/, ''),
      targetOrigin: '*',
      target: 'child',
      injected: true,
      data: env('action', 'svc:action:refresh', {}),
    },
    {
      time: Date.now(),
      kind: 'receive',
      frameUrl: BANK,
      origin: new URL(BANK).origin,
      navigation: true,
      data: { url: BANK },
      frameId: 0,
    },
  ];
  const relayToPage = [
    { v: 8, type: 'config', config: { receiveOnly: true, paused: true, maxBytes: 1 } },
    { v: messages.MESSAGES_VERSION, type: 'config', config: { receiveOnly: true, paused: true, maxBytes: 1 } },
  ];
  return [
    ...recs.map((r) => `0\t${JSON.stringify(r)}`),
    recs.map((r) => `0\t${JSON.stringify(r)}`).join('\n'),
    ...relayToPage.map((m) => JSON.stringify(m)),
    '0\t{"time": 1, "kind": "rec',
  ];
}

/** The host page; `first`: a script of its own that runs first, before anything else of the page. */
const HOST = (first = '') => `<!doctype html><script>${first}</script><script>
  window.got = [];
  addEventListener('message', (e) => {
    if (e.data && e.data.source === 'svc-embed') window.got.push([e.origin, e.data.type]);
  });
  window.start = () => {
    const third = document.createElement('iframe');
    third.src = '{{THIRD}}/widget';
    document.body.append(third);
    const embed = document.createElement('iframe');
    embed.src = '{{EMBED}}/embed/dashboard/abc?session=s-1';
    document.body.append(embed);
  };
</script><body></body>`;
// The tenant's embed: says ready 400 ms after it loads (the third party is quicker), then records what it gets.
const EMBED = `<!doctype html><script>
  window.got = [];
  addEventListener('message', (e) => {
    if (e.origin === '{{HOST}}' && e.data && e.data.source === 'svc-embed') window.got.push(e.data.type);
  });
  addEventListener('load', () => setTimeout(() => parent.postMessage(${JSON.stringify(READY)}, '{{HOST}}'), 400));
</script>`;
// The third party: a ready of its own to the host at once, forged records in its own document, and it keeps what it
// gets (an action meant for the embed must never come here).
const THIRD = (lines: string[]) => `<!doctype html><script>
  window.got = [];
  addEventListener('message', (e) => {
    if (e.data && e.data.source === 'svc-embed') window.got.push(e.data.type);
  });
  parent.postMessage(${JSON.stringify(READY)}, '*');
  ${forge(lines)}
  addEventListener('load', () => { parent.postMessage(${JSON.stringify(READY)}, '*'); window.forge(); });
</script>`;

const MODES: Array<[string, CaptureSetting['mode']]> = [
  ['full', 'full'],
  ['receive-only', 'receive-only'],
];

let launcher: Launcher;
test.beforeAll(({ launchForFile }) => {
  launcher = launchForFile;
});

async function open(l: Launched, o: ThreeOrigins): Promise<{ page: Page; tabId: number }> {
  const page = await l.browser.newPage();
  await page.goto(`${o.hostOrigin}/`);
  const tabId = await tabIdOf(l, page);
  await page.evaluate(() => (window as any).start());
  await page.waitForFunction(
    (embed: string) => (window as any).got.some(([o, t]: [string, string]) => o === embed && t === 'svc:event:ready'),
    { timeout: 15_000 },
    o.embedOrigin,
  );
  return { page, tabId };
}

/** A frame of a Firefox page (over WebDriver BiDi, where puppeteer's `Frame` does not lose frames). */
const frameOf = (page: Page, origin: string) => page.frames().find((f) => f.url().startsWith(origin))!;
/** What the page's frame at `origin` got, read through the frame's own target (helpers/frame-target.ts says why). */
const gotIn = (l: Launched, origin: string) => evaluateInFrame(l.browser, origin, () => (window as any).got as unknown);

/**
 * The embed frame got the sent set-filter; if not within 10 s, the failure says where the action went: the
 * extension's records of it (the post's target, its delivery) and what each frame of the page got.
 */
async function actionReached(l: Launched, tabId: number, page: Page, o: ThreeOrigins): Promise<void> {
  try {
    await waitInFrame(l.browser, o.embedOrigin, { timeout: 10_000 }, () =>
      (window as any).got.includes('svc:action:set-filter'),
    );
  } catch (e) {
    const sets = (await records(l, tabId))
      .filter((r) => typeOf(r) === 'svc:action:set-filter')
      .map(({ kind, frameId, frameUrl, origin, targetOrigin, targetUrl, dropped }) => ({
        kind,
        frameId,
        frameUrl,
        origin,
        targetOrigin,
        targetUrl,
        dropped,
      }));
    const frames = {
      host: await page.evaluate(() => (window as any).got).catch(String),
      embed: await gotIn(l, o.embedOrigin).catch(String),
      third: await gotIn(l, o.thirdOrigin).catch(String),
    };
    throw new Error(
      `the sent action did not reach the embed frame (${String(e)}): ${JSON.stringify({ embed: o.embedOrigin, sets, frames }, null, 1)}`,
    );
  }
}

describe.each(MODES)('a hostile page cannot write the log (%s)', (_name, mode) => {
  let o: ThreeOrigins;
  const capture = (o3: ThreeOrigins): CaptureSetting => ({
    sites: [o3.hostOrigin, o3.embedOrigin, o3.thirdOrigin],
    mode,
  });

  it('a third-party frame can neither forge records nor become the tenant; an action goes to the embed', async () => {
    // (its forged records name the host page's own URL: `{{HOST}}` is filled in as the page is served)
    o = await threeOrigins(
      { '/': HOST() },
      { '/embed/dashboard/abc': EMBED },
      { '/widget': THIRD(forgedLines('{{HOST}}/')) },
    );
    try {
      const l = await launcher.chromium({ capture: capture(o) });
      const { page, tabId } = await open(l, o);
      await settled(l, tabId);
      const rs = await records(l, tabId);
      const s = await state(l, tabId);
      expect(s).toMatchObject({ tenantOrigin: o.embedOrigin, tenantOriginSource: 'embed-frame' });
      expect(s.tenantOriginFrame).toMatch(/\/embed\/dashboard\/abc/);
      expect(s.pageUrl).toBe(`${o.hostOrigin}/`);
      expectNoForgery(rs, o);
      // The host really got the third party's ready: its delivery is in the log, from where it came.
      expect(
        rs.some((r) => r.kind === 'receive' && r.origin === o.thirdOrigin && typeOf(r) === 'svc:event:ready'),
      ).toBe(true);
      // An action sent now goes to the embed at the tenant origin, never to the third party.
      const worker = await l.worker();
      await worker.evaluate(
        (id: number, a: unknown) => (globalThis as any).embedInspector.send(id, a),
        tabId,
        env('action', 'svc:action:set-filter', { filterUrlParameter: 'f_sales.region="confidential"' }),
      );
      await actionReached(l, tabId, page, o);
      expect(await gotIn(l, o.thirdOrigin)).toEqual([]);
      await page.close();
    } finally {
      await o.close();
    }
  });

  it('the top page can forge no navigation, no record, no config; malformed lines hide nothing', async () => {
    // From its first script the page floods every name with forged and malformed lines, every 2 ms.
    const first = `${forge(forgedLines('http://127.0.0.1/'))}
      setInterval(() => { try { window.forge(); } catch {} }, 2);`;
    o = await threeOrigins({ '/': HOST(first) }, { '/embed/dashboard/abc': EMBED }, { '/widget': '<!doctype html>' });
    try {
      const l = await launcher.chromium({ capture: capture(o) });
      const { page, tabId } = await open(l, o);
      // The host posts an action of its own after forging a config that would pause or unhook it.
      await page.evaluate(
        (a: unknown) => {
          (window as any).forge();
          const w = document.querySelectorAll('iframe')[1].contentWindow!;
          w.postMessage(a, '*');
        },
        env('action', 'svc:action:refresh', {}),
      );
      await settled(l, tabId);
      const rs = await waitForRecords(l, tabId, (all) =>
        all.some((r) => r.kind === 'receive' && r.frameId === 0 && typeOf(r) === 'svc:event:ready'),
      );
      const s: TabState = await state(l, tabId);
      expect(s.pageUrl).toBe(`${o.hostOrigin}/`);
      expect(s.tenantOrigin).toBe(o.embedOrigin);
      expectNoForgery(rs, o);
      // Nothing hidden: the host's delivery of the embed's ready and, in full mode, the embed's post of it and the
      // host's own action.
      expect(rs.some((r) => r.kind === 'receive' && r.frameId === 0 && typeOf(r) === 'svc:event:ready')).toBe(true);
      if (mode === 'full') {
        expect(rs.some((r) => r.kind === 'post' && r.origin === o.embedOrigin && typeOf(r) === 'svc:event:ready')).toBe(
          true,
        );
        expect(rs.some((r) => r.kind === 'post' && r.frameId === 0 && typeOf(r) === 'svc:action:refresh')).toBe(true);
      }
      await page.close();
    } finally {
      await o.close();
    }
  });
});

describe('nothing of ours answers or speaks in the page', () => {
  /**
   * The page's first script listens, on document and window, for every private event name, and asks under each
   * (a CustomEvent whose detail says it is the page's), then and later: anything else heard is ours.
   */
  const probe = `(() => {
    const heard = [];
    Object.defineProperty(globalThis, '__heard', { value: heard });
    const names = ${JSON.stringify(NAMES)};
    for (const name of names) for (const t of [document, window]) {
      t.addEventListener(name, (e) => { if (e.detail !== 'probe') heard.push(name); }, true);
    }
    const ask = () => { for (const name of names) document.dispatchEvent(new CustomEvent(name, { detail: 'probe' })); };
    ask();
    setTimeout(ask, 0);
    globalThis.__ask = ask;
  })();`;

  it.each(MODES)('%s: the page hears no event of ours, and no answer to its asks', async (_n, mode) => {
    const o = await threeOrigins(
      { '/': HOST(probe) },
      { '/embed/dashboard/abc': EMBED },
      { '/widget': '<!doctype html>' },
    );
    try {
      const l = await launcher.chromium({ capture: { sites: [o.hostOrigin, o.embedOrigin], mode } });
      const { page, tabId } = await open(l, o);
      // The embed spoke and the host acted: our scripts ran, handed over and were asked to.
      await page.evaluate(
        (a: unknown) => {
          (globalThis as any).__ask();
          document.querySelectorAll('iframe')[1].contentWindow!.postMessage(a, '*');
          (globalThis as any).__ask();
        },
        env('action', 'svc:action:refresh', {}),
      );
      await settled(l, tabId);
      expect(await page.evaluate(() => (globalThis as any).__heard)).toEqual([]);
      // (and the capture did see the page: these zeros mean something)
      expect((await records(l, tabId)).some((r) => r.frameId === 0 && typeOf(r) === 'svc:event:ready')).toBe(true);
      await page.close();
    } finally {
      await o.close();
    }
  });
});

describe('Firefox: the channel and the tenant origin hold too', () => {
  // One Firefox for both modes (each case sets its capture and opens its own page on servers of its own).
  let firefox: ReturnType<Launcher['firefox']> | undefined;
  it.each(MODES)('%s: a third-party frame forges nothing and steals nothing', async (_n, mode) => {
    const o = await threeOrigins(
      { '/': HOST() },
      { '/embed/dashboard/abc': EMBED },
      { '/widget': THIRD(forgedLines('{{HOST}}/')) },
    );
    firefox ??= launcher.firefox();
    const ff = await firefox;
    try {
      await ff.setCapture({ sites: [o.hostOrigin, o.embedOrigin, o.thirdOrigin], mode });
      const page = await ff.browser.newPage();
      await page.goto(`${o.hostOrigin}/`);
      await page.evaluate(() => (window as any).start());
      await page.waitForFunction(
        (embed: string) =>
          (window as any).got.some(([x, t]: [string, string]) => x === embed && t === 'svc:event:ready'),
        { timeout: 20_000 },
        o.embedOrigin,
      );
      const ext = await ff.extensionPage('theme=light');
      const api = async <T>(fn: string, ...args: unknown[]): Promise<T> =>
        ext.evaluate(
          async (f: string, a: unknown[]) => {
            const bg = await (globalThis as any).browser.runtime.getBackgroundPage();
            const tabs = (await (globalThis as any).browser.tabs.query({})) as Array<{ id: number; url?: string }>;
            const id = tabs.find((t) => t.url?.startsWith(a[0] as string))!.id;
            await bg.embedInspector.settle(id);
            return bg.embedInspector[f](id, ...a.slice(1));
          },
          fn,
          [o.hostOrigin, ...args],
        ) as Promise<T>;
      const rs = await api<ClassifiedRecord[]>('records');
      const s = await api<TabState>('state');
      expect(s).toMatchObject({
        tenantOrigin: o.embedOrigin,
        tenantOriginSource: 'embed-frame',
        pageUrl: `${o.hostOrigin}/`,
      });
      expectNoForgery(rs, o);
      await api(
        'send',
        env('action', 'svc:action:set-filter', { filterUrlParameter: 'f_sales.region="confidential"' }),
      );
      await frameOf(page, o.embedOrigin).waitForFunction(() => (window as any).got.includes('svc:action:set-filter'), {
        timeout: 10_000,
      });
      expect(await frameOf(page, o.thirdOrigin).evaluate(() => (window as any).got)).toEqual([]);
      await Promise.all([page.close(), ext.close()]);
    } finally {
      await o.close();
    }
  });
});

/** No record says what only the extension may say, on the page's word. */
function expectNoForgery(rs: ClassifiedRecord[], o: ThreeOrigins): void {
  expect(rs.filter((r) => r.origin === ATTACKER)).toEqual([]);
  expect(rs.filter((r) => r.injected)).toEqual([]);
  expect(rs.filter((r) => r.frameUrl.startsWith('https://bank.example') || r.frameUrl === 'http://127.0.0.1/')).toEqual(
    [],
  );
  // Each record's frame URL is on that frame's origin: the third frame's records are the third frame's.
  const byFrame = new Map<number, Set<string>>();
  for (const r of rs.filter((x) => !x.navigation)) {
    const origins = byFrame.get(r.frameId ?? -1) ?? new Set<string>();
    origins.add(new URL(r.frameUrl).origin);
    byFrame.set(r.frameId ?? -1, origins);
  }
  for (const [, origins] of byFrame) {
    expect(origins.size).toBe(1);
  }
  expect(rs.filter((r) => r.navigation && r.frameId === 0).map((r) => r.frameUrl)).toEqual([`${o.hostOrigin}/`]);
}
