// Verdicts that were false or confusing on real sandbox sessions (issue 14), in real Chromium with the built
// extension, as the background classifies them and as the command line sums them up (checkRecords):
// - a view from a third origin belongs to no embed session (no ordering rule on it);
// - a post that threw was never sent (not "the browser drops it");
// - an expired session: the embed's fatal error before ready says the embed failed to start (an info), and the
//   command line's summary and the panel's say so with its message;
// - a message over the size cap is judged by the envelope it kept, not by the inspector's placeholder.
import { afterAll } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server.mjs';
import type { Launched } from '../../src/node/chromium.ts';
import type { ClassifiedRecord } from '../../src/shared/messages.ts';
import { checkRecords } from '../../src/protocol/capture.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { tabIdOf, typeOf, waitForRecords } from '../helpers/capture.ts';
import { panelFor } from '../helpers/panel.ts';

const rules = (r: ClassifiedRecord) => r.issues.map((i) => i.rule);
const sessionRules = (r: ClassifiedRecord) => rules(r).filter((x) => x.startsWith('session.'));

describe('verdicts on sandbox sessions', () => {
  let sb: Sandbox;
  let l: Launched;
  const pages: Page[] = [];
  test.beforeAll(({ sandbox, chromium }) => {
    sb = sandbox;
    l = chromium;
  });
  afterAll(async () => {
    for (const p of pages) {
      await p.close().catch(() => {});
    }
  });

  const open = async (query: string): Promise<{ page: Page; tabId: number }> => {
    const page = await l.browser.newPage();
    pages.push(page);
    await page.goto(`${sb.hostOrigin}/${query}`, { waitUntil: 'load' });
    return { page, tabId: await tabIdOf(l, page) };
  };

  it('third-origin: the rogue view is an origin fault, not a session one; the real session stays clean', async () => {
    const { tabId } = await open('?faults=third-origin');
    const rogue = (r: ClassifiedRecord) =>
      r.kind === 'receive' && typeOf(r) === 'svc:event:view' && r.origin !== sb.tenantOrigin;
    const rs = await waitForRecords(
      l,
      tabId,
      (all) => all.some(rogue) && all.some((r) => typeOf(r) === 'svc:event:dashboard-loaded'),
      20_000,
    );
    const views = rs.filter(rogue);
    expect(views.length).toBeGreaterThan(0);
    for (const v of views) {
      expect(rules(v)).toContain('origin.event');
      expect(sessionRules(v)).toEqual([]);
    }
    // The tenant's own session: ready first, nothing out of order.
    const tenant = rs.filter((r) => typeOf(r)?.startsWith('svc:') && r.origin === sb.tenantOrigin);
    expect(tenant.flatMap(sessionRules)).toEqual([]);
  });

  it('a post that threw was never sent, and the record says so', async () => {
    const { page, tabId } = await open('');
    await waitForRecords(l, tabId, (rs) => rs.some((r) => typeOf(r) === 'svc:event:ready' && r.kind === 'receive'));
    const thrown = await page.evaluate(() => {
      const env = {
        source: 'svc-embed',
        direction: 'action',
        type: 'svc:action:refresh',
        payload: {},
        timestamp: Date.now(),
      };
      try {
        document.querySelector('iframe')!.contentWindow!.postMessage(env, 'not a url');
        return null;
      } catch (e) {
        return String((e as Error).name);
      }
    });
    expect(thrown).toBe('SyntaxError');
    const rs = await waitForRecords(l, tabId, (all) => all.some((r) => r.kind === 'post' && r.error !== undefined));
    const post = rs.find((r) => r.kind === 'post' && r.error !== undefined)!;
    expect(post.error).toMatch(/SyntaxError/);
    expect(post.dropped).not.toBe(true);
    expect(post.pairedWith).toBeUndefined();
    const text = post.issues.map((i) => i.message).join('\n');
    expect(text).toMatch(/never sent/);
    expect(text).not.toMatch(/drops it|dropped/);
    // Nothing of it arrived: no delivery of a refresh, and no dashboard reload answered it.
    expect(rs.filter((r) => r.kind === 'receive' && typeOf(r) === 'svc:action:refresh')).toEqual([]);
  });

  it('an expired session: the fatal error before ready is the embed failing to start, an info', async () => {
    const { page, tabId } = await open('?session=demo-expired');
    const rs = await waitForRecords(l, tabId, (all) =>
      all.some((r) => r.kind === 'receive' && typeOf(r) === 'svc:event:error'),
    );
    expect(rs.some((r) => typeOf(r) === 'svc:event:ready')).toBe(false);
    const errors = rs.filter((r) => typeOf(r) === 'svc:event:error');
    for (const e of errors) {
      expect(rules(e)).toContain('session.failed-before-ready');
      expect(rules(e)).not.toContain('session.event-before-ready');
      expect(e.issues.filter((i) => i.rule.startsWith('session.')).map((i) => i.severity)).toEqual(['info']);
    }
    const { summary } = checkRecords(rs);
    expect(summary.startFailures).toHaveLength(1);
    expect(summary.startFailures[0]).toMatch(/^the embed failed to start: .+/);
    expect(summary.errors).toBe(0);
    // The panel's summary says the same, in place of "ready: not seen".
    const panel = await panelFor(l, page);
    pages.push(panel);
    const fact = await panel.waitForFunction(() => document.querySelector('.facts .fact.failed')?.textContent ?? null, {
      timeout: 10_000,
    });
    expect(await fact.jsonValue()).toBe(summary.startFailures[0]);
    expect(await panel.evaluate(() => document.querySelector('.facts')?.textContent ?? '')).not.toMatch(/not seen/);
  });

  it('a message over the size cap is judged by the envelope it kept, not by a placeholder', async () => {
    const { tabId } = await open('?faults=huge-payload');
    const big = (r: ClassifiedRecord) => (r.originalSize ?? 0) > 5_000_000;
    const rs = await waitForRecords(l, tabId, (all) => all.filter(big).length >= 2, 30_000);
    for (const r of rs.filter(big)) {
      expect(typeOf(r)).toBe('svc:event:view');
      expect(rules(r)).toContain('envelope.truncated');
      expect(rules(r).filter((x) => x.startsWith('envelope.') && x !== 'envelope.truncated')).toEqual([]);
      expect(rules(r).filter((x) => x.startsWith('payload.'))).toEqual([]);
      expect(r.issues.find((i) => i.rule === 'envelope.truncated')?.severity).toBe('info');
    }
  });
});
