// The fault catalog and the parts of the "what did not happen" faults that plain HTTP can show: the catalog and the
// README agree, the tenant's 404 for a mistyped embed path (bad-path), the embed page served normally (never-ready).
// What the embed posts, and the embed URL the host page builds (browser JS), are in test/e2e/sandbox-faults.test.ts.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/server.mjs';
import { send } from './http.ts';

const README = readFileSync(new URL('../../sandbox/README.md', import.meta.url), 'utf8');
// A plain-JS browser module of the sandbox (no type declarations): imported by a computed specifier.
const catalog = new URL('../../sandbox/shared/faults.js', import.meta.url).href;
const { FAULTS, parseFaults } = (await import(catalog)) as {
  FAULTS: { name: string; side: 'embed' | 'host'; what: string }[];
  parseFaults: (v: string | null) => { known: string[]; unknown: string[] };
};

const NEW_FAULTS = {
  'never-ready': 'embed',
  'session-missing': 'host',
  'bad-path': 'host',
  'allow-export-yes': 'host',
  'timezone-offset': 'host',
  'filter-not-json': 'host',
  'event-wrong-origin': 'embed',
  'ai-query-stuck': 'embed',
  'no-dashboard-loaded': 'embed',
};

/** The rows of the README's "Fault modes" table: name → side. */
function readmeFaults(): Record<string, string> {
  const section = README.split('## Fault modes')[1].split('\n## ')[0];
  const rows: Record<string, string> = {};
  for (const m of section.matchAll(/^\| `([a-z-]+)` \| (embed|host) \|/gm)) {
    rows[m[1]] = m[2];
  }
  return rows;
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

describe('fault catalog', () => {
  it('has the faults of issue 25, each on its side, and the names parse', () => {
    const sides = Object.fromEntries(FAULTS.map((f) => [f.name, f.side]));
    for (const [name, side] of Object.entries(NEW_FAULTS)) {
      expect(sides[name], name).toBe(side);
    }
    expect(parseFaults(Object.keys(NEW_FAULTS).join(','))).toEqual({ known: Object.keys(NEW_FAULTS), unknown: [] });
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
  });

  it('sandbox/shared/faults.js and the README fault table list the same names with the same sides', () => {
    const fromCatalog = Object.fromEntries(FAULTS.map((f) => [f.name, f.side]));
    expect(readmeFaults()).toEqual(fromCatalog);
  });

  it('the host page gets the catalog from the host origin (its fault checkboxes are built from it)', async () => {
    const res = await send(sb.hostOrigin, { method: 'GET', path: '/static/shared/faults.js' });
    expect(res.status).toBe(200);
    for (const name of Object.keys(NEW_FAULTS)) {
      expect(res.text).toContain(`name: '${name}'`);
    }
  });
});

describe('bad-path: the tenant for a mistyped embed path', () => {
  it('answers 404 with a small HTML page that runs no script', async () => {
    const res = await send(sb.tenantOrigin, {
      method: 'GET',
      path: '/embed/dashbaord/dA7kQ2mXp9Lw?session=demo-signed',
    });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('/embed/dashbaord/dA7kQ2mXp9Lw');
    expect(res.text).toMatch(/not found/i);
    // Nothing in it can post a message: no script element, no inline handler, no frame.
    expect(res.text).not.toMatch(/<script|<iframe|\son\w+=/i);
    expect(res.text.length).toBeLessThan(2000);
  });

  it('escapes the path it shows', async () => {
    const res = await send(sb.tenantOrigin, { method: 'GET', path: "/embed/dashbaord/a'b&c" });
    expect(res.status).toBe(404);
    expect(res.text).toContain('a&#39;b&amp;c');
  });

  it('the correct path is served as before, and other unknown tenant paths keep the JSON 404', async () => {
    const ok = await send(sb.tenantOrigin, {
      method: 'GET',
      path: '/embed/dashboard/dA7kQ2mXp9Lw?session=demo-signed',
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('<script type="module" src="/static/embed/main.js">');
    const other = await send(sb.tenantOrigin, { method: 'GET', path: '/nowhere' });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: { status: 404, message: 'Not found: /nowhere' } });
  });
});

describe('never-ready: the embed is served normally', () => {
  it('the page and its scripts load as in a healthy session (the fault acts in the browser only)', async () => {
    const path = '/embed/dashboard/dA7kQ2mXp9Lw?session=demo-signed';
    const healthy = await send(sb.tenantOrigin, { method: 'GET', path });
    const stuck = await send(sb.tenantOrigin, { method: 'GET', path: `${path}&faults=never-ready` });
    expect(stuck.status).toBe(200);
    expect(stuck.text).toBe(healthy.text);
    for (const file of ['/static/embed/main.js', '/static/embed/faults.js', '/static/embed/bus.js']) {
      expect((await send(sb.tenantOrigin, { method: 'GET', path: file })).status, file).toBe(200);
    }
  });
});
