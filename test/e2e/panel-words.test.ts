/**
 * One truth in words (issue 44), in real Chromium on the built panel page, from capture files: the integration line's
 * count of an embed address's problems is the number its row and its Issues tab show; the navigation record's
 * detail shows the address itself with each wrong part marked wrong, within the pane; the line's "#N" selects the
 * record and opens its details; receive-only does not make it say the host never acted; Preserve-log dividers stay
 * readable in a narrow panel; a message has one time in the timeline and the flow view; the offline viewer (`view`)
 * shows no live-only control. Fails (never skips) without a build.
 */
import type { Page } from 'puppeteer-core';
import type { Launched } from '../../src/node/chromium.ts';
import { serveViewer } from '../../src/cli/view.ts';
import { CAPTURE_FORMAT, CAPTURE_VERSION, type CaptureRecord } from '../../src/protocol/record.ts';
import { EXT } from '../helpers/paths.ts';
import { HOST, msg, T0, TENANT } from '../fixtures/messages.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { inPanel, twoFrames, waitInPanel } from '../helpers/panel.ts';

let launched: Launched;
let panel: Page;
const errors: string[] = [];

/** The address of the report: a misspelled path, allowExport and timezone wrong, a filter not JSON, no session. */
const WRONG = `${TENANT}/embed/dashboards/dA7kQ2mXp9Lw?allowExport=yes&timezone=%2B02%3A00&f_orders.region=notjson`;

/** Records numbered in order, 100 ms apart. */
function session(parts: Array<Partial<CaptureRecord>>): CaptureRecord[] {
  return parts.map((r, i) => ({ seq: i + 1, time: T0 + i * 100, frameId: 0, ...r }) as CaptureRecord);
}
const top = (url = `${HOST}/app`): Partial<CaptureRecord> => ({
  kind: 'receive',
  frameUrl: url,
  origin: new URL(url).origin,
  data: { url },
  navigation: true,
  frameId: 0,
});
const embedNav = (url: string): Partial<CaptureRecord> => ({ ...top(url), frameId: 3 });
/** An event posted by the embed frame, and its delivery to the host page. */
const event = (type: string, seq: number, embedUrl: string): Array<Partial<CaptureRecord>> => [
  {
    kind: 'post',
    frameUrl: embedUrl,
    origin: TENANT,
    targetOrigin: HOST,
    frameId: 3,
    data: msg(type),
    pairedWith: seq + 1,
  },
  { kind: 'receive', frameUrl: `${HOST}/app`, origin: TENANT, frameId: 0, data: msg(type), pairedWith: seq },
];
const file = (messages: CaptureRecord[]) =>
  JSON.stringify({ format: CAPTURE_FORMAT, version: CAPTURE_VERSION, tenantOrigin: TENANT, messages });

async function open(width: number, height = 700): Promise<Page> {
  const p = await launched.browser.newPage();
  await p.setViewport({ width, height });
  p.on('pageerror', (e) => errors.push(String(e)));
  await p.goto(`chrome-extension://${launched.extensionId}/src/panel/index.html?theme=light`);
  await waitInPanel(p, () => true);
  return p;
}
async function load(p: Page, text: string, name = 'session.json'): Promise<void> {
  await inPanel(p, (h, a) => h.act.importText(a.text, a.name), { text, name });
  await waitInPanel(p, (h) => h.counts().records > 0 && !!document.querySelector('.grid-body [role="row"]'));
  await twoFrames(p);
}

test.beforeAll(async ({ chromium }) => {
  launched = chromium;
  panel = await open(1280);
});

describe('the embed address: one number, the URL itself', () => {
  it('the headline, the row and the Issues tab say the same number; each wrong part is marked wrong', async () => {
    // the four parts wrong, no session; the embed said ready (so the address is what the line leads with)
    await load(panel, file(session([top(), embedNav(WRONG), ...event('svc:event:ready', 3, WRONG)])));
    await panel.waitForSelector('[data-testid="integration"][data-state="address"]');
    const headline = await panel.$eval('[data-testid="integration"] .i-text', (e) => e.textContent!);
    const n = Number(headline.match(/the embed URL has (\d+)/)?.[1]);
    expect(headline).toBe('the embed URL has 5 findings: 4 problems, 1 note');
    // the row's count
    const row = await panel.$eval('#ei-row-2 .count', (e) => Number(e.textContent));
    expect(row).toBe(n);
    // "#2" selects the record and opens its details
    await panel.click('[data-testid="integration"] .i-jump');
    await panel.waitForSelector('section.detail [role="tablist"]');
    expect(await inPanel(panel, (h) => h.selected())).toBe(2);
    // the Issues tab lists as many
    await panel.click('#tab-issues');
    await panel.waitForSelector('.issues-tab');
    expect(await panel.$$eval('ul.issues > li', (l) => l.length)).toBe(n);
    // the address, part by part: the wrong ones marked wrong (a note for the info), only the session missing
    const parts = await panel.$$eval('.issues-tab .address .ap', (ps) =>
      ps.map((p) => ({
        text: p.querySelector('.ap-text')!.textContent,
        mark: p.querySelector('.ap-mark')?.textContent,
      })),
    );
    expect(parts).toEqual([
      { text: TENANT, mark: undefined },
      { text: '/embed/dashboards/dA7kQ2mXp9Lw', mark: 'wrong: url.path' },
      { text: 'allowExport=yes', mark: 'wrong: url.allow-export' },
      { text: 'timezone=+02:00', mark: 'note: url.timezone-offset' },
      { text: 'f_orders.region=notjson', mark: 'wrong: url.filter' },
      { text: 'session', mark: 'missing: url.session' },
    ]);
    expect(await panel.$eval('section.detail', (d) => d.textContent)).not.toMatch(/missing: (allowExport|timezone)/);
    // a path button of the Issues tab shows its part
    await panel.click('ul.issues > li:nth-child(3) .path');
    expect(await panel.evaluate(() => document.activeElement?.textContent)).toContain('allowExport=yes');
  });

  it('the address wraps within a narrow pane: no part runs off its edge, in either tab', async () => {
    for (const width of [1280, 500]) {
      await panel.setViewport({ width, height: 700 });
      for (const tab of ['#tab-message', '#tab-issues']) {
        await panel.click(tab);
        await panel.waitForSelector('.address .ap');
        await twoFrames(panel);
        const over = await panel.evaluate(() => {
          const pane = document.querySelector('section.detail')!.getBoundingClientRect();
          return [...document.querySelectorAll('.address .ap')]
            .map((p) => p.getBoundingClientRect())
            .filter((r) => r.right > pane.right + 0.5 || r.left < pane.left - 0.5).length;
        });
        expect(over, `${tab} at ${width} px`).toBe(0);
      }
    }
    await panel.setViewport({ width: 1280, height: 700 });
    await panel.keyboard.press('Escape');
  });

  it('receive-only: host actions seen as deliveries; the line does not say the host never acted', async () => {
    const EMBED = `${TENANT}/embed/dashboard/dA7kQ2mXp9Lw?session=s`;
    const delivered = (type: string, to: 'host' | 'embed'): Partial<CaptureRecord> =>
      to === 'host'
        ? { kind: 'receive', frameUrl: `${HOST}/app`, origin: TENANT, frameId: 0, data: msg(type) }
        : { kind: 'receive', frameUrl: EMBED, origin: HOST, frameId: 3, data: msg(type) };
    const records = session([
      top(),
      embedNav(EMBED),
      delivered('svc:event:ready', 'host'),
      delivered('svc:event:dashboard-loaded', 'host'),
      delivered('svc:action:refresh', 'embed'),
      delivered('svc:action:set-theme', 'embed'),
    ]);
    await load(panel, file(records), 'receive-only.json');
    await panel.waitForSelector('[data-testid="integration"][data-state="healthy"]');
    expect(await panel.$eval('[data-testid="integration"]', (e) => e.textContent)).not.toMatch(/never sent an action/);
  });
});

describe('Preserve log in a narrow panel, and one time per message', () => {
  const PAGES = ['/checkout?step=1', '/checkout?step=2', '/orders'];
  const HOSTPORT = 'http://127.0.0.1:41234';

  it('the dividers of three pages of one site read differently at 554 px and less', async () => {
    const parts: Array<Partial<CaptureRecord>> = [];
    for (const p of PAGES) {
      parts.push(top(`${HOSTPORT}${p}`), { ...embedNav(`${TENANT}/embed/dashboard/x?session=s`) });
    }
    await load(panel, file(session(parts)), 'three-pages.json');
    for (const width of [554, 420]) {
      await panel.setViewport({ width, height: 600 });
      await twoFrames(panel);
      const dividers = await panel.$$eval('.row.page-start .c-type', (cells) =>
        cells.map((c) => {
          const el = c as HTMLElement;
          // what shows: the text up to where the cell cuts it
          const range = document.createRange();
          range.selectNodeContents(el);
          const text = el.textContent!;
          const visible = Math.min(1, el.clientWidth / Math.max(1, range.getBoundingClientRect().width));
          return text.slice(0, Math.floor(text.length * visible));
        }),
      );
      expect(dividers, `${width} px`).toHaveLength(3);
      // each shows the part that tells it from the others
      for (const [k, p] of PAGES.entries()) {
        const tell = p === '/orders' ? '/orders' : p.slice(-1);
        expect(dividers[k], `${width} px: ${dividers[k]}`).toContain(tell === '/orders' ? '/orders' : `step=${tell}`);
      }
      expect(new Set(dividers).size).toBe(3);
      // A divider's words start under the Type heading and take the rest of the row.
      const place = await panel.$eval('.row.page-start .c-type', (c) => {
        const cell = c.getBoundingClientRect();
        const head = document.querySelector('.grid-head .c-type')!.getBoundingClientRect();
        const row = c.parentElement!.getBoundingClientRect();
        return { left: cell.left - head.left, right: Math.round(row.right - cell.right) };
      });
      expect(place.left, `${width} px`).toBeCloseTo(0, 0);
      expect(place.right, `${width} px`).toBeLessThan(16);
    }
    await panel.setViewport({ width: 1280, height: 700 });
  });

  it("a navigation's detail names its frame and origin, not a message's sender or receiver", async () => {
    const embedUrl = `${TENANT}/embed/dashboard/x?session=s`;
    await load(panel, file(session([top(), embedNav(embedUrl), ...event('svc:event:ready', 3, embedUrl)])), 'nav.json');
    const labels = async (seq: number) => {
      await panel.click(`#ei-row-${seq}`);
      await panel.keyboard.press('Enter'); // opens the details
      await panel.waitForSelector('section.detail [role="tablist"]');
      await panel.click('#tab-message');
      await panel.waitForSelector('.message-tab .facts-list');
      return panel.$$eval('.message-tab .facts-list dt', (dts) => dts.map((d) => d.textContent));
    };
    const nav = await labels(2);
    expect(nav).toEqual(expect.arrayContaining(['Frame', 'Origin']));
    for (const word of ['Received by', 'Posted by', 'event.origin', 'Receiver origin']) {
      expect(nav).not.toContain(word);
    }
    // a delivery still says who received it
    expect(await labels(4)).toEqual(expect.arrayContaining(['Received by', 'event.origin', 'Receiver origin']));
  });

  it("a message's time is the same in the timeline and in the flow view, which says what it counts from", async () => {
    const EMBED = `${TENANT}/embed/dashboard/dA7kQ2mXp9Lw?session=s`;
    const records = session([
      top(),
      embedNav(EMBED),
      ...event('svc:event:ready', 3, EMBED),
      ...event('svc:event:dashboard-loaded', 5, EMBED),
    ]);
    await load(panel, file(records), 'times.json');
    const timeline = await panel.$eval('#ei-row-5 .c-time', (c) => c.textContent!.trim());
    await panel.$eval('.vt-flow', (b) => (b as HTMLButtonElement).click());
    await panel.waitForSelector('#ei-flow-5');
    const flow = await panel.$eval('#ei-flow-5 .flow-time', (t) => t.textContent!.trim());
    expect(flow).toBe(timeline);
    expect(await panel.$eval('.flow-base', (e) => e.textContent)).toBe('time since ready');
    // the timeline's other base: both follow
    await inPanel(panel, (h) => h.setTimeBase('first'));
    await panel.waitForFunction(
      () => document.querySelector('.flow-base')?.textContent === 'time since the first record',
    );
    const flowFirst = await panel.$eval('#ei-flow-5 .flow-time', (t) => t.textContent!.trim());
    await panel.$eval('.vt-timeline', (b) => (b as HTMLButtonElement).click());
    await panel.waitForSelector('#ei-row-5');
    expect(await panel.$eval('#ei-row-5 .c-time', (c) => c.textContent!.trim())).toBe(flowFirst);
    await inPanel(panel, (h) => h.setTimeBase('ready'));
  });
});

describe('the offline viewer (embed-inspector view)', () => {
  it('shows no live-only control: not Recording, Preserve log, Receive only, Compose nor Replay', async () => {
    const EMBED = `${TENANT}/embed/dashboard/dA7kQ2mXp9Lw?session=s`;
    const text = file(session([top(), embedNav(EMBED), ...event('svc:event:ready', 3, EMBED)]));
    const viewer = await serveViewer(EXT, [{ name: 'ci-run.json', text }], { theme: 'light' });
    try {
      const p = await launched.browser.newPage();
      await p.setViewport({ width: 1400, height: 700 });
      p.on('pageerror', (e) => errors.push(String(e)));
      await p.goto(viewer.url);
      await waitInPanel(p, (h) => h.counts().records > 0);
      await twoFrames(p);
      const present = await p.evaluate(() =>
        ['.summary .rec', '.summary .receive-only', '.t-compose', '.t-replay'].filter((s) => document.querySelector(s)),
      );
      expect(present).toEqual([]);
      expect(await p.$eval('.summary', (s) => s.textContent)).not.toMatch(/Not recording|Preserve log|Receive only/);
      // what a file offers stays: export, import, compare
      expect(await p.$('.t-export')).not.toBeNull();
      await p.close();
    } finally {
      await viewer.close();
    }
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
