/**
 * `embed-inspector/puppeteer` (src/node/puppeteer.ts) as a QA script uses it, against the sandbox in the system
 * Chromium: the capture read back without waiting for the frames' batching (settle), actions sent and events
 * emitted through the extension, a redacted capture, an empty log after clear, and a timeout that says what was
 * seen. Fails (never skips) without Chromium or a build.
 */
import { afterAll } from 'vitest';
import type { Frame, Page } from 'puppeteer-core';
import { launchWithInspector, EmbedTimeoutError } from '../../src/node/puppeteer.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { embedFrame as frameOf, type Sandbox } from '../helpers/panel.ts';

let sb: Sandbox;
// The library's own launcher is what this file tests.
let inspector: Awaited<ReturnType<typeof launchWithInspector>>;

test.beforeAll(async ({ sandbox }) => {
  sb = sandbox;
  inspector = await launchWithInspector({ capture: { sites: 'all', mode: 'full' } });
});
afterAll(async () => {
  await inspector?.close();
});

const embedFrame = (page: Page): Promise<Frame> => frameOf(page, sb.tenantOrigin);

describe('embed-inspector/puppeteer', () => {
  let page: Page;
  test.beforeAll(async () => {
    page = await inspector.browser.newPage();
    await page.goto(`${sb.hostUrl}?session=demo-signed`, { waitUntil: 'load' });
  });

  it('waits for an event and reads the session in order, each message once', async () => {
    const { embed } = inspector;
    const loaded = await embed.waitFor('svc:event:dashboard-loaded', { timeout: 15_000 });
    // By default a wait is for the delivery: the host got it.
    expect(loaded.kind).toBe('receive');
    expect(loaded.origin).toBe(sb.tenantOrigin);
    const events = await embed.records({ direction: 'event', kind: 'post' });
    const types = events.map((r) => (r.data as { type: string }).type);
    expect(types.slice(0, 3)).toEqual(['svc:event:ready', 'svc:event:view', 'svc:event:dashboard-loaded']);
    // Each post reached the host: its delivery is captured too, paired with it.
    const deliveries = await embed.records({ type: 'svc:event:ready', kind: 'receive' });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].pairedWith).toBe(events[0].seq);
    expect(await embed.issues({ severity: 'error' })).toEqual([]);
  });

  it('reads a burst posted just before the call whole, without a pause (settle)', async () => {
    const embed = inspector.embedOf(page);
    const frame = await embedFrame(page);
    const before = (await embed.records({ type: 'svc:event:navigate', kind: 'post' })).length;
    // 40 events from the embed in one task, then read at once: the frame still holds them when the call starts.
    await frame.evaluate(() => {
      for (let i = 0; i < 40; i++) {
        window.parent.postMessage(
          {
            source: 'svc-embed',
            direction: 'event',
            type: 'svc:event:navigate',
            payload: { path: `/burst/${i}` },
            timestamp: Date.now(),
            surface: 'dashboard',
          },
          document.referrer ? new URL(document.referrer).origin : '*',
        );
      }
    });
    const posts = await embed.records({ type: 'svc:event:navigate', kind: 'post' });
    expect(posts.length - before).toBe(40);
  });

  it('sends an action to the embed at the tenant origin, and the embed applies it', async () => {
    const embed = inspector.embedOf(page);
    const frame = await embedFrame(page);
    await embed.send({ type: 'svc:action:set-color-scheme', payload: { scheme: 'dark' } });
    await frame.waitForFunction(() => document.documentElement.getAttribute('data-scheme') === 'dark', {
      timeout: 5000,
    });
    const [post] = await embed.records({ type: 'svc:action:set-color-scheme', kind: 'post' });
    expect(post.targetOrigin).toBe(sb.tenantOrigin);
    expect(post.injected).toBe(true);
    expect(post.verdict).toBe('valid');
  });

  it('emits an event from the embed frame that the host page handles', async () => {
    const embed = inspector.embedOf(page);
    await embed.emit({ type: 'svc:event:error', payload: { message: 'from the test', fatal: false } });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="event-log"]')?.textContent?.includes('from the test'),
      { timeout: 5000 },
    );
    const [delivery] = await embed.records({ type: 'svc:event:error', kind: 'receive' });
    expect(delivery.origin).toBe(sb.tenantOrigin);
    expect((delivery.data as { surface: string }).surface).toBe('dashboard');
  });

  it('gives a capture with the session id redacted', async () => {
    const raw = JSON.stringify(await inspector.embed.capture({ redact: false }));
    expect(raw).toContain('session=demo-signed');
    const file = await inspector.embed.capture();
    expect(file.format).toBe('embed-inspector-capture');
    expect(file.messages.length).toBeGreaterThan(5);
    expect(JSON.stringify(file)).not.toContain('demo-signed');
    const timeline = await inspector.embed.timeline();
    expect(timeline).toMatch(/svc:event:ready/);
    expect(timeline).not.toContain('demo-signed');
  });

  it('rejects a wait that times out with what was seen', async () => {
    const err = await inspector.embed.waitFor('svc:event:download', { timeout: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(EmbedTimeoutError);
    expect(err.message).toMatch(
      /^embed\.waitFor\('svc:event:download', \{ timeout: 300 \}\): svc:event:download not delivered within 300 ms; seen: svc:event:ready, svc:event:view/,
    );
  });

  it('starts over after clear', async () => {
    await inspector.embed.clear();
    expect(await inspector.embed.records()).toEqual([]);
  });
});

describe('embed-inspector/puppeteer: waitFor on a host whose action the browser drops', () => {
  it('waits for a delivery by default: a dropped post never satisfies it; { kind: "post" } waits for the post', async () => {
    const page = await inspector.browser.newPage();
    try {
      // The host posts set-color-scheme to an origin that is not the embed's: the browser drops it.
      await page.goto(`${sb.hostUrl}?faults=action-wrong-origin`, { waitUntil: 'load' });
      const embed = inspector.embedOf(page);
      const post = await embed.waitFor('svc:action:set-color-scheme', { kind: 'post', timeout: 15_000 });
      expect(post.dropped).toBe(true);
      const err = await embed.waitFor('svc:action:set-color-scheme', { timeout: 1000 }).catch((e) => e);
      expect(err).toBeInstanceOf(EmbedTimeoutError);
      expect(err.message).toMatch(/svc:action:set-color-scheme not delivered within 1000 ms/);
      expect(err.message).toContain(
        "1 post of svc:action:set-color-scheme seen, dropped by the browser (the target origin did not match the target): { kind: 'post' } waits for the post",
      );
      expect(await embed.records({ type: 'svc:action:set-color-scheme', kind: 'receive' })).toEqual([]);
      // What the embed did post to its host was delivered: that wait resolves on the delivery.
      const ready = await embed.waitFor('svc:event:ready');
      expect(ready).toMatchObject({ kind: 'receive', origin: sb.tenantOrigin });
    } finally {
      await page.close();
    }
  });
});
