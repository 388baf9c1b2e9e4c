/**
 * `embed-inspector record` as QA runs it in CI (the built command line, the system Chromium, the sandbox): a page
 * with no embed and an embed that never became ready fail; expectations and the failing severity decide the exit
 * code; the file is redacted; JUnit names do not depend on the recording; receive-only mode records deliveries
 * only; a flow script drives the page, and one that throws exits 2 with the capture so far written.
 *
 * The browser is the command's own: `record` launches Chromium itself (the product under test), so no browser
 * fixture applies; the sandbox and the plain page are the fixtures'. A test's recordings that do not depend on each
 * other run side by side.
 */
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../helpers/panel.ts';
import { cliIn } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'ei-record-'));
let sb: Sandbox;
let plainUrl: string;
let floodUrl: string;
/** An embed that says ready, then posts 300 events to its host as it loads. */
const FLOOD_HOST = '<!doctype html><iframe src="{{EMBED}}/embed/dashboard/flood"></iframe>';
const FLOOD_EMBED = `<!doctype html><script>
  const env = (type, payload) => ({ source: 'svc-embed', direction: 'event', type, surface: 'dashboard', payload, timestamp: Date.now() });
  parent.postMessage(env('svc:event:ready', { surface: 'dashboard', version: '1.0.0' }), '{{HOST}}');
  for (let i = 0; i < 300; i++) parent.postMessage(env('svc:event:view', { surface: 'dashboard', path: '/p/' + i }), '{{HOST}}');
</script>`;

/** The built command line, run as a child (the sandbox serves from this process). */
const cli = cliIn(dir);
const script = (name: string, body: string) => {
  writeFileSync(join(dir, name), `export default async ({ page, embed }) => {\n${body}\n};\n`);
  return name;
};
const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));

test.beforeAll(async ({ sandbox, launchForFile }) => {
  sb = sandbox;
  const plain = await launchForFile.pages({
    '/': '<!doctype html><title>No embed here</title><p>A page without any embed.</p>',
  });
  plainUrl = `${plain.hostOrigin}/`;
  const flood = await launchForFile.pages({ '/': FLOOD_HOST }, { '/embed/dashboard/flood': FLOOD_EMBED });
  floodUrl = `${flood.hostOrigin}/`;
  script('loaded.mjs', "  await embed.waitFor('svc:event:dashboard-loaded', { timeout: 15000 });");
});

describe('embed-inspector record: no silent pass', () => {
  it('fails a page with no embed at all, and passes it with --allow-empty', async () => {
    const [r, allowed] = await Promise.all([
      cli('record', plainUrl, '--duration', '500', '--out', 'empty.json'),
      cli('record', plainUrl, '--duration', '500', '--out', 'empty2.json', '--allow-empty'),
    ]);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toContain(`no embed traffic seen on ${plainUrl}`);
    expect(r.out).toContain(`integration: no embed traffic seen on ${plainUrl}`);
    const junit = await cli('check', 'empty.json', '--format', 'junit');
    expect(junit.code).toBe(1);
    expect(junit.out).not.toMatch(/tests="0"/);
    expect(allowed.code, allowed.out + allowed.err).toBe(0);
  });

  it('fails an embed that never became ready (an expired session), with the embed’s own error', async () => {
    const r = await cli('record', `${sb.hostUrl}?session=demo-expired`, '--duration', '2500', '--out', 'expired.json');
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toMatch(/svc:event:ready/);
    expect(r.out).toMatch(/expired|SessionExpired/i);
  });

  it('exits by the expectations and the failing severity', async () => {
    const flow = script(
      'timezone.mjs',
      `  await embed.waitFor('svc:event:ready', { timeout: 15000 });
  await embed.send({ type: 'svc:action:set-timezone', payload: { timezone: 'Mars/Olympus_Mons' } });
  await embed.waitFor('svc:action:set-timezone');`,
    );
    const base = ['record', sb.hostUrl, '--script', flow, '--duration', '0'];
    const [ok, strict, missing, bad] = await Promise.all([
      cli(...base, '--out', 'tz.json', '--expect', 'svc:event:ready,svc:action:set-timezone'),
      cli(...base, '--out', 'tz2.json', '--fail-on', 'warning'),
      cli(...base, '--out', 'tz3.json', '--expect', 'svc:event:download'),
      cli(...base, '--out', 'tz4.json', '--expect', 'svc:event:nope'),
    ]);
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.out).toMatch(/1 warning/);
    expect(strict.code, strict.out + strict.err).toBe(1);
    expect(strict.out).toContain('action.timezone-unknown');
    expect(missing.code, missing.out + missing.err).toBe(1);
    expect(missing.out).toMatch(/svc:event:download/);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
  });
});

describe('embed-inspector record: the file', () => {
  it('is redacted like the panel’s export unless --no-redact', async () => {
    const record = (...more: string[]) =>
      cli('record', sb.hostUrl, '--script', 'loaded.mjs', '--duration', '0', ...more);
    const [r, raw] = await Promise.all([record('--out', 'session.json'), record('--out', 'raw.json', '--no-redact')]);
    expect(r.code, r.out + r.err).toBe(0);
    const text = readFileSync(join(dir, 'session.json'), 'utf8');
    expect(text).toContain('session=[redacted]');
    expect(text).not.toContain('demo-signed');
    expect(read('session.json').meta.redacted).toBe(true);
    expect(raw.code, raw.out + raw.err).toBe(0);
    expect(readFileSync(join(dir, 'raw.json'), 'utf8')).toContain('session=demo-signed');
  });

  it('gives JUnit test names that are the same across two recordings of one session', async () => {
    const names = async (file: string) => {
      const r = await cli(
        'record',
        `${sb.hostUrl}?faults=action-star`,
        '--script',
        'loaded.mjs',
        '--duration',
        '300',
        '--out',
        file,
      );
      expect(r.code, r.out + r.err).toBe(1);
      const junit = await cli('check', file, '--format', 'junit');
      return [...junit.out.matchAll(/<testcase [^>]*name="([^"]*)"/g)].map((m) => m[1]);
    };
    const [a, b] = await Promise.all([names('star1.json'), names('star2.json')]);
    expect(a.length).toBeGreaterThan(3);
    expect(a.some((n) => n.startsWith('origin.action-wildcard · svc:action:set-color-scheme (post)'))).toBe(true);
    expect(b).toEqual(a);
  });

  it('records deliveries only with --mode receive-only', async () => {
    const r = await cli(
      'record',
      sb.hostUrl,
      '--script',
      'loaded.mjs',
      '--duration',
      '0',
      '--mode',
      'receive-only',
      '--out',
      'ro.json',
    );
    expect(r.code, r.out + r.err).toBe(0);
    const messages = read('ro.json').messages.filter((m: { navigation?: boolean }) => !m.navigation);
    expect(messages.length).toBeGreaterThan(2);
    expect(messages.every((m: { kind: string }) => m.kind === 'receive')).toBe(true);
  });

  it('keeps at most --max-records records, and says how many it let go', async () => {
    const [r, whole] = await Promise.all([
      cli('record', floodUrl, '--duration', '1500', '--max-records', '100', '--out', 'bound.json'),
      cli('record', floodUrl, '--duration', '1500', '--out', 'whole.json'),
    ]);
    const file = read('bound.json');
    expect(file.messages.length, r.out + r.err).toBeLessThanOrEqual(100);
    // 301 posts and their deliveries came; what is not in the file was let go by the bound, and counted
    expect(file.messages.length + file.meta.dropped).toBeGreaterThanOrEqual(602);
    expect(r.out).toContain(`${file.meta.dropped} discarded by the buffer bound`);
    expect(read('whole.json').meta.dropped ?? 0, whole.out).toBe(0);
    const bad = await cli('record', floodUrl, '--max-records', '10', '--out', 'never.json');
    expect(bad.code).toBe(2);
    expect(bad.out + bad.err).toContain('--max-records must be a whole number of records, at least 100');
  });

  it('exits 2 when the flow script throws, and still writes the capture so far', async () => {
    const flow = script(
      'throws.mjs',
      `  await embed.waitFor('svc:event:ready', { timeout: 15000 });
  throw new Error('the login button is gone');`,
    );
    const r = await cli('record', sb.hostUrl, '--script', flow, '--out', 'thrown.json');
    expect(r.code, r.out + r.err).toBe(2);
    expect(r.err).toContain('the login button is gone');
    const types = read('thrown.json').messages.map((m: { data: { type?: string } }) => m.data?.type);
    expect(types).toContain('svc:event:ready');
  });
});
