// The sandbox's "what did not happen" faults (issue 25) in real Chromium, without the extension: the embed URL the host
// page builds, what the embed posts and what the host page receives. Chromium must be there: a missing browser fails
// this file, it is never skipped.
//
// Some cases show that something does NOT happen, without waiting for time to pass: the embed says it gave up what
// the fault withholds (its state's `withheld`: nothing of it is left scheduled), then a marker posted from the embed
// frame after everything it posted reaches the host page (one sender, one receiver: messages arrive in order), so
// what did not arrive before the marker was never posted, or was dropped on the way.
import type { Frame, Page } from 'puppeteer-core';
import { afterEach, vi } from 'vitest';
import type { Sandbox } from '../../sandbox/server.mjs';
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';

/** Waits poll on a timer: the default (requestAnimationFrame) does not tick in a frame that does not repaint. */
const POLL = { polling: 100, timeout: 15_000 };
const PUBLIC_ID = 'dA7kQ2mXp9Lw';
const ev = (name: string) => `svc:event:${name}`;

let sb: Sandbox;
let chromium: Launched | undefined;

test.beforeAll(({ sandbox, plainChromium }) => {
  sb = sandbox;
  chromium = plainChromium;
});

// A failed test leaves its page open: close it, so that it cannot slow the next ones down.
afterEach(async () => {
  for (const p of (await chromium?.browser.pages()) ?? []) {
    if (p.url() !== 'about:blank') {
      await p.close();
    }
  }
});

interface Opened {
  page: Page;
  embed: Frame;
  url: URL;
  errors: string[];
  /** [url, status] of every response the page and its frames got. */
  responses: [string, number][];
}

/** Opens the host page; returns it, the embed frame (whatever it loaded), the embed URL the host built, and logs. */
async function openHost(query: string): Promise<Opened> {
  const page = await chromium!.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push((e as Error).message));
  const responses: [string, number][] = [];
  page.on('response', (r) => responses.push([r.url(), r.status()]));
  await page.evaluateOnNewDocument(TAKE_MARKERS);
  await page.goto(`${sb.hostUrl}${query}`);
  await page.waitForFunction(() => (window as any).__sandboxHost !== undefined, POLL);
  const embed = await waitForFrame(page);
  await embed.waitForFunction(() => document.readyState === 'complete', POLL);
  const shown = await page.$eval('[data-testid="embed-url"]', (el) => el.textContent);
  const built = await page.evaluate(() => (window as any).__sandboxHost.embedUrl as string);
  expect(shown).toBe(built);
  return { page, embed, url: new URL(built), errors, responses };
}

function waitForFrame(page: Page): Promise<Frame> {
  return vi
    .waitUntil(() => page.frames().find((x) => x.url().startsWith(`${sb.tenantOrigin}/embed/`)), {
      timeout: 10_000,
      interval: 50,
    })
    .catch(() => {
      throw new Error('the embed frame never appeared');
    });
}

const hostReceived = (page: Page) => page.evaluate(() => (window as any).__sandboxHost.received as any[]);
const hostTypes = async (page: Page) => (await hostReceived(page)).map((e) => e.type as string);
const hostIgnored = (page: Page) => page.evaluate(() => (window as any).__sandboxHost.ignored as any[]);
const embedSent = (embed: Frame) => embed.evaluate(() => (window as any).__sandboxEmbed.sent as any[]);
const embedState = (embed: Frame) => embed.evaluate(() => (window as any).__sandboxEmbed.state());
const ignoredParams = (embed: Frame) =>
  embed.evaluate(() => [...document.querySelectorAll('[data-testid="ignored-params"] li')].map((li) => li.textContent));
const waitForEvent = (page: Page, type: string, count = 1) =>
  page.waitForFunction(
    (t, n) => (window as any).__sandboxHost.received.filter((e: any) => e.type === t).length >= n,
    POLL,
    type,
    count,
  );
/**
 * Installed in the host page before its own scripts, so that it runs first: takes the test's markers (below) and
 * keeps them from the page, which never sees them.
 */
const TAKE_MARKERS = `(() => {
  const taken = [];
  Object.defineProperty(window, '__markers', { value: taken });
  window.addEventListener('message', (e) => {
    if (e.data && typeof e.data === 'object' && typeof e.data.testMarker === 'string') {
      e.stopImmediatePropagation();
      taken.push(e.data.testMarker);
    }
  }, true);
})()`;

/** Everything the embed frame posted so far has reached the host page: a marker posted from the frame after it did. */
async function allDelivered(o: Opened): Promise<void> {
  const id = `marker-${Math.random().toString(36).slice(2)}`;
  await o.embed.evaluate((testMarker: string) => window.parent.postMessage({ testMarker }, '*'), id);
  await o.page.waitForFunction((m: string) => (window as any).__markers.includes(m), POLL, id);
}

/** The embed gave `what` up for good (a fault withholds it), and all it posted before has reached the host page. */
async function withheld(o: Opened, what: string): Promise<void> {
  await o.embed.waitForFunction((w: string) => (window as any).__sandboxEmbed.state().withheld.includes(w), POLL, what);
  await allDelivered(o);
}

/** A host-side URL fault leaves the messaging healthy: ready, view, dashboard-loaded, nothing ignored, no error. */
async function expectHealthyMessaging(o: Opened) {
  await waitForEvent(o.page, ev('dashboard-loaded'));
  expect(await hostTypes(o.page)).toEqual([ev('ready'), ev('view'), ev('dashboard-loaded')]);
  expect(await hostIgnored(o.page)).toEqual([]);
  expect(o.errors).toEqual([]);
}

describe('host URL parameters pass through unchanged', () => {
  it('timezone, f_<view>.<dimension> and allowExport reach the embed URL as given', async () => {
    const o = await openHost('?timezone=Asia/Tokyo&f_orders.region=["EMEA"]&allowExport=yes');
    const q = o.url.searchParams;
    expect([...q.keys()]).toEqual(['session', 'allowExport', 'timezone', 'f_orders.region']);
    expect(q.get('allowExport')).toBe('yes');
    expect(q.get('timezone')).toBe('Asia/Tokyo');
    expect(q.get('f_orders.region')).toBe('["EMEA"]');
    await expectHealthyMessaging(o);
    expect(await embedState(o.embed)).toMatchObject({
      timezone: 'Asia/Tokyo',
      filters: { 'orders.region': ['EMEA'] },
      allowExport: false,
    });
    await o.page.close();
  });

  it('a healthy session lists no ignored URL parameter and allowExport=true shows the CSV action', async () => {
    const o = await openHost('?allowExport=true');
    expect(o.url.pathname).toBe(`/embed/dashboard/${PUBLIC_ID}`);
    expect(o.url.searchParams.get('session')).toBe('demo-signed');
    expect(o.url.searchParams.get('allowExport')).toBe('true');
    await expectHealthyMessaging(o);
    await o.embed.waitForSelector('[data-testid^="export-csv-"]');
    expect(await ignoredParams(o.embed)).toEqual([]);
    expect(await o.embed.$eval('[data-testid="embed-debug"] [data-params]', (el) => (el as HTMLElement).hidden)).toBe(
      true,
    );
    await o.page.close();
  });
});

describe('host-side faults', () => {
  it('session-missing: no session in the URL; the embed posts one fatal auth error and never ready', async () => {
    const o = await openHost('?faults=session-missing');
    expect(o.url.pathname).toBe(`/embed/dashboard/${PUBLIC_ID}`);
    expect(o.url.searchParams.has('session')).toBe(false);
    expect(await o.page.evaluate(() => (window as any).__sandboxHost.session)).toBeNull();
    await waitForEvent(o.page, ev('error'));
    const received = await hostReceived(o.page);
    expect(received.map((e) => e.type)).toEqual([ev('error')]);
    expect(received[0].payload).toMatchObject({ fatal: true, name: 'AuthenticationError', context: 'auth' });
    // The embed is down (its boot has ended): nothing more can come, so no wait is needed to say "never ready".
    expect(await embedState(o.embed)).toMatchObject({ down: true, ready: false });
    expect((await embedSent(o.embed)).map((e) => e.type)).toEqual([ev('error')]);
    await o.embed.waitForSelector('[data-testid="fatal"]');
    expect(await o.page.$eval('[data-testid="embed-status"]', (el) => el.textContent)).toMatch(/^embed down/);
    await o.page.close();
  });

  it('bad-path: the host embeds /embed/dashbaord/<id>; the tenant answers 404 and nothing is posted', async () => {
    const o = await openHost('?faults=bad-path');
    expect(o.url.pathname).toBe(`/embed/dashbaord/${PUBLIC_ID}`);
    expect(o.url.searchParams.get('session')).toBe('demo-signed');
    expect(o.responses).toContainEqual([o.url.href, 404]);
    await o.embed.waitForSelector('[data-testid="tenant-not-found"]');
    expect(await o.embed.evaluate(() => [document.scripts.length, typeof (window as any).__sandboxEmbed])).toEqual([
      0,
      'undefined',
    ]);
    // Silence: no script of the page runs in the frame, so nothing can be posted; and nothing was on the way.
    await allDelivered(o);
    expect(await hostReceived(o.page)).toEqual([]);
    expect(await hostIgnored(o.page)).toEqual([]);
    expect(await o.page.$eval('[data-testid="embed-status"]', (el) => el.textContent)).toBe('waiting for ready…');
    await o.page.close();
  });

  it('allow-export-yes: allowExport=yes; the embed shows no CSV/XLSX export actions, the rest is healthy', async () => {
    const o = await openHost('?faults=allow-export-yes');
    expect(o.url.searchParams.get('allowExport')).toBe('yes');
    await expectHealthyMessaging(o);
    await o.embed.waitForSelector('[data-testid^="export-png-"]');
    const buttons = await o.embed.$$eval('[data-testid^="export-"]', (els) =>
      els.map((e) => e.getAttribute('data-testid')),
    );
    expect(buttons.filter((b) => /^export-(csv|xlsx)-/.test(b ?? ''))).toEqual([]);
    expect(buttons).toContain('export-dashboard-pdf');
    expect(await o.embed.evaluate(() => (window as any).__sandboxEmbed.exportData('csv'))).toBeNull();
    expect(await embedState(o.embed)).toMatchObject({ allowExport: false });
    expect(await ignoredParams(o.embed)).toEqual([expect.stringMatching(/^allowExport=yes — /)]);
    await o.page.close();
  });

  it('timezone-offset: timezone=+02:00; the embed keeps UTC and says so in its debug strip', async () => {
    const o = await openHost('?faults=timezone-offset');
    expect(o.url.searchParams.get('timezone')).toBe('+02:00');
    await expectHealthyMessaging(o);
    expect(await o.embed.evaluate(() => document.documentElement.dataset.timezone)).toBe('UTC');
    expect(await embedState(o.embed)).toMatchObject({ timezone: 'UTC', timezoneFromUrl: null });
    expect(await ignoredParams(o.embed)).toEqual([expect.stringMatching(/^timezone=\+02:00 — .*IANA/)]);
    expect(await o.embed.$eval('[data-testid="ignored-params-count"]', (el) => el.textContent)).toBe('1');
    await o.page.close();
  });

  it('filter-not-json: f_orders.region=EMEA; the embed ignores the filter and lists it', async () => {
    const o = await openHost('?faults=filter-not-json');
    expect(o.url.searchParams.getAll('f_orders.region')).toEqual(['EMEA']);
    await expectHealthyMessaging(o);
    expect(await embedState(o.embed)).toMatchObject({ filters: {} });
    expect(await o.embed.$$('[data-testid="filters"] .chip')).toHaveLength(0);
    expect(await ignoredParams(o.embed)).toEqual([expect.stringMatching(/^f_orders\.region=EMEA — .*not JSON/)]);
    await o.page.close();
  });
});

describe('embed-side faults', () => {
  it('never-ready: the embed loads but posts nothing, not even an error', async () => {
    const o = await openHost('?faults=never-ready');
    await o.embed.waitForFunction(() => (window as any).__sandboxEmbed !== undefined, POLL);
    // Silence: the embed gave ready up (it stays on "Authenticating…") and nothing it posted is on the way.
    await withheld(o, ev('ready'));
    expect(await embedSent(o.embed)).toEqual([]);
    expect(await embedState(o.embed)).toMatchObject({ ready: false, down: false });
    expect(await hostReceived(o.page)).toEqual([]);
    expect(await hostIgnored(o.page)).toEqual([]);
    expect(await o.page.$eval('[data-testid="embed-status"]', (el) => el.textContent)).toBe('waiting for ready…');
    expect(o.errors).toEqual([]);
    await o.page.close();
  });

  it('event-wrong-origin: the embed posts to http://localhost:<host port>; the host receives nothing', async () => {
    const o = await openHost('?faults=event-wrong-origin');
    await o.embed.waitForFunction(
      () => (window as any).__sandboxEmbed.sent.some((e: any) => e.type === 'svc:event:dashboard-loaded'),
      POLL,
    );
    expect((await embedSent(o.embed)).map((e) => e.type)).toEqual([ev('ready'), ev('view'), ev('dashboard-loaded')]);
    const wrong = `http://localhost:${new URL(sb.hostOrigin).port}`;
    // Silence: each of those was posted before the marker, which arrived: they were dropped on the way.
    await allDelivered(o);
    expect(await hostReceived(o.page)).toEqual([]);
    expect(await hostIgnored(o.page)).toEqual([]); // dropped by the browser, never seen by the listener
    expect(await o.embed.$eval('[data-testid="embed-debug"] summary', (el) => el.textContent)).toContain(
      `posted to ${wrong}`,
    );
    // Only the events are misdirected: the host's actions still reach the embed.
    await o.page.evaluate(() =>
      (window as any).__sandboxHost.sendAction('svc:action:set-color-scheme', { scheme: 'dark' }),
    );
    await o.embed.waitForFunction(() => document.documentElement.dataset.scheme === 'dark', POLL);
    await o.page.close();
  });

  it('ai-query-stuck: one ai-query submitted after the surface loaded, never completed (all surfaces)', async () => {
    const cases = [
      { surface: 'dashboard', after: ev('dashboard-loaded'), agentId: 'dashboard-agent' },
      { surface: 'app', after: ev('view'), agentId: 'app-assistant' },
      { surface: 'chat', after: ev('view'), agentId: undefined },
    ];
    // One page at a time: a page in the background has its timers throttled.
    for (const c of cases) {
      const o = await openHost(`?surface=${c.surface}&faults=ai-query-stuck`);
      await waitForEvent(o.page, ev('ai-query'));
      // Silence: the embed gave the answer up and nothing it posted is on the way.
      await withheld(o, `${ev('ai-query')} answer`);
      const received = await hostReceived(o.page);
      const types = received.map((e) => e.type);
      const ai = received.filter((e) => e.type === ev('ai-query'));
      expect(ai, c.surface).toHaveLength(1);
      expect(types.indexOf(ev('ai-query')), c.surface).toBe(types.indexOf(c.after) + 1);
      expect(
        types.filter((t) => t !== ev('ai-query')),
        c.surface,
      ).toEqual(
        c.surface === 'dashboard' ? [ev('ready'), ev('view'), ev('dashboard-loaded')] : [ev('ready'), ev('view')],
      );
      expect(ai[0].surface).toBe(c.surface);
      const payload = ai[0].payload;
      expect(payload).toMatchObject({ status: 'submitted', chatId: expect.stringMatching(/^chat-/) });
      expect(typeof payload.query).toBe('string');
      expect(payload.agentId).toBe(c.agentId);
      expect(Object.keys(payload).sort(), c.surface).toEqual(
        c.agentId ? ['agentId', 'chatId', 'query', 'status'] : ['chatId', 'query', 'status'],
      );
      await o.embed.waitForSelector('[data-testid="ai-turns"] li[data-status="submitted"]');
      expect(o.errors).toEqual([]);
      await o.page.close();
    }
  });

  it('no-dashboard-loaded: ready and view come, one widget loads forever, dashboard-loaded never comes', async () => {
    const o = await openHost('?faults=no-dashboard-loaded');
    await waitForEvent(o.page, ev('view'));
    // The other widgets finish as usual; the last one stays "loading".
    await o.embed.waitForFunction(() => {
      const ws = (window as any).__sandboxEmbed.state().widgets as { status: string }[];
      return ws.length > 1 && ws.slice(0, -1).every((w) => w.status === 'ok');
    }, POLL);
    // Silence: the embed gave dashboard-loaded up (its last widget's query never ends) and nothing is on the way.
    await withheld(o, ev('dashboard-loaded'));
    expect(await hostTypes(o.page)).toEqual([ev('ready'), ev('view')]);
    const widgets = (await embedState(o.embed)).widgets as { id: string; status: string }[];
    const last = widgets.at(-1)!;
    expect(last.status).toBe('loading');
    expect(
      await o.embed.$eval(`[data-testid="widget-${last.id}"]`, (el) => [
        el.getAttribute('data-status'),
        el.textContent,
      ]),
    ).toEqual(['loading', expect.stringMatching(/Loading/)]);
    expect(await o.embed.$eval('[data-testid="load-count"]', (el) => el.getAttribute('data-count'))).toBe('0');
    expect(o.errors).toEqual([]);
    await o.page.close();
  });
});
