// `view`'s server: no other page may frame its pages or make them load another origin's list; every response says
// so (CSP with frame-ancestors 'none', X-Frame-Options, nosniff). (The panel reads lists from its own origin only:
// panel/ui/same-origin.test.ts.)
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveViewer, type Viewer } from './view.ts';

const dir = mkdtempSync(join(tmpdir(), 'ei-view-unit-'));
mkdirSync(join(dir, 'src/panel'), { recursive: true });
writeFileSync(join(dir, 'src/panel/index.html'), '<!doctype html><title>panel</title>');
let viewer: Viewer;
afterAll(() => viewer?.close());

describe('view serves its own pages only', () => {
  it.each(['/', '/src/panel/index.html', '/captures.json', '/captures/0', '/captures/9', '/../etc/passwd'])(
    '%s carries the headers that keep other pages out',
    async (path) => {
      viewer ??= await serveViewer(dir, [{ name: 'a.json', text: '{}' }]);
      const res = await fetch(new URL(path, viewer.url), { redirect: 'manual' });
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('content-security-policy')).toMatch(/connect-src 'self'/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );
});

describe('view stops', () => {
  it('on Ctrl+C while a browser holds a connection it sent nothing on (as Chromium preconnects)', async () => {
    const v = await serveViewer(dir, [{ name: 'a.json', text: '{}' }]);
    const socket = connect(Number(new URL(v.url).port), '127.0.0.1');
    await new Promise<void>((ok) => socket.once('connect', () => ok()));
    // (the server has taken the connection: it answers a request on another one)
    expect((await fetch(new URL('/captures.json', v.url))).status).toBe(200);
    const closed = v.close().then(() => 'closed');
    const late = new Promise((ok) => setTimeout(() => ok('still waiting after 2 s'), 2_000).unref());
    try {
      expect(await Promise.race([closed, late])).toBe('closed');
    } finally {
      socket.destroy();
    }
  });
});
