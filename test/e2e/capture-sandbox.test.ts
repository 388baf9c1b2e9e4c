// Capture of real sandbox sessions: the scripted session exactly once per message, and every fault mode
// captured and classified as the fault it is (rule ids of docs/rules.md).
import type { Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server.mjs';
import type { Launched } from '../../src/node/chromium.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { ClassifiedRecord } from '../../src/shared/messages.ts';
import { tabIdOf, waitForRecords, messagesOnly, typeOf, settled, records } from '../helpers/capture.ts';

const EVENTS = ['ready', 'view', 'navigate', 'dashboard-loaded', 'download', 'drilldown', 'ai-query', 'error'].map(
  (t) => `svc:event:${t}`,
);
const ACTIONS = [
  'set-color-scheme',
  'set-theme',
  'set-locale',
  'set-timezone',
  'set-filter',
  'navigate',
  'refresh',
].map((t) => `svc:action:${t}`);
const rules = (r: ClassifiedRecord) => r.issues.map((i) => i.rule);

describe('capture of sandbox sessions', () => {
  let sb: Sandbox;
  let l: Launched;
  test.beforeAll(({ sandbox, chromium }) => {
    sb = sandbox;
    l = chromium;
  });

  const open = async (query: string): Promise<{ page: Page; tabId: number }> => {
    const page = await l.browser.newPage();
    await page.goto(`${sb.hostOrigin}/${query}`, { waitUntil: 'load' });
    return { page, tabId: await tabIdOf(l, page) };
  };

  it('captures a scripted session: every event and action exactly once, both sides, paired', async () => {
    const { page, tabId } = await open('?script=full');
    await page.waitForFunction(() => (window as any).__sandboxHost?.scriptDone(), { timeout: 30_000 });
    await waitForRecords(l, tabId, (rs) =>
      [...EVENTS, ...ACTIONS].every((t) => rs.filter((r) => typeOf(r) === t && r.pairedWith !== undefined).length >= 2),
    );
    await settled(l, tabId);
    const all = messagesOnly(await records(l, tabId));
    const svc = all.filter((r) => r.verdict !== 'foreign');
    const hostUrl = `${sb.hostOrigin}/?script=full`;
    // (the AI query comes twice, submitted then completed: each is checked like the others)
    const status = (r: ClassifiedRecord) => (r.data as { payload?: { status?: string } }).payload?.status;
    for (const t of EVENTS) {
      const mine = svc.filter((r) => typeOf(r) === t && (t !== 'svc:event:ai-query' || status(r) === 'submitted'));
      expect(mine.map((r) => r.kind).sort(), t).toEqual(['post', 'receive']);
      const post = mine.find((r) => r.kind === 'post')!;
      const recv = mine.find((r) => r.kind === 'receive')!;
      expect(post).toMatchObject({
        origin: sb.tenantOrigin,
        target: 'parent',
        targetOrigin: sb.hostOrigin,
        pairedWith: recv.seq,
      });
      expect(new URL(post.frameUrl).origin).toBe(sb.tenantOrigin);
      expect(recv).toMatchObject({ origin: sb.tenantOrigin, frameUrl: hostUrl, from: 'child', frameId: 0 });
    }
    for (const t of ACTIONS) {
      const mine = svc.filter((r) => typeOf(r) === t);
      expect(mine.map((r) => r.kind).sort(), t).toEqual(['post', 'receive']);
      const post = mine.find((r) => r.kind === 'post')!;
      const recv = mine.find((r) => r.kind === 'receive')!;
      expect(post).toMatchObject({
        origin: sb.hostOrigin,
        frameUrl: hostUrl,
        target: 'child',
        targetOrigin: sb.tenantOrigin,
        frameId: 0,
        pairedWith: recv.seq,
      });
      expect(recv.origin).toBe(sb.hostOrigin);
      expect(new URL(recv.frameUrl).origin).toBe(sb.tenantOrigin);
      expect(recv.from).toBe('parent');
    }
    expect(svc.filter((r) => typeOf(r) === 'svc:event:ai-query').map(status)).toEqual([
      'submitted',
      'submitted',
      'completed',
      'completed',
    ]);
    expect(svc).toHaveLength(2 * (EVENTS.length + ACTIONS.length + 1));
    // ready was captured although no panel was open when the page loaded; the session is valid.
    expect(svc.filter((r) => r.verdict === 'invalid').map((r) => `${typeOf(r)} ${rules(r)}`)).toEqual([]);
    await page.close();
  });

  // fault → what the capture must show
  const FAULTS: Array<[string, (rs: ClassifiedRecord[]) => boolean]> = [
    ['duplicate-ready', (rs) => rs.some((r) => rules(r).includes('session.ready-duplicate'))],
    [
      'event-before-ready',
      (rs) => rs.some((r) => typeOf(r) === 'svc:event:view' && rules(r).includes('session.event-before-ready')),
    ],
    [
      'missing-surface',
      (rs) => rs.some((r) => typeOf(r) === 'svc:event:view' && rules(r).includes('envelope.surface-missing')),
    ],
    [
      'wrong-payload-types',
      (rs) => rs.some((r) => typeOf(r) === 'svc:event:ready' && rules(r).includes('payload.type')),
    ],
    [
      'unknown-event',
      (rs) => rs.some((r) => typeOf(r) === 'svc:event:widget-hover' && rules(r).includes('envelope.type')),
    ],
    [
      'dashboard-event-from-chat',
      (rs) => rs.some((r) => typeOf(r) === 'svc:event:drilldown' && rules(r).includes('surface.not-allowed')),
    ],
    [
      'third-origin',
      (rs) =>
        rs.some(
          (r) =>
            r.kind === 'receive' &&
            r.frameId === 0 &&
            r.origin !== r.frameUrl &&
            typeOf(r) === 'svc:event:view' &&
            rules(r).includes('origin.event'),
        ),
    ],
    [
      'huge-payload',
      (rs) =>
        rs.filter(
          (r) =>
            typeOf(r) === 'svc:event:view' && (r.originalSize ?? 0) > 5_000_000 && (r.data as any).$ei === 'Truncated',
        ).length === 2,
    ],
    [
      'non-json',
      (rs) =>
        ['Date', 'Map', 'ArrayBuffer', 'Ref'].every(
          (tag) =>
            rs.filter(
              (r) =>
                (typeOf(r) === 'svc:event:drilldown' && (r.data as any).payload?.value?.$ei === tag) ||
                JSON.stringify(r.data).includes(`"$ei":"${tag}"`),
            ).length >= 2,
        ),
    ],
    [
      'action-star',
      (rs) =>
        rs.some((r) => r.kind === 'post' && r.targetOrigin === '*' && rules(r).includes('origin.action-wildcard')),
    ],
    [
      'action-wrong-origin',
      (rs) =>
        rs.some(
          (r) =>
            r.kind === 'post' &&
            r.dropped === true &&
            rules(r).some((x) => x === 'origin.dropped' || x === 'origin.action-target'),
        ),
    ],
    [
      'action-before-ready',
      (rs) =>
        rs.some(
          (r) =>
            r.kind === 'post' &&
            typeOf(r) === 'svc:action:set-color-scheme' &&
            rules(r).includes('session.action-before-ready'),
        ),
    ],
  ];
  for (const [fault, expected] of FAULTS) {
    it(`captures and classifies the ${fault} fault`, async () => {
      const { page, tabId } = await open(`?faults=${fault}`);
      await waitForRecords(l, tabId, expected, 20_000);
      await page.close();
    });
  }

  it('captures a flood completely', async () => {
    const { page, tabId } = await open('?faults=flood&flood=400&floodSeconds=2');
    const isFlood = (r: ClassifiedRecord) =>
      typeOf(r) === 'svc:event:view' && /^flood #/.test((r.data as any).payload?.title ?? '');
    const recs = await waitForRecords(l, tabId, (rs) => rs.filter(isFlood).length >= 1600, 30_000);
    await settled(l, tabId);
    const flood = (await records(l, tabId)).filter(isFlood);
    expect(flood.filter((r) => r.kind === 'post')).toHaveLength(800);
    expect(flood.filter((r) => r.kind === 'receive')).toHaveLength(800);
    expect(recs.length).toBeGreaterThan(0);
    await page.close();
  });
});
