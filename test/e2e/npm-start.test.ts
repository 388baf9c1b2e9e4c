/**
 * `npm start` with a display (Xvfb here): Chromium opens on the sandbox with DevTools showing the Embed panel
 * itself, not Elements with Embed in the » overflow. The script says which it got after reading DevTools' selected
 * panel back, so its line is what the user sees.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths.ts';

describe('npm start with a display', () => {
  it('opens DevTools on the Embed panel and stops on SIGTERM', async () => {
    // xvfb-run gives the child a display of its own; the group (-pid) is Xvfb, the script and its Chromium.
    const child = spawn('xvfb-run', ['-a', process.execPath, join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await expect.poll(() => out, { timeout: 60_000, interval: 200 }).toMatch(/Chromium is open on .* with DevTools/);
      expect(out).toMatch(
        /Chromium is open on http:\/\/127\.0\.0\.1:\d+\/\?script=full with DevTools on the Embed panel\./,
      );
      expect(out).not.toContain('no display');
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
    await exited; // the whole group is gone: the test's timeout would say otherwise
  }, 90_000);
});
