// `view`'s server: no other page may frame its pages or make them load another origin's list; every response says
// so (CSP with frame-ancestors 'none', X-Frame-Options, nosniff). (The panel reads lists from its own origin only:
// panel/ui/same-origin.test.ts.)
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
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
