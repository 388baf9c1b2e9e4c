/**
 * `embed-inspector diff` as QA runs it in CI ("it passed yesterday"): two sandbox sessions recorded with the built
 * command line, one healthy and one whose host posts its actions to "*", compared; two healthy recordings compared;
 * JSON with the same content; an unusable file.
 */
import { describe, expect, it, test } from '../helpers/fixtures.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../helpers/panel.ts';
import { cliIn } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'ei-diff-'));
let sb: Sandbox;

/** The built command line, run as a child (the sandbox serves from this process). */
const cli = cliIn(dir);

/** Record the sandbox host page (with `query`) until the dashboard has loaded, and 300 ms more. */
const record = async (out: string, query = '') => {
  const r = await cli('record', `${sb.hostUrl}${query}`, '--script', 'loaded.mjs', '--duration', '300', '--out', out);
  if (r.code === 2) {
    throw new Error(`record ${out} failed: ${r.err}`);
  }
  return r;
};

test.beforeAll(async ({ sandbox }) => {
  sb = sandbox;
  writeFileSync(
    join(dir, 'loaded.mjs'),
    "export default async ({ embed }) => {\n  await embed.waitFor('svc:event:dashboard-loaded', { timeout: 15000 });\n};\n",
  );
  expect((await record('a.json')).code).toBe(0);
  expect((await record('a2.json')).code).toBe(0);
  expect((await record('b.json', '?faults=action-star')).code).toBe(1);
}, 120_000);

describe('embed-inspector diff: two recordings of the sandbox', () => {
  it('exits 1 and names the new rule when B’s host posts its actions to "*"', async () => {
    const r = await cli('diff', 'a.json', 'b.json');
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toContain('✗ B has 1 new error: origin.action-wildcard (0 → 1)');
    expect(r.out).toMatch(/^ {2}\+ origin\.action-wildcard +none → 1 error$/m);
    expect(r.out).toMatch(/^ {6}B #\d+ svc:action:set-color-scheme: action posted with target origin "\*"/m);
    expect(r.out).toContain('  - A: healthy\n  + B: the host sends actions to "*", not the tenant origin');
    expect(r.out).toMatch(/^ {2}\+ svc:action:set-color-scheme +0 → 1$/m);
    expect(r.out).toMatch(/^ {2}ready +\d+ ms → \d+ ms/m);
    expect(r.out).toMatch(/^ {2}dashboard-loaded +\d+ ms → \d+ ms/m);
  });

  it('exits 0 for two healthy recordings and says there is no new issue', async () => {
    const r = await cli('diff', 'a.json', 'a2.json');
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('✓ no new issues in B');
    expect(r.out).toContain('Integration: the same: healthy');
    expect(r.out).toContain('Order of events: the same (3 events: ready, view, dashboard-loaded)');
    expect(r.out).toMatch(/^Message types: the same/m);
    expect(r.out).toContain("Timing (ms from the embed frame's navigation)");
    expect(r.out).toMatch(/^ {2}loadDurationMs +\d+ ms → \d+ ms/m);
  });

  it('prints the same content as JSON with --format json', async () => {
    const text = await cli('diff', 'a.json', 'b.json');
    const r = await cli('diff', 'a.json', 'b.json', '--format', 'json');
    expect(r.code, r.out + r.err).toBe(1);
    const d = JSON.parse(r.out);
    expect(d.exitCode).toBe(1);
    expect(text.out).toContain(d.headline);
    expect(d.a).toMatchObject({ file: 'a.json', errors: 0, integration: { state: 'healthy' } });
    expect(d.b).toMatchObject({ file: 'b.json', errors: 1, integration: { state: 'actions-wrong-origin' } });
    expect(d.newIssues).toEqual([{ rule: 'origin.action-wildcard', severity: 'error', a: 0, b: 1 }]);
    for (const rule of d.rules.filter((x: { status: string }) => x.status !== 'same')) {
      expect(text.out).toContain(`${rule.status === 'gone' || rule.status === 'fewer' ? '-' : '+'} ${rule.rule}`);
    }
    for (const t of d.types.filter((x: { status: string }) => x.status !== 'same')) {
      expect(text.out).toMatch(new RegExp(`^ {2}[+~-] ${t.type} +${t.a} → ${t.b}$`, 'm'));
    }
    for (const [name, f] of Object.entries(d.timing).filter(([k]) => k !== 'from') as Array<
      [string, { a: number | null; b: number | null }]
    >) {
      if (f.a !== null && f.b !== null) {
        expect(text.out).toMatch(
          new RegExp(`${name === 'dashboardLoaded' ? 'dashboard-loaded' : name} +${f.a} ms → ${f.b} ms`),
        );
      }
    }
    expect(d.order.same).toBe(true);
  });

  it('exits 2 with one line on stderr for a missing file, and prints nothing', async () => {
    const r = await cli('diff', 'a.json', 'missing.json');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe('embed-inspector: missing.json: no such file\n');
  });
});
