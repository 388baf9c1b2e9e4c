import { describe, expect, it } from 'vitest';
import { parseSync } from 'vite';
import type { CaptureFile, CaptureRecord } from './record.ts';
import { generateTest, looksGenerated, planTest, stablePayload, testFileName, TestgenError } from './testgen.ts';

const HOST = 'https://host.test';
const TENANT = 'https://tenant.test';
const PAGE = `${HOST}/reports?session=[redacted]&tab=2`;
const EMBED = `${TENANT}/embed/dashboard/PUBabc123xyz?session=[redacted]`;

let seq = 0;
let clock = 1_000;
const rec = (r: Partial<CaptureRecord> & Pick<CaptureRecord, 'kind'>): CaptureRecord => ({
  seq: ++seq,
  time: clock,
  frameUrl: r.frameId === 0 ? PAGE : EMBED,
  origin: r.frameId === 0 ? HOST : TENANT,
  data: null,
  ...r,
});
const nav = (frameId: number, url: string) =>
  rec({ kind: 'receive', frameId, frameUrl: url, data: { url }, navigation: true });
const envelope = (direction: 'event' | 'action', type: string, payload: unknown) => ({
  source: 'svc-embed',
  direction,
  type,
  payload,
  timestamp: clock,
  ...(direction === 'event' ? { surface: 'dashboard' } : {}),
});
/** An event posted by the embed and delivered to the host page: two records. */
function event(type: string, payload: unknown, at: number): CaptureRecord[] {
  clock = at;
  const post = rec({ kind: 'post', frameId: 3, targetOrigin: HOST, data: envelope('event', type, payload) });
  clock = at + 5;
  const delivery = rec({ kind: 'receive', frameId: 0, origin: TENANT, data: envelope('event', type, payload) });
  post.pairedWith = delivery.seq;
  delivery.pairedWith = post.seq;
  return [post, delivery];
}
/** An action posted by the host page (frame 0) and delivered to the embed. */
function action(type: string, payload: unknown, at: number, extra: Partial<CaptureRecord> = {}): CaptureRecord[] {
  clock = at;
  const post = rec({
    kind: 'post',
    frameId: 0,
    targetOrigin: TENANT,
    data: envelope('action', type, payload),
    ...extra,
  });
  if (post.dropped) {
    return [post];
  }
  clock = at + 3;
  const delivery = rec({
    kind: 'receive',
    frameId: 3,
    origin: HOST,
    data: envelope('action', type, payload),
    ...(extra.injected ? { injected: true } : {}),
  });
  post.pairedWith = delivery.seq;
  delivery.pairedWith = post.seq;
  return [post, delivery];
}

function session(): CaptureFile {
  seq = 0;
  clock = 900;
  const messages: CaptureRecord[] = [
    nav(0, PAGE),
    nav(3, EMBED),
    ...event(
      'svc:event:ready',
      { embedTenant: 'acme', deploymentId: 1, mode: 'signed', surface: 'dashboard', publicId: 'PUBabc123xyz' },
      1_000,
    ),
    ...action('svc:action:set-locale', { locale: 'de-DE' }, 1_100),
    ...event(
      'svc:event:view',
      { surface: 'dashboard', path: '/embed/dashboard/PUBabc123xyz', title: 'Sales', publicId: 'PUBabc123xyz' },
      1_200,
    ),
    ...event('svc:event:dashboard-loaded', { publicId: 'PUBabc123xyz', widgetCount: 4, loadDurationMs: 700 }, 1_900),
    // The viewer reads for three seconds, then the host navigates.
    ...action('svc:action:navigate', { path: '/embed/dashboard/PUBabc123xyz/data' }, 5_000),
    // Not the host's: injected by the inspector, and an action posted by a frame that is not the top one.
    ...action('svc:action:refresh', {}, 5_050, { injected: true }),
    ...action('svc:action:refresh', {}, 5_060, { frameId: 7, frameUrl: `${HOST}/widget`, origin: HOST }),
    ...action('svc:action:set-timezone', { timezone: 'Europe/Berlin' }, 5_100),
    ...event(
      'svc:event:ai-query',
      { query: 'why "EMEA"?\n</script>', status: 'submitted', chatId: 'chat-kca7ud', agentId: 'agent-1' },
      5_300,
    ),
    ...event(
      'svc:event:download',
      {
        format: 'csv',
        target: 'widget',
        widgetId: 'w-revenue',
        title: 'Revenue',
        rowCount: 3,
        exportedAt: '2026-01-02T03:04:05Z',
      },
      5_400,
    ),
  ];
  return {
    format: 'embed-inspector-capture',
    version: 1,
    tenantOrigin: TENANT,
    messages,
    meta: { createdBy: 'embed-inspector record', createdAt: '2026-01-02T03:04:10.000Z', pageUrl: PAGE, redacted: true },
  };
}

/** TypeScript (Playwright) or JavaScript (puppeteer) that parses without an error. */
function parses(code: string, lang: 'ts' | 'js') {
  const { errors } = parseSync(`gen.${lang === 'ts' ? 'ts' : 'mjs'}`, code, { sourceType: 'module' });
  return errors.map((e) => e.message);
}

describe('planTest: the host’s actions', () => {
  it('are the top frame’s own posts, in order, with the gaps capped', () => {
    const plan = planTest(session());
    expect(plan.actions.map((a) => a.type)).toEqual([
      'svc:action:set-locale',
      'svc:action:navigate',
      'svc:action:set-timezone',
    ]);
    // 95 ms after the ready the host received (at 1005), 3.9 s later (capped), 100 ms later.
    expect(plan.actions.map((a) => [a.gapMs, a.waitMs])).toEqual([
      [95, 95],
      [3_900, 250],
      [100, 100],
    ]);
    expect(plan.actions.map((a) => a.payload)).toEqual([
      { locale: 'de-DE' },
      { path: '/embed/dashboard/PUBabc123xyz/data' },
      { timezone: 'Europe/Berlin' },
    ]);
  });

  it('wait for the events the host had received before each one', () => {
    const plan = planTest(session());
    expect(plan.events).toEqual([
      'svc:event:ready',
      'svc:event:view',
      'svc:event:dashboard-loaded',
      'svc:event:ai-query',
      'svc:event:download',
    ]);
    // set-locale: just after ready (already waited for); navigate: after view and dashboard-loaded; set-timezone:
    // nothing new since.
    expect(plan.actions.map((a) => a.after)).toEqual([0, 3, 0]);
  });

  it('take another cap, and none with 0', () => {
    expect(planTest(session(), { maxGapMs: 1_000 }).actions.map((a) => a.waitMs)).toEqual([95, 1_000, 100]);
    expect(planTest(session(), { maxGapMs: 0 }).actions.map((a) => a.waitMs)).toEqual([0, 0, 0]);
  });

  it('say what the capture did differently: a post to "*", a dropped one, one before ready', () => {
    const c = session();
    const early = action('svc:action:set-color-scheme', { scheme: 'dark' }, 950, { targetOrigin: '*' });
    c.messages.splice(2, 0, ...early);
    c.messages.push(...action('svc:action:refresh', {}, 6_000, { dropped: true, targetOrigin: 'https://other.test' }));
    const plan = planTest(c);
    const scheme = plan.actions.find((a) => a.type === 'svc:action:set-color-scheme')!;
    expect(plan.actions[0]).toBe(scheme);
    expect(scheme.notes.join('\n')).toMatch(/"\*"/);
    expect(scheme.notes.join('\n')).toMatch(/before the embed was ready/);
    expect(plan.actions.at(-1)!.notes.join('\n')).toMatch(/dropped/);
    // The wildcard post is a protocol error of the capture: the test expects none, and says so.
    expect(plan.captureErrors).toBeGreaterThan(0);
    expect(plan.captureErrorRules).toContain('origin.action-wildcard');
    expect(plan.notes.join('\n')).toMatch(/origin\.action-wildcard/);
  });

  it('come from the deliveries of a receive-only capture', () => {
    const c = session();
    c.messages = c.messages.filter((r) => r.kind === 'receive').map((r) => ({ ...r, pairedWith: undefined }));
    const plan = planTest(c);
    // Not the injected one; the other frame's cannot be told from the host page's by its delivery.
    expect(plan.actions.map((a) => a.type)).toEqual([
      'svc:action:set-locale',
      'svc:action:navigate',
      'svc:action:refresh',
      'svc:action:set-timezone',
    ]);
    expect(plan.notes.join('\n')).toMatch(/receive-only/);
    expect(plan.events).toHaveLength(5);
  });

  it('are those of the last page of a log kept across navigations', () => {
    const c = session();
    const again = session().messages.map((r) => ({ ...r, seq: r.seq + 100, time: r.time + 10_000 }));
    for (const r of again) {
      if (r.pairedWith !== undefined) {
        r.pairedWith += 100;
      }
    }
    c.messages.push(...again.filter((r) => (r.data as { type?: string } | null)?.type !== 'svc:action:set-timezone'));
    const plan = planTest(c);
    expect(plan.actions.map((a) => a.type)).toEqual(['svc:action:set-locale', 'svc:action:navigate']);
    expect(plan.notes.join('\n')).toMatch(/2 pages/);
  });
});

describe('stablePayload: what --assert-payloads pins', () => {
  const known = new Set(['PUBabc123xyz']);

  it('pins enums, booleans and behaviour strings; never ids, times, counts or free text', () => {
    expect(
      stablePayload('svc:event:ready', {
        embedTenant: 'acme',
        deploymentId: 1,
        mode: 'signed',
        surface: 'dashboard',
        publicId: 'PUBabc123xyz',
      }),
    ).toEqual({ mode: 'signed', surface: 'dashboard' });
    expect(
      stablePayload(
        'svc:event:view',
        { surface: 'app', path: '/embed/dashboard/PUBabc123xyz', title: 'Sales', publicId: 'PUBabc123xyz' },
        known,
      ),
    ).toEqual({ surface: 'app', path: '/embed/dashboard/PUBabc123xyz' });
    expect(
      stablePayload('svc:event:dashboard-loaded', { publicId: 'PUBabc123xyz', widgetCount: 4, loadDurationMs: 9 }),
    ).toEqual({});
    expect(
      stablePayload('svc:event:download', {
        format: 'xlsx',
        target: 'dashboard',
        widgetId: 'w-1',
        title: 'Revenue',
        rowCount: 2,
      }),
    ).toEqual({ format: 'xlsx', target: 'dashboard' });
    expect(
      stablePayload('svc:event:ai-query', {
        query: 'Which?',
        status: 'completed',
        chatId: 'chat-kca7ud',
        agentId: 'a',
      }),
    ).toEqual({ status: 'completed' });
    expect(
      stablePayload('svc:event:error', {
        message: 'Query failed for widget "Total revenue"',
        name: 'QueryError',
        context: 'widget:w-total-revenue',
        fatal: false,
      }),
    ).toEqual({ name: 'QueryError', context: 'widget:w-total-revenue', fatal: false });
    expect(stablePayload('svc:event:drilldown', { member: 'orders.revenue', value: 'EMEA', widgetId: 'w' })).toEqual({
      member: 'orders.revenue',
    });
  });

  it('leaves out a value outside the catalog’s enum, and a path with a generated id', () => {
    expect(stablePayload('svc:event:ai-query', { query: 'q', status: 'thinking' })).toEqual({});
    expect(stablePayload('svc:event:view', { surface: 'chat', path: '/embed/chat/c9f8e7d6x1' }, known)).toEqual({
      surface: 'chat',
    });
    expect(stablePayload('svc:event:navigate', { path: '/embed/d/1/app/workbook/2024-01-05' })).toEqual({});
  });

  it('reads unknown fields by their look: enum-like words and booleans only', () => {
    expect(
      stablePayload('svc:event:x-custom', {
        variant: 'dark-mode',
        'we"ird key': 'ok',
        token: 'secret',
        sessionId: 'abc',
        createdAt: 'x',
        nested: { kind: 'bar', id: 'x', ref: 'k3j4h5g6' },
        list: ['a'],
        n: 5,
        stamp: '1795000000000',
        uuid: '123e4567-e89b-12d3-a456-426614174000',
        prose: 'Some words here',
        flag: true,
        nothing: null,
      }),
    ).toEqual({ variant: 'dark-mode', 'we"ird key': 'ok', nested: { kind: 'bar' }, flag: true });
    expect(stablePayload('svc:event:view', 'not an object')).toEqual({});
    expect(stablePayload('svc:event:view', JSON.parse('{"__proto__": {"surface": "app"}, "surface": "app"}'))).toEqual({
      surface: 'app',
    });
  });

  it('looksGenerated: dates, long numbers, UUIDs, hex, id-like tokens unless known, redacted values', () => {
    for (const s of [
      '2026-01-02',
      'at 12:30:45',
      'order 1234567',
      'deadbeefcafe01',
      'chat-kca7ud',
      '/embed/x/dA7kQ2mXp9Lw',
      'session=[redacted]',
    ]) {
      expect(looksGenerated(s), s).toBe(true);
    }
    for (const s of ['csv', '/embed/dashboard/overview', 'widget:w-total-revenue', 'orders.revenue', 'de-DE', 'v2']) {
      expect(looksGenerated(s), s).toBe(false);
    }
    expect(looksGenerated('/embed/x/dA7kQ2mXp9Lw', new Set(['dA7kQ2mXp9Lw']))).toBe(false);
  });

  it('the plan pins the delivered events’ stable fields once each, ids of the embed’s address allowed', () => {
    const plan = planTest(session(), { assertPayloads: true });
    expect(plan.payloadChecks).toEqual([
      { type: 'svc:event:ready', subset: { mode: 'signed', surface: 'dashboard' } },
      { type: 'svc:event:view', subset: { surface: 'dashboard', path: '/embed/dashboard/PUBabc123xyz' } },
      { type: 'svc:event:ai-query', subset: { status: 'submitted' } },
      { type: 'svc:event:download', subset: { format: 'csv', target: 'widget' } },
    ]);
    expect(planTest(session()).payloadChecks).toEqual([]);
  });
});

describe('generateTest: the code', () => {
  it('Playwright: imports the fixture, opens the page, replays in order, asserts the events in order', () => {
    const { code, fileName } = generateTest(session(), {
      framework: 'playwright',
      assertPayloads: true,
      source: 'run.json',
    });
    expect(parses(code, 'ts')).toEqual([]);
    expect(fileName).toBe('embed-session-host.test.spec.ts');
    expect(code).toMatch(/^\/\/ Generated by `embed-inspector codegen --playwright --assert-payloads` from run\.json/);
    expect(code).toContain('import { expect, test } from "embed-inspector/playwright";');
    expect(code).toContain('await embed.waitFor("svc:event:ready");');
    const at = (s: string) => {
      const i = code.indexOf(s);
      expect(i, s).toBeGreaterThan(-1);
      return i;
    };
    const order = [
      'await page.goto(',
      'await embed.waitFor("svc:event:ready");',
      'await page.waitForTimeout(95);',
      'await embed.send({ type: "svc:action:set-locale", payload: { locale: "de-DE" } });',
      'await expect(embed).toHaveSeenInOrder(EVENTS.slice(0, 3), { timeout: EVENTS_TIMEOUT });',
      'await page.waitForTimeout(250); // 3900 ms in the capture',
      'type: "svc:action:navigate"',
      'await page.waitForTimeout(100);',
      'type: "svc:action:set-timezone"',
      'await expect(embed).toHaveSeenInOrder(EVENTS, { timeout: EVENTS_TIMEOUT });',
      'await expect(embed).toHaveReceived("svc:event:ready", { mode: "signed", surface: "dashboard" });',
      'await expect(embed).toHaveReceived("svc:event:download", { format: "csv", target: "widget" });',
      'await expect(embed).toHaveNoProtocolErrors();',
    ].map(at);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Never the injected action, nor the other frame's; never a volatile value.
    expect(code).not.toContain('svc:action:refresh');
    for (const volatile of ['chat-kca7ud', 'loadDurationMs', 'rowCount', 'exportedAt', 'Which', 'EMEA', '"Sales"']) {
      expect(code).not.toContain(volatile);
    }
  });

  it('reads a redacted page URL parameter from the environment, with a TODO', () => {
    const { code, plan } = generateTest(session(), { framework: 'playwright' });
    expect(plan.redacted).toEqual([{ name: 'session', env: 'EMBED_SESSION' }]);
    expect(code).toContain(
      'await page.goto("https://host.test/reports?session=" + fromEnv("EMBED_SESSION") + "&tab=2");',
    );
    expect(code).toMatch(/TODO: set it/);
    expect(code).toContain('Run: EMBED_SESSION=… npx playwright test');
    expect(code.split('\n').filter((l) => !l.startsWith('//') && l.includes('[redacted]'))).toEqual([]);
    // --url replaces the page and needs nothing.
    const other = generateTest(session(), { framework: 'playwright', url: 'http://127.0.0.1:4100/?x="1"' });
    expect(other.code).toContain('await page.goto("http://127.0.0.1:4100/?x=\\"1\\"");');
    expect(other.code).not.toContain('fromEnv');
    expect(other.fileName).toBe('embed-session-127.0.0.1.spec.ts');
  });

  it('puppeteer: a node ESM script that sets a failure exit status', () => {
    const { code, fileName } = generateTest(session(), { framework: 'puppeteer', assertPayloads: true });
    expect(parses(code, 'js')).toEqual([]);
    expect(fileName).toBe('embed-session-host.test.mjs');
    expect(code).toContain('from "embed-inspector/puppeteer"');
    expect(code).not.toMatch(/: string\)/);
    expect(code).toContain('await seenInOrder(embed, EVENTS.slice(0, 3));');
    expect(code).toContain('await received(embed, "svc:event:ai-query", { status: "submitted" });');
    expect(code).toContain('process.exitCode = 1;');
    expect(code).toContain('await close();');
  });

  it('stays valid code whatever the capture holds', () => {
    const c = session();
    const tricky = 'x"\\`${y}`\n*/ // \u2028</script>';
    c.meta!.pageUrl = `${HOST}/p?q=${encodeURIComponent(tricky)}&session=[redacted]&token=[redacted]`;
    c.messages.push(
      ...action('svc:action:set-theme', JSON.parse(`{"__proto__": {"a": 1}, ${JSON.stringify(tricky)}: "v"}`), 5_200),
      ...action('svc:action:set-filter', { filterUrlParameter: `f_o.r=${JSON.stringify([tricky])}` }, 5_210),
      ...event('svc:event:x-custom', { [tricky]: 'word', kind: 'a-b' }, 5_500),
    );
    for (const framework of ['playwright', 'puppeteer'] as const) {
      const { code, plan } = generateTest(c, {
        framework,
        assertPayloads: true,
        source: `evil\nfile "name".json`,
        url: undefined,
      });
      expect(parses(code, framework === 'playwright' ? 'ts' : 'js'), code).toEqual([]);
      expect(plan.redacted.map((p) => p.env)).toEqual(['EMBED_SESSION', 'EMBED_TOKEN']);
      // No line of a comment was broken by the input.
      for (const line of code.split('\n')) {
        expect(line).not.toMatch(/^(file "name"|\*\/)/);
      }
      expect(code).toContain(JSON.stringify(`f_o.r=${JSON.stringify([tricky])}`));
    }
  });

  it('is the same for the same capture', () => {
    const a = generateTest(session(), { framework: 'playwright', assertPayloads: true }).code;
    const b = generateTest(session(), { framework: 'playwright', assertPayloads: true }).code;
    expect(a).toBe(b);
  });

  it('needs a page: a TestgenError without meta.pageUrl or a top-frame navigation, unless a URL is given', () => {
    const c = session();
    c.meta = {};
    c.messages = c.messages.filter((r) => !r.navigation);
    expect(() => generateTest(c, { framework: 'playwright' })).toThrow(TestgenError);
    expect(generateTest(c, { framework: 'playwright', url: 'http://x.test/' }).plan.pageUrl).toBe('http://x.test/');
  });

  it('a capture with no ready and no action still gives a test, which says so', () => {
    const c = session();
    c.messages = c.messages.slice(0, 2);
    const { code, plan } = generateTest(c, { framework: 'playwright' });
    expect(parses(code, 'ts')).toEqual([]);
    expect(plan.events).toEqual([]);
    expect(code).toContain('// The host sent no action in the capture.');
    expect(code).toMatch(/never said ready/);
  });

  it('testFileName: the page’s host name', () => {
    expect(testFileName('https://app.example.com:8443/x', 'playwright')).toBe('embed-session-app.example.com.spec.ts');
    expect(testFileName('not a url', 'puppeteer')).toBe('embed-session-page.mjs');
  });
});
