/**
 * Export and import from the panel: the log is downloaded as a capture file (redacted by default), checked
 * with `embed-inspector check` (same verdicts as the panel), imported back through the file picker (same
 * verdicts, nothing replayed), with the way back to the live tab; an unusable file changes nothing.
 * Real Chromium, built extension, sandbox.
 */
import { afterAll, vi } from 'vitest';
import type { Page } from 'puppeteer-core';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settled, tabIdOf } from '../helpers/capture.ts';
import {
  embedFrame,
  fill,
  hostPage,
  openComposer,
  panelFor,
  type Sandbox,
  inPanel,
  waitInPanel,
} from '../helpers/panel.ts';
import { ROOT } from '../helpers/paths.ts';
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import type { Launched } from '../../src/node/chromium.ts';

let sb: Sandbox;
let launched: Launched;
let page: Page, panel: Page;
const dir = mkdtempSync(join(tmpdir(), 'ei-export-'));
const errors: string[] = [];

test.beforeAll(async ({ sandbox, chromium }) => {
  sb = sandbox;
  launched = chromium;
  page = await hostPage(launched, sb, 'allowExport=true');
  const frame = await embedFrame(page, sb.tenantOrigin);
  await frame.waitForFunction(() => (window as any).__sandboxEmbed?.state().ready, { timeout: 15_000 });
  await page.evaluate(() => (window as any).__sandboxHost.waitFor('svc:event:dashboard-loaded', 1, 15_000));
  await frame.evaluate(() => (window as any).__sandboxEmbed.exportData('csv'));
  panel = await panelFor(launched, page, errors);
  // one injected action too, from the composer
  await openComposer(panel);
  await panel.select('.cm-type', 'svc:action:set-locale');
  await fill(panel, '#cf-locale', 'ja-JP');
  await panel.click('.cm-send');
  await waitInPanel(panel, (h) => h.records().some((r: any) => r.injected && r.kind === 'receive'), {
    timeout: 10_000,
  });
  await page.evaluate(() => (window as any).__sandboxHost.waitFor('svc:event:download', 1, 5_000));
  await waitInPanel(panel, (h) => h.records({ type: 'svc:event:download' }).length > 0, {
    timeout: 10_000,
  });
  const cdp = await panel.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function download(ext = '.json'): Promise<{ name: string; text: string }> {
  // The file name has the time to the second: a second export within the same second has the name of the first,
  // and the browser then writes over it. So a download is a .json file that is new or written since the click.
  // (only .json files: the browser writes a .crdownload first and renames it, so it can be gone by the stat)
  const written = () => {
    const out = new Map<string, number>();
    for (const f of readdirSync(dir)) {
      try {
        if (f.endsWith(ext)) {
          out.set(f, statSync(join(dir, f)).mtimeMs);
        }
      } catch {
        /* renamed or removed between the listing and the stat */
      }
    }
    return out;
  };
  const before = written();
  await panel.click('.x-download');
  // (the browser writes a .crdownload and renames it to the name once written; meanwhile the name may hold an empty
  // file that reserves it: a file by the name is complete once no .crdownload is left and it is not empty)
  const done = (f: string) =>
    !readdirSync(dir).some((g) => g.endsWith('.crdownload')) && statSync(join(dir, f), { throwIfNoEntry: false })?.size;
  const name = await vi
    .waitUntil(() => [...written()].find(([f, t]) => before.get(f) !== t && done(f))?.[0], {
      timeout: 20_000,
      interval: 100,
    })
    .catch(() => {
      throw new Error(
        `no download: ${JSON.stringify([...written()])}, before the click ${JSON.stringify([...before])}`,
      );
    });
  return { name, text: readFileSync(join(dir, name), 'utf8') };
}

function check(file: string): Promise<{ code: number; out: any }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin/embed-inspector.js'), 'check', file, '--format', 'json'],
      (err, stdout) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: JSON.parse(stdout) });
      },
    );
  });
}
const panelVerdicts = () =>
  inPanel(panel, (h) =>
    Object.fromEntries(
      h
        .records()
        .filter((r: any) => !r.navigation)
        .map((r: any) => [
          r.seq,
          `${r.verdict} ${r.issues
            .map((i: any) => i.rule)
            .sort()
            .join(',')}`,
        ]),
    ),
  ) as Promise<Record<string, string>>;

describe('export, check, import', () => {
  let exported: { name: string; text: string };

  it('downloads the whole log as a capture file v1, redacted by default', async () => {
    await panel.click('.t-export');
    await panel.waitForSelector('.export');
    expect(await panel.$eval('.x-redact', (c) => (c as HTMLInputElement).checked)).toBe(true);
    exported = await download();
    expect(exported.name).toMatch(/^embed-capture-127\.0\.0\.1-\d+-\d{8}-\d{6}\.json$/);
    const file = JSON.parse(exported.text);
    expect(file).toMatchObject({
      format: 'embed-inspector-capture',
      version: 1,
      tenantOrigin: sb.tenantOrigin,
      meta: { redacted: true },
    });
    const n = await inPanel(panel, (h) => h.counts().records);
    expect(file.messages).toHaveLength(n);
    expect(file.messages.some((m: any) => m.injected)).toBe(true);
  });

  it('no secret of the sandbox session is in the file', async () => {
    const data = sb.snapshot();
    const session = await page.evaluate(() => (window as any).__sandboxHost.session);
    const embedUrl = await page.evaluate(() => (window as any).__sandboxHost.embedUrl);
    expect(embedUrl).toContain(`session=${session}`); // the secret was in the captured URLs
    const secrets = [
      session,
      ...Object.keys(data.tokens),
      ...Object.values<any>(data.sessions)
        .map((s) => s.token)
        .filter(Boolean),
    ];
    for (const s of secrets) {
      expect(exported.text, `secret ${s}`).not.toContain(s);
    }
    expect(exported.text).toContain('session=[redacted]');
    expect(exported.text).not.toMatch(/Bearer\s+(?!\[redacted\])/);
  });

  it('embed-inspector check gives the same verdicts as the panel', async () => {
    const path = join(dir, exported.name);
    const { code, out } = await check(path);
    expect([0, 1]).toContain(code);
    const cli = Object.fromEntries(
      out.messages.map((m: any) => [
        m.seq,
        `${m.verdict} ${m.issues
          .map((i: any) => i.rule)
          .sort()
          .join(',')}`,
      ]),
    );
    const live = await panelVerdicts();
    expect(Object.keys(cli).length).toBeGreaterThan(5);
    expect(cli).toEqual(live);
  });

  it('imports the file through the picker: the same verdicts offline, nothing replayed; back to the live tab', async () => {
    const live = await panelVerdicts();
    const frame = await embedFrame(page, sb.tenantOrigin);
    const acceptedBefore = await frame.evaluate(() => (window as any).__sandboxEmbed.accepted.length);
    const receivedBefore = await inPanel(page, (_h) => (window as any).__sandboxHost.received.length);
    const input = await panel.$('.import-input');
    await (input as any).uploadFile(join(dir, exported.name));
    await waitInPanel(panel, (h) => h.store.transportInfo?.kind === 'file', {
      timeout: 5_000,
    });
    expect(await panel.$eval('.viewing-file', (e) => e.textContent)).toContain(exported.name);
    expect(await panel.$eval('.status', (e) => e.textContent)).toContain(`capture file: ${exported.name}`);
    expect(await panelVerdicts()).toEqual(live);
    await settled(launched, await tabIdOf(launched, page));
    expect(await frame.evaluate(() => (window as any).__sandboxEmbed.accepted.length)).toBe(acceptedBefore); // nothing was replayed
    expect(await page.evaluate(() => (window as any).__sandboxHost.received.length)).toBe(receivedBefore);
    await panel.click('.t-live');
    await waitInPanel(
      panel,
      (h) => {
        return h.store.transportInfo?.kind === 'runtime' && h.store.status === 'connected' && h.counts().records > 0;
      },
      { timeout: 5_000 },
    );
    expect(await panel.$('.viewing-file')).toBeNull();
  });

  it('imports a file dropped on the panel', async () => {
    const text = readFileSync(join(dir, exported.name), 'utf8');
    await panel.evaluate((t) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], 'dropped.json', { type: 'application/json' }));
      const root = document.querySelector('.drop-root')!;
      root.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      root.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, text);
    await waitInPanel(panel, (h) => h.store.transportInfo?.label === 'dropped.json', {
      timeout: 5_000,
    });
    expect(await inPanel(panel, (h) => h.counts().records)).toBe(JSON.parse(text).messages.length);
    await panel.click('.t-live');
    await waitInPanel(panel, (h) => h.store.transportInfo?.kind === 'runtime', {
      timeout: 5_000,
    });
  });

  it('an unusable file: a clear error, nothing lost', async () => {
    const n = await inPanel(panel, (h) => h.counts().records);
    const bad = join(dir, 'not-a-capture.json');
    writeFileSync(bad, JSON.stringify({ log: { entries: [] } }));
    const input = await panel.$('.import-input');
    await (input as any).uploadFile(bad);
    await panel.waitForSelector('.import-error');
    expect(await panel.$eval('.import-error', (e) => e.textContent)).toMatch(
      /Could not import not-a-capture\.json: not a capture file.*Nothing was changed/,
    );
    const after = await inPanel(panel, (h) => ({
      kind: h.store.transportInfo?.kind,
      n: h.counts().records,
    }));
    expect(after).toEqual({ kind: 'runtime', n });
  });

  it('exports a HAR: the REST calls as entries, the messages in _embedMessages; check and Import read it', async () => {
    // REST calls as DevTools' Network log hands them (this panel runs in a tab, so they are given as HAR entries)
    const api = async (method: string, path: string, body?: unknown) => {
      const headers = { Authorization: 'Bearer tok-admin', 'Content-Type': 'application/json' };
      const url = `${sb.tenantOrigin}/api/v1/deployments/1${path}`;
      const startedDateTime = new Date().toISOString();
      const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return {
        startedDateTime,
        time: 4,
        request: {
          method,
          url,
          headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
          ...(body === undefined ? {} : { postData: { text: JSON.stringify(body), mimeType: 'application/json' } }),
        },
        response: { status: res.status, content: { text: await res.text(), mimeType: 'application/json' } },
      };
    };
    await inPanel(panel, (h) => h.rest.clear());
    const entries = [await api('GET', '/workbooks/100'), await api('PUT', '/notifications/900', { isEnabled: 'no' })];
    expect(await inPanel(panel, (h, e) => h.rest.addHar(e), entries)).toBe(2);
    const panelRest = await inPanel(panel, (h) => h.rest.records().map((r: any) => `${r.operation} ${r.verdict}`));
    expect(panelRest).toEqual(['getWorkbook valid', 'updateNotification invalid']);

    await panel.click('.x-har');
    expect(await panel.$eval('.x-rest', (e) => e.textContent)).toContain('2 REST calls');
    const har = await download('.har');
    expect(har.name).toMatch(/^embed-capture-127\.0\.0\.1-\d+-\d{8}-\d{6}\.har$/);
    const log = JSON.parse(har.text).log;
    expect(log.version).toBe('1.2');
    expect(log.creator.name).toBe('embed-inspector');
    expect(log.entries.map((e: any) => `${e.request.method} ${e.response.status}`)).toEqual(['GET 200', 'PUT 400']);
    expect(log.entries[0].request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer [redacted]' });
    expect(log.entries[0].response.content.text).toContain('"id":100');
    const n = await inPanel(panel, (h) => h.counts().records);
    expect(log._embedMessages).toHaveLength(n);
    expect(log._embedInspector).toMatchObject({ tenantOrigin: sb.tenantOrigin, meta: { redacted: true } });
    expect(har.text).not.toContain('tok-admin');

    // check gives the panel's verdicts, for the messages and the REST calls
    const { code, out } = await check(join(dir, har.name));
    expect(code).toBe(1); // the PUT's request body is wrong
    const cli = Object.fromEntries(
      out.messages.map((m: any) => [
        m.seq,
        `${m.verdict} ${m.issues
          .map((i: any) => i.rule)
          .sort()
          .join(',')}`,
      ]),
    );
    expect(cli).toEqual(await panelVerdicts());
    expect(out.rest.map((r: any) => `${r.operation} ${r.verdict}`)).toEqual(panelRest);
    expect(out.summary).toMatchObject({ restCalls: 2, restValid: 1, restInvalid: 1 });

    // Import shows the file's messages and its REST calls; back to the live tab, the live ones
    await inPanel(panel, (h) => h.rest.clear());
    const input = await panel.$('.import-input');
    await (input as any).uploadFile(join(dir, har.name));
    await waitInPanel(panel, (h) => h.store.transportInfo?.kind === 'file', {
      timeout: 5_000,
    });
    expect(await inPanel(panel, (h) => h.counts().records)).toBe(n);
    expect(await panel.$eval('.t-rest', (b) => b.textContent)).toMatch(/^REST 2 · 1 invalid/);
    await panel.click('.t-live');
    await waitInPanel(panel, (h) => h.store.transportInfo?.kind === 'runtime', {
      timeout: 5_000,
    });
    expect(await panel.$eval('.t-rest', (b) => b.textContent)).toMatch(/^REST 0/);
    await panel.click('.x-json');
  });

  it('redaction can be turned off, with a clear warning', async () => {
    // (a retry after a failure further down finds redaction already off)
    if (!(await panel.$('.x-warning'))) {
      await panel.click('.x-redact');
    }
    await panel.waitForSelector('.x-warning');
    expect(await panel.$eval('.x-warning', (e) => e.textContent)).toMatch(/Redaction is off/);
    const raw = await download();
    const session = await page.evaluate(() => (window as any).__sandboxHost.session);
    expect(raw.text).toContain(`session=${session}`);
    expect(JSON.parse(raw.text).meta.redacted).toBeUndefined();
    await panel.click('.x-redact');
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
